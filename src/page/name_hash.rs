//! The hash every name of a snapshot is compared by: tags directly, class
//! and attribute names through `generated_names::token_hash`.

/// Hash used for names (FNV-1a, 64 bit): tiny, and the same on every
/// target, so native and wasm snapshots are identical. Class and attribute
/// names go through `generated_names::token_hash`, which builds on it.
pub fn name_hash(s: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in s.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}
