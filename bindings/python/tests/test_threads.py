"""Threads: the GIL is released while proving, several Python threads may
prove at once, and the thread count does not change the proof."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor

from conftest import statements

import starling


def test_proofs_from_several_python_threads_at_once() -> None:
    cases = statements()
    with ThreadPoolExecutor(max_workers=4) as pool:
        futures = [
            pool.submit(starling.prove, s.kind, s.inputs, threads=1 + i % 2, **s.params) for i, s in enumerate(cases)
        ]
        proofs = [f.result() for f in futures]
    for statement, proof in zip(cases, proofs, strict=True):
        assert proof == starling.prove(statement.kind, statement.inputs, **statement.params)
        starling.verify(proof, kind=statement.kind, inputs=statement.inputs, **statement.params)


def test_one_or_two_threads_prove_the_same_bytes() -> None:
    for statement in statements()[:4]:
        one = starling.prove(statement.kind, statement.inputs, threads=1, **statement.params)
        two = starling.prove(statement.kind, statement.inputs, threads=2, **statement.params)
        assert one == two


def test_the_gil_is_released_while_proving() -> None:
    # A Python thread that ticks while another proves gets to run all
    # along; with the GIL held it would stall for the whole proof.
    inputs = "".join(f"{i:064x} {i:0128x}\n" for i in range(2048))
    ticks: list[float] = []
    stop = threading.Event()

    def tick() -> None:
        while not stop.is_set():
            ticks.append(time.perf_counter())
            time.sleep(0.002)

    ticker = threading.Thread(target=tick)
    ticker.start()
    start = time.perf_counter()
    starling.prove("sha256", inputs, threads=1)
    end = time.perf_counter()
    stop.set()
    ticker.join()
    during = [t for t in ticks if start < t < end]
    gaps = [b - a for a, b in zip([start, *during], [*during, end])]
    assert max(gaps) < (end - start) / 2, f"the ticker stalled {max(gaps):.3f} s of {end - start:.3f} s"


def test_progress_hears_every_phase_in_order() -> None:
    heard: list[tuple[str, int, int]] = []
    starling.prove("blake3", statements()[1].inputs, progress=lambda *p: heard.append(p))
    assert [done for _, done, _ in heard] == list(range(1, 9))
    assert {total for _, _, total in heard} == {8}
    assert heard[0][0] == "instances" and heard[-1][0] == "open"
