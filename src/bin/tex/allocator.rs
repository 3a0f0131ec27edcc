//! `tex`'s allocator: jemalloc, set up for long runs over many sites.
//!
//! With glibc's malloc a collection run spent about a tenth of its CPU time
//! handing freed pages back and faulting them in again, and a run's peak
//! memory crept up with the number of sites unless every site's freed pages
//! were handed back (docs/collection.md, Speed). jemalloc returns pages on
//! its own, a quarter of a second after they were last freed.

#[global_allocator]
static GLOBAL: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

/// jemalloc's options, read once at start-up (the `MALLOC_CONF` string).
/// One arena per CPU rather than four per CPU: a worker's freed pages then
/// serve the next site on that CPU instead of idling in an arena no thread
/// uses. Dirty pages are returned after a quarter of a second rather than
/// ten seconds, and at once past that ("muzzy" pages would still count as
/// resident until the kernel reclaims them). With 1 and 20 copies of the dev
/// set this kept peak memory at 147 and 152 MB, against 162 and 174 MB with
/// one second; a site's pages are mostly reused well within that time, so
/// the CPU time did not change measurably. Allocations over 8 MB (a large
/// page's node vectors) come from the arenas like the rest
/// (`oversize_threshold:0`) instead of being mapped and handed back one by
/// one: over 20 copies of the dev set (two jobs) that took 214 → 182 s of
/// wall time and 68 → 36 s of system time at the same peak memory (230 /
/// 231 MB); with one job over the dev set's folders the time did not
/// change and the peak rose from about 227 to 243–280 MB.
#[export_name = "_rjem_malloc_conf"]
static MALLOC_CONF: Option<&u8> =
    Some(&b"percpu_arena:percpu,dirty_decay_ms:250,muzzy_decay_ms:0,oversize_threshold:0\0"[0]);
