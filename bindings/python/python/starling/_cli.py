"""``python -m starling prove KIND ...``: ``starling prove`` with the same
arguments, and ``--shards K [--scheduler tcp://HOST:PORT]`` to prove the
statement in shards on a Dask cluster (``starling.dask``) and write their
bundle. Without ``--shards`` it writes the proof ``starling prove`` writes,
byte for byte.

Errors are one line on stderr, with the command line's exit codes: 1 a
false statement, 2 inputs, files or arguments that cannot be read (or a
scheduler that cannot be reached), 3 a bug; 130 and 143 for SIGINT and
SIGTERM. ``--out`` is written whole or not at all (``_output``).
"""

from __future__ import annotations

import argparse
import contextlib
import signal
import sys
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NoReturn

from . import _forkserver, _kind_params, _starling
from ._output import Failure, Interrupted, Output, Status, read_text
from ._shards import Checked, check
from .errors import Error, Rejected, Unreadable

if TYPE_CHECKING:
    import distributed

HASHES = ("sha256", "sha512", "sha3-256", "keccak-256", "blake3")
BATCHES = ("sha256", "sha512", "blake3", "keccak-f1600")


@dataclass
class Statement:
    """What to prove: the kind, the prover's inputs text, how messages name
    that text, the files ``--out`` must not be, the keyword parameters
    ``starling.prove`` takes, and for ``--random`` the count and seed the
    text is made from (by ``make_text``)."""

    kind: str
    text: str
    source: str | None
    inputs: list[str]
    params: dict[str, Any] = field(default_factory=dict)
    random: tuple[int, int] | None = None

    def make_text(self) -> None:
        """Makes the text of ``--random``, once a cluster is starting, which
        need not wait for it (0.6 s for 2^18 SHA-256 records on a 2-core
        Cascade Lake)."""
        if self.random is not None:
            self.text = _starling.random_inputs(self.kind, *self.random, self.named())

    def check(self, named: dict[str, str]) -> Checked:
        """The statement read whole (``named``: its parameters as the native
        calls take them), its errors naming its lines; a text made here
        holds the records asked for and no error to name."""
        if self.random is not None:
            return Checked(self.text, self.random[0])
        return check(self.kind, self.text, named, self.source)

    def named(self) -> dict[str, str]:
        """The parameters as the native calls take them."""
        rest = {k: v for k, v in self.params.items() if k not in ("hash", "scheme")}
        return _kind_params("prove", self.params.get("hash"), self.params.get("scheme"), rest)


def main(argv: Sequence[str] | None = None) -> int:
    """Runs the command with ``argv`` (default: ``sys.argv[1:]``); returns the exit code."""
    argv = sys.argv[1:] if argv is None else list(argv)
    args = _parser().parse_args(argv)
    status = Status(quiet=args.quiet)
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, Interrupted.raise_for)
    try:
        _prove(args, status)
        return 0
    except Failure as f:
        status.error(f.message)
        return f.code
    except Interrupted as i:
        status.error(f"interrupted by {i.name}; no proof written, {args.out} left as it was")
        return i.code
    except Rejected as e:
        status.error(str(e))
        return 1
    except Unreadable as e:
        status.error(str(e))
        return 2
    except Error as e:
        status.error(str(e))
        return 3
    except OSError as e:  # the cluster's connections: lost, timed out
        status.error(f"{type(e).__name__}: {e}")
        return 2
    except Exception as e:  # one line and exit 3, as the command line's bugs
        status.error(f"internal error: {type(e).__name__}: {e} (this is a bug in Starling; please report it)")
        return 3


def _prove(args: argparse.Namespace, status: Status) -> None:
    if args.scheduler is not None and args.shards is None:
        raise Failure(2, "--scheduler needs --shards K")
    statement = _statement(args)
    with contextlib.ExitStack() as stack:
        # A cluster starts (seconds) while the statement is checked and
        # cut; a file that cannot be read has failed before it.
        connect = None if args.shards is None else _cluster(args, stack)
        statement.make_text()
        named = statement.named()
        if statement.kind == "chain":
            # The start read alone first, so that its errors name it.
            _starling.check_inputs("chain", f"{args.start} 1", named, "--start")
        # Shards are cut from a statement read whole first; one proof reads
        # it once, as it proves, naming its errors alike.
        shards = None if connect is None else (connect, statement.check(named))
        with Output(args.out, statement.inputs) as out:
            began = time.perf_counter()
            if shards is None:
                what = "proof"
                data = _in_thread(
                    lambda: _starling.prove(
                        statement.kind,
                        statement.text,
                        named,
                        args.profile,
                        args.zk,
                        args.threads,
                        status.phase,
                        statement.source,
                    )
                )
            else:
                what = "bundle"
                data = _prove_shards(args, *shards, named, status)
            out.commit(data)
        status.say(f"wrote the {what}, {len(data)} bytes, to {args.out} in {time.perf_counter() - began:.3f} s")


def _cluster(args: argparse.Namespace, stack: contextlib.ExitStack) -> Callable[[], distributed.Client]:
    """The Dask client of ``--scheduler``'s cluster, or of one started on
    this machine from now on, closed with ``stack``."""
    if args.scheduler is None:
        # The embedded cluster's workers are forked from a server whose
        # imports run beside Dask's here.
        _forkserver.start()
    try:
        from . import dask  # the extra, needed only here
    except ImportError as e:
        raise Failure(2, str(e)) from None
    dask.check_request(args.kind, args.shards)
    if args.scheduler is None:
        return dask.cluster(stack, None, args.shards)
    import distributed

    try:
        client = stack.enter_context(distributed.Client(args.scheduler))
    except OSError as e:
        raise Failure(2, f"--scheduler {args.scheduler}: {e}") from None
    return lambda: client


def _prove_shards(
    args: argparse.Namespace,
    connect: Callable[[], distributed.Client],
    statement: Checked,
    named: dict[str, str],
    status: Status,
) -> bytes:
    """The bundle of the statement of ``args.kind`` (read as ``statement``,
    its parameters ``named`` as the native calls take them) on
    ``connect()``'s cluster; the shards' bar on stderr."""
    from . import dask

    return dask.prove_read(
        args.kind,
        statement,
        named,
        args.shards,
        connect,
        args.profile,
        args.zk,
        args.threads,
        status.shards,
    )


def _statement(args: argparse.Namespace) -> Statement:
    """The statement the flags name, its inputs read."""
    kind = args.kind
    if kind in BATCHES or kind == "circuit":
        bristol = getattr(args, "bristol", None)
        params = {} if bristol is None else {"bristol": read_text(bristol)[0]}
        if args.random is None:
            return Statement(kind, *read_text(args.inputs), _files(args.inputs, bristol), params)
        if args.seed is None:
            raise Failure(2, "--random needs --seed S")
        statement = Statement(kind, "", None, _files(bristol), params, (args.random, args.seed))
        _starling.check_random(kind, args.random, statement.named())
        return statement
    if kind == "chain":
        return Statement(kind, f"{args.start} {args.steps}\n", None, [], {"hash": args.hash})
    if kind == "membership":
        if args.members == "-" and args.tree == "-":
            raise Failure(2, "--members and --tree cannot both be stdin; give one as a file")
        tree = None if args.tree is None else read_text(args.tree)[0]
        given = {
            "hash": args.hash,
            "scheme": args.scheme,
            "root": args.root,
            "tree": tree,
            "size": args.size,
            "max_leaf_len": args.max_leaf_len,
        }
        named = {name: value for name, value in given.items() if value is not None}
        return Statement(kind, *read_text(args.members), _files(args.members, args.tree), named)
    flag = {"digest": "messages", "merkle-root": "leaves", "signatures": "batch", "preimage": "secrets"}[kind]
    path = getattr(args, flag)
    params = {
        name: getattr(args, name)
        for name in ("hash", "scheme", "ctx", "interface", "max_len")
        if getattr(args, name, None) is not None
    }
    return Statement(kind, *read_text(path), _files(path), params)


def _files(*paths: str | None) -> list[str]:
    """The paths that name files (stdin's ``-`` left out)."""
    return [p for p in paths if p is not None and p != "-"]


def _in_thread(work: Callable[[], bytes]) -> bytes:
    """``work()`` on a thread of its own, this one waiting: a signal is
    then taken at once, not when a proof of minutes ends."""
    result: list[Any] = []

    def run() -> None:
        try:
            result.append(work())
        except BaseException as e:  # handed to the waiting thread
            result.append(e)

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    while worker.is_alive():
        worker.join(0.1)
    if isinstance(result[0], BaseException):
        raise result[0]
    return result[0]  # type: ignore[no-any-return]


class _Parser(argparse.ArgumentParser):
    """Usage errors as one line and exit 2, as the command line's."""

    def error(self, message: str) -> NoReturn:
        sys.stderr.write(f"error: {message}\n")
        sys.exit(2)


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="python -m starling", description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    prove = commands.add_parser(
        "prove", help="prove a statement and write the proof file (or, with --shards, a bundle)"
    )
    kinds = prove.add_subparsers(dest="kind", required=True, metavar="KIND")
    for name in (*BATCHES, "circuit"):
        batch = kinds.add_parser(name, help=f"N {name} evaluations: a line of inputs each")
        if name == "circuit":
            batch.add_argument("--bristol", required=True, metavar="CIRCUIT", help="the circuit, in Bristol Fashion")
        source = batch.add_mutually_exclusive_group(required=True)
        source.add_argument("--inputs", metavar="FILE", help="inputs file (- for stdin), a line each")
        source.add_argument("--random", type=_count, metavar="N", help="N random inputs instead (with --seed)")
        batch.add_argument("--seed", type=_count_or_zero, metavar="S", help="seed for --random")
        _output_args(batch)
    digest = kinds.add_parser("digest", help="the digests of N messages (a line of hex each)")
    digest.add_argument("--hash", required=True, choices=HASHES)
    digest.add_argument("--messages", required=True, metavar="FILE")
    _output_args(digest)
    chain = kinds.add_parser("chain", help="h(N) of the chain h(0) = START, h(i+1) = H(h(i))")
    chain.add_argument("--hash", required=True, choices=HASHES)
    chain.add_argument("--start", required=True, metavar="HEX")
    chain.add_argument("--steps", required=True, type=_count_or_zero, metavar="N")
    _output_args(chain)
    merkle = kinds.add_parser("merkle-root", help="the root of a Merkle tree over public leaves")
    merkle.add_argument("--hash", required=True, choices=("sha256", "sha512", "keccak-256", "blake3"))
    merkle.add_argument("--scheme", required=True, choices=("plain", "rfc6962", "bitcoin"))
    merkle.add_argument("--leaves", required=True, metavar="FILE")
    _output_args(merkle)
    signatures = kinds.add_parser("signatures", help="N hash-based signatures that verify (lines PK MSG SIG)")
    signatures.add_argument("--scheme", required=True)
    signatures.add_argument("--ctx", metavar="HEX")
    signatures.add_argument("--interface", choices=("pure", "internal"))
    signatures.add_argument("--batch", required=True, metavar="FILE")
    _output_args(signatures)
    preimage = kinds.add_parser("preimage", help="N digests of secret messages (always zero-knowledge)")
    preimage.add_argument("--hash", required=True, choices=HASHES)
    preimage.add_argument("--secrets", required=True, metavar="FILE")
    preimage.add_argument("--max-len", type=_count_or_zero, metavar="N")
    _output_args(preimage)
    membership = kinds.add_parser(
        "membership", help="N secret members of the Merkle tree whose root is public (always zero-knowledge)"
    )
    membership.add_argument("--hash", required=True, choices=HASHES)
    membership.add_argument("--scheme", required=True, choices=("plain", "rfc6962"))
    membership.add_argument("--root", required=True, metavar="HEX", help="the tree's root")
    members = "a LEAF INDEX line per member (LEAF INDEX SIBLING... with --size)"
    membership.add_argument("--members", required=True, metavar="FILE", help=members)
    tree = membership.add_mutually_exclusive_group(required=True)
    tree.add_argument("--tree", metavar="FILE", help="the tree's leaves, one per line")
    tree.add_argument("--size", type=_count, metavar="N", help="the tree's leaves, for members given with their paths")
    membership.add_argument("--max-leaf-len", type=_count_or_zero, metavar="N", help="rfc6962: the longest member leaf")
    _output_args(membership)
    return parser


def _output_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--out", required=True, help="where to write the proof (or the bundle)")
    parser.add_argument("--profile", choices=("default", "secure"), default="default")
    parser.add_argument(
        "--threads", type=_count, metavar="T", help="threads per proof (default: all cores, or a worker's)"
    )
    parser.add_argument("--quiet", action="store_true", help="print nothing unless it fails")
    parser.add_argument("--zk", action="store_true", help="prove with zero knowledge")
    parser.add_argument("--shards", type=_count, metavar="K", help="prove in at most K shards on Dask; write a bundle")
    parser.add_argument(
        "--scheduler", metavar="ADDRESS", help="the Dask scheduler (tcp://HOST:PORT) of the cluster for --shards"
    )


def _count(text: str) -> int:
    """A whole number of at least 1."""
    value = _count_or_zero(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text} is not at least 1")
    return value


def _count_or_zero(text: str) -> int:
    """A whole number, in decimal digits."""
    if not text.isascii() or not text.isdigit():
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number")
    return int(text)
