"""Starling: prove that batches of standard hash computations were done
correctly, and check such proofs, from Python.

``prove`` returns the bytes of a proof file, exactly what ``starling prove``
writes for the same statement (with ``zk=True`` a zero-knowledge one, which
differs every time); ``verify`` checks one against the statement
the verifier expects, as ``starling verify --expect`` does; ``bench``
returns what ``starling bench --json`` prints. Kinds and parameters have the
command line's names. Proving and verifying release the GIL and run on a
pool of ``threads`` worker threads of their own (all cores by default).
See the package's README for the inputs of each kind.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from . import _starling
from ._inputs import Inputs, Record, inputs_text
from .errors import Error, Rejected, Unreadable

__all__ = [
    "DEFAULT_MIN_SECURITY_BITS",
    "KIND_NAMES",
    "Error",
    "Inputs",
    "Record",
    "Rejected",
    "Unreadable",
    "Verified",
    "bench",
    "prove",
    "verify",
]

#: Proofs with less provable security than this are rejected by default.
DEFAULT_MIN_SECURITY_BITS: float = _starling.DEFAULT_MIN_SECURITY_BITS

#: Every statement kind's name, as ``kind=`` takes it.
KIND_NAMES: tuple[str, ...] = tuple(_starling.KIND_NAMES)

#: ``progress(phase, done, total)``: called after each prover phase.
Progress = Callable[[str, int, int], object]


@dataclass(frozen=True)
class Verified:
    """What a verified proof proves: the line ``starling verify`` prints
    (``OK KIND N=.. circuit=.. public=.. profile=.. zk=.. security=..``) and
    the outputs ``--print-outputs`` prints."""

    #: The kind with its parameters (``chain --hash sha256``).
    kind: str
    #: N, the number of input records.
    count: int
    #: The circuit digest, hex (what ``starling digest`` prints).
    circuit: str
    #: BLAKE3 of every public value in file order, hex.
    public_digest: str
    #: The proof's security profile (``default``, ``secure``).
    profile: str
    #: Whether the proof is zero-knowledge: it shows nothing of the private
    #: values beyond the statement.
    zk: bool
    #: Provable bits of security of the proof.
    security_bits: float
    #: The public outputs, one record per line in input order.
    outputs: list[str]
    #: How many shard proofs the file holds: 1 for a proof, K for a bundle
    #: of K shards (``starling.dask.prove``; ``starling verify`` prints
    #: ``shards=K`` for a bundle).
    shards: int


def prove(
    kind: str,
    inputs: Inputs,
    *,
    hash: str | None = None,
    scheme: str | None = None,
    profile: str = "default",
    zk: bool = False,
    threads: int | None = None,
    progress: Progress | None = None,
    **params: str | int | bytes | os.PathLike[str],
) -> bytes:
    """Proves the statement of ``kind`` on ``inputs`` and returns the proof
    file's bytes, the same bytes ``starling prove`` writes.

    ``inputs`` is the text ``starling prove`` reads (a chain's is the line
    ``START STEPS``; signatures' lines are ``PK MSG SIG``; preimages' lines
    are the secret messages; a membership statement's are its members,
    ``LEAF INDEX``, as ``--members`` reads them), or an iterable of records,
    one per line (see ``starling._inputs``). ``hash`` and ``scheme`` are the
    kind's, as ``--hash`` and ``--scheme``; ``params`` may hold ``bristol``
    (a circuit's Bristol text, or a path to its file), ``ctx`` (SLH-DSA's
    context, hex or bytes), ``interface`` (``pure``, ``internal``),
    ``max_len`` (a preimage's longest message, ``--max-len``), and for
    ``membership`` ``root`` (the tree's root, hex or bytes), ``tree`` (its
    leaves as ``--tree`` reads them: text, a path to the file, or records)
    and ``max_leaf_len``; or, for members given with their audit paths as
    ``LEAF INDEX SIBLING...`` lines (the siblings from the bottom up, in
    hex), ``size`` (the tree's number of leaves) instead of ``tree``. With
    ``zk`` the proof is zero-knowledge (``--zk``: its randomness from the
    operating system); ``preimage`` and ``membership`` proofs always are.
    ``progress(phase, done, total)`` is called after each prover phase
    (from a worker thread; an exception it raises is raised when the proof
    is done).

    Raises ``Unreadable`` for inputs or parameters that cannot be read,
    ``Rejected`` for a false statement (a signature that does not verify).
    """
    return _starling.prove(
        kind,
        inputs_text(inputs),
        _kind_params("prove", hash, scheme, params),
        profile,
        _flag("zk", zk),
        threads,
        progress,
    )


def verify(
    proof: bytes,
    *,
    kind: str,
    inputs: Inputs,
    hash: str | None = None,
    scheme: str | None = None,
    min_security: float = DEFAULT_MIN_SECURITY_BITS,
    threads: int | None = None,
    **params: str | int | bytes | os.PathLike[str],
) -> Verified:
    """Checks that ``proof`` is valid and proves exactly the statement of
    ``kind`` on ``inputs`` (this circuit, these inputs, this N) with at
    least ``min_security`` bits, as ``starling verify --expect`` does.

    ``inputs`` is what ``--expect`` reads: a batch's inputs, a digest's
    messages, a chain's ``START STEPS``, a tree's leaves, signatures'
    ``PK MSG`` lines, preimages' digests, a membership statement's ``ROOT N
    SIZE``, a ring signature's ``ROOT SIZE MSG_DIGEST K CONTEXT`` (or
    records, as for ``prove``). Parameters are ``prove``'s, and
    ``max_leaf_len`` for ``membership`` of ``rfc6962`` trees.

    Raises ``Rejected`` (naming the first difference or the failed check)
    when it does not, ``Unreadable`` when the file or the inputs cannot be
    read.
    """
    if not math.isfinite(min_security):
        raise Unreadable("min_security must be a finite number of bits")
    kind_name, count, circuit, public_digest, profile, zk, bits, outputs, shards = _starling.verify(
        bytes(proof),
        kind,
        inputs_text(inputs),
        _kind_params("verify", hash, scheme, params),
        float(min_security),
        threads,
    )
    return Verified(kind_name, count, circuit, public_digest, profile, zk, bits, outputs, shards)


def bench(
    kind: str,
    *,
    count: int | None = None,
    hash: str | None = None,
    scheme: str | None = None,
    msg_len: int | None = None,
    steps: int | None = None,
    leaves: int | None = None,
    runs: int = 3,
    profile: str = "default",
    zk: bool = False,
    threads: int | None = None,
    **params: str | int | bytes | os.PathLike[str],
) -> dict[str, Any]:
    """Runs the benchmark ``starling bench`` runs and returns the object
    ``starling bench ... --json`` prints, with the same keys (what each
    means is in the project's ``BENCHMARKS.md``).

    Sizes are the command line's: ``count`` for ``sha256``, ``sha512``,
    ``blake3``, ``keccak-f1600``, ``digest`` (with ``msg_len`` and ``hash``)
    and ``signatures`` (with ``scheme``, ``msg_len`` default 32, ``ctx``,
    ``interface``); ``steps`` for ``chain``; ``leaves`` for ``merkle-root``
    (with ``hash`` and ``scheme``); ``count`` for ``preimage`` (with
    ``hash`` and ``max_len``); ``count`` members of a tree of ``leaves`` for
    ``membership`` (with ``hash`` and ``scheme``); ``leaves`` public keys
    for ``ring``. Inputs are made up from a fixed seed; the inputs are
    proved ``1 + runs`` times, zero-knowledge with ``zk`` (and always for
    ``preimage``, ``membership`` and ``ring``). ``peak_rss_bytes`` and
    ``huge_page_bytes`` are this whole Python process's.
    """
    sizes = {"count": count, "msg_len": msg_len, "steps": steps, "leaves": leaves}
    for name, size in sizes.items():
        if size is not None and (isinstance(size, bool) or not isinstance(size, int) or size < 0):
            raise Unreadable(f"{name} must be a whole number, not {size!r}")
    if isinstance(runs, bool) or not isinstance(runs, int) or runs < 0:
        raise Unreadable(f"runs must be a whole number, not {runs!r}")
    report = _starling.bench(
        kind,
        _kind_params("bench", hash, scheme, params),
        {name: size for name, size in sizes.items() if size is not None},
        runs,
        profile,
        _flag("zk", zk),
        threads,
    )
    return json.loads(report)  # type: ignore[no-any-return]


def _flag(name: str, value: bool) -> bool:
    """A yes-or-no argument, refused when it is not a ``bool``."""
    if not isinstance(value, bool):
        raise TypeError(f"{name} must be a bool, not {type(value).__name__}")
    return value


def _kind_params(
    function: str,
    hash: str | None,
    scheme: str | None,
    params: dict[str, str | int | bytes | os.PathLike[str]],
) -> dict[str, str]:
    """The kind's parameters by the command line's names, those not given
    left out: ``bristol`` as text, ``ctx`` and ``root`` as hex, ``tree`` as
    the leaves' text, ``max_len``, ``max_leaf_len`` and ``size`` in decimal.
    A name the command line does not have is an error, as an unknown flag
    is; ``root``, ``tree`` and ``size`` (a membership prover's) are only
    ``prove``'s."""
    known = {"bristol", "ctx", "interface", "max_len", "max_leaf_len"}
    if function == "prove":
        known |= {"root", "tree", "size"}
    unknown = sorted(set(params) - known)
    if unknown:
        raise TypeError(f"{function}() got an unexpected parameter {unknown[0]!r}")
    given: dict[str, Any] = {"hash": hash, "scheme": scheme, **params}
    for text in ("bristol", "tree"):
        path = given.get(text)
        if isinstance(path, os.PathLike):
            with open(path, encoding="utf-8") as f:
                given[text] = f.read()
    tree = given.get("tree")
    if tree is not None and not isinstance(tree, str):
        given["tree"] = inputs_text(tree)
    for field in ("ctx", "root"):
        value = given.get(field)
        if isinstance(value, (bytes, bytearray, memoryview)):
            given[field] = bytes(value).hex()
    for bound, unit in (("max_len", "bytes"), ("max_leaf_len", "bytes"), ("size", "leaves")):
        value = given.get(bound)
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise Unreadable(f"{bound} must be a whole number of {unit}, not {value!r}")
        given[bound] = str(value)
    for name, value in given.items():
        if value is not None and not isinstance(value, str):
            raise TypeError(f"{name} must be a str, not {type(value).__name__}")
    return {name: value for name, value in given.items() if value is not None}
