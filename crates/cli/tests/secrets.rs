//! `starling prove preimage` and `prove membership` through the binary:
//! statements whose private records are secrets, always proved with zero
//! knowledge; `verify --expect` against digests and roots computed here
//! with the `sha2` and `sha3` crates, its mismatches, and unreadable or
//! false inputs named by file and line.

mod common;

use common::{hex, path_str, scratch, starling, text, verify_expect};

use std::path::{Path, PathBuf};
use std::process::Output;

use sha2::Digest as _;

fn sha256(parts: &[&[u8]]) -> Vec<u8> {
    sha2::Sha256::digest(parts.concat()).to_vec()
}

/// Writes a file of `text` in this test binary's scratch folder.
fn file(name: &str, text: &str) -> PathBuf {
    let path = scratch(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// Exit `code` with one line on stderr that contains `want`.
fn assert_fails(out: &Output, code: i32, want: &str, case: &str) {
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(code), "{case}: {err}");
    assert!(err.contains(want), "{case}: stderr lacks {want:?}: {err}");
    assert_eq!(err.lines().count(), 1, "{case}: not one line: {err}");
}

/// `prove preimage --hash HASH --secrets SECRETS --out OUT EXTRA...`.
fn prove_preimage(hash: &str, secrets: &Path, out: &Path, extra: &[&str]) -> Output {
    let mut args = vec![
        "prove",
        "preimage",
        "--hash",
        hash,
        "--secrets",
        path_str(secrets),
        "--out",
        path_str(out),
    ];
    args.extend_from_slice(extra);
    starling(&args)
}

#[test]
fn preimages_prove_with_zero_knowledge_and_verify_against_their_digests() {
    let long: Vec<u8> = (0..40u8).map(|i| i.wrapping_mul(73) ^ 0x5a).collect();
    let messages: [&[u8]; 3] = [b"abc", b"", &long];
    let secrets = file(
        "preimage.secrets",
        &format!("# three secrets\n616263\n-\n{}\n", hex(&long)),
    );
    let proof = scratch("preimage.proof");
    let out = prove_preimage("sha256", &secrets, &proof, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("(preimage --hash sha256 --max-len 64), zero-knowledge"));
    // The file carries the digests, never a secret.
    let bytes = std::fs::read(&proof).unwrap();
    assert!(!bytes.windows(long.len()).any(|w| w == long.as_slice()));
    let digests: Vec<String> = messages.iter().map(|m| hex(&sha256(&[m]))).collect();
    let expect = file("preimage.expect", &format!("# digests\n{}\n", digests.join("\n")));
    let out = verify_expect(&proof, &expect, "preimage", &["--hash", "sha256"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let ok = text(&out.stdout);
    assert!(
        ok.starts_with("OK preimage --hash sha256 --max-len 64 N=3 "),
        "{ok}"
    );
    assert!(ok.contains(" zk=yes "), "{ok}");
    let out = verify_expect(&proof, &expect, "preimage", &["--hash", "sha256", "--json"]);
    let obj: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (obj["zk"].as_bool(), obj["count"].as_u64()),
        (Some(true), Some(3))
    );

    // Another digest (line 3 of the file), another bound, another hash.
    let mut other = digests.clone();
    other[1] = hex(&sha256(&[b"x"]));
    let wrong = file(
        "preimage-wrong.expect",
        &format!("# digests\n{}\n", other.join("\n")),
    );
    let out = verify_expect(&proof, &wrong, "preimage", &["--hash", "sha256"]);
    assert_fails(
        &out,
        1,
        "input 1 (0-based, in line order) differs first in its digest",
        "a digest",
    );
    assert!(text(&out.stderr).contains("preimage-wrong.expect: line 3)"));
    let out = verify_expect(
        &proof,
        &expect,
        "preimage",
        &["--hash", "sha256", "--max-len", "63"],
    );
    assert_fails(&out, 1, "another kind of statement", "--max-len 63");
    let out = verify_expect(&proof, &expect, "preimage", &["--hash", "blake3"]);
    assert_fails(&out, 1, "another kind of statement", "blake3");

    // Keccak-256 under a bound of 10 bytes, a message of exactly 10.
    let secrets = file("preimage-keccak.secrets", "00112233445566778899\n");
    let proof = scratch("preimage-keccak.proof");
    let out = prove_preimage("keccak-256", &secrets, &proof, &["--max-len", "10", "--quiet"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let digest: [u8; 32] =
        sha3::Keccak256::digest([0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99]).into();
    let expect = file("preimage-keccak.expect", &(hex(&digest) + "\n"));
    let params = ["--hash", "keccak-256", "--max-len", "10"];
    assert_eq!(
        verify_expect(&proof, &expect, "preimage", &params).status.code(),
        Some(0)
    );
}

#[test]
fn unreadable_secrets_name_their_line() {
    let proof = scratch("bad-preimage.proof");
    for (text_in, extra, code, want) in [
        ("00\nzz\n", &[][..], 2, "bad.secrets: line 2: message: 'z'"),
        (
            &format!("00\n{}\n", "ab".repeat(65)),
            &[][..],
            2,
            "bad.secrets: line 2: the message has 65 bytes, more than the --max-len of 64",
        ),
        ("00 11\n", &[][..], 2, "bad.secrets: line 1:"),
        ("# none\n", &[][..], 2, "no inputs"),
        ("00\n", &["--max-len", "4"][..], 0, ""),
    ] {
        let secrets = file("bad.secrets", text_in);
        let out = prove_preimage("sha256", &secrets, &proof, extra);
        if code == 0 {
            assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        } else {
            assert_fails(&out, code, want, text_in);
        }
    }
    let secrets = file("bad.secrets", "00\n");
    let out = prove_preimage("blake3", &secrets, &proof, &["--max-len", "2000"]);
    assert_fails(
        &out,
        2,
        "--max-len 2000 is more than the 1024 bytes",
        "a blake3 bound",
    );
}

/// The leaves of a tree: 32 bytes each, from `salt`.
fn leaves(count: usize, salt: u8) -> Vec<Vec<u8>> {
    (0..count)
        .map(|i| (0..32).map(|b| (i as u8).wrapping_mul(29) ^ b ^ salt).collect())
        .collect()
}

/// A plain SHA-256 tree's root.
fn plain_root(leaves: &[Vec<u8>]) -> Vec<u8> {
    match leaves {
        [leaf] => leaf.clone(),
        _ => {
            let (left, right) = leaves.split_at(leaves.len() / 2);
            sha256(&[&plain_root(left), &plain_root(right)])
        }
    }
}

/// RFC 6962 §2.1's tree head of `leaves`.
fn rfc6962_root(leaves: &[Vec<u8>]) -> Vec<u8> {
    match leaves {
        [leaf] => sha256(&[&[0], leaf]),
        _ => {
            // The largest power of two below the size.
            let k = 1 << (usize::BITS - 1 - (leaves.len() - 1).leading_zeros());
            sha256(&[&[1], &rfc6962_root(&leaves[..k]), &rfc6962_root(&leaves[k..])])
        }
    }
}

/// The lines of `leaves`, `-` for an empty one.
fn lines(leaves: &[Vec<u8>]) -> String {
    leaves
        .iter()
        .map(|l| if l.is_empty() { "-".into() } else { hex(l) } + "\n")
        .collect()
}

/// `prove membership --hash sha256 --scheme SCHEME --root ROOT --members
/// MEMBERS --tree TREE --out OUT EXTRA...`.
fn prove_members(
    scheme: &str,
    root: &str,
    members: &Path,
    tree: &Path,
    out: &Path,
    extra: &[&str],
) -> Output {
    let mut args = vec![
        "prove",
        "membership",
        "--hash",
        "sha256",
        "--scheme",
        scheme,
        "--root",
        root,
        "--members",
        path_str(members),
        "--tree",
        path_str(tree),
        "--out",
        path_str(out),
        "--quiet",
    ];
    args.extend_from_slice(extra);
    starling(&args)
}

#[test]
fn members_prove_with_zero_knowledge_and_verify_against_the_root() {
    let tree_leaves = leaves(8, 1);
    let tree = file("members.tree", &lines(&tree_leaves));
    let root = hex(&plain_root(&tree_leaves));
    let members = file(
        "members.txt",
        &format!(
            "# leaf index\n{} 2\n{} 5\n",
            hex(&tree_leaves[2]),
            hex(&tree_leaves[5])
        ),
    );
    let proof = scratch("members.proof");
    let out = prove_members("plain", &root, &members, &tree, &proof, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let params = ["--hash", "sha256", "--scheme", "plain"];
    let expect = file("members.expect", &format!("{root} 2 8\n"));
    let out = verify_expect(&proof, &expect, "membership", &params);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let ok = text(&out.stdout);
    assert!(
        ok.starts_with("OK membership --hash sha256 --scheme plain N=2 "),
        "{ok}"
    );
    assert!(ok.contains(" zk=yes "), "{ok}");
    let other = file("members-three.expect", &format!("{root} 3 8\n"));
    let out = verify_expect(&proof, &other, "membership", &params);
    assert_fails(&out, 1, "differs first in its members", "N = 3");
    let other_root = hex(&plain_root(&leaves(8, 2)));
    let other = file("members-root.expect", &format!("{other_root} 2 8\n"));
    let out = verify_expect(&proof, &other, "membership", &params);
    assert_fails(&out, 1, "differs first in its root", "another root");

    // False members and a root that is not the tree's.
    let out_path = scratch("members-false.proof");
    for (members_text, code, want) in [
        (
            format!("{} 3\n", hex(&tree_leaves[2])),
            1,
            "false.txt: line 1: the leaf is not the tree's leaf 3",
        ),
        (
            format!("# x\n{} 8\n", hex(&tree_leaves[2])),
            1,
            "false.txt: line 2: index 8 is past the tree's 8 leaves",
        ),
        ("zz 1\n".to_string(), 2, "false.txt: line 1: leaf: 'z'"),
        (
            format!("{} one\n", hex(&tree_leaves[2])),
            2,
            "false.txt: line 1: index `one` is not a decimal",
        ),
    ] {
        let members = file("false.txt", &members_text);
        let out = prove_members("plain", &root, &members, &tree, &out_path, &[]);
        assert_fails(&out, code, want, &members_text);
    }
    let out = prove_members("plain", &other_root, &members, &tree, &out_path, &[]);
    assert_fails(
        &out,
        1,
        &format!("members.tree: the tree's root is {root}, not the root {other_root}"),
        "--root",
    );
    let seven = file("seven.tree", &lines(&tree_leaves[..7]));
    let out = prove_members("plain", &root, &members, &seven, &out_path, &[]);
    assert_fails(
        &out,
        2,
        "seven.tree: a plain Merkle tree needs a power of two of leaves",
        "7 leaves",
    );
    let out = prove_members("plain", "abcd", &members, &tree, &out_path, &[]);
    assert_fails(&out, 2, "--root has 4 hex digits, expected 64", "a short root");
    let out = prove_members("bitcoin", &root, &members, &tree, &out_path, &[]);
    assert_eq!(out.status.code(), Some(2), "bitcoin is not a membership scheme");
}

#[test]
fn members_with_their_paths_prove_without_the_tree() {
    let tree_leaves = leaves(8, 3);
    let root = hex(&plain_root(&tree_leaves));
    // Leaf 2's path from the bottom up: leaf 3, the node over leaves 0-1,
    // the node over leaves 4-7.
    let path = [
        hex(&tree_leaves[3]),
        hex(&plain_root(&tree_leaves[..2])),
        hex(&plain_root(&tree_leaves[4..])),
    ];
    let line = format!("{} 2 {}\n", hex(&tree_leaves[2]), path.join(" "));
    let prove = |members: &Path, size: &str, out: &Path| {
        starling(&[
            "prove",
            "membership",
            "--hash",
            "sha256",
            "--scheme",
            "plain",
            "--root",
            &root,
            "--members",
            path_str(members),
            "--size",
            size,
            "--out",
            path_str(out),
            "--quiet",
        ])
    };
    let members = file("paths.txt", &line);
    let proof = scratch("paths.proof");
    let out = prove(&members, "8", &proof);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let expect = file("paths.expect", &format!("{root} 1 8\n"));
    let out = verify_expect(
        &proof,
        &expect,
        "membership",
        &["--hash", "sha256", "--scheme", "plain"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));

    let out_path = scratch("paths-false.proof");
    let wrong = file("wrong-path.txt", &line.replace(&path[0], &hex(&tree_leaves[1])));
    let out = prove(&wrong, "8", &out_path);
    assert_fails(
        &out,
        1,
        "wrong-path.txt: line 1: its path does not lead to the root",
        "a wrong sibling",
    );
    let out = prove(&members, "6", &out_path);
    assert_fails(
        &out,
        2,
        "--size 6: a plain Merkle tree needs a power of two of leaves",
        "size 6",
    );
    let out = prove(&members, "16", &out_path);
    assert_fails(&out, 2, "has a path of 4 siblings, not 3", "size 16");
    let tree = file("paths.tree", &lines(&tree_leaves));
    let out = prove_members("plain", &root, &members, &tree, &out_path, &["--size", "8"]);
    assert_eq!(out.status.code(), Some(2), "--tree and --size together");
}

#[test]
fn rfc6962_members_take_their_leaf_bound() {
    let tree_leaves = vec![
        Vec::new(),
        vec![0],
        vec![0xab, 0xcd, 0xef],
        vec![7; 20],
        vec![9; 3],
    ];
    let tree = file("rfc.tree", &lines(&tree_leaves));
    let root = hex(&rfc6962_root(&tree_leaves));
    let members = file("rfc.members", "abcdef 2\n- 0\n");
    let proof = scratch("rfc.proof");
    let out = prove_members(
        "rfc6962",
        &root,
        &members,
        &tree,
        &proof,
        &["--max-leaf-len", "8"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let expect = file("rfc.expect", &format!("{root} 2 5\n"));
    let params = ["--hash", "sha256", "--scheme", "rfc6962", "--max-leaf-len", "8"];
    let out = verify_expect(&proof, &expect, "membership", &params);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).starts_with("OK membership --hash sha256 --scheme rfc6962 --max-leaf-len 8 N=2 ")
    );
    let out = verify_expect(&proof, &expect, "membership", &params[..4]);
    assert_fails(&out, 1, "another kind of statement", "the default bound");
    // A member longer than the bound.
    let long = file("rfc-long.members", &format!("{} 3\n", hex(&[7; 20])));
    let out = prove_members("rfc6962", &root, &long, &tree, &proof, &["--max-leaf-len", "8"]);
    assert_fails(
        &out,
        2,
        "rfc-long.members: line 1: the leaf has 20 bytes, more than the --max-leaf-len of 8",
        "a long member",
    );
}
