"""Kill -9 at any moment, in any game: the box comes back to the same screen and state.

Most of the 1,000 cuts are made in-process: a random key script is played on the
simulated box, the journal and the draft on disk are recorded after every step of the
loop (and, between two steps, as a cut mid-write would leave them), then a fresh box is
started on each recorded disk.  A handful are real processes killed with SIGKILL."""
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from firmware import config, paths
from firmware.app import App
from firmware.harness import FakeClock
from firmware.modes import cryptic
from firmware.modes.game import GameScreen
from firmware.modes.perquackey import LetterEntry
from firmware.screen import Painter
from tests.conftest import Box

ROOT = Path(__file__).resolve().parents[2]
CUTS_PER_GAME = 250
KEYS = ["K1", "K2", "K3", "K4", "K1", "K2", "K3", "K2", "K1-long", "K2-long", "K3-long", "K4-long"]
OPENING = {"password": ("K3", "K3"), "perquackey": ("K2", "K3", "K3"), "taboo": ("K2", "K2", "K3", "K3"),
           "cryptic": ("K1", "K1", "K3", "K3")}


@pytest.fixture(autouse=True)
def seeded_dice(monkeypatch):
    """The same dice on every run: a cut that fails once fails every time."""
    monkeypatch.setattr(cryptic.PlayScreen, "rng", random.Random(1))


def read(path: Path):
    return path.read_bytes() if path.exists() else None


def text_of_running(path: Path) -> str:
    """The text a running process has on disk now; it removes its draft when there is
    nothing to keep, so the file may go between any two looks."""
    try:
        return path.read_text()
    except FileNotFoundError:
        return ""


def durable(app) -> list[str]:
    """The screens a restart must bring back: the game in progress (a restart shows it even
    if the players were in a menu), and every screen with work in progress."""
    return (["PlayScreen"] if app.session else []) + [
        type(s).__name__ for s in app.stack if not isinstance(s, GameScreen) and s.draft() is not None]


def picture(screen, now) -> bytes:
    p = Painter()
    screen.draw(p, now)
    p.softkeys(screen.softkeys(now))
    return p.image.tobytes()


def seen(app, now):
    """What the players saw, as far as a restart must keep it."""
    session = app.session
    top = app.stack[-1]
    steady = not getattr(top, "reading", False) and not (session and session.timer() and session.timer().running)
    return {"reading": getattr(top, "reading", False),
            "state": session.rules.summary(session.state) if session else None,
            "screens": durable(app), "drafts": [s.draft() for s in app.stack if s.draft() is not None],
            "picture": picture(top, now + 10.0) if steady and (isinstance(top, GameScreen) or top.draft()) else None}


def play(game: str, seed: int, camera: str, clock: FakeClock):
    """A random script in one game; the disk and what was seen after every loop step."""
    box = Box(clock, camera=camera)
    records = []
    step = box.app.step

    def recorded_step(now=None):
        step(now)
        records.append((read(paths.current_journal()), read(paths.draft_path()), seen(box.app, clock())))
    box.app.step = recorded_step
    box.press(*OPENING[game])
    rng = random.Random(seed)
    for _ in range(160):
        key = rng.choice(KEYS)
        if key == "K4-long" and rng.random() < 0.7:
            continue                                   # stay in the game most of the time
        if isinstance(box.mode, LetterEntry):          # fill the cubes in, accept them, play on
            if "?" in box.mode.letters:
                key = "K2" if box.mode.letters[box.mode.cursor] == "?" else "K3"
            else:
                key = rng.choice(["K4", "K2", key])
        box.press(key)
        assert getattr(box.mode, "title", "") != "Sorry", box.app.log[-1]
        if rng.random() < 0.08:
            box.wait(rng.choice([5.0, 40.0, 70.0]), step=5.0)
    box.close()
    return records


def restart(journal: bytes | None, draft: bytes | None, now: float):
    for path, data in ((paths.current_journal(), journal), (paths.draft_path(), draft)):
        path.unlink(missing_ok=True)
        if data is not None:
            path.write_bytes(data)
    for leftover in (paths.history_dir(), paths.heartbeat_path()):
        if leftover.is_file():
            leftover.unlink()
    clock = FakeClock(start=now)
    app = App(config.defaults(), clock=clock, wall=clock, threaded_effects=False)
    app.start()
    return app


@pytest.mark.parametrize("game", list(OPENING))
def test_a_power_cut_at_any_moment_resumes_the_same_screen_and_state(game, tmp_path, state_home):
    from vision.synth import make_throw
    import cv2
    cv2.imwrite(str(tmp_path / "throw.jpg"), make_throw(5, vulnerable=False).image)
    clock = FakeClock()
    records = play(game, seed=1, camera=str(tmp_path), clock=clock)
    if game == "perquackey":   # cuts mid-count and mid-read are among them
        assert any(d.get("view") == "count" and d.get("counts") for _, _, r in records for d in r["drafts"])
        assert any(r["reading"] for _, _, r in records)
    rng = random.Random(game)
    cuts = 0
    for index in sorted(rng.sample(range(1, len(records)), min(CUTS_PER_GAME, len(records) - 1))):
        (journal, draft, before), (after_journal, _, after) = records[index - 1], records[index]
        how = rng.choice(["steady", "steady", "torn", "between"])
        if how == "torn" and journal and after_journal and after_journal.startswith(journal) \
                and len(after_journal) > len(journal) + 1:
            journal += after_journal[len(journal):][:rng.randrange(1, len(after_journal) - len(journal))]
        elif how == "between":               # the journal took the step, the draft not yet
            app = restart(after_journal, draft, clock())
            assert seen(app, clock())["state"] == after["state"]
            assert app.stack[-1].__class__.__name__ != "MessageScreen"
            cuts += 1
            continue
        app = restart(journal, draft, clock())
        now_seen = seen(app, clock())
        assert now_seen["state"] == before["state"], (index, how)
        assert now_seen["screens"] == before["screens"], (index, how)
        assert now_seen["drafts"] == before["drafts"], (index, how)
        if before["picture"] is not None and now_seen["picture"] is not None:
            assert now_seen["picture"] == before["picture"], (index, how)
        cuts += 1
    assert cuts >= min(CUTS_PER_GAME, len(records) - 1) * 0.95


@pytest.mark.parametrize("script, wanted", [
    (b"K2 K3 K3 K3 K2 K2 K2 K2 K1 K2 K2\n", lambda m: m.view == "count" and m.counts == {3: 3, 4: 2}),
    (b"K1 K1 K3 K3 K1 K2 K1 K1 K2\n", lambda m: m.view == "guess-length" and m.length == 6),
])
def test_kill_9_of_the_real_process_keeps_work_in_progress(script, wanted, tmp_path, clock, monkeypatch):
    home = tmp_path / "home"
    env = dict(os.environ, TABLEMATE_HOME=str(home))
    proc = subprocess.Popen([sys.executable, "-m", "firmware", "run", "--display", "dummy", "--input", "lines",
                             "--camera", "none"], stdin=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env,
                            cwd=ROOT)
    proc.stdin.write(script)
    proc.stdin.flush()
    draft = home / "draft.json"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:       # wait for the work to show on disk, not a fixed time
        on_disk = text_of_running(draft)
        if '"counts":{"3":3,"4":2}' in on_disk or '"length":6' in on_disk:
            break
        time.sleep(0.02)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    monkeypatch.setenv("TABLEMATE_HOME", str(home))
    box = Box(clock)
    assert wanted(box.mode)
    box.close()


def test_kill_9_of_the_real_process_while_it_reads_the_cubes(tmp_path, clock, monkeypatch):
    """Killed as soon as the game is on disk, with Read pressed: the worker may be reading,
    or done; either way the box comes back to the turn or to the cubes read, never worse."""
    from device.hardware import SAMPLE_PHOTOS
    from firmware.modes.perquackey import LetterEntry, PlayScreen
    home = tmp_path / "home"
    env = dict(os.environ, TABLEMATE_HOME=str(home))
    proc = subprocess.Popen([sys.executable, "-m", "firmware", "run", "--display", "dummy", "--input", "lines",
                             "--camera", str(SAMPLE_PHOTOS)], stdin=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            env=env, cwd=ROOT)
    proc.stdin.write(b"K2 K3 K3 K1\n")
    proc.stdin.flush()
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and not (home / "current.jsonl").exists():
        time.sleep(0.01)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    monkeypatch.setenv("TABLEMATE_HOME", str(home))
    box = Box(clock)
    assert isinstance(box.mode, (PlayScreen, LetterEntry)) and box.app.session.game == "perquackey"
    box.close()
