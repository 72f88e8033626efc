"""Zero knowledge from Python: ``zk=True`` on ``prove`` and ``bench``,
``Verified.zk``, and the kinds whose private records are secrets
(``preimage``, ``membership``, ``ring``), always zero-knowledge, proved or
verified here and agreeing with the command line."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from conftest import plain_tree, run, statements

import starling

SECRETS = ["616263", "-", "00" * 40]


def digests(secrets: list[str]) -> str:
    return "".join(hashlib.sha256(bytes.fromhex("" if s == "-" else s)).hexdigest() + "\n" for s in secrets)


def cli_json(cli: Path, *args: str | Path) -> dict:
    done = run(cli, *args, "--json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)  # type: ignore[no-any-return]


def test_zk_proofs_hide_and_verify_as_the_clis(cli: Path, tmp_path: Path) -> None:
    statement = statements()[0]
    plain = starling.prove("sha256", statement.inputs)
    hidden = starling.prove("sha256", statement.inputs, zk=True)
    assert hidden != starling.prove("sha256", statement.inputs, zk=True)
    for proof, zk in [(plain, False), (hidden, True)]:
        verified = starling.verify(proof, kind="sha256", inputs=statement.inputs)
        assert verified.zk is zk
        path = tmp_path / "p.proof"
        path.write_bytes(proof)
        assert cli_json(cli, "verify", path)["zk"] is zk
        assert verified.outputs == starling.verify(plain, kind="sha256", inputs=statement.inputs).outputs
    with pytest.raises(TypeError, match="zk must be a bool"):
        starling.prove("sha256", statement.inputs, zk="yes")  # type: ignore[arg-type]


def test_preimages_are_always_zero_knowledge(cli: Path, tmp_path: Path) -> None:
    proof = starling.prove("preimage", "\n".join(SECRETS), hash="sha256", max_len=40)
    verified = starling.verify(proof, kind="preimage", inputs=digests(SECRETS), hash="sha256", max_len=40)
    assert (verified.kind, verified.count, verified.zk) == ("preimage --hash sha256 --max-len 40", 3, True)
    with pytest.raises(starling.Rejected, match="another kind of statement"):
        starling.verify(proof, kind="preimage", inputs=digests(SECRETS), hash="sha256")
    (tmp_path / "p.proof").write_bytes(proof)
    (tmp_path / "d.txt").write_text(digests(SECRETS))
    obj = cli_json(
        cli, "verify", tmp_path / "p.proof", "--expect", tmp_path / "d.txt",
        "--kind", "preimage", "--hash", "sha256", "--max-len", "40",
    )  # fmt: skip
    assert (obj["public_digest"], obj["zk"]) == (verified.public_digest, True)
    with pytest.raises(starling.Unreadable, match="line 1: the message has 41 bytes, more than the --max-len of 40"):
        starling.prove("preimage", "00" * 41, hash="sha256", max_len=40)
    with pytest.raises(starling.Unreadable, match="max_len must be a whole number of bytes"):
        starling.prove("preimage", "00", hash="sha256", max_len="40")


def test_members_and_ring_signatures_made_by_the_cli_verify_here(cli: Path, tmp_path: Path) -> None:
    leaves = [hashlib.sha256(bytes([i])).digest() for i in range(4)]
    root = plain_tree(leaves)
    (tmp_path / "tree.txt").write_text("".join(leaf.hex() + "\n" for leaf in leaves))
    (tmp_path / "members.txt").write_text(f"{leaves[3].hex()} 3\n")
    done = run(
        cli, "prove", "membership", "--hash", "sha256", "--scheme", "plain", "--root", root,
        "--members", tmp_path / "members.txt", "--tree", tmp_path / "tree.txt", "--out", tmp_path / "m.proof",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    members = starling.verify(
        (tmp_path / "m.proof").read_bytes(), kind="membership", inputs=f"{root} 1 4\n", hash="sha256", scheme="plain"
    )
    assert (members.count, members.zk) == (1, True)

    sk = bytes(range(32))
    pk = hashlib.sha256(b"starling/ring/pk" + sk).digest()
    (tmp_path / "ring.txt").write_text(pk.hex() + "\n")
    (tmp_path / "sk").write_text(sk.hex() + "\n")
    (tmp_path / "msg").write_bytes(b"hello")
    done = run(
        cli, "ring", "sign", "--ring", tmp_path / "ring.txt", "--secret", tmp_path / "sk",
        "--context", "01", "--message", tmp_path / "msg", "--out", tmp_path / "sig",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    k = hashlib.sha256(b"starling/ring/tag" + sk + b"\x01").hexdigest()
    line = f"{pk.hex()} 1 {hashlib.sha256(b'hello').hexdigest()} {k} 01\n"
    signature = starling.verify((tmp_path / "sig").read_bytes(), kind="ring", inputs=line)
    assert (signature.kind, signature.zk) == ("ring --hash sha256", True)


def test_members_with_their_paths_prove_without_the_tree() -> None:
    leaves = [hashlib.sha256(bytes([i])).digest() for i in range(4)]
    root = plain_tree(leaves)
    # Leaf 2's path from the bottom up: leaf 3, then the node over leaves 0 and 1.
    siblings = [leaves[3].hex(), hashlib.sha256(leaves[0] + leaves[1]).hexdigest()]
    line = f"{leaves[2].hex()} 2 {' '.join(siblings)}\n"
    params = {"hash": "sha256", "scheme": "plain", "root": root}
    proof = starling.prove("membership", line, size=4, **params)
    verified = starling.verify(proof, kind="membership", inputs=f"{root} 1 4\n", hash="sha256", scheme="plain")
    assert (verified.count, verified.zk) == (1, True)
    wrong = line.replace(siblings[0], leaves[1].hex())
    with pytest.raises(starling.Rejected, match="^line 1: its path does not lead to the root$"):
        starling.prove("membership", wrong, size=4, **params)
    with pytest.raises(starling.Unreadable, match="has a path of 2 siblings, not 1"):
        starling.prove("membership", line.replace(f" {siblings[1]}", ""), size=4, **params)
    tree = "".join(leaf.hex() + "\n" for leaf in leaves)
    with pytest.raises(starling.Unreadable, match="a `tree`, or a `size` and the members' paths, not both"):
        starling.prove("membership", line, size=4, tree=tree, **params)
    with pytest.raises(starling.Unreadable, match="^the size: a plain Merkle tree needs a power of two of leaves"):
        starling.prove("membership", line, size=6, **params)
    with pytest.raises(starling.Unreadable, match="size must be a whole number of leaves"):
        starling.prove("membership", line, size="4", **params)  # type: ignore[arg-type]


def test_bench_takes_zk_and_the_kinds_with_secrets(cli: Path) -> None:
    for kind, sizes, flags in [
        ("sha256", {"count": 4, "zk": True}, ["--count", "4", "--zk"]),
        ("ring", {"leaves": 3}, ["--leaves", "3"]),
    ]:
        from_python = starling.bench(kind, runs=0, threads=1, **sizes)
        from_cli = cli_json(cli, "bench", kind, *flags, "--runs", "0", "--threads", "1")
        assert from_python.keys() == from_cli.keys()
        # The same statement; zero-knowledge proofs differ, in size too by
        # the opening's paths (their query positions are random).
        for key in ("kind", "count", "compressions", "instances", "zk"):
            assert from_python[key] == from_cli[key], key
        assert from_python["zk"] is True
