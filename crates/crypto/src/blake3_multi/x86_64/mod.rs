//! The x86_64 lane types: sixteen lanes with AVX-512F, eight with AVX2.

mod avx2;
mod avx512;

pub(super) use avx2::jobs_avx2;
pub(super) use avx512::jobs_avx512;
