//! One page against another, node by node (thesis ch. 3): the equality
//! probability (`equality`) with a menu's moving state markers set aside
//! (`state_marker`), the equal top-down mapping (`mapping`), RTDM-TD
//! (`rtdm`), and sibling lists mapped once and taken again
//! (`repeated_lists`).
//!
//! May use: `base`, `page`.

pub mod equality;
pub mod mapping;
pub mod repeated_lists;
pub mod rtdm;
pub mod state_marker;
