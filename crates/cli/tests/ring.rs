//! `starling ring keygen`, `sign` and `verify` through the binary, against
//! the byte formats of `docs/ring.md` computed here with the `sha2` crate:
//! a key file only its owner reads and never written over; a signature that
//! verifies by the ring's keys and by its root and prints the key image;
//! another message, context or ring rejected; a non-member cannot sign;
//! unreadable inputs named by file and line.

mod common;

use common::{hex, path_str, scratch, starling, text};

use std::path::{Path, PathBuf};
use std::process::Output;

use sha2::Digest as _;

type Key = [u8; 32];

fn sha256(parts: &[&[u8]]) -> Key {
    sha2::Sha256::digest(parts.concat()).into()
}

/// `pk = SHA-256("starling/ring/pk" ‖ sk)`.
fn public_key(sk: &Key) -> Key {
    sha256(&[b"starling/ring/pk", sk])
}

/// `K = SHA-256("starling/ring/tag" ‖ sk ‖ context)`.
fn key_image(sk: &Key, context: &[u8]) -> Key {
    sha256(&[b"starling/ring/tag", sk, context])
}

/// The root of the plain tree over `pks`, padded with zero leaves to a
/// power of two.
fn root(pks: &[Key]) -> Key {
    let mut level: Vec<Key> = pks.to_vec();
    level.resize(pks.len().next_power_of_two(), [0; 32]);
    while level.len() > 1 {
        level = level.chunks(2).map(|p| sha256(&[&p[0], &p[1]])).collect();
    }
    level[0]
}

/// Secret key `i` of a test's ring.
fn secret(i: u8) -> Key {
    core::array::from_fn(|b| i.wrapping_mul(37) ^ b as u8)
}

/// Writes a file of `text` in this test binary's scratch folder.
fn file(name: &str, text: &str) -> PathBuf {
    let path = scratch(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// The secret key file of `sk`, as `ring keygen` writes one.
fn secret_file(name: &str, sk: &Key) -> PathBuf {
    file(name, &format!("{}\n", hex(sk)))
}

/// The ring file of `pks`, one a line.
fn ring_file(name: &str, pks: &[Key]) -> PathBuf {
    file(name, &pks.iter().map(|pk| hex(pk) + "\n").collect::<String>())
}

/// `ring sign --ring RING --secret SK --context CONTEXT --message MESSAGE --out OUT`.
fn sign(ring: &Path, sk: &Path, context: &str, message: &Path, out: &Path) -> Output {
    starling(&[
        "ring",
        "sign",
        "--ring",
        path_str(ring),
        "--secret",
        path_str(sk),
        "--context",
        context,
        "--message",
        path_str(message),
        "--out",
        path_str(out),
        "--quiet",
    ])
}

/// `ring verify SIG (--ring PKS | --root HEX) --context C --message M`:
/// `by` is the flag and its value.
fn verify(sig: &Path, by: [&str; 2], context: &str, message: &Path) -> Output {
    starling(&[
        "ring",
        "verify",
        path_str(sig),
        by[0],
        by[1],
        "--context",
        context,
        "--message",
        path_str(message),
    ])
}

/// Exit `code` with one line on stderr that contains `want`.
fn assert_fails(out: &Output, code: i32, want: &str, case: &str) {
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(code), "{case}: {err}");
    assert!(err.contains(want), "{case}: stderr lacks {want:?}: {err}");
    assert_eq!(err.lines().count(), 1, "{case}: not one line: {err}");
}

#[test]
fn keygen_writes_an_owner_only_key_and_never_writes_over_one() {
    let path = scratch("keygen.sk");
    let _ = std::fs::remove_file(&path);
    let out = starling(&["ring", "keygen", "--out", path_str(&path)]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let written = std::fs::read_to_string(&path).unwrap();
    assert_eq!(written.len(), 65, "{written:?}");
    assert!(written.ends_with('\n') && written[..64].bytes().all(|b| b.is_ascii_hexdigit()));
    let sk: Key = core::array::from_fn(|i| u8::from_str_radix(&written[2 * i..2 * i + 2], 16).unwrap());
    assert_eq!(text(&out.stdout), hex(&public_key(&sk)) + "\n");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600, "mode {mode:o}");
    }
    // Another key is never written over this one.
    let again = starling(&["ring", "keygen", "--hash", "sha256", "--out", path_str(&path)]);
    assert_fails(&again, 2, "never written over", "an existing key file");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), written);
    // Another run, another key.
    let other = scratch("keygen-2.sk");
    let _ = std::fs::remove_file(&other);
    let out = starling(&["ring", "keygen", "--out", path_str(&other)]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_ne!(std::fs::read_to_string(&other).unwrap(), written);
    // SHA-256 only.
    let refused = scratch("keygen-sha512.sk");
    let out = starling(&["ring", "keygen", "--hash", "sha512", "--out", path_str(&refused)]);
    assert_fails(
        &out,
        2,
        "ring signatures are built with sha256 only",
        "--hash sha512",
    );
    assert!(!refused.exists());
}

#[test]
fn a_member_signs_and_the_signature_verifies_by_the_ring_and_by_its_root() {
    let sks: Vec<Key> = (1..=3).map(secret).collect();
    let pks: Vec<Key> = sks.iter().map(public_key).collect();
    let ring = ring_file("member.ring", &pks);
    let sk = secret_file("member.sk", &sks[1]);
    let message = file("member.msg", "an inclusion list, slot 9\n");
    let sig = scratch("member.sig");
    let out = sign(&ring, &sk, "c0ffee", &message, &sig);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let k = hex(&key_image(&sks[1], &[0xc0, 0xff, 0xee])) + "\n";
    let root_hex = hex(&root(&pks));
    for by in [["--ring", path_str(&ring)], ["--root", &root_hex]] {
        let out = verify(&sig, by, "c0ffee", &message);
        assert_eq!(out.status.code(), Some(0), "{by:?}: {}", text(&out.stderr));
        assert_eq!(text(&out.stdout), k, "{by:?}");
        let note = text(&out.stderr);
        assert!(
            note.contains(&format!("ring {root_hex} (4 leaves), zk=yes")),
            "{note}"
        );
    }
    // The signature is a zero-knowledge proof of the ring kind.
    let out = starling(&["verify", path_str(&sig), "--json"]);
    let obj: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (obj["kind"].as_str(), obj["zk"].as_bool()),
        (Some("ring --hash sha256"), Some(true))
    );

    // Another message, context or ring is rejected.
    let other_message = file("member-other.msg", "an inclusion list, slot 10\n");
    let out = verify(&sig, ["--ring", path_str(&ring)], "c0ffee", &other_message);
    assert_fails(
        &out,
        1,
        "signature rejected: it was made for another message",
        "message",
    );
    let out = verify(&sig, ["--ring", path_str(&ring)], "c0ffef", &message);
    assert_fails(&out, 1, "it was made for another context", "context");
    let out = verify(&sig, ["--root", &root_hex], "-", &message);
    assert_fails(&out, 1, "it was made for another context", "no context");
    let fewer = ring_file("member-fewer.ring", &pks[..2]);
    let out = verify(&sig, ["--ring", path_str(&fewer)], "c0ffee", &message);
    assert_fails(&out, 1, "it was made for another ring", "a ring of two");
    let mut wrong_root = root(&pks);
    wrong_root[0] ^= 1;
    let out = verify(&sig, ["--root", &hex(&wrong_root)], "c0ffee", &message);
    assert_fails(&out, 1, "it was made for another ring", "another root");

    // One key in one context links; in another it does not.
    let again = scratch("member-again.sig");
    let out = sign(&ring, &sk, "c0ffee", &other_message, &again);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let out = verify(&again, ["--ring", path_str(&ring)], "c0ffee", &other_message);
    assert_eq!(text(&out.stdout), k);
    let elsewhere = scratch("member-elsewhere.sig");
    let out = sign(&ring, &sk, "-", &message, &elsewhere);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let out = verify(&elsewhere, ["--ring", path_str(&ring)], "-", &message);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), hex(&key_image(&sks[1], b"")) + "\n");
}

#[test]
fn a_non_member_cannot_sign() {
    let pks: Vec<Key> = [1, 2].map(|i| public_key(&secret(i))).to_vec();
    let ring = ring_file("stranger.ring", &pks);
    let sk = secret_file("stranger.sk", &secret(9));
    let message = file("stranger.msg", "m");
    let sig = scratch("stranger.sig");
    let _ = std::fs::remove_file(&sig);
    let out = sign(&ring, &sk, "00", &message, &sig);
    let pk = hex(&public_key(&secret(9)));
    assert_fails(
        &out,
        1,
        &format!(
            "stranger.sk: the secret key's public key {pk} is not in the ring {}",
            path_str(&ring)
        ),
        "a stranger",
    );
    assert!(!sig.exists());
}

#[test]
fn unreadable_inputs_name_their_file_and_line() {
    let pk = hex(&public_key(&secret(1)));
    let ring = file("bad.ring", &format!("# the ring\n{pk}\n{}zz\n", &pk[..62]));
    let sk = secret_file("bad.sk", &secret(1));
    let message = file("bad.msg", "m");
    let sig = scratch("bad.sig");
    let out = sign(&ring, &sk, "00", &message, &sig);
    assert_fails(&out, 2, "bad.ring: line 3: public key: 'z'", "a bad public key");
    let empty = file("empty.ring", "# nobody\n");
    let out = sign(&empty, &sk, "00", &message, &sig);
    assert_fails(
        &out,
        2,
        "empty.ring: the ring has no public keys",
        "an empty ring",
    );
    let ring = file("good.ring", &format!("{pk}\n"));
    let short = file("short.sk", &format!("{}\n", &hex(&secret(1))[..63]));
    let out = sign(&ring, &short, "00", &message, &sig);
    assert_fails(
        &out,
        2,
        "short.sk: line 1: secret key has 63 hex digits, expected 64",
        "a short key",
    );
    let two = file("two.sk", &format!("{0}\n{0}\n", hex(&secret(1))));
    let out = sign(&ring, &two, "00", &message, &sig);
    assert_fails(
        &out,
        2,
        "two.sk: line 2: a secret key file holds one key",
        "two keys",
    );
    let out = sign(&ring, &sk, &"ab".repeat(65), &message, &sig);
    assert_fails(
        &out,
        2,
        "--context: the context has 65 bytes, more than the 64",
        "a long context",
    );
    let out = sign(&ring, &sk, "xyz", &message, &sig);
    assert_fails(&out, 2, "--context", "a context that is not hex");
    let out = sign(&ring, &sk, "00", &scratch("missing.msg"), &sig);
    assert_fails(&out, 2, "cannot read", "no message file");

    // Verifying: a root that is not 32 bytes, a proof of another kind.
    let out = sign(&ring, &sk, "00", &message, &sig);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let out = verify(&sig, ["--root", "abc"], "00", &message);
    assert_fails(&out, 2, "--root has 3 hex digits, expected 64", "a short root");
    let batch = scratch("bad-sha256.proof");
    let out = starling(&[
        "prove",
        "sha256",
        "--random",
        "2",
        "--seed",
        "1",
        "--out",
        path_str(&batch),
        "--quiet",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let out = verify(&batch, ["--ring", path_str(&ring)], "00", &message);
    assert_fails(&out, 1, "another kind of statement", "a sha256 proof");
    let out = starling(&[
        "ring",
        "verify",
        path_str(&sig),
        "--context",
        "00",
        "--message",
        path_str(&message),
    ]);
    assert_eq!(out.status.code(), Some(2), "neither --ring nor --root");
}
