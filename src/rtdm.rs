//! RTDM-TD (Vieira et al. 2006) — being written; placeholder so the crate builds.

use crate::config::Config;
use crate::dom::Tree;
use crate::mapping::Mapping;

pub fn rtdm_mapping(_cfg: &Config, key: &Tree, _other: &Tree) -> Mapping {
    Mapping::empty(key.len())
}
