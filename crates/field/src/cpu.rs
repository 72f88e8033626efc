//! The one CPU capability probe of the workspace, and the tier every kernel
//! family dispatches on.
//!
//! A [`Tier`] is a set of instructions a family of kernels may use. Each
//! kernel family (field products and NTT butterflies in [`crate::backend`],
//! bit-matrix products in [`crate::bit_matrix`], the zerocheck's kernels,
//! Merkle leaf hashing) has one place that maps a tier to its backend, one
//! file per instruction set, and nothing else looks at CPU features.
//!
//! The process runs one tier, chosen on first use: the best this CPU
//! supports, or the one `STARLING_CPU_TIER=portable|avx2|avx512|neon` names.
//! Naming a tier the CPU lacks (or an unknown name) is an error:
//! [`requested`] reports it, and [`tier`] panics with that message (the
//! command line checks [`requested`] first and exits with it).
//! `STARLING_FORCE_PORTABLE=1` is an alias of `STARLING_CPU_TIER=portable`.
//! Every tier computes exactly what the portable definitions compute, so
//! proofs do not depend on the tier.
//!
//! The AVX2 tier also uses two [`Extension`]s where the CPU has them
//! (VPCLMULQDQ on 256 bits from Zen 3 and Ice Lake, GFNI from Zen 4 and
//! Alder Lake), so it runs other kernels on other CPUs.
//! `STARLING_CPU_WITHOUT=gfni,vpclmulqdq` makes the probe report the
//! extensions it names absent (and with them the AVX-512 tier, which needs
//! both), so that a Zen 4 or 5 runs, tests and benchmarks what a Zen 3
//! (`gfni`) or a Zen 2 (`gfni,vpclmulqdq`) runs. It can only take
//! instructions away.

use std::fmt;
use std::sync::OnceLock;

/// The environment variable that forces a tier.
pub const TIER_VAR: &str = "STARLING_CPU_TIER";
/// The older switch: any non-empty value other than `0` means `portable`.
pub const FORCE_PORTABLE_VAR: &str = "STARLING_FORCE_PORTABLE";
/// The environment variable that withholds [`Extension`]s (comma-separated names).
pub const WITHOUT_VAR: &str = "STARLING_CPU_WITHOUT";

/// Instructions beyond a tier's own that its kernels use where the CPU has
/// them (x86-64: the AVX2 tier's; the AVX-512 tier requires both).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Extension {
    /// Galois-field affine and product instructions (GF(2^8) kernels).
    Gfni,
    /// Carry-less products on 256-bit vectors (GF(2^128) kernels).
    Vpclmulqdq,
}

impl Extension {
    /// Every extension, in the order of [`Extension::name`]'s documentation.
    pub const ALL: [Extension; 2] = [Extension::Gfni, Extension::Vpclmulqdq];

    /// The name `STARLING_CPU_WITHOUT` and `bench --json` use.
    pub fn name(self) -> &'static str {
        match self {
            Extension::Gfni => "gfni",
            Extension::Vpclmulqdq => "vpclmulqdq",
        }
    }

    /// The extension called `name`.
    pub fn from_name(name: &str) -> Option<Extension> {
        Extension::ALL.into_iter().find(|e| e.name() == name)
    }

    /// True when this CPU has the extension and the environment does not
    /// withhold it. Decided once: the NTT's dispatch asks on every call.
    pub fn present(self) -> bool {
        static PRESENT: OnceLock<[bool; 2]> = OnceLock::new();
        let present =
            PRESENT.get_or_init(|| Extension::ALL.map(|e| !withheld().contains(&e) && e.detected()));
        present[self as usize]
    }

    fn detected(self) -> bool {
        #[cfg(target_arch = "x86_64")]
        {
            match self {
                Extension::Gfni => is_x86_feature_detected!("gfni"),
                Extension::Vpclmulqdq => is_x86_feature_detected!("vpclmulqdq"),
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        false
    }
}

impl fmt::Display for Extension {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The extensions `STARLING_CPU_WITHOUT` names, or the first name that is
/// none.
fn parse_withheld(value: &str) -> Result<Vec<Extension>, TierError> {
    value
        .split(',')
        .map(str::trim)
        .filter(|name| !name.is_empty())
        .map(|name| Extension::from_name(name).ok_or_else(|| TierError::UnknownExtension(name.to_string())))
        .collect()
}

/// The withheld extensions, read once. A malformed value withholds nothing
/// here; [`requested`] reports it.
fn withheld() -> &'static [Extension] {
    static WITHHELD: OnceLock<Vec<Extension>> = OnceLock::new();
    WITHHELD.get_or_init(|| {
        std::env::var(WITHOUT_VAR)
            .ok()
            .and_then(|v| parse_withheld(&v).ok())
            .unwrap_or_default()
    })
}

/// A set of instructions the kernels of one backend may use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Tier {
    /// Plain Rust, any CPU: the definition of every kernel.
    Portable,
    /// x86-64 with AVX2 and PCLMULQDQ (Haswell, Zen 1 and later).
    Avx2,
    /// x86-64 with AVX-512 F, BW and VBMI, GFNI, VPCLMULQDQ and PCLMULQDQ
    /// (Ice Lake, Zen 4 and later).
    Avx512,
    /// aarch64 with NEON and PMULL (every Apple M-series and Graviton).
    Neon,
}

impl Tier {
    /// Every tier, in the order of [`Tier::name`]'s documentation.
    pub const ALL: [Tier; 4] = [Tier::Portable, Tier::Avx2, Tier::Avx512, Tier::Neon];

    /// The name `STARLING_CPU_TIER` and `bench --json` use.
    pub fn name(self) -> &'static str {
        match self {
            Tier::Portable => "portable",
            Tier::Avx2 => "avx2",
            Tier::Avx512 => "avx512",
            Tier::Neon => "neon",
        }
    }

    /// The tier called `name`.
    pub fn from_name(name: &str) -> Option<Tier> {
        Tier::ALL.into_iter().find(|t| t.name() == name)
    }

    /// True when this CPU runs every instruction the tier's kernels use.
    pub fn runs_here(self) -> bool {
        match self {
            Tier::Portable => true,
            #[cfg(target_arch = "x86_64")]
            Tier::Avx2 => is_x86_feature_detected!("avx2") && is_x86_feature_detected!("pclmulqdq"),
            #[cfg(target_arch = "x86_64")]
            Tier::Avx512 => {
                is_x86_feature_detected!("avx2")
                    && is_x86_feature_detected!("pclmulqdq")
                    && is_x86_feature_detected!("avx512f")
                    && is_x86_feature_detected!("avx512bw")
                    && is_x86_feature_detected!("avx512vbmi")
                    && Extension::Gfni.present()
                    && Extension::Vpclmulqdq.present()
            }
            #[cfg(target_arch = "aarch64")]
            Tier::Neon => {
                std::arch::is_aarch64_feature_detected!("neon")
                    && std::arch::is_aarch64_feature_detected!("aes")
            }
            #[allow(unreachable_patterns)]
            _ => false,
        }
    }

    /// The tiers this CPU runs, portable first, best last.
    pub fn supported() -> Vec<Tier> {
        Tier::ALL.into_iter().filter(|t| t.runs_here()).collect()
    }

    /// The best tier this CPU runs.
    pub fn best() -> Tier {
        *Tier::supported().last().expect("portable always runs")
    }
}

impl fmt::Display for Tier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// x86-64: true when the CPU has 256-bit VPCLMULQDQ (Zen 3, Ice Lake and
/// later) and it is not withheld, which the AVX2 tier's field kernels use
/// when present.
pub fn has_vpclmulqdq_256() -> bool {
    Tier::Avx2.runs_here() && Extension::Vpclmulqdq.present()
}

/// x86-64: true when the CPU has AVX2 and GFNI (Intel Alder Lake and later
/// client chips have both without AVX-512; Zen 4 and later have all three)
/// and GFNI is not withheld, which the AVX2 tier's GF(2^8) kernels use,
/// VEX-encoded, when present.
pub fn has_gfni() -> bool {
    Tier::Avx2.runs_here() && Extension::Gfni.present()
}

/// The extensions the process's kernels use beyond its tier's own: for the
/// AVX2 tier those the CPU has and the environment does not withhold, for
/// every other tier none.
pub fn extensions() -> Vec<Extension> {
    if tier() != Tier::Avx2 {
        return Vec::new();
    }
    Extension::ALL.into_iter().filter(|e| e.present()).collect()
}

/// x86-64: true on CPUs that run every 256-bit AVX instruction as two
/// 128-bit halves: AMD family 17h models 00h-2Fh (Zen 1 and Zen+; Zen 2,
/// models 30h and up, has full-width units). There a kernel built from
/// 256-bit byte shuffles can lose to plain table lookups, which those
/// kernels' dispatch asks this for. Read from CPUID's vendor and
/// family/model signature, not from a feature flag: the instructions are
/// all there, only slower.
pub fn splits_256bit_vectors() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        static SPLITS: OnceLock<bool> = OnceLock::new();
        *SPLITS.get_or_init(|| {
            use core::arch::x86_64::__cpuid;
            let vendor = __cpuid(0);
            let amd = (vendor.ebx, vendor.edx, vendor.ecx) == (0x6874_7541, 0x6974_6e65, 0x444d_4163);
            let signature = __cpuid(1).eax;
            let (base_family, ext_family) = ((signature >> 8) & 0xf, (signature >> 20) & 0xff);
            let family = if base_family == 0xf {
                base_family + ext_family
            } else {
                base_family
            };
            let model = ((signature >> 4) & 0xf) | (((signature >> 16) & 0xf) << 4);
            amd && family == 0x17 && model < 0x30
        })
    }
    #[cfg(not(target_arch = "x86_64"))]
    false
}

/// True when the CPU has the SHA-256 instructions: SHA-NI (with SSE4.1,
/// which every CPU with them has) on x86-64, the SHA2 extension on aarch64.
/// No tier includes them; `bench` asks separately.
pub fn has_sha_extensions() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        is_x86_feature_detected!("sha") && is_x86_feature_detected!("sse4.1")
    }
    #[cfg(target_arch = "aarch64")]
    {
        std::arch::is_aarch64_feature_detected!("sha2")
    }
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    false
}

/// Why the environment's tier cannot be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TierError {
    /// `STARLING_CPU_TIER` names no tier.
    Unknown(String),
    /// The CPU lacks instructions the named tier uses (or they are withheld).
    Unsupported(Tier),
    /// `STARLING_CPU_WITHOUT` names no extension.
    UnknownExtension(String),
}

impl fmt::Display for TierError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let choices = Tier::supported()
            .iter()
            .map(|t| t.name())
            .collect::<Vec<_>>()
            .join(", ");
        match self {
            TierError::Unknown(name) => write!(
                f,
                "{TIER_VAR}={name:?} is not a tier (portable, avx2, avx512, neon); this CPU runs: {choices}"
            ),
            TierError::Unsupported(t) => {
                let withheld = withheld();
                if withheld.is_empty() {
                    write!(
                        f,
                        "{TIER_VAR}={t}: this CPU lacks instructions that tier uses; it runs: {choices}"
                    )
                } else {
                    let names: Vec<&str> = withheld.iter().map(|e| e.name()).collect();
                    write!(
                        f,
                        "{TIER_VAR}={t}: this CPU lacks instructions that tier uses, or {WITHOUT_VAR}={} withholds them; it runs: {choices}",
                        names.join(",")
                    )
                }
            }
            TierError::UnknownExtension(name) => {
                let names: Vec<&str> = Extension::ALL.iter().map(|e| e.name()).collect();
                write!(
                    f,
                    "{WITHOUT_VAR}: {name:?} is not an extension ({})",
                    names.join(", ")
                )
            }
        }
    }
}

impl std::error::Error for TierError {}

/// The tier the environment asks for: `Ok(None)` when it asks for none.
pub fn requested() -> Result<Option<Tier>, TierError> {
    if let Ok(value) = std::env::var(WITHOUT_VAR) {
        parse_withheld(&value)?;
    }
    match std::env::var(TIER_VAR) {
        Ok(name) if !name.is_empty() => {
            let t = Tier::from_name(&name).ok_or(TierError::Unknown(name))?;
            if t.runs_here() {
                Ok(Some(t))
            } else {
                Err(TierError::Unsupported(t))
            }
        }
        _ => match std::env::var(FORCE_PORTABLE_VAR) {
            Ok(v) if !v.is_empty() && v != "0" => Ok(Some(Tier::Portable)),
            _ => Ok(None),
        },
    }
}

/// The tier of this process: the requested one, else the best. Decided on
/// first use.
///
/// # Panics
/// When the environment names a tier that cannot be used ([`requested`]).
pub fn tier() -> Tier {
    static SELECTED: OnceLock<Tier> = OnceLock::new();
    *SELECTED.get_or_init(|| match requested() {
        Ok(t) => t.unwrap_or_else(Tier::best),
        Err(e) => panic!("{e}"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn withheld_extensions_parse_by_name() {
        assert_eq!(parse_withheld(""), Ok(vec![]));
        assert_eq!(parse_withheld(" gfni , "), Ok(vec![Extension::Gfni]));
        assert_eq!(
            parse_withheld("vpclmulqdq,gfni"),
            Ok(vec![Extension::Vpclmulqdq, Extension::Gfni])
        );
        assert_eq!(
            parse_withheld("gfni,avx512"),
            Err(TierError::UnknownExtension("avx512".into()))
        );
        for e in Extension::ALL {
            assert_eq!(Extension::from_name(e.name()), Some(e));
        }
    }
}
