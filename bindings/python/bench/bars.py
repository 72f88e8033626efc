"""The package's two performance bars, measured on this machine.

1. ``starling.prove`` against ``starling prove`` for the same statement
   (SHA-256, ``--count`` instances from a fixed seed) and thread count: the
   CLI process's wall time and its own ``proved ... in X s`` figure (the
   prover's phases, without the process start, the inputs parse or the
   file write), against the wall time of the ``prove`` call in a fresh
   Python process (the inputs parse included). Rounds alternate.
2. The GIL: one Python thread proving (``threads=1``) against two proving
   at once (``threads=1`` each). With the GIL released two take about
   one's time on two idle cores; the CPU seconds per wall second show how
   many threads ran at once (a shared machine's other work lowers it).

Usage: ``python bench/bars.py [--count N] [--rounds R] [--cli PATH]``, in
an environment with the package installed; the CLI defaults to this
checkout's ``target/release/starling``.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import starling

REPO = Path(__file__).resolve().parents[3]
# A fresh process times one call; its inputs are read before the clock starts.
ONE_CALL = "import sys, time, starling; t = open(sys.argv[1]).read(); s = time.perf_counter(); " \
    "starling.prove('sha256', t, threads=int(sys.argv[2])); print(time.perf_counter() - s)"  # fmt: skip


def summary(name: str, xs: list[float]) -> str:
    return f"{name:34} median {statistics.median(xs):.3f} s  min {min(xs):.3f} s"


def against_cli(cli: Path, inputs: Path, rounds: int) -> None:
    out = inputs.with_suffix(".proof")
    for threads in (1, 2):
        wall, own, python = [], [], []
        for _ in range(rounds):
            start = time.perf_counter()
            done = subprocess.run(
                [cli, "prove", "sha256", "--inputs", inputs, "--out", out, "--threads", str(threads)],
                check=True, capture_output=True, text=True,
            )  # fmt: skip
            wall.append(time.perf_counter() - start)
            own.append(float(re.findall(r" in ([\d.]+) s$", done.stderr, re.M)[-1]))
            call = subprocess.run([sys.executable, "-c", ONE_CALL, inputs, str(threads)], check=True, capture_output=True)
            python.append(float(call.stdout))
        print(summary(f"threads={threads} cli process", wall))
        print(summary(f"threads={threads} cli's own figure", own))
        print(summary(f"threads={threads} python prove call", python))


def gil(text: str, rounds: int) -> None:
    def cpu() -> float:
        return sum(os.times()[:2])

    one, two, one_busy, two_busy = [], [], [], []
    starling.prove("sha256", text, threads=1)
    with ThreadPoolExecutor(2) as pool:
        for _ in range(rounds):
            c, t = cpu(), time.perf_counter()
            starling.prove("sha256", text, threads=1)
            one.append(time.perf_counter() - t)
            one_busy.append((cpu() - c) / one[-1])
            c, t = cpu(), time.perf_counter()
            list(pool.map(lambda _: starling.prove("sha256", text, threads=1), range(2)))
            two.append(time.perf_counter() - t)
            two_busy.append((cpu() - c) / two[-1])
    print(summary("one python thread proving", one))
    print(summary("two python threads at once", two))
    print(f"{'ratio of medians':34} {statistics.median(two) / statistics.median(one):.2f}")
    print(f"{'cpu s per wall s, one / two':34} {statistics.median(one_busy):.2f} / {statistics.median(two_busy):.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=1 << 14)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--cli", type=Path, default=REPO / "target" / "release" / "starling")
    args = parser.parse_args()
    rng = random.Random(54)
    text = "".join(f"{rng.randbytes(32).hex()} {rng.randbytes(64).hex()}\n" for _ in range(args.count))
    with tempfile.TemporaryDirectory() as folder:
        inputs = Path(folder) / "sha256.txt"
        inputs.write_text(text)
        against_cli(args.cli, inputs, args.rounds)
    gil(text, args.rounds)


if __name__ == "__main__":
    main()
