//! glibc's allocator, tuned for a run over many sites: large blocks go back
//! to the system when freed, and the heap pages a finished site freed go
//! back once they are worth the cost of taking them again.
//!
//! Process-wide, so only the CLI's collection run uses it; elsewhere (other
//! systems, other C libraries) both calls do nothing.

/// Freed heap memory kept resident between sites before it is handed back.
/// Handing it back after every site cost a tenth of a run's CPU time (the
/// `madvise` calls, then a fault and a cleared page for every page the next
/// site touched again); keeping up to this much bounds peak memory by the
/// largest sites in flight plus this budget, whatever the number of sites.
pub const KEPT_FREE_BYTES: usize = 64 << 20;

/// Keeps glibc's threshold for serving an allocation by its own `mmap` at
/// 128 KiB. By default glibc raises it to the size of each such block freed
/// (up to 32 MiB), so after a few large pages every later page body, record
/// and buffer is carved from the heap arenas, whose freed holes stay
/// resident: peak memory then grew with the number of sites a run had seen
/// (docs/collection.md). A block served by `mmap` goes back to the system
/// when freed.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
pub fn fix_mmap_threshold() {
    const M_MMAP_THRESHOLD: std::ffi::c_int = -3;
    extern "C" {
        fn mallopt(param: std::ffi::c_int, value: std::ffi::c_int) -> std::ffi::c_int;
    }
    // SAFETY: mallopt only sets an allocator parameter; called before the
    // run's threads start, with a documented parameter and a valid value.
    unsafe {
        mallopt(M_MMAP_THRESHOLD, 128 * 1024);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
pub fn fix_mmap_threshold() {}

/// Hands freed heap pages back to the system when more than `kept` bytes of
/// them are resident. A site's extractions leave holes in the worker's arena
/// that the next site only partly refills, so without this the resident size
/// crept up with every site a run had seen instead of following the sites in
/// flight.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
pub fn release_freed_memory(kept: usize) {
    extern "C" {
        fn malloc_trim(pad: usize) -> std::ffi::c_int;
    }
    if resident_free_bytes().is_some_and(|free| free <= kept) {
        return;
    }
    // SAFETY: malloc_trim only returns free pages of glibc's arenas to the
    // system; it takes the arenas' locks itself.
    unsafe {
        malloc_trim(0);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
pub fn release_freed_memory(_kept: usize) {}

/// Resident bytes the allocator does not hold for live blocks: the process's
/// resident size less what glibc reports in use (the program's own code and
/// stacks count as free, a few MB). Freed pages already handed back are not
/// resident, which is why glibc's own count of free bytes cannot say this.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn resident_free_bytes() -> Option<usize> {
    #[repr(C)]
    struct MallInfo2 {
        arena: usize,
        ordblks: usize,
        smblks: usize,
        hblks: usize,
        hblkhd: usize,
        usmblks: usize,
        fsmblks: usize,
        uordblks: usize,
        fordblks: usize,
        keepcost: usize,
    }
    const SC_PAGESIZE: std::ffi::c_int = 30;
    extern "C" {
        fn mallinfo2() -> MallInfo2;
        fn sysconf(name: std::ffi::c_int) -> std::ffi::c_long;
    }
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let resident_pages: usize = statm.split_whitespace().nth(1)?.parse().ok()?;
    // SAFETY: sysconf reads a constant of the system; mallinfo2 only reads
    // the arenas' counters, under their locks.
    let (page, info) = unsafe { (usize::try_from(sysconf(SC_PAGESIZE)).ok()?, mallinfo2()) };
    Some((resident_pages * page).saturating_sub(info.uordblks + info.hblkhd))
}
