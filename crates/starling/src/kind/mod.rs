//! Statement kinds: their declarations are `starling-verifier`'s
//! ([`Kind`] and the kinds, re-exported here); this module adds what only a
//! prover does with them ([`KindProver`], found by [`prover_of`]) and draws
//! sample inputs from a seed ([`SampleInputs`], [`SampleSignatures`],
//! [`SamplePreimages`], [`SampleMembers`]).
//!
//! A signature batch proved and verified:
//!
//! ```
//! use std::sync::Arc;
//! use starling::kind::{LmsSet, SampleSignatures, SignatureScheme, Signatures};
//! use starling::inputs::{parse_inputs, read_prover_inputs};
//! use starling::{prove_private, verify, Expected, Kind, Profile};
//!
//! let kind = Signatures::new(SignatureScheme::Lms(LmsSet::new(32, 5, 4).unwrap()));
//! // A prover's lines are `PK MSG SIG`; here two sampled ones.
//! let (public, private) = kind.random_batch(2, 16, 7);
//! let lines = kind.prover_lines(&public, &private);
//! let (public, private) = read_prover_inputs(&kind, lines.as_bytes()).unwrap();
//! let kind: Arc<dyn Kind> = Arc::new(kind);
//! let proof = prove_private(kind.clone(), public, private, Profile::Default, &mut |_| {})
//!     .unwrap()
//!     .file
//!     .to_bytes();
//!
//! // A verifier's expected lines are `PK MSG`, in the prover's order.
//! let expected_lines: String = lines
//!     .lines()
//!     .map(|l| l.rsplit_once(' ').unwrap().0.to_owned() + "\n")
//!     .collect();
//! let expected = Expected::new(kind.clone(), parse_inputs(kind.as_ref(), &expected_lines).unwrap()).unwrap();
//! let verified = verify(&expected, &proof).unwrap();
//! assert_eq!(verified.count(), 2);
//! ```

mod prover;
pub(crate) mod sample;

pub use prover::{prover_of, KindProver};
pub use sample::{SampleInputs, SampleMembers, SamplePreimages, SampleSignatures};
pub use starling_verifier::kind::*;
