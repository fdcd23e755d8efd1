//! Large memory pages for the tables that are read at random: the symbolic store's node array
//! and caches, and the search's transposition table.

/// A table of `len` values made by `make`, on large pages where the system offers them.
pub(crate) fn table<T>(len: usize, make: impl Fn() -> T) -> Vec<T> {
    let mut v = Vec::with_capacity(len);
    large_pages(v.as_mut_ptr(), len);
    v.extend((0..len).map(|_| make()));
    v
}

/// A table of `len` values whose bytes are all zero, on large pages where the system offers
/// them, left for the system to zero on first touch: memory a search never reaches costs
/// nothing.
///
/// # Safety
///
/// All-zero bytes must be a valid `T` (integers, atomic integers, and structs of them).
pub(crate) unsafe fn zeroed<T>(len: usize) -> Vec<T> {
    // SAFETY: passed on from the caller.
    unsafe { try_zeroed(len) }.unwrap_or_else(|layout| std::alloc::handle_alloc_error(layout))
}

/// [`zeroed`], or the layout the system refused (more than it will ever back).
///
/// # Safety
///
/// All-zero bytes must be a valid `T`.
pub(crate) unsafe fn try_zeroed<T>(len: usize) -> Result<Vec<T>, std::alloc::Layout> {
    let layout = std::alloc::Layout::array::<T>(len).expect("table size");
    assert!(layout.size() > 0, "an empty table");
    // SAFETY: the layout has a non-zero size.
    let ptr = unsafe { std::alloc::alloc_zeroed(layout) }.cast::<T>();
    if ptr.is_null() {
        return Err(layout);
    }
    large_pages(ptr, len);
    // SAFETY: the allocation comes from the global allocator with the layout of `len` values,
    // and the caller vouches that its zero bytes are valid values.
    Ok(unsafe { Vec::from_raw_parts(ptr, len, len) })
}

/// The tables are read at random all over gigabytes: with 4 KiB pages nearly every read
/// misses the TLB as well as the cache. Linux backs a range with 2 MiB pages when asked
/// before it is first touched, so this is called on every allocation before it is filled.
///
/// The advice covers whole pages, from the one holding the first byte to the one holding the
/// last: a large allocation is a mapping of its own, and advising only part of it would split
/// it in two or three, which `mremap` cannot move as one, so the node array could no longer
/// grow in place and every growth would copy it (twice its memory for a moment). Allocations
/// of 32 MiB or more are always mappings of their own (glibc's largest threshold for mapping
/// an allocation apart); smaller ones may share pages with others and are left alone.
pub(crate) fn large_pages<T>(ptr: *mut T, len: usize) {
    #[cfg(target_os = "linux")]
    {
        const PAGE: usize = 4 << 10;
        const WORTH_IT: usize = 32 << 20;
        let start = ptr as usize;
        let end = start + len * std::mem::size_of::<T>();
        if end - start >= WORTH_IT {
            let (lo, hi) = (start / PAGE * PAGE, end.next_multiple_of(PAGE));
            // SAFETY: the advice only changes how the kernel backs the pages, never their
            // contents, so it is harmless even for bytes of the first and last pages that
            // lie outside the caller's allocation.
            unsafe { libc::madvise(lo as *mut libc::c_void, hi - lo, libc::MADV_HUGEPAGE) };
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (ptr, len);
}
