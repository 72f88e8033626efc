"""``python -m starling prove ...``: the command line's ``prove`` from
Python, which with ``--shards K`` proves on a Dask cluster and writes a
bundle (``starling._cli``)."""

import sys

from ._cli import main

# Dask's worker processes import this module again as they start (they
# are spawned, not forked); only the command itself runs the command.
if __name__ == "__main__":
    sys.exit(main())
