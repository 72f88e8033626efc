//! A verifier that accepts a wrong statement is the worst bug we can ship.
//! Every section of a proof file is altered byte by byte (all of the small
//! sections, a dense sample of the opening), every kind of public value is
//! changed by one bit, and truncated or random files must give errors.

use std::sync::OnceLock;

use rand::{Rng, SeedableRng};
use starling::inputs::random_sha256_inputs;
use starling::{prove_sha256, verify, Error, Profile, ProofFile};

const N: usize = 3;

fn honest() -> &'static (ProofFile, Vec<u8>) {
    static PROOF: OnceLock<(ProofFile, Vec<u8>)> = OnceLock::new();
    PROOF.get_or_init(|| {
        let proved = prove_sha256(random_sha256_inputs(N, 2024), Profile::Default, &mut |_| {}).unwrap();
        let bytes = proved.file.to_bytes();
        (proved.file, bytes)
    })
}

/// Decoding then verifying; `Ok` means the bytes were accepted.
fn accepts(bytes: &[u8]) -> Result<(), Error> {
    let file = ProofFile::from_bytes(bytes)?;
    verify(&file).map(|_| ())
}

/// Byte ranges of the file: header, statement, and the four proof sections.
fn sections(bytes: &[u8]) -> Vec<(&'static str, std::ops::Range<usize>)> {
    let header = 20;
    let statement_end = header + N * 128;
    let mut out = vec![("header", 0..header), ("statement", header..statement_end)];
    let mut at = statement_end;
    for name in ["commitment", "grinding", "zerocheck", "lincheck", "opening"] {
        let len = u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap()) as usize;
        out.push((name, at..at + 4 + len));
        at += 4 + len;
    }
    assert_eq!(at, bytes.len(), "sections cover the file");
    out
}

#[test]
fn every_section_rejects_flipped_bytes() {
    let (_, bytes) = honest();
    assert!(accepts(bytes).is_ok());
    for (name, range) in sections(bytes) {
        // Small sections: every byte. The opening: its first 4 KB (length and
        // ring-switching messages) byte by byte, then every 61st byte.
        let positions: Vec<usize> = if name == "opening" {
            let dense = range.start..(range.start + 4096).min(range.end);
            dense
                .chain((range.start + 4096..range.end).step_by(61))
                .chain([range.end - 1])
                .collect()
        } else {
            range.collect()
        };
        for pos in positions {
            let mut bad = bytes.clone();
            bad[pos] ^= 1 << (pos % 8);
            assert!(
                accepts(&bad).is_err(),
                "flipping byte {pos} in the {name} section was accepted"
            );
        }
    }
}

#[test]
fn every_kind_of_public_value_is_bound() {
    let (file, _) = honest();
    for inst in 0..N {
        for bit in [0usize, 31, 100, 255] {
            let mut f = file.clone();
            f.statement.inputs[inst].cv[bit / 32] ^= 1 << (bit % 32);
            assert!(
                matches!(verify(&f), Err(Error::Rejected(_))),
                "cv bit {bit} of instance {inst}"
            );
        }
        for byte in [0usize, 17, 63] {
            let mut f = file.clone();
            f.statement.inputs[inst].block[byte] ^= 0x10;
            assert!(
                matches!(verify(&f), Err(Error::Rejected(_))),
                "block byte {byte} of instance {inst}"
            );
        }
        for bit in [0usize, 64, 200, 255] {
            let mut f = file.clone();
            f.statement.outputs[inst][bit / 32] ^= 1 << (bit % 32);
            assert!(
                matches!(verify(&f), Err(Error::Rejected(_))),
                "output bit {bit} of instance {inst}"
            );
        }
    }
    // A different profile, or dropping an instance, changes the statement.
    let mut f = file.clone();
    f.profile = Profile::Secure;
    assert!(verify(&f).is_err());
    let mut f = file.clone();
    f.statement.inputs.pop();
    f.statement.outputs.pop();
    assert!(verify(&f).is_err());
}

#[test]
fn truncated_and_random_files_are_errors() {
    let (_, bytes) = honest();
    for len in (0..bytes.len()).step_by(97).chain([bytes.len() - 1]) {
        assert!(
            accepts(&bytes[..len]).is_err(),
            "a file cut at {len} bytes was accepted"
        );
    }
    let mut long = bytes.clone();
    long.push(0);
    assert!(matches!(accepts(&long), Err(Error::Malformed(_))));
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
    for _ in 0..200 {
        let len = rng.gen_range(0..4096);
        let mut junk: Vec<u8> = (0..len).map(|_| rng.gen()).collect();
        if rng.gen_bool(0.5) && junk.len() >= 20 {
            // A plausible header over random contents.
            junk[..20].copy_from_slice(&bytes[..20]);
        }
        assert!(accepts(&junk).is_err());
    }
    // Header claiming a huge batch must not allocate or panic.
    let mut huge = bytes[..20].to_vec();
    huge[12..20].copy_from_slice(&u64::MAX.to_le_bytes());
    assert!(matches!(accepts(&huge), Err(Error::Malformed(_))));
}

#[test]
fn secure_proofs_check_their_proof_of_work() {
    let proved = prove_sha256(random_sha256_inputs(1, 5), Profile::Secure, &mut |_| {}).unwrap();
    assert!(verify(&proved.file).is_ok());
    // Other public-point nonces: all rejected (most by the work check itself).
    for k in 1..=8u64 {
        let mut f = proved.file.clone();
        f.proof.public_nonce = f.proof.public_nonce.wrapping_add(k);
        assert!(matches!(verify(&f), Err(Error::Rejected(_))), "nonce + {k}");
    }
    // The zerocheck's nonces, the same way.
    for which in 0..2 {
        let mut f = proved.file.clone();
        f.proof.zerocheck.pow_nonces[which] ^= 1;
        assert!(
            matches!(verify(&f), Err(Error::Rejected(_))),
            "zerocheck nonce {which}"
        );
    }
}
