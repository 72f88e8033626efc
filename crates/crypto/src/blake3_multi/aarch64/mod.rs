//! The aarch64 lane type: four lanes with NEON.

mod neon;

pub(super) use neon::jobs_neon;
