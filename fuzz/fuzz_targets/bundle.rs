//! Fuzz target: see `starling_fuzz::bundle`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| starling_fuzz::bundle(data));
