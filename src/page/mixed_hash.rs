//! A 64-bit hash mixed as splitmix64 mixes, for hash maps keyed by values
//! that are hashes already (text blocks, list signatures, class names):
//! std's SipHash guards against chosen keys no page can choose here, and
//! was a visible share of the time wherever every node of a large page is
//! looked up.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

/// The hasher; also what list signatures are made with, so two different
/// inputs must not collide more often than 64 random bits do.
#[derive(Default)]
pub struct Mix(u64);

/// A map with [`Mix`] for its hasher.
pub type MixMap<K, V> = HashMap<K, V, BuildHasherDefault<Mix>>;
/// A set with [`Mix`] for its hasher.
pub type MixSet<K> = HashSet<K, BuildHasherDefault<Mix>>;

impl Hasher for Mix {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(word) ^ ((chunk.len() as u64) << 59));
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = splitmix(self.0.rotate_left(23) ^ n);
    }

    fn finish(&self) -> u64 {
        splitmix(self.0)
    }
}

fn splitmix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}
