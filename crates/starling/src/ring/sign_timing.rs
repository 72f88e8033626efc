//! The time of a whole ring signature on one thread, by phase, for the
//! issue's bar (`ring sign` over 2^20 members within 150 ms): the ring's
//! file read and its keys parsed ([`crate::inputs::read_ring_keys`]), the
//! tree's root and the signer's path with the records
//! ([`super::statement`]), the zero-knowledge proof, the proof written.
//! Three signatures per size, 2^20 members then 2^10: the first is what
//! `ring sign` pays, in a fresh process (it also builds the circuit and
//! the tables, and takes its memory from the system).
//!
//! `cargo test --release -p starling --lib ring_sign_timing -- --ignored
//! --nocapture`

use std::time::Instant;

use crate::inputs::read_ring_keys;
use crate::kind::Ring;
use crate::protocol::{prove_with, Tamper};
use crate::{Kind, Profile, Randomness};

use super::{keygen_from, statement};

/// Sizes of the rings signed in, as powers of two.
const LOG_SIZES: [u32; 2] = [20, 10];
const RUNS: usize = 3;

/// Milliseconds since `start`, and a new start.
fn lap(start: &mut Instant) -> f64 {
    let ms = start.elapsed().as_secs_f64() * 1e3;
    *start = Instant::now();
    ms
}

/// A ring file of `members` public keys, the signer's at `index`, and the
/// signer's secret key.
fn ring_file(members: usize, index: usize) -> (String, [u8; 32]) {
    let (sk, pk) = keygen_from([7; 32]);
    let mut text = String::with_capacity(65 * members);
    for m in 0..members {
        let key = if m == index {
            pk
        } else {
            core::array::from_fn(|b| (m * 29 + b * 13) as u8 ^ (m >> 8) as u8 ^ (m >> 16) as u8)
        };
        text += &hex::encode(key);
        text.push('\n');
    }
    (text, sk)
}

#[test]
#[ignore = "a benchmark: run alone, in release mode"]
fn ring_sign_timing() {
    let dir = std::env::temp_dir().join(format!("starling-ring-sign-timing-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let one_thread = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    let kind: std::sync::Arc<dyn Kind> = std::sync::Arc::new(Ring::new());
    for log in LOG_SIZES {
        let members = 1usize << log;
        let (text, sk) = ring_file(members, members / 3);
        let ring_path = dir.join(format!("ring-{log}.txt"));
        std::fs::write(&ring_path, text).unwrap();
        for run in 1..=RUNS {
            one_thread.install(|| {
                let mut start = Instant::now();
                let pks = read_ring_keys(std::fs::File::open(&ring_path).unwrap()).unwrap();
                let read = lap(&mut start);
                let (public, private) = statement(&pks, &sk, b"slot 42", b"the message").unwrap();
                let tree = lap(&mut start);
                let proved = prove_with(
                    kind.clone(),
                    public,
                    private,
                    Profile::Default,
                    Some(Randomness::Os),
                    &mut |_| {},
                    &Tamper::default(),
                )
                .unwrap();
                let prove = lap(&mut start);
                let bytes = proved.file.to_bytes();
                std::fs::write(dir.join("signature"), &bytes).unwrap();
                let write = lap(&mut start);
                println!(
                    "2^{log} members, run {run}: keys read {read:.1} ms, tree and path {tree:.1}, \
                     prove {prove:.1}, written {write:.1}; total {:.1} ms; {} bytes",
                    read + tree + prove + write,
                    bytes.len()
                );
            });
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
