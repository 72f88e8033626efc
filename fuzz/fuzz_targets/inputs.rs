//! Fuzz target: see `starling_fuzz::inputs`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| starling_fuzz::inputs(data));
