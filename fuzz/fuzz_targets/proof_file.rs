//! Fuzz target: see `starling_fuzz::proof_file`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| starling_fuzz::proof_file(data));
