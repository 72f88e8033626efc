//! The batch padded to a power of two.

/// Smallest log2 batch size: 128 instances fill one packed field element.
pub const MIN_LOG_INSTANCES: u32 = 7;

/// `n` with `2^n >= count`, at least [`MIN_LOG_INSTANCES`].
pub fn log_instances(count: usize) -> u32 {
    let n = count.next_power_of_two().trailing_zeros();
    n.max(MIN_LOG_INSTANCES)
}
