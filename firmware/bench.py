"""`tablemate bench`: speed measured on this machine, printed as figures.

Targets (2-core PC): first frame within 1 s of start; key press to new frame under 20 ms
(render plus the journal's fsync); a 13-letter solve under 30 ms once the list is loaded,
loading under 1 s; the cube reader under 200 ms per 13-cube photo (median)."""
from __future__ import annotations

import os
import random
import statistics
import subprocess
import sys
import tempfile
import time


def _row(name: str, value: str, target: str, ok: bool | None) -> None:
    mark = "" if ok is None else ("  ok" if ok else "  SLOW")
    print(f"{name:<42} {value:>14}   target {target}{mark}")


def bench_startup(runs: int) -> float:
    """A fresh process, from exec to its first frame and exit (an empty key script)."""
    times = []
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as home:
            env = dict(os.environ, TABLEMATE_HOME=home)
            start = time.perf_counter()
            subprocess.run([sys.executable, "-m", "firmware", "run", "--display", "dummy", "--input", "lines",
                            "--camera", "none"], stdin=subprocess.DEVNULL, env=env, check=True,
                           stderr=subprocess.DEVNULL)
            times.append(time.perf_counter() - start)
    return statistics.median(times)


def bench_keypress(presses: int) -> tuple[float, float]:
    """Key edge to new frame on the display, in a Password game (each press is journaled)."""
    from device.keys import KeyPress
    from firmware.harness import SimulatedBox
    with tempfile.TemporaryDirectory() as home:
        os.environ["TABLEMATE_HOME"] = home
        box = SimulatedBox()
        box.press("K3", "K3")                     # a Password game with the preset names
        times = []
        for i in range(presses):
            before = box.app.frames_sent
            box.app.press(KeyPress("K1" if i % 10 else "K2"), box.clock())
            box.clock.advance(box.app.gestures.debounce_s + 0.001)
            start = time.perf_counter()
            box.app.step()
            times.append(time.perf_counter() - start)
            assert box.app.frames_sent == before + 1, "the press did not change the screen"
            box.clock.advance(0.1)
            box.app.step()
            if box.mode.outcome is not None:
                box.press("K4", "K3", "K3")
        box.close()
    times.sort()
    return statistics.median(times), times[int(len(times) * 0.95)]


def bench_solver(throws: int) -> tuple[float, float, float]:
    from firmware.games import perquackey as pq
    from firmware.games.words import WordList, solve
    start = time.perf_counter()
    wordlist = WordList.load()
    load = time.perf_counter() - start
    rng = random.Random(1)
    times = []
    for _ in range(throws):
        letters = "".join(rng.choice(c) for c in pq.cubes(True))
        start = time.perf_counter()
        solve(wordlist, letters)
        times.append(time.perf_counter() - start)
    times.sort()
    return load, statistics.median(times), times[-1]


def run_bench(quick: bool = False) -> int:
    print(f"TableMate bench on {os.cpu_count()} cores, Python {sys.version.split()[0]}")
    startup = bench_startup(2 if quick else 5)
    _row("start-up to first frame (whole process)", f"{startup * 1000:.0f} ms", "< 1000 ms", startup < 1.0)
    median, p95 = bench_keypress(30 if quick else 200)
    _row("key press to new frame, median", f"{median * 1000:.1f} ms", "< 20 ms", median < 0.020)
    _row("key press to new frame, 95th percentile", f"{p95 * 1000:.1f} ms", "< 20 ms", p95 < 0.020)
    load, solve_median, solve_max = bench_solver(50 if quick else 500)
    _row("word list load", f"{load * 1000:.0f} ms", "< 1000 ms", load < 1.0)
    _row("13-letter solve, median", f"{solve_median * 1000:.2f} ms", "< 30 ms", solve_median < 0.030)
    _row("13-letter solve, slowest", f"{solve_max * 1000:.2f} ms", "< 30 ms", solve_max < 0.030)
    try:
        from vision.bench import bench_reader
    except ImportError as exc:
        print(f"cube reader: not measured ({exc})")
        return 0
    bench_reader(quick)
    return 0
