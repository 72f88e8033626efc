"""``python -m starling prove ...``: the command line's ``prove`` from
Python, which with ``--shards K`` proves on a Dask cluster and writes a
bundle (``starling._cli``)."""

import gc
import sys

from ._cli import main

# Dask's worker processes import this module again as they start (they
# are spawned, not forked); only the command itself runs the command.
if __name__ == "__main__":
    code = main()
    # The interpreter's teardown collects the garbage of every object the
    # thousand modules of Dask and its dashboard made: 0.4-0.5 s on a 2-core
    # Cascade Lake, for memory the process gives back as it ends. Frozen,
    # they are left out of those collections; the output and the cluster
    # are closed by now.
    gc.freeze()
    sys.exit(code)
