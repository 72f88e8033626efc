"""The embedded Dask cluster's worker processes, forked from a server that
has imported Dask and Starling once.

Spawned, each worker started a fresh interpreter and imported Dask's
distributed scheduler before it could take a shard: about a second of the
cluster's start, on the critical path of every ``--shards`` command. The
server is started here, as early as the command knows it will need a
cluster (before it imports Dask itself), so that its imports run beside the
client's. Where there is no fork server (Windows), workers are spawned.
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.forkserver

#: What the server imports before it forks a worker.
PRELOAD = ["distributed", "starling._starling"]


def start() -> bool:
    """Starts the fork server unless it runs already (without waiting for
    its imports); whether workers can be forked from it."""
    if "forkserver" not in multiprocessing.get_all_start_methods():
        return False
    multiprocessing.set_forkserver_preload(PRELOAD)
    multiprocessing.forkserver.ensure_running()
    return True
