#![doc = include_str!("../README.md")]

use std::alloc::{GlobalAlloc, Layout, System};

/// Blocks at least this large get a mapping of their own.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
pub const MAP_APART_BYTES: usize = 32 << 20;

/// Makes glibc map every block of [`MAP_APART_BYTES`] or more on its own and
/// keep freed smaller blocks in the process instead of returning them to the
/// kernel; call once, before any large allocation.
///
/// The large blocks are the prover's tables, forms and codeword cosets,
/// which `starling_field::scratch` hands from phase to phase and, in this
/// process, from proof to proof (`starling::keep_buffers_between_proofs`),
/// so each is faulted in once. Kept apart, they cannot be split by small
/// blocks: when every block came from the heap, a small one allocated while
/// a large one was free (a statement, a Merkle tree) landed in its hole, the
/// next proof's buffer no longer fitted there and the heap grew, proof after
/// proof (a Keccak-f `bench` of 2^14 permutations: 449, 453, 461, 467 MiB
/// over four proofs; 450 then 551 MiB on two threads). Smaller blocks stay
/// in the heap with trimming off (`M_TRIM_THRESHOLD` at its maximum), so the
/// memory they free is reused without being faulted in again.
pub fn set_block_policy() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: `mallopt` only changes glibc's allocation policy; it is called
    // at the start of `main`, before the program has other threads.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, MAP_APART_BYTES as libc::c_int);
        libc::mallopt(libc::M_TRIM_THRESHOLD, libc::c_int::MAX);
    }
}

/// Blocks at least this large are advised.
#[cfg(target_os = "linux")]
pub const ADVISED_BYTES: usize = 1 << 20;
/// Base page size: the advised range is the whole pages inside a block.
#[cfg(target_os = "linux")]
const PAGE: usize = 4096;

/// The system allocator plus `MADV_HUGEPAGE` on large blocks.
pub struct HugePageAlloc;

/// Off Linux the advice does not exist and blocks are paged on demand.
#[cfg(not(target_os = "linux"))]
fn advise(_ptr: *mut u8, _size: usize) {}

#[cfg(target_os = "linux")]
fn advise(ptr: *mut u8, size: usize) {
    if ptr.is_null() || size < ADVISED_BYTES {
        return;
    }
    let start = (ptr as usize).next_multiple_of(PAGE);
    let end = (ptr as usize + size) & !(PAGE - 1);
    if end > start {
        // SAFETY: `[start, end)` lies inside the block the system allocator
        // has just returned, which nobody else references yet. The advice
        // only chooses the page size; contents (zero for fresh pages,
        // unchanged otherwise) and the mapping stay as they are. Failure (an
        // old kernel, huge pages off) changes nothing.
        unsafe {
            libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE);
        }
    }
}

// SAFETY: every method forwards to `System` with its own arguments and
// returns `System`'s result; `advise` neither moves nor frees memory.
unsafe impl GlobalAlloc for HugePageAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let ptr = unsafe { System.alloc(layout) };
        advise(ptr, layout.size());
        ptr
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let ptr = unsafe { System.alloc_zeroed(layout) };
        advise(ptr, layout.size());
        ptr
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}
