//! How a proof is made: its security profile, and whether it is
//! zero-knowledge (`docs/zk.md`). One value for every prover entry point,
//! so that asking for zero knowledge is the same everywhere; a bare
//! [`Profile`] is a plain proof at that profile.

#[cfg(doc)]
use crate::Kind;
use crate::{Profile, Randomness};

/// The profile and the zero-knowledge choice of a proof.
///
/// ```
/// use starling::{ProveOptions, Profile, Randomness};
///
/// // A zero-knowledge proof at the default profile, its randomness fresh
/// // from the operating system.
/// let zk = ProveOptions::zero_knowledge(Profile::Default);
/// assert_eq!(zk.zk, Some(Randomness::Os));
/// // A profile alone asks for a plain proof.
/// assert_eq!(ProveOptions::from(Profile::Secure).zk, None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProveOptions {
    /// The security profile.
    pub profile: Profile,
    /// `Some`: a zero-knowledge proof, its randomness from there. `None`: a
    /// plain proof, unless the kind [`Kind::requires_zero_knowledge`],
    /// whose proofs are zero-knowledge from [`Randomness::Os`] whatever
    /// the caller asks.
    pub zk: Option<Randomness>,
}

impl ProveOptions {
    /// A zero-knowledge proof at `profile`, its randomness from the
    /// operating system.
    pub fn zero_knowledge(profile: Profile) -> Self {
        ProveOptions {
            profile,
            zk: Some(Randomness::Os),
        }
    }
}

impl From<Profile> for ProveOptions {
    /// A plain proof at `profile` (zero-knowledge for a kind that requires
    /// it).
    fn from(profile: Profile) -> Self {
        ProveOptions { profile, zk: None }
    }
}
