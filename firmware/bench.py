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


def _row(name: str, value: str, target: str, ok: bool | None, miss: str = "SLOW") -> None:
    mark = "" if ok is None else ("  ok" if ok else f"  {miss}")
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
    bench_watching(quick)
    return 0


def run_photo_bench(folder: str) -> int:
    """The cube reader on a folder of photos with their truth file; 1 with a plain
    sentence where the folder or its truth file cannot be used."""
    try:
        from vision.bench import bench_photos
        from vision.truth import TruthFileError
    except ImportError as exc:
        print(f"tablemate bench: the cube reader cannot run here ({exc}).", file=sys.stderr)
        return 1
    print(f"TableMate cube reader on the photos in {folder}, {os.cpu_count()} cores, Python {sys.version.split()[0]}")
    try:
        bench_photos(folder)
    except TruthFileError as exc:
        print(f"tablemate bench: {exc} Put a truth.json beside the photos (see README, The cube reader).",
              file=sys.stderr)
        return 1
    return 0


# --- watching the throw ------------------------------------------------------------------
LOOK_S = 0.2             # 5 looks a second, the default (watch.looks_per_s)
WATCH_SEED = 400_000     # far from the seeds the tests use


def watch_decisions(films: int, rest_s: float = 0.8, size=(480, 360)) -> tuple[int, int, int]:
    """The watcher's decision on filmed throws (a look every LOOK_S, fresh sensor noise
    each look): (films, false starts, missed throws).  A false start is a first read
    while the cubes move, before they first rest, or with a hand in view; a miss is a
    film with no read at all."""
    from vision.sequence3d import AT_REST, Film, FilmCamera, make_sequence_3d
    from vision.watch import AT_REST as STARTS, Watcher
    false, missed = 0, 0
    for seed in range(WATCH_SEED, WATCH_SEED + films):
        film = Film(make_sequence_3d(seed, size=size))
        t = [0.0]
        camera = FilmCamera(film, lambda: t[0], noise=3.0, seed=seed)
        watcher = Watcher(rest_s=rest_s)
        read_at = None
        while t[0] < film.length + 1.0 and read_at is None:
            if watcher.see(camera.capture(), t[0]).event == STARTS:
                read_at = t[0]
            t[0] += LOOK_S
        if read_at is None:
            missed += 1
            continue
        shown = film.at(read_at)
        false += shown.state != AT_REST or shown.hand or read_at < film.first_rest()
    return films, false, missed


def _make_vulnerable(session, now: float) -> None:
    """Two throws on the score sheet: the first player reaches 3000 and throws 13 cubes."""
    for counts in ({"9": 5}, {}):
        state = session.state
        session.submit({"kind": "letters", "letters": "A" * (13 if state.vulnerable[state.turn] else 10)})
        session.submit({"kind": "start", "at": now})
        session.submit({"kind": "score", "counts": counts})


def watch_latency(films: int) -> tuple[list[float], int, int]:
    """Last movement to letters on the screen, through the whole box (simulated keys and
    display, the worker's looks and the real reader on full-size frames): the watcher's
    clock, which is moved on by the real time each step of the loop takes (so the looks
    after a read come as late as they would on the box), plus the real time of the step
    that showed the letters.  Camera capture excluded (the film's frames are in memory).
    The latencies, how many throws were read with every letter right, and how many were
    read only at a later rest (the reader refused the first: a wrong cube count)."""
    from firmware.harness import FakeClock, SimulatedBox
    from vision.sequence3d import Film, FilmCamera, make_sequence_3d
    latencies, right, later = [], 0, 0
    for seed in range(WATCH_SEED, WATCH_SEED + films):
        vulnerable = seed % 2 == 1
        frames = make_sequence_3d(seed, vulnerable=vulnerable)
        with tempfile.TemporaryDirectory() as home:
            os.environ["TABLEMATE_HOME"] = home
            clock = FakeClock()
            box = SimulatedBox(clock)
            film = Film(frames, start=clock() + 1.0)
            box.app.effects.camera = FilmCamera(film, clock)
            box.press("K2", "K3", "K3")                 # a Perquackey game
            play = box.mode
            if vulnerable:
                _make_vulnerable(play.session, clock())
                box.press("K4", "K4")                   # the board and back: 13 cubes awaited
            showing = 0.0
            while clock() < film.start + film.length and not play.state.letters:
                clock.advance(0.02)                     # the loop's wake-ups: 50 a second at most
                start = time.perf_counter()
                box.app.step()
                showing = time.perf_counter() - start
                clock.advance(showing)
            if play.state.letters:
                latencies.append(clock() - film.still_since(clock()))
                later += film.still_since(clock()) > film.first_rest()
                right += sorted(play.state.letters) == sorted(c.letter for c in frames[-1].cubes)
            box.close()
    return latencies, right, later


def watch_idle_cpu(looks: int) -> float:
    """Share of one core the watching takes while the table is still: process CPU time
    over `looks` looks at a full-size frame of the empty table, against the time those
    looks span at 5 a second."""
    from firmware import config
    from firmware.actions import Watch
    from firmware.effects import ThrowWatch
    from vision.sequence3d import Film, FilmCamera, make_sequence_3d
    frames = make_sequence_3d(WATCH_SEED)[:1]
    t = [0.0]
    watch = ThrowWatch(Watch(False, "classic"), FilmCamera(Film(frames), lambda: t[0]), config.defaults(), 0.0)
    start = time.process_time()
    for k in range(looks):
        t[0] = k * LOOK_S
        watch.look(t[0])
    return (time.process_time() - start) / (looks * LOOK_S)


def bench_watching(quick: bool = False) -> None:
    print("\nWatching the throw (3-D rendered films from a fixed camera; rest time 0.8 s, 5 looks a second):")
    films, false, missed = watch_decisions(20 if quick else 200)
    _row(f"false starts in {films} films", f"{false}", "0", false == 0, "NOT MET")
    _row(f"missed throws in {films} films", f"{missed}", "0", missed == 0, "NOT MET")
    latencies, right, later = watch_latency(2 if quick else 10)
    if latencies:
        median, worst = statistics.median(latencies), max(latencies)
        _row(f"last movement to letters, median ({len(latencies)})", f"{median * 1000:.0f} ms", "< 1500 ms",
             median < 1.5)
        _row("last movement to letters, slowest", f"{worst * 1000:.0f} ms", "< 1500 ms", worst < 1.5)
    _row("  throws read with every letter right", f"{right}/{len(latencies)}", "(the reader's part)", None)
    _row("  read at a later rest (first read refused)", f"{later}", "(the reader's part)", None)
    cpu = watch_idle_cpu(50 if quick else 300)
    _row("watching while idle, share of one core", f"{cpu * 100:.1f} %", "<= 25 %", cpu <= 0.25)
