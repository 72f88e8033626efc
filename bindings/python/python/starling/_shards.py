"""How one statement is cut into shards: ordinary statements of the same
kind and parameters, each proved on its own, which a bundle joins back into
the whole (``starling::bundle``, whose verifier checks that they do).

This module is the only place the cutting is decided; the verifier checks
only that the shards join. A shard is an inputs text, the lines of the
prover's text it holds, so each shard reads as the whole does:

- a batch, digests, signatures, preimages: the records in at most ``K``
  contiguous slices of sizes as even as possible (the first ones a record
  longer), every slice a record at least;
- a membership statement: its members so sliced, each with its path
  (``LEAF INDEX SIBLING...``), the paths found by the check below in its
  one pass over the tree: a shard's parameters are the root and the tree's
  ``size``, not the tree, which no worker reads;
- a chain ``START STEPS``: at most ``K`` consecutive segments of the steps,
  as even, each starting where the one before ends;
- a Merkle root: the leaves in consecutive subtrees of ``c = 2^j`` leaves,
  the last one 1 to ``c``, ``j`` the smallest that needs at most ``K`` of
  them: the tree's nodes at height ``j`` are the shards' roots, in each
  scheme's own tree (a plain tree's ``n`` is a power of two, so its shards
  are too). An RFC 6962 tree of no leaves is one shard.

The statement is read whole first (``check``), so its lines are records
the way Starling reads them: the cutting (``_starling.cut_records``, with
the reader's rule) only finds them again, a line (up to ``\\n``) that is
neither blank nor a ``#`` comment.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import _starling


def refusal(kind: str) -> str | None:
    """Why Python does not prove ``kind``, if it does not: a ring
    signature's signer needs a secret key file only the command line reads
    (and one signature is one record: there is nothing to shard)."""
    if kind == "ring":
        return "ring signatures are made by the command line (starling ring sign), not from Python"
    return None


@dataclass(frozen=True)
class Checked:
    """A statement read whole: the prover's ``text`` and its number of
    ``records`` (a membership statement's members, any other kind's input
    records); for a membership statement also the tree's size and each
    member's ``LEAF INDEX SIBLING...`` line, found in the same pass."""

    text: str
    records: int
    paths: tuple[int, list[str]] | None = None


def check(kind: str, text: str, params: dict[str, str], source: str | None) -> Checked:
    """Reads the statement ``kind`` makes of ``text`` with ``params`` as
    ``prove`` does, with its errors (``source``: the name they start with,
    as the command line's do), before it is cut: so that its errors name
    its own lines, and say what is wrong with it as a whole."""
    if kind == "membership":
        size, lines = _starling.member_paths(kind, text, params, source)
        return Checked(text, len(lines), (size, lines))
    return Checked(text, _starling.check_inputs(kind, text, params, source))


def shard_texts(kind: str, statement: Checked, shards: int, params: dict[str, str]) -> tuple[list[str], dict[str, str]]:
    """The inputs texts of the shards of the statement ``kind`` makes with
    ``params``, read (``check``) as ``statement``, at most ``shards`` of
    them, and the parameters every shard is proved with: segments of a
    chain, subtrees of a Merkle tree, members with their paths, slices of
    the other kinds' independent records."""
    text = statement.text
    if kind == "chain":
        return _chain_segments(text, shards, params["hash"]), params
    if kind == "merkle-root":
        return _starling.cut_records(text, _subtree_sizes(statement.records, shards)), params
    if kind == "membership":
        assert statement.paths is not None, "a membership statement's check finds its paths"
        return _member_slices(*statement.paths, shards, params)
    return _starling.cut_records(text, _even_sizes(statement.records, shards)), params


def _even_sizes(n: int, k: int) -> list[int]:
    """``n`` split into ``min(k, n)`` sizes as even as possible, the larger first."""
    k = min(k, n)
    size, larger = divmod(n, k)
    return [size + 1] * larger + [size] * (k - larger)


def _subtree_sizes(leaves: int, k: int) -> list[int]:
    """A tree's ``leaves`` in subtrees of ``2^j`` leaves, the last of 1 to
    ``2^j``, ``j`` the smallest giving at most ``k`` of them."""
    if leaves == 0:
        return [0]
    size = 1
    while -(-leaves // size) > k:
        size *= 2
    full, last = divmod(leaves, size)
    return [size] * full + ([last] if last else [])


def _member_slices(size: int, lines: list[str], k: int, params: dict[str, str]) -> tuple[list[str], dict[str, str]]:
    """The members' path ``lines`` in a tree of ``size`` leaves in at most
    ``k`` even slices, and the shards' parameters: the tree's size in place
    of its leaves."""
    slices, start = [], 0
    for n in _even_sizes(len(lines), k):
        slices.append("".join(line + "\n" for line in lines[start : start + n]))
        start += n
    shared = {name: value for name, value in params.items() if name != "tree"}
    return slices, {**shared, "size": str(size)}


def _chain_segments(text: str, k: int, hash: str) -> list[str]:
    """The chain ``START STEPS`` as segments of its steps, each ``START_i
    STEPS_i`` with ``START_i`` the end of the segment before it, computed
    here (``_starling.chain_end``): the client must know where each one
    starts to hand it out."""
    start, steps = next(line.split() for line in text.split("\n") if line.strip() and not line.strip().startswith("#"))
    sizes = _even_sizes(int(steps), k)
    segments = []
    for i, size in enumerate(sizes):
        segments.append(f"{start} {size}\n")
        if i + 1 < len(sizes):
            start = _starling.chain_end(hash, start, size)
    return segments
