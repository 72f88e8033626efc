"""``starling.bench`` returns what ``starling bench --json`` prints."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import run

import starling

CASES = [
    ("blake3", {"count": 16}, ["--count", "16"]),
    ("chain", {"hash": "sha256", "steps": 3}, ["--hash", "sha256", "--steps", "3"]),
    (
        "merkle-root",
        {"hash": "sha256", "scheme": "rfc6962", "leaves": 3},
        ["--hash", "sha256", "--scheme", "rfc6962", "--leaves", "3"],
    ),
]


@pytest.mark.parametrize(("kind", "sizes", "flags"), CASES, ids=[c[0] for c in CASES])
def test_same_keys_and_statement_as_the_cli(cli: Path, kind: str, sizes: dict, flags: list[str]) -> None:
    from_python = starling.bench(kind, runs=1, threads=1, **sizes)
    done = run(cli, "bench", kind, *flags, "--runs", "1", "--threads", "1", "--json")
    assert done.returncode == 0, done.stderr
    from_cli = json.loads(done.stdout)
    assert from_python.keys() == from_cli.keys()
    # The same statement from the same seed: everything but the timings
    # and the process's memory.
    for key in ("hash", "kind", "count", "compressions", "instances", "threads", "proof_bytes", "file_bytes"):
        assert from_python[key] == from_cli[key], key
    assert from_python["phases_s"].keys() == from_cli["phases_s"].keys()


def test_wrong_sizes_are_unreadable() -> None:
    with pytest.raises(starling.Unreadable, match="--steps is not a parameter of sha256 benchmarks"):
        starling.bench("sha256", steps=3)
    with pytest.raises(starling.Unreadable, match="need --count"):
        starling.bench("sha256")
    with pytest.raises(starling.Unreadable, match="--count must be between 1 and"):
        starling.bench("sha256", count=0)
