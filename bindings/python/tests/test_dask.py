"""Sharded proving on Dask (``starling.dask``, ``python -m starling prove
--shards``): the bundle of every kind Python proves, cut as the split rules
say, verifies here and with the command line as the unsharded proof of the
same statement does; a worker killed mid-shard and a shard that fails the
client's check are proved again; a cluster started from the command line
proves from the command line.

One cluster of worker processes serves the module, as CI time is short.
"""

from __future__ import annotations

import contextlib
import hashlib
import multiprocessing
import os
import random
import signal
import struct
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from conftest import AND_CIRCUIT, REPO, Statement, cli_params, plain_tree, run

import starling
from starling._shards import check, shard_texts

try:
    import distributed

    import starling.dask
except ImportError:
    if os.environ.get("CI") == "true":
        raise
    pytest.skip('needs the dask extra: pip install "./bindings/python[dask]"', allow_module_level=True)

LMS_BATCH = REPO / "bindings" / "js" / "test" / "fixtures" / "lms-sha256-m32-h5-w4.txt"


@dataclass
class Case:
    """A statement proved in ``shards``: the prover's inputs text, what
    ``verify --expect`` reads, and the shards' sizes the split rules give.
    ``params`` are the kind's, ``proving`` what only the prover takes (a
    membership statement's root and tree)."""

    name: str
    kind: str
    prover: str
    shards: int
    sizes: list[int]
    params: dict[str, str] = field(default_factory=dict)
    expected: str | None = None
    proving: dict[str, str] = field(default_factory=dict)

    @property
    def expect(self) -> str:
        return self.prover if self.expected is None else self.expected


def hex_lines(rng: random.Random, count: int, size: int) -> str:
    return "".join(rng.randbytes(size).hex() + "\n" for _ in range(count))


def cases() -> list[Case]:
    rng = random.Random(56)
    sha256 = "".join(f"{rng.randbytes(32).hex()} {rng.randbytes(64).hex()}\n" for _ in range(64))
    secrets = ["616263", "-", "00" * 40]
    digests = "".join(hashlib.sha256(bytes.fromhex("" if s == "-" else s)).hexdigest() + "\n" for s in secrets)
    signed = [line for line in LMS_BATCH.read_text().splitlines() if line and not line.startswith("#")]
    leaves = [hashlib.sha256(bytes([i])).digest() for i in range(16)]
    members = "".join(f"{leaves[i].hex()} {i}\n" for i in (3, 0, 9, 15, 6))
    tree = {"root": plain_tree(leaves), "tree": "".join(leaf.hex() + "\n" for leaf in leaves)}
    return [
        Case("sha256", "sha256", "# a comment\n" + sha256, 3, [22, 21, 21]),
        Case("circuit", "circuit", "1 1\n0 1\n\n1 0\n", 2, [2, 1], {"bristol": AND_CIRCUIT}),
        Case("chain", "chain", f"{rng.randbytes(32).hex()} 5\n", 3, [2, 2, 1], {"hash": "sha256"}),
        Case("plain", "merkle-root", hex_lines(rng, 8, 32), 3, [4, 4], {"hash": "sha256", "scheme": "plain"}),
        Case(
            "rfc6962",
            "merkle-root",
            "00\n-\nabcdef\n0102\n" + hex_lines(rng, 1, 40),
            3,
            [2, 2, 1],
            {"hash": "sha256", "scheme": "rfc6962"},
        ),
        Case("rfc6962-empty", "merkle-root", "", 3, [0], {"hash": "sha256", "scheme": "rfc6962"}),
        Case("bitcoin", "merkle-root", hex_lines(rng, 5, 32), 2, [4, 1], {"hash": "sha256", "scheme": "bitcoin"}),
        Case("digest", "digest", f"616263\n-\n{rng.randbytes(150).hex()}\n00\n", 3, [2, 1, 1], {"hash": "sha3-256"}),
        Case("preimage", "preimage", "\n".join(secrets), 2, [2, 1], {"hash": "sha256", "max_len": "40"}, digests),
        Case(
            "signatures",
            "signatures",
            "\n".join(signed),
            3,
            [2, 1, 1],
            {"scheme": "lms-sha256-m32-h5-w4"},
            "".join(" ".join(line.split()[:2]) + "\n" for line in signed),
        ),
        Case(
            "membership",
            "membership",
            members,
            3,
            [2, 2, 1],
            {"hash": "sha256", "scheme": "plain"},
            f"{tree['root']} 5 16\n",
            tree,
        ),
    ]


def python_params(params: dict[str, str]) -> dict[str, str | int]:
    """The statement's parameters as the Python functions take them."""
    return {k: int(v) if k == "max_len" else v for k, v in params.items()}


def shard_sizes(bundle: bytes) -> list[int]:
    """Each shard's N, from the bundle's entries (the format in the
    `starling-verifier` crate's `bundle.rs`)."""
    assert bundle[:8] == b"STARBNDL"
    (params_len,) = struct.unpack_from("<I", bundle, 12)
    at = 16 + params_len + 8
    (shards,) = struct.unpack_from("<I", bundle, at)
    return [struct.unpack_from("<QQ", bundle, at + 4 + 48 * i)[1] for i in range(shards)]


@pytest.fixture(scope="module")
def client() -> Iterator[distributed.Client]:
    cluster = distributed.LocalCluster(
        n_workers=3, threads_per_worker=1, processes=True, memory_limit=0, dashboard_address=":0"
    )
    with cluster, distributed.Client(cluster) as client:
        yield client


def cli_verify(cli: Path, folder: Path, case: Case, bundle: bytes) -> list[str]:
    """What ``starling verify BUNDLE --expect --print-outputs`` prints."""
    (folder / "b.bundle").write_bytes(bundle)
    (folder / "expect.txt").write_text(case.expect)
    statement = Statement(case.kind, case.expect, {k.replace("_", "-"): v for k, v in case.params.items()})
    done = run(
        cli, "verify", folder / "b.bundle", "--expect", folder / "expect.txt", "--kind", case.kind,
        *cli_params(statement, folder), "--print-outputs",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


@pytest.mark.parametrize("case", cases(), ids=lambda c: c.name)
def test_bundles_prove_what_one_proof_proves(client: distributed.Client, cli: Path, tmp_path: Path, case: Case) -> None:
    params = python_params(case.params)
    heard: list[tuple[int, int]] = []
    bundle = starling.dask.prove(
        case.kind, case.prover, case.shards, client, progress=lambda *p: heard.append(p), **params, **case.proving
    )
    assert shard_sizes(bundle) == case.sizes
    assert heard == [(done, len(case.sizes)) for done in range(len(case.sizes) + 1)]
    whole = starling.verify(
        starling.prove(case.kind, case.prover, **params, **case.proving), kind=case.kind, inputs=case.expect, **params
    )
    sharded = starling.verify(bundle, kind=case.kind, inputs=case.expect, **params)
    assert (sharded.kind, sharded.count, sharded.circuit) == (whole.kind, whole.count, whole.circuit)
    assert (sharded.public_digest, sharded.outputs) == (whole.public_digest, whole.outputs)
    assert (sharded.shards, whole.shards) == (len(case.sizes), 1)
    ok_line, *outputs = cli_verify(cli, tmp_path, case, bundle)
    assert outputs == whole.outputs
    assert ok_line.startswith(f"OK {whole.kind} N={whole.count} circuit={whole.circuit} public={whole.public_digest} ")
    # The command line names the shards of a bundle of more than one.
    assert (f" shards={sharded.shards} " in ok_line) == (sharded.shards > 1)


def test_errors_name_the_whole_statements_lines() -> None:
    text = "".join(f"{i:064x} {i:0128x}\n" for i in range(40)) + "00 00\n"
    with pytest.raises(starling.Unreadable, match=r"^line 41: "):
        starling.dask.prove("sha256", text, 4)
    with pytest.raises(starling.Unreadable, match="power of two"):
        starling.dask.prove("merkle-root", ("00" * 32 + "\n") * 3, 2, hash="sha256", scheme="plain")
    with pytest.raises(ValueError, match=r"made by the command line \(starling ring sign\)"):
        starling.dask.prove("ring", "", 2)
    leaves = [hashlib.sha256(bytes([i])).digest() for i in range(4)]
    tree = "".join(leaf.hex() + "\n" for leaf in leaves)
    with pytest.raises(starling.Rejected, match=r"^line 2: "):
        starling.dask.prove(
            "membership", f"{leaves[1].hex()} 1\n{leaves[1].hex()} 2\n", 2,
            hash="sha256", scheme="plain", root=plain_tree(leaves), tree=tree,
        )  # fmt: skip
    with pytest.raises(starling.Rejected, match="the tree's root is "):
        starling.dask.prove(
            "membership", f"{leaves[1].hex()} 1\n", 2, hash="sha256", scheme="plain", root="00" * 32, tree=tree
        )
    with pytest.raises(starling.Unreadable, match="membership statements are proved with a `tree`"):
        starling.dask.prove("membership", f"{leaves[1].hex()} 1\n", 2, hash="sha256", scheme="plain", root="00" * 32)
    for shards in (0, 65537):
        with pytest.raises(starling.Unreadable, match="shards must be between 1 and 65536"):
            starling.dask.prove("sha256", text, shards)


def test_membership_shards_carry_their_members_paths_not_the_tree() -> None:
    leaves = [hashlib.sha256(bytes([i])).digest() for i in range(8)]
    tree = "".join(leaf.hex() + "\n" for leaf in leaves)
    params = {"hash": "sha256", "scheme": "plain", "root": plain_tree(leaves), "tree": tree}
    members = "".join(f"{leaves[i].hex()} {i}\n" for i in (5, 0, 7))
    texts, shared = shard_texts("membership", check("membership", members, params, None), 2, params)
    assert shared == {"hash": "sha256", "scheme": "plain", "root": params["root"], "size": "8"}
    lines = [line.split() for text in texts for line in text.splitlines()]
    assert [len(t.splitlines()) for t in texts] == [2, 1]
    assert [(fields[0], fields[1]) for fields in lines] == [(leaves[i].hex(), str(i)) for i in (5, 0, 7)]
    assert lines[0][2] == leaves[4].hex() and all(len(fields) == 5 for fields in lines)


def test_cuts_fall_just_before_records() -> None:
    # Records a, b, c, é, d; the blank and comment lines before a cut stay
    # in the piece before it.
    text = "# head\na\n\n  b \r\n# mid\nc\n\u00e9\nd"
    assert starling._starling.cut_records(text, [1, 2, 2]) == ["# head\na\n\n", "  b \r\n# mid\nc\n", "\u00e9\nd"]
    assert starling._starling.cut_records(text, [5]) == [text]
    with pytest.raises(starling.Error, match="^internal error: the inputs text ends at record 5, before a cut at 6 "):
        starling._starling.cut_records(text, [6, 1])


def test_a_worker_killed_mid_shard_is_replaced(client: distributed.Client) -> None:
    # Shards of about a second each, so that one is still running when its
    # worker is killed.
    text = "".join(f"{i:064x} {i:0128x}\n" for i in range(3 * 8192))
    pids = client.run(os.getpid)
    with ThreadPoolExecutor(1) as pool:
        proving = pool.submit(starling.dask.prove, "sha256", text, 3, client)
        deadline = time.monotonic() + 60
        while True:
            assert time.monotonic() < deadline, "no shard started"
            busy = [w for w, keys in client.processing().items() if any("starling-shard" in str(k) for k in keys)]
            if busy:
                break
            time.sleep(0.01)
        os.kill(pids[busy[0]], signal.SIGKILL)
        bundle = proving.result(timeout=120)
    assert shard_sizes(bundle) == [8192] * 3
    assert starling.verify(bundle, kind="sha256", inputs=text).count == 3 * 8192


@pytest.mark.skipif("forkserver" not in multiprocessing.get_all_start_methods(), reason="no fork server here")
def test_the_embedded_clusters_workers_are_forked_and_replaced() -> None:
    """The cluster ``client=None`` starts: its workers are forked from one
    fork server (``starling._forkserver``), not spawned by this process,
    and one killed is forked again and proves its shards."""
    text = "".join(f"{i:064x} {i:0128x}\n" for i in range(6))
    with contextlib.ExitStack() as stack:
        client = starling.dask.cluster(stack, None, 2)()
        parents = set(client.run(os.getppid).values())
        assert len(parents) == 1 and os.getpid() not in parents
        pids = client.run(os.getpid)
        victim = next(iter(pids))
        os.kill(pids[victim], signal.SIGKILL)
        deadline = time.monotonic() + 60
        while victim in client.scheduler_info()["workers"] or len(client.scheduler_info()["workers"]) < len(pids):
            assert time.monotonic() < deadline, "the killed worker was not replaced"
            time.sleep(0.05)
        assert set(client.run(os.getppid).values()) == parents
        bundle = starling.dask.prove("sha256", text, 2, client)
    assert starling.verify(bundle, kind="sha256", inputs=text).count == 6


# The shards `corrupting` proved, the first one spoiled.
proved_shards: list[bytes] = []
honest_shard = starling.dask._prove_shard


def corrupting(*args: object) -> bytes:
    """A worker's shard-proving function whose first proof has a bit
    flipped. At module level, so that a task pickles it by name."""
    proof = honest_shard(*args)
    if not proved_shards:
        proof = proof[:1000] + bytes([proof[1000] ^ 1]) + proof[1001:]
    proved_shards.append(proof)
    return proof


def test_a_shard_that_fails_the_check_is_proved_again(monkeypatch: pytest.MonkeyPatch) -> None:
    text = "".join(f"{i:064x} {i:0128x}\n" for i in range(12))
    monkeypatch.setattr(starling.dask, "_prove_shard", corrupting)
    # Threads of this process, where the patched function is the one called.
    with distributed.Client(processes=False, n_workers=1, threads_per_worker=2, dashboard_address=":0") as client:
        bundle = starling.dask.prove("sha256", text, 3, client)
    assert len(proved_shards) == 4
    assert proved_shards[0] not in bundle
    assert starling.verify(bundle, kind="sha256", inputs=text).count == 12


def python_m(*args: str | Path, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "starling", *map(str, args)], capture_output=True, text=True, input=stdin, timeout=120
    )


def test_python_m_writes_the_clis_proof(cli: Path, tmp_path: Path) -> None:
    leaves = tmp_path / "leaves.txt"
    leaves.write_text("00\n-\nabcdef\n")
    for args in [
        ("sha256", "--random", "40", "--seed", "5"),
        ("blake3", "--random", "40", "--seed", "5"),
        ("chain", "--hash", "sha512", "--start", "ab" * 64, "--steps", "3"),
        ("merkle-root", "--hash", "sha256", "--scheme", "rfc6962", "--leaves", leaves),
        ("digest", "--hash", "blake3", "--messages", leaves),
    ]:
        done = python_m("prove", *args, "--out", tmp_path / "py.proof")
        assert done.returncode == 0, done.stderr
        done = run(cli, "prove", *args, "--out", tmp_path / "cli.proof", "--quiet")
        assert done.returncode == 0, done.stderr
        assert (tmp_path / "py.proof").read_bytes() == (tmp_path / "cli.proof").read_bytes(), args


def test_python_m_shards_random_inputs(cli: Path, tmp_path: Path) -> None:
    """``--random`` in 3 shards proves the statement the command line's one
    proof of it does: the same public digest."""
    random = ["sha256", "--random", "40", "--seed", "5"]
    for done in (
        run(cli, "prove", *random, "--out", tmp_path / "cli.proof"),
        python_m("prove", *random, "--shards", "3", "--out", tmp_path / "py.bundle"),
    ):
        assert done.returncode == 0, done.stderr
    shown = [run(cli, "verify", tmp_path / name).stdout.split() for name in ("cli.proof", "py.bundle")]
    assert shown[0][:5] == shown[1][:5] and shown[0][4].startswith("public=")
    assert "shards=3" in shown[1]


def test_python_m_fails_as_the_cli_does(tmp_path: Path) -> None:
    (tmp_path / "in.txt").write_text("# one bad line\n00 00\n")
    out = tmp_path / "out"
    done = python_m("prove", "sha256", "--inputs", tmp_path / "in.txt", "--out", out, "--shards", "2")
    assert (done.returncode, done.stderr.count("\n")) == (2, 1), done.stderr
    assert done.stderr.startswith(f"error: {tmp_path / 'in.txt'}: line 2: ")
    done = python_m("prove", "membership", "--hash", "sha256")
    assert done.returncode == 2 and "--root" in done.stderr
    # Refused before any cluster is reached (there is none at that address).
    no_scheduler = ["--shards", "2", "--scheduler", "tcp://127.0.0.1:1", "--out", out]
    done = python_m("prove", "sha256", "--random", str(2**24 + 1), "--seed", "1", *no_scheduler)
    assert done.returncode == 2 and done.stderr == "error: --random must be between 1 and 16777216\n", done.stderr
    assert not out.exists() and list(tmp_path.iterdir()) == [tmp_path / "in.txt"]


def test_python_m_names_the_members_file(tmp_path: Path) -> None:
    """A member that is not in the tree fails as the command line's does,
    naming the file and line, whole and in shards (where the check also
    finds the paths the shards carry); a size no tree has names no file."""
    leaves = [hashlib.sha256(bytes([i])).digest() for i in range(4)]
    tree, members, out = tmp_path / "tree.txt", tmp_path / "members.txt", tmp_path / "out"
    tree.write_text("".join(leaf.hex() + "\n" for leaf in leaves))
    members.write_text(f"{leaves[1].hex()} 1\n{leaves[2].hex()} 3\n")
    flags = ["--hash", "sha256", "--scheme", "plain", "--root", plain_tree(leaves), "--members", members]
    for shards in ([], ["--shards", "2"]):
        done = python_m("prove", "membership", *flags, "--tree", tree, *shards, "--out", out)
        assert done.returncode == 1 and done.stderr.startswith(f"error: {members}: line 2: "), done.stderr
        done = python_m("prove", "membership", *flags, "--size", "6", *shards, "--out", out)
        assert done.returncode == 2 and done.stderr.startswith("error: the size: "), done.stderr
    assert not out.exists()


def test_python_m_proves_members(cli: Path, tmp_path: Path) -> None:
    """A membership proof is zero-knowledge, so not the command line's bytes:
    ``python -m starling`` proves it, whole and in shards, from the tree or
    from the members' paths, and the command line accepts each for the
    statement ``ROOT N SIZE``."""
    leaves = [hashlib.sha256(bytes([i])).digest() for i in range(8)]
    tree = "".join(leaf.hex() + "\n" for leaf in leaves)
    (tmp_path / "tree.txt").write_text(tree)
    members = "".join(f"{leaves[i].hex()} {i}\n" for i in (5, 2, 7))
    (tmp_path / "members.txt").write_text(members)
    root = plain_tree(leaves)
    flags = ["--hash", "sha256", "--scheme", "plain"]
    params = {"hash": "sha256", "scheme": "plain", "root": root, "tree": tree}
    _, paths = starling._starling.member_paths("membership", members, params, None)
    (tmp_path / "paths.txt").write_text("".join(line + "\n" for line in paths))
    (tmp_path / "expect.txt").write_text(f"{root} 3 8\n")
    given = {"tree": ["--members", tmp_path / "members.txt", "--tree", tmp_path / "tree.txt"],
             "paths": ["--members", tmp_path / "paths.txt", "--size", "8"]}  # fmt: skip
    for inputs, shards in [(i, s) for i in ("tree", "paths") for s in ([], ["--shards", "2"])]:
        name = f"m-{inputs}-{len(shards)}.proof"
        args = [*flags, "--root", root, *given[inputs], *shards, "--out", tmp_path / name]
        done = python_m("prove", "membership", *args)
        assert done.returncode == 0, done.stderr
        done = run(cli, "verify", tmp_path / name, "--expect", tmp_path / "expect.txt", "--kind", "membership", *flags)
        assert done.returncode == 0, done.stderr
        assert done.stdout.startswith("OK membership") and (" shards=2 " in done.stdout) == bool(shards)


def test_a_cluster_from_the_command_line(cli: Path, tmp_path: Path) -> None:
    inputs = tmp_path / "inputs.txt"
    inputs.write_text("".join(f"{i:064x} {i:0128x}\n" for i in range(50)))
    address_file = tmp_path / "scheduler.json"
    dask = [sys.executable, "-m", "dask"]
    started: list[subprocess.Popen[bytes]] = []
    try:
        started.append(
            spawn([*dask, "scheduler", "--scheduler-file", address_file, "--port", "0", "--dashboard-address", ":0"])
        )
        started.append(spawn([*dask, "worker", "--scheduler-file", address_file, "--nworkers", "2", "--nthreads", "1"]))
        with distributed.Client(scheduler_file=str(address_file), timeout=60) as client:
            client.wait_for_workers(2, timeout=60)
            address = client.scheduler.address
        bundle = tmp_path / "b.bundle"
        done = python_m("prove", "sha256", "--inputs", inputs, "--shards", "4", "--scheduler", address, "--out", bundle)
        assert done.returncode == 0, done.stderr
        assert "4/4 shards" in done.stderr and "dashboard: http" in done.stderr
    finally:
        for process in reversed(started):
            stop(process)
    assert shard_sizes(bundle.read_bytes()) == [13, 13, 12, 12]
    case = Case("sha256", "sha256", inputs.read_text(), 4, [13, 13, 12, 12])
    assert cli_verify(cli, tmp_path, case, bundle.read_bytes())[0].startswith("OK sha256 N=50 ")


def spawn(command: list[str | Path]) -> subprocess.Popen[bytes]:
    """A process in a session of its own, so that it and its children stop together."""
    return subprocess.Popen(
        list(map(str, command)), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
    )


def stop(process: subprocess.Popen[bytes]) -> None:
    """Stops ``process`` and what it started (its session): SIGTERM, a
    while to shut down, then SIGKILL for whatever is left."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(process.pid, sig)
        except ProcessLookupError:
            return
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            pass
