//! Message digests end to end: the NIST SHA-256 and SHA3-256 ShortMsg
//! files, BLAKE3's official vectors (every length up to one chunk), the
//! FIPS 180-4 SHA-512 examples, and random lengths around every block
//! boundary against the sha2, sha3 and blake3 crates (Keccak-256 and
//! SHA-512 included). Each batch is one proof, verified
//! against the expected messages.

mod common;

use rand::{Rng, SeedableRng};
use sha2::Digest as _;
use starling::{kind, prove, verify, Expected, Hash, Profile, Records};

/// Proves the digests of `messages` and returns the verified output lines.
fn digests(hash: Hash, messages: &[Vec<u8>]) -> Vec<String> {
    let k = kind::digest(hash);
    let records: Records = messages.iter().map(Vec::as_slice).collect();
    let expected = Expected::new(k.clone(), records.clone()).unwrap();
    let proved = prove(k, records, Profile::Default, &mut |_| {}).unwrap();
    let verified = verify(&expected, &proved.file.to_bytes()).expect("the digests verify");
    assert_eq!(verified.count(), messages.len() as u64);
    verified.output_lines()
}

/// The (message, digest) pairs of a CAVP ShortMsg file, whole bytes only.
fn short_msg(relative: &str) -> Option<Vec<(Vec<u8>, String)>> {
    let text = common::read_vector(relative)?;
    let mut out = Vec::new();
    let mut len = None;
    let mut msg = None;
    for line in text.lines() {
        if let Some(v) = line.strip_prefix("Len = ") {
            len = Some(v.trim().parse::<usize>().unwrap());
        } else if let Some(v) = line.strip_prefix("Msg = ") {
            msg = Some(hex::decode(v.trim()).unwrap());
        } else if let Some(v) = line.strip_prefix("MD = ") {
            let bits = len.take().unwrap();
            let mut m = msg.take().unwrap();
            assert_eq!(bits % 8, 0, "byte-oriented vectors");
            m.truncate(bits / 8);
            out.push((m, v.trim().to_string()));
        }
    }
    assert!(!out.is_empty());
    Some(out)
}

#[test]
fn nist_sha256_and_sha3_256_short_messages() {
    for (hash, file) in [
        (Hash::Sha256, "sha256/SHA2_SHA256ShortMsg.rsp"),
        (Hash::Sha3_256, "sha3/SHA3_256ShortMsg.rsp"),
    ] {
        let Some(cases) = short_msg(file) else { continue };
        let messages: Vec<Vec<u8>> = cases.iter().map(|(m, _)| m.clone()).collect();
        let want: Vec<String> = cases.iter().map(|(_, d)| d.clone()).collect();
        assert_eq!(digests(hash, &messages), want, "{file}");
    }
}

#[test]
fn blake3_official_vectors_up_to_one_chunk() {
    let Some(text) = common::read_vector("blake3/test_vectors.json") else {
        return;
    };
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    let mut messages = Vec::new();
    let mut want = Vec::new();
    for case in json["cases"].as_array().unwrap() {
        let len = case["input_len"].as_u64().unwrap() as usize;
        if len > 1024 {
            continue;
        }
        messages.push((0..len).map(|i| (i % 251) as u8).collect::<Vec<u8>>());
        want.push(case["hash"].as_str().unwrap()[..64].to_string());
    }
    assert_eq!(messages.len(), 17, "every length up to 1024");
    assert_eq!(digests(Hash::Blake3, &messages), want);
}

/// The FIPS 180-4 SHA-512 examples (NIST's "Example Algorithm" pages):
/// "abc" (one block), the 112-byte message (two blocks) and the empty
/// message. No SHA-512 vector file is in the shared folder; these digests
/// are written here from the standard's examples.
#[test]
fn fips_180_4_sha512_examples() {
    let cases = [
        (
            "abc",
            "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a\
             2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f",
        ),
        (
            "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmno\
             ijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
            "8e959b75dae313da8cf4f72814fc143f8f7779c6eb9f7fa17299aeadb6889018\
             501d289e4900f7e4331b99dec4b5433ac7d329eeb6dd26545e96e55b874be909",
        ),
        (
            "",
            "cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce\
             47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e",
        ),
    ];
    let messages: Vec<Vec<u8>> = cases.iter().map(|(m, _)| m.as_bytes().to_vec()).collect();
    let want: Vec<String> = cases.iter().map(|(_, d)| d.to_string()).collect();
    assert_eq!(digests(Hash::Sha512, &messages), want);
}

/// The reference digest by the crates.
fn reference(hash: Hash, msg: &[u8]) -> String {
    hex::encode(match hash {
        Hash::Sha256 => sha2::Sha256::digest(msg).to_vec(),
        Hash::Sha512 => sha2::Sha512::digest(msg).to_vec(),
        Hash::Sha3_256 => sha3::Sha3_256::digest(msg).to_vec(),
        Hash::Keccak256 => sha3::Keccak256::digest(msg).to_vec(),
        Hash::Blake3 => blake3::hash(msg).as_bytes().to_vec(),
    })
}

#[test]
fn random_lengths_around_every_block_boundary() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(10);
    for hash in Hash::ALL {
        let block = hash.block_len();
        let mut lengths: Vec<usize> = Vec::new();
        for b in 0..=3 {
            for delta in [-10i64, -9, -8, -1, 0, 1] {
                let len = (b * block) as i64 + delta;
                if len >= 0 {
                    lengths.push(len as usize);
                }
            }
        }
        lengths.push(rng.gen_range(0..1024));
        let messages: Vec<Vec<u8>> = lengths
            .iter()
            .map(|&l| (0..l).map(|_| rng.gen()).collect())
            .collect();
        let want: Vec<String> = messages.iter().map(|m| reference(hash, m)).collect();
        assert_eq!(digests(hash, &messages), want, "{}", hash.name());
    }
}

#[test]
fn messages_too_long_for_the_hash_are_refused() {
    let k = kind::digest(Hash::Blake3);
    let e = starling::inputs::parse_inputs(k.as_ref(), &format!("{}\n", "00".repeat(1025))).unwrap_err();
    assert!(e.to_string().contains("at most 1024"), "{e}");
    let k = kind::digest(Hash::Sha256);
    let e = starling::inputs::parse_inputs(k.as_ref(), "abc\n").unwrap_err();
    assert!(e.to_string().contains("odd number"), "{e}");
    let empty = starling::inputs::parse_inputs(k.as_ref(), "-\n").unwrap();
    assert_eq!(empty.get(0), &[] as &[u8]);
}

#[test]
fn the_public_digest_is_blake3_of_the_records_in_file_order() {
    // `verify` prints this digest; a user recomputes it from the records:
    // each list's u64 LE count, then its records (a u32 LE length before
    // each record where the kind's records have no fixed size).
    let messages: Vec<Vec<u8>> = vec![b"abc".to_vec(), Vec::new(), vec![7; 100]];
    let k = kind::digest(Hash::Sha256);
    let records: Records = messages.iter().map(Vec::as_slice).collect();
    let expected = Expected::new(k.clone(), records.clone()).unwrap();
    let proved = prove(k, records, Profile::Default, &mut |_| {}).unwrap();
    let verified = verify(&expected, &proved.file.to_bytes()).expect("the digests verify");

    let mut want = blake3::Hasher::new();
    want.update(&(messages.len() as u64).to_le_bytes());
    for m in &messages {
        want.update(&(m.len() as u32).to_le_bytes());
        want.update(m);
    }
    want.update(&(messages.len() as u64).to_le_bytes());
    for m in &messages {
        want.update(&sha2::Sha256::digest(m));
    }
    assert_eq!(verified.public_digest(), *want.finalize().as_bytes());
}
