"""The loop on simulated hardware: what the players see and hear around a game in play."""
import queue
import time

import pytest

from firmware import paths
from firmware.app import WARN_S, App
from firmware.harness import FakeClock
from firmware.screen import note_seconds
from firmware.modes.perquackey import LetterEntry
from tests.conftest import Box


def open_game(box, position):
    box.press(*["K2"] * position, "K3", "K3")
    assert box.mode.__class__.__name__ == "PlayScreen", box.mode
    return box.mode


def test_a_new_game_asks_first_and_the_set_aside_game_comes_back(box):
    """Issue 11, defect 2: ask (resume / set aside / cancel); Saved games resumes it."""
    open_game(box, 2)                                  # Taboo
    box.press("K1", "K1", "K4-long")                   # start, one right, to the menu
    box.press("K2", "K2", "K3")                        # the plain "Perquackey" entry
    assert box.mode.labels() == ["Resume Taboo (3 players)", "Set it aside", "Cancel"]
    box.press("K2", "K2", "K3")                        # Cancel
    assert box.mode.labels()[0] == "Resume Taboo: paused"
    box.press("K3")                                    # Perquackey again
    box.press("K2", "K3")                              # Set it aside: the Perquackey form opens
    assert box.mode.title == "Perquackey set-up" and "Saved games" in box.app.notes.current(box.clock())
    box.press("K4")                                    # back to the menu, no game in progress
    assert box.mode.labels()[-2:] == ["Saved games", "Settings"]
    box.press("K1", "K1", "K3", "K3")                  # Saved games, the first one
    assert box.app.session.game == "taboo" and box.mode.state.round.correct == 1


def test_a_running_timer_pauses_in_the_menu_and_the_screen_says_so(box):
    """Issue 11, defect 5: no silent timer behind the menu."""
    open_game(box, 1)                                  # Perquackey
    box.press("K3")                                    # the timer runs
    box.wait(10.0)
    cues = []
    original = box.app.cue
    box.app.cue = lambda name: (cues.append(name), original(name))
    box.press("K4-long")
    assert "paused while you are away" in box.app.notes.current(box.clock())
    box.wait(200.0, step=1.0)
    assert cues == []                                  # no warning, ticks or time-up
    assert box.mode.labels()[0] == "Resume Perquackey: paused"
    box.press("K3")                                    # Resume
    timer = box.mode.state.timer
    assert not timer.running and 165 <= timer.remaining(box.clock()) <= 171
    box.press("K1")                                    # the players resume it
    assert box.mode.state.timer.running


def test_a_warning_at_start_stays_readable(clock, state_home):
    """Issue 11, defect 11: "Resumed ..." waits until the warning has been read."""
    first = Box(clock)
    open_game(first, 0)
    first.press("K1")
    first.close()
    with open(state_home / "current.jsonl", "ab") as f:
        f.write(b'{"kind": "gue')                      # the power went mid-write
    again = Box(clock)
    warning = again.app.notes.current(clock())
    assert "damaged" in warning
    stays = note_seconds(warning, WARN_S)                # long enough to show each of its lines
    assert stays >= WARN_S
    again.wait(stays - 0.5)
    assert "damaged" in again.app.notes.current(clock())
    again.wait(1.0)
    assert again.app.notes.current(clock()) == "Resumed Password"
    again.close()


def test_wall_clock_steps_do_not_move_timers(state_home):
    """Issue 11, defect 10: a 6-hour network time step changes nothing on the box."""
    mono, wall = FakeClock(start=500.0), FakeClock()
    box = Box(mono, wall=wall)
    open_game(box, 2)
    box.press("K1")                                    # a Taboo round: 60 s
    wall.advance(6 * 3600)
    box.wait(10.0)
    assert 49 <= box.mode.state.timer.remaining(mono()) <= 50.5
    box.press("K2-long")                               # a long press is still a long press
    assert box.mode.view == "standings"
    assert App.__init__.__defaults__[0] is time.monotonic
    box.close()


@pytest.mark.parametrize("keys, check", [
    # a count in progress ("3:3 4:2", shown "= 220")
    (("K3", "K2", "K2", "K2", "K2", "K1", "K2", "K2"), lambda m: m.view == "count" and m.counts == {3: 3, 4: 2}),
    # cubes keyed in, not yet accepted
    (("K2", "K2", "K3", "K2", "K2"), lambda m: isinstance(m, LetterEntry) and m.letters[:2] == ["A", "E"]),
])
def test_work_in_progress_survives_a_power_cut(clock, keys, check):
    """Issue 11, defect 6: whatever the players saw survives a kill at any moment."""
    first = Box(clock)
    open_game(first, 1)
    first.press(*keys)
    assert check(first.mode)
    before = first.frame.copy()
    first.close()                                      # no clean shutdown
    again = Box(clock)
    assert check(again.mode)
    again.wait(5.0)                                    # the "Resumed" note has gone
    if getattr(again.mode, "play", again.mode).state.timer is None:                 # (a running timer comes back paused)
        assert again.frame.tobytes() == before.tobytes()
    again.close()


def test_a_half_filled_form_survives_a_power_cut(clock):
    first = Box(clock)
    first.press("K2", "K2", "K3")                      # Taboo set-up
    first.press("K2", "K1", "K1", "K1", "K2")          # Player 1 is Bob, Round 90 s
    first.close()
    again = Box(clock)
    assert again.mode.title == "Taboo set-up" and again.mode.values()["Player 1"] == "Bob"
    assert again.mode.values()["Round"] == 90 and again.mode.cursor == 3
    again.press("K4")
    assert again.mode.title == "TableMate"             # and the form is then gone for good
    again.close()
    assert not paths.draft_path().exists()


def test_reading_runs_on_the_worker_and_keys_still_answer(clock, tmp_path):
    """Issue 11, defect 4: the loop shows "Reading..." and answers keys while the worker reads."""
    import cv2

    from vision.synth import make_throw
    throw = make_throw(21, vulnerable=False)
    cv2.imwrite(str(tmp_path / "throw.jpg"), throw.image)
    box = Box(clock, camera=str(tmp_path))
    box.app.effects.close()                            # a real worker thread, as on the box
    from firmware.effects import Effects
    results = queue.SimpleQueue()
    box.app.effects = Effects(results.put, box.hw.camera, threaded=True)
    open_game(box, 1)
    assert results.get(timeout=30).error is None       # the warm-up, on the worker
    box.press("K1")                                    # Read
    assert box.mode.reading and box.mode.softkeys(clock())[0] == "..."
    box.press("K2-long")                               # the scoreboard, while it reads
    assert box.mode.view == "board"
    box.press("K2-long")
    done = results.get(timeout=30)                     # the result, as the queue brings it
    box.app.queue.put(done)
    box.wait(0.2)
    assert isinstance(box.mode, LetterEntry)
    assert sorted(box.mode.letters) == sorted(t.letter for t in throw.cubes)
    box.close()
