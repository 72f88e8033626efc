//! Fuzz target: see `starling_fuzz::bristol`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| starling_fuzz::bristol(data));
