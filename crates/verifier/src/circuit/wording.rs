//! Wording shared by the messages users read: counts with the noun in the
//! right number.

use alloc::format;
use alloc::string::String;

/// `n` and `noun`, plural unless `n` is 1: `counted(1, "wire")` is
/// `"1 wire"`, `counted(3, "input value")` is `"3 input values"`. Every noun
/// Starling counts forms its plural with an `s`.
pub fn counted(n: impl Into<u64>, noun: &str) -> String {
    let n = n.into();
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_is_singular_and_the_rest_plural() {
        assert_eq!(counted(0u64, "wire"), "0 wires");
        assert_eq!(counted(1u64, "hex digit"), "1 hex digit");
        assert_eq!(counted(64u64, "hex digit"), "64 hex digits");
    }
}
