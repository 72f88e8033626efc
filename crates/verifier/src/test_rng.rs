//! A small deterministic generator for this crate's tests (xorshift64):
//! the crate has no randomness of its own, and its tests need no more.

/// The xorshift64 stream from `state` (which must not be zero).
pub(crate) fn xorshift(mut state: u64) -> impl FnMut() -> u64 {
    move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    }
}
