//! One page against another, node by node (thesis ch. 3): the equality
//! probability (`equality`) with a menu's moving state markers set aside
//! (`state_marker`), the equal top-down mapping (`mapping`) and the lone
//! kin it pairs where a theme renamed a wrapper (`lone_kin`), the entries
//! of a list written in another order (`moved_items`), RTDM-TD
//! (`rtdm`), and sibling lists mapped once and taken again
//! (`repeated_lists`).
//!
//! May use: `base`, `page`.

pub mod equality;
pub mod lone_kin;
pub mod mapping;
pub mod moved_items;
pub mod repeated_lists;
pub mod rtdm;
pub mod state_marker;
