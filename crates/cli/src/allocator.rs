//! The process allocator: the system allocator, with every large block
//! faulted in by one `madvise(MADV_POPULATE_WRITE)` call, and freed large
//! blocks kept in the process for the next allocation
//! ([`keep_freed_blocks`]). Both are Linux tuning (glibc for the second);
//! elsewhere the allocator is the system's, unchanged.
//!
//! A proof of 2^14 hashes allocates hundreds of megabytes of buffers that are
//! written in full right away (witness and linear forms, codewords, sumcheck
//! tables). Left to demand paging, each 4 KiB page costs a page-fault
//! exception on first write; on the virtual machines we measured, faulting
//! in a fresh 256 MiB buffer took 0.14–0.17 s by touching it and 0.09 s with
//! one `MADV_POPULATE_WRITE` call, and the faults were a fifth of the
//! prover's time. Kernels before 5.14 reject the advice; the block is then
//! paged on demand as before. Only blocks of at least [`PREFAULT_BYTES`] are
//! advised, and the prover's blocks of that size are written in full, so no
//! memory is committed that would not have been anyway.

use std::alloc::{GlobalAlloc, Layout, System};

/// Makes glibc keep freed memory in the process instead of returning it to
/// the kernel; call once, before any large allocation.
///
/// glibc serves blocks over 32 MiB with a fresh `mmap` and gives them back
/// with `munmap` when freed, so every large buffer of a proof (and of the next
/// proof, in `bench`) is faulted in from scratch. On the virtual machines we
/// measured, a page's first touch costs far more than rewriting it: a 1 GiB
/// buffer took 0.4–1.9 s to fault in and 0.04 s to `memset`, and a
/// Keccak-f proof of 2^14 permutations spent 2.3 s of its 4.2 s in the
/// kernel. With `mmap` off (`M_MMAP_MAX` = 0) every block comes from the heap,
/// and with trimming off (`M_TRIM_THRESHOLD` at its maximum) freed blocks stay
/// there, already faulted in, for the buffers allocated later. The cost is
/// that the process keeps its peak footprint until it exits, which is what a
/// prover that runs proof after proof wants anyway.
pub fn keep_freed_blocks() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: `mallopt` only changes glibc's allocation policy; it is called
    // at the start of `main`, before the program has other threads.
    unsafe {
        libc::mallopt(libc::M_MMAP_MAX, 0);
        libc::mallopt(libc::M_TRIM_THRESHOLD, libc::c_int::MAX);
    }
}

/// Blocks at least this large are faulted in at allocation.
#[cfg(target_os = "linux")]
pub const PREFAULT_BYTES: usize = 1 << 20;
/// Base page size: the advised range is the whole pages inside a block.
#[cfg(target_os = "linux")]
const PAGE: usize = 4096;

/// The system allocator plus `MADV_POPULATE_WRITE` on large blocks.
pub struct PrefaultingAlloc;

/// Off Linux the advice does not exist and blocks are paged on demand.
#[cfg(not(target_os = "linux"))]
fn prefault(_ptr: *mut u8, _size: usize) {}

#[cfg(target_os = "linux")]
fn prefault(ptr: *mut u8, size: usize) {
    if ptr.is_null() || size < PREFAULT_BYTES {
        return;
    }
    let start = (ptr as usize).next_multiple_of(PAGE);
    let end = (ptr as usize + size) & !(PAGE - 1);
    if end > start {
        // SAFETY: `[start, end)` lies inside the block the system allocator
        // has just returned, which nobody else references yet. The advice
        // only makes the kernel allocate the pages now rather than at first
        // write; contents (zero for fresh pages, unchanged otherwise) and the
        // mapping stay as they are. Failure (an old kernel) changes nothing.
        unsafe {
            libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_POPULATE_WRITE);
        }
    }
}

// SAFETY: every method forwards to `System` with its own arguments and
// returns `System`'s result; `prefault` neither moves nor frees memory.
unsafe impl GlobalAlloc for PrefaultingAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let ptr = unsafe { System.alloc(layout) };
        prefault(ptr, layout.size());
        ptr
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let ptr = unsafe { System.alloc_zeroed(layout) };
        prefault(ptr, layout.size());
        ptr
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}
