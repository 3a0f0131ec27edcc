//! `tex`'s allocator: jemalloc, set up for long runs over many sites.
//!
//! With glibc's malloc a collection run spent about a tenth of its CPU time
//! handing freed pages back and faulting them in again, and a run's peak
//! memory crept up with the number of sites unless every site's freed pages
//! were handed back (docs/collection.md, Speed). jemalloc returns pages on
//! its own, a second after they were last freed.

#[global_allocator]
static GLOBAL: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

/// jemalloc's options, read once at start-up (the `MALLOC_CONF` string).
/// One arena per CPU rather than four per CPU: a worker's freed pages then
/// serve the next site on that CPU instead of idling in an arena no thread
/// uses, which kept peak memory at glibc's. Dirty pages are returned after
/// one second rather than ten, and at once past that ("muzzy" pages would
/// still count as resident until the kernel reclaims them).
#[export_name = "_rjem_malloc_conf"]
static MALLOC_CONF: Option<&u8> = Some(&b"percpu_arena:percpu,dirty_decay_ms:1000,muzzy_decay_ms:0\0"[0]);
