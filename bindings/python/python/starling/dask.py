"""Sharded proving on a Dask cluster: one statement cut into shards (the
rules are ``starling._shards``'), each proved as an ordinary proof on a
worker, checked here as it comes back, and joined into a *bundle*, which
``starling.verify`` and ``starling verify --expect`` accept as a proof of
the whole statement.

Needs the package's ``dask`` extra (``pip install "starling[dask]"``); the
rest of ``starling`` works without it.
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
import uuid
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import CancelledError

try:
    import dask.system
    import distributed
except ImportError as e:
    raise ImportError('starling.dask needs Dask\'s distributed scheduler: pip install "starling[dask]"') from e

from . import DEFAULT_MIN_SECURITY_BITS, _flag, _forkserver, _kind_params, _starling
from ._inputs import Inputs, inputs_text
from ._shards import Checked, check, refusal, shard_texts
from .errors import Error, Rejected, Unreadable

# ``check_request``, ``cluster`` and ``prove_read`` are ``prove`` in steps,
# for ``python -m starling``, which reads its statement in between.
__all__ = ["prove"]

#: Times one shard is proved before the statement fails: a worker that
#: dies, a shard lost with its worker's memory or a proof that fails the
#: check here are proved again, elsewhere if Dask chooses.
ATTEMPTS = 3

#: ``progress(done, total)``: called once the shards are sent (``done`` 0)
#: and as each is proved and checked.
Progress = Callable[[int, int], object]

_log = logging.getLogger(__name__)

# A worker proves one shard at a time, on all its threads: a proof keeps
# every thread it is given busy, and two at once would only split them and
# hold two proofs' memory.
_one_proof_at_a_time = threading.Lock()


def prove(
    kind: str,
    inputs: Inputs,
    shards: int,
    client: distributed.Client | None = None,
    *,
    hash: str | None = None,
    scheme: str | None = None,
    profile: str = "default",
    zk: bool = False,
    threads: int | None = None,
    progress: Progress | None = None,
    **params: str | int | bytes | os.PathLike[str],
) -> bytes:
    """Proves the statement of ``kind`` on ``inputs`` in at most ``shards``
    shards on a Dask cluster and returns the bundle's bytes.

    Arguments are ``starling.prove``'s, and its kinds. A statement smaller
    than ``shards`` (or a tree's shape) makes fewer shards. ``client``: the
    cluster to use; ``None`` starts one on this machine for the call (a
    worker process per shard, as many as there are cores, sharing the
    cores). Each shard proves on one worker with ``threads`` threads, or
    the worker's own number of threads. Each proof that comes back is
    verified here against its shard's statement before it is bundled; one
    that fails, or whose worker dies, is proved again (``ATTEMPTS`` times at
    most, then ``starling.Error``). ``progress(done, total)`` is called here
    once the shards are sent (``done`` 0) and as each is done.

    Raises what ``starling.prove`` raises for the whole statement, before
    any shard is proved: ``Unreadable`` for inputs or parameters that cannot
    be read (errors name the whole text's lines), ``Rejected`` for a false
    statement.
    """
    check_request(kind, shards)
    with contextlib.ExitStack() as stack:
        # An embedded cluster starts (seconds: worker processes importing
        # Dask) while the statement is read and cut here.
        connect = cluster(stack, client, shards)
        text = inputs_text(inputs)
        named = _kind_params("prove", hash, scheme, params)
        statement = check(kind, text, named, None)
        return prove_read(kind, statement, named, shards, connect, profile, _flag("zk", zk), threads, progress)


def check_request(kind: str, shards: object) -> None:
    """Refuses a number of shards no bundle holds and a kind Python does
    not prove, before any cluster is started for them."""
    if isinstance(shards, bool) or not isinstance(shards, int):
        raise TypeError(f"shards must be an int, not {type(shards).__name__}")
    if not 1 <= shards <= _starling.MAX_SHARDS:
        raise Unreadable(f"shards must be between 1 and {_starling.MAX_SHARDS} (the most a bundle holds), not {shards}")
    reason = refusal(kind)
    if reason is not None:
        raise Unreadable(reason)


def cluster(
    stack: contextlib.ExitStack, client: distributed.Client | None, shards: int
) -> Callable[[], distributed.Client]:
    """``client``, or a cluster on this machine for at most ``shards``
    shards, starting from now on while the caller reads its statement and
    closed when ``stack`` ends: the function returns the client once the
    cluster has started."""
    if client is not None:
        return lambda: client
    starting = _start_local_cluster(stack, shards)
    return lambda: stack.enter_context(distributed.Client(starting.result()))


def prove_read(
    kind: str,
    statement: Checked,
    named: dict[str, str],
    shards: int,
    connect: Callable[[], distributed.Client],
    profile: str,
    zk: bool,
    threads: int | None,
    progress: Progress | None,
) -> bytes:
    """``prove`` for a statement already read: ``statement``, as
    ``starling._shards.check`` read it with the parameters ``named``, on
    the cluster ``connect()`` returns (called once the shards are cut)."""
    texts, shared = shard_texts(kind, statement, shards, named)
    return _Job(kind, texts, shared, profile, zk, threads, progress).run(connect())


def _start_local_cluster(stack: contextlib.ExitStack, shards: int) -> Future[distributed.LocalCluster]:
    """Starts, on a thread of its own, a cluster on this machine for at
    most ``shards`` shards, closed when ``stack`` ends (once started, even
    if the statement could not be read): worker processes (each proof
    allocates and frees gigabytes, which threads of one process would
    contend for), ``min(shards, cores)`` of them sharing the cores, forked
    from a server that imported Dask once (``starling._forkserver``), the
    first ones and any that replace a worker lost, while the cluster runs.
    No memory limit: Dask's nanny would kill a worker whose proof is larger
    than its share, where a proof's memory is known only to it."""
    cores = dask.system.CPU_COUNT
    workers = min(shards, cores)
    if _forkserver.start():
        stack.enter_context(dask.config.set({"distributed.worker.multiprocessing-method": "forkserver"}))
    pool = stack.enter_context(ThreadPoolExecutor(1))
    starting = pool.submit(
        distributed.LocalCluster,
        n_workers=workers,
        threads_per_worker=max(1, cores // workers),
        processes=True,
        memory_limit=0,
        dashboard_address=":0",
    )

    def close() -> None:
        with contextlib.suppress(Exception):
            starting.result().close()

    stack.callback(close)
    return starting


class _Job:
    """The shards of one statement on their way through a cluster."""

    def __init__(
        self,
        kind: str,
        texts: list[str],
        params: dict[str, str],
        profile: str,
        zk: bool,
        threads: int | None,
        progress: Progress | None,
    ) -> None:
        self.kind, self.texts, self.params = kind, texts, params
        self.profile, self.zk, self.threads, self.progress = profile, zk, threads, progress
        # The dashboard names tasks by their keys' first part.
        self.name = f"starling-shard-{uuid.uuid4().hex}"

    def run(self, client: distributed.Client) -> bytes:
        """Proves every shard on ``client`` and returns their bundle."""
        total = len(self.texts)
        _log.info("proving %d shards; dashboard: %s", total, client.dashboard_link)
        # The inputs go to the cluster once: each shard's text to one
        # worker, where its proof will run, and the parameters (a
        # circuit's text, a membership statement's root and size), which
        # every shard reads, to every worker, copied from worker to worker:
        # a worker lost loses no other shard's inputs.
        self.shared = self.send_params(client)
        self.data = client.scatter(self.texts, hash=False)
        attempts = [1] * total
        proved: dict[int, bytes] = {}
        running = {self.submit(client, i, 1): i for i in range(total)}
        if self.progress is not None:
            self.progress(0, total)
        done = distributed.as_completed(list(running))
        try:
            for future in done:
                i = running.pop(future)
                proof, failure = self.outcome(future, i)
                if proof is not None:
                    proved[i] = proof
                    if self.progress is not None:
                        self.progress(len(proved), total)
                    continue
                if attempts[i] == ATTEMPTS:
                    raise Error(f"shard {i + 1} of {total} failed {ATTEMPTS} times; the last time: {failure}")
                attempts[i] += 1
                _log.warning("shard %d of %d is proved again: %s", i + 1, total, failure)
                retry = self.submit(client, i, attempts[i])
                running[retry] = i
                done.add(retry)
        finally:
            client.cancel(list(running))
        return _starling.bundle([proved[i] for i in range(total)])

    def submit(self, client: distributed.Client, i: int, attempt: int) -> distributed.Future:
        """Proves shard ``i`` on a worker. Inputs lost with the worker that
        held them are sent again."""
        if self.shared.status != "finished":
            self.shared = self.send_params(client)
        if self.data[i].status != "finished":
            self.data[i] = client.scatter([self.texts[i]], hash=False)[0]
        args = (self.kind, self.data[i], self.shared, self.profile, self.zk, self.threads)
        return client.submit(_prove_shard, *args, key=(self.name, i, attempt))

    def send_params(self, client: distributed.Client) -> distributed.Future:
        return client.scatter([self.params], hash=False, broadcast=True)[0]

    def outcome(self, future: distributed.Future, i: int) -> tuple[bytes | None, str]:
        """Shard ``i``'s proof once checked, or why it must be proved again."""
        try:
            proof = future.result()
        except (Rejected, Unreadable):
            raise  # the statement's own errors: proving it again fails alike
        except CancelledError:
            return None, "its inputs were lost with the worker that held them"
        except Exception as e:  # a worker that died too often (KilledWorker), a bug
            return None, f"{type(e).__name__}: {e}"
        try:
            checked = _starling.check_proved(
                proof, self.kind, self.texts[i], self.params, DEFAULT_MIN_SECURITY_BITS, self.threads
            )
        except Error as e:
            return None, f"its proof fails the check: {e}"
        profile, zk = checked[4], checked[5]
        if profile != self.profile or (self.zk and not zk):
            return None, f"its proof is a {profile}{' zero-knowledge' if zk else ''} one"
        return proof, ""


def _prove_shard(kind: str, text: str, params: dict[str, str], profile: str, zk: bool, threads: int | None) -> bytes:
    """Runs on a worker: the proof of one shard, on ``threads`` threads or
    as many as the worker has. The worker keeps the proof's buffers for
    its next shard: about a shard's proof's memory, held until the worker
    ends."""
    with _one_proof_at_a_time:
        _starling.keep_buffers_between_proofs()
        threads = threads or distributed.get_worker().state.nthreads
        return _starling.prove(kind, text, params, profile, zk, threads, None)
