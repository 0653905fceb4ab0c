"""The cube reader's accuracy and speed, measured on generated throws it has never seen:
fonts it has no references for, and tables and light the tests do not use."""
from __future__ import annotations

import statistics

import numpy as np

from vision.reader import read_image
from vision.synth import HELD_OUT_TABLES, held_out_fonts, make_throw

FIRST_SEED = 100_000        # far from the seeds the tests use


def evaluate(throws: int, seed: int = FIRST_SEED) -> dict:
    """Score the reader on `throws` held-out throws; every cube is matched to the reading
    nearest its true centre."""
    fonts = held_out_fonts()
    if not fonts:
        raise RuntimeError("no held-out fonts installed (apt install fonts-liberation fonts-freefont-ttf)")
    read_image(make_throw(seed - 1).image)            # build the references outside the timing
    cubes = right = colour = all_right = silent_wrong = wrong_count = uncertain = 0
    times_13 = []
    for n in range(throws):
        throw = make_throw(seed + n, fonts=fonts, tables=HELD_OUT_TABLES)
        reading = read_image(throw.image)
        if len(throw.cubes) == 13:
            times_13.append(reading.ms)
        cubes += len(throw.cubes)
        if len(reading.cubes) != len(throw.cubes):
            wrong_count += 1
            continue
        ok, silent = True, False
        for truth in throw.cubes:
            got = min(reading.cubes, key=lambda c: np.hypot(c.x - truth.x, c.y - truth.y))
            right += got.letter == truth.letter
            colour += got.red == truth.red
            uncertain += got.uncertain
            if got.letter != truth.letter:
                ok = False
                silent |= not got.uncertain
        all_right += ok
        silent_wrong += silent
    return {"throws": throws, "cubes": cubes, "cube_accuracy": right / cubes, "colour_accuracy": colour / cubes,
            "throws_all_right": all_right / throws, "silent_wrong_throws": silent_wrong,
            "wrong_count_throws": wrong_count, "uncertain_share": uncertain / cubes,
            "median_ms_13": statistics.median(times_13) if times_13 else float("nan")}


def bench_reader(row, quick: bool = False) -> dict:
    r = evaluate(40 if quick else 400)
    row(f"cube reader: cubes read right ({r['cubes']})", f"{r['cube_accuracy'] * 100:.2f} %", ">= 99.5 %",
        r["cube_accuracy"] >= 0.995)
    row(f"cube reader: throws all right ({r['throws']})", f"{r['throws_all_right'] * 100:.1f} %", ">= 95 %",
        r["throws_all_right"] >= 0.95)
    row("cube reader: red/black right", f"{r['colour_accuracy'] * 100:.2f} %", "100 %", r["colour_accuracy"] == 1)
    row("cube reader: throws with an unmarked wrong letter", f"{r['silent_wrong_throws']}",
        f"<= {max(1, r['throws'] // 200)}", r["silent_wrong_throws"] <= max(1, r["throws"] // 200))
    row("cube reader: cubes marked uncertain", f"{r['uncertain_share'] * 100:.1f} %", "(fewer is kinder)", None)
    row("cube reader: 13-cube photo 1640x1232, median", f"{r['median_ms_13']:.0f} ms", "< 200 ms",
        r["median_ms_13"] < 200)
    return r
