"""Python and the command line make and accept the same proofs."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import Statement, cli_params, run, statements

import starling


def cli_prove(cli: Path, statement: Statement, folder: Path) -> bytes:
    """The proof ``starling prove`` makes of the statement."""
    inputs = folder / "inputs.txt"
    inputs.write_text(statement.inputs)
    out = folder / "cli.proof"
    if statement.kind == "chain":
        start, steps = statement.inputs.split()
        args = ["--hash", statement.params["hash"], "--start", start, "--steps", steps]
    else:
        flag = {"digest": "--messages", "merkle-root": "--leaves"}.get(statement.kind, "--inputs")
        args = [*cli_params(statement, folder), flag, inputs]
    done = run(cli, "prove", statement.kind, *args, "--out", out)
    assert done.returncode == 0, done.stderr
    return out.read_bytes()


def cli_verify(cli: Path, statement: Statement, proof: bytes, folder: Path) -> list[str]:
    """The lines ``starling verify --expect --print-outputs`` prints."""
    path = folder / "check.proof"
    path.write_bytes(proof)
    expect = folder / "expect.txt"
    expect.write_text(statement.inputs)
    done = run(
        cli, "verify", path, "--kind", statement.kind, *cli_params(statement, folder),
        "--expect", expect, "--print-outputs",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


@pytest.mark.parametrize("statement", statements(), ids=lambda s: f"{s.kind}-{'-'.join(s.params.values())[:20]}")
def test_same_proof_both_ways(cli: Path, tmp_path: Path, statement: Statement) -> None:
    from_python = starling.prove(statement.kind, statement.inputs, **statement.params)
    from_cli = cli_prove(cli, statement, tmp_path)
    assert from_python == from_cli

    ok_line, *cli_outputs = cli_verify(cli, statement, from_python, tmp_path)
    verified = starling.verify(from_cli, kind=statement.kind, inputs=statement.inputs, **statement.params)
    assert verified.outputs == cli_outputs
    assert ok_line.startswith(f"OK {verified.kind} N={verified.count} ")
    assert f" circuit={verified.circuit} public={verified.public_digest} " in ok_line
    zk = "yes" if verified.zk else "no"
    assert f" profile={verified.profile} zk={zk} security={verified.security_bits:.1f} bits " in ok_line
    # A proof file is one proof: the line names shards only for a bundle.
    assert verified.shards == 1 and " shards=" not in ok_line


def test_records_prove_what_their_text_proves() -> None:
    rng_text = statements()[0].inputs
    records = [tuple(bytes.fromhex(f) for f in line.split()) for line in rng_text.splitlines()]
    assert starling.prove("sha256", records) == starling.prove("sha256", rng_text)
    chain = [(bytes(32), 3)]
    assert starling.prove("chain", chain, hash="sha256") == starling.prove(
        "chain", "00" * 32 + " 3", hash="sha256"
    )
    leaves = [b"", b"\x01"]
    assert starling.prove("merkle-root", leaves, hash="sha256", scheme="rfc6962") == starling.prove(
        "merkle-root", "-\n01\n", hash="sha256", scheme="rfc6962"
    )


def test_circuit_from_a_path(tmp_path: Path) -> None:
    statement = statements()[2]
    path = tmp_path / "and.txt"
    path.write_text(statement.params["bristol"])
    assert starling.prove("circuit", statement.inputs, bristol=path) == starling.prove(
        "circuit", statement.inputs, **statement.params
    )


def test_secure_profile_matches_the_cli(cli: Path, tmp_path: Path) -> None:
    statement = statements()[1]
    proof = starling.prove("blake3", statement.inputs, profile="secure")
    assert starling.verify(proof, kind="blake3", inputs=statement.inputs, min_security=120).profile == "secure"
    (tmp_path / "i.txt").write_text(statement.inputs)
    done = run(cli, "prove", "blake3", "--inputs", tmp_path / "i.txt", "--profile", "secure", "--out", tmp_path / "p")
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "p").read_bytes() == proof
