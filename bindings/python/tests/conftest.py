"""Shared helpers: the command-line binary the package is checked against,
and small statements of several kinds with their inputs texts.

The binary is ``target/release/starling`` of this checkout (``cargo build
--release -p starling-cli``), or ``STARLING_BIN``. Without it the tests that
need it skip, except under ``CI=true``, where they fail.
"""

from __future__ import annotations

import hashlib
import os
import random
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]

# A circuit of one AND gate: inputs a (1 bit) and b (1 bit), output a AND b.
AND_CIRCUIT = "1 3\n2 1 1\n1 1\n\n2 1 0 1 2 AND\n"


def plain_tree(leaves: list[bytes]) -> str:
    """The root, in hex, of the plain SHA-256 tree of ``leaves`` (a power of two)."""
    level = leaves
    while len(level) > 1:
        level = [hashlib.sha256(level[i] + level[i + 1]).digest() for i in range(0, len(level), 2)]
    return level[0].hex()


def hex_bytes(rng: random.Random, n: int) -> str:
    return rng.randbytes(n).hex()


@dataclass
class Statement:
    """A kind with its parameters and its inputs text, which ``prove``
    and ``verify --expect`` both read."""

    kind: str
    inputs: str
    params: dict[str, str] = field(default_factory=dict)


def statements() -> list[Statement]:
    """One small statement of each kind the tests prove (N from 1 to 8)."""
    rng = random.Random(54)
    return [
        Statement("sha256", "".join(f"{hex_bytes(rng, 32)} {hex_bytes(rng, 64)}\n" for _ in range(5))),
        Statement("blake3", "".join(f"{hex_bytes(rng, 32)} {hex_bytes(rng, 64)} 7 64 11\n" for _ in range(3))),
        Statement("circuit", "1 1\n0 1\n1 0\n", {"bristol": AND_CIRCUIT}),
        Statement("digest", f"616263\n-\n{hex_bytes(rng, 100)}\n", {"hash": "sha3-256"}),
        Statement("chain", f"{hex_bytes(rng, 32)} 6\n", {"hash": "blake3"}),
        Statement(
            "merkle-root",
            "".join(f"{hex_bytes(rng, 32)}\n" for _ in range(8)),
            {"hash": "sha256", "scheme": "plain"},
        ),
        Statement("merkle-root", "00\n-\nabcdef\n", {"hash": "sha256", "scheme": "rfc6962"}),
    ]


@pytest.fixture(scope="session")
def cli() -> Path:
    path = Path(os.environ.get("STARLING_BIN", REPO / "target" / "release" / "starling"))
    if not path.is_file():
        message = f"{path} is missing: cargo build --release -p starling-cli"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    return path


def run(cli: Path, *args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(cli), *map(str, args)], capture_output=True, text=True, timeout=120)


def cli_params(statement: Statement, folder: Path) -> list[str]:
    """The statement's flags, a circuit written to a file as the CLI reads it."""
    flags = []
    for name, value in statement.params.items():
        if name == "bristol":
            path = folder / "circuit.txt"
            path.write_text(value)
            value = str(path)
        flags += [f"--{name}", value]
    return flags
