"""Each game driven from the keys on the simulated box."""
import random

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from firmware.modes import cryptic as cryptic_mode
from firmware.modes.base import MessageScreen
from tests.conftest import Box

MENU_POSITION = {"password": 0, "perquackey": 1, "taboo": 2, "cryptic": 3}
KEYS = ["K1", "K2", "K3", "K4", "K1-long", "K2-long", "K3-long", "K4-long"]


def open_game(box, game):
    box.press(*["K2"] * MENU_POSITION[game], "K3", "K3")
    assert box.mode.__class__.__name__ == "PlayScreen", box.mode
    return box.mode


@pytest.fixture(autouse=True)
def seeded_dice(monkeypatch):
    monkeypatch.setattr(cryptic_mode.PlayScreen, "rng", random.Random(5))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(game=st.sampled_from(list(MENU_POSITION)), keys=st.lists(st.sampled_from(KEYS), max_size=60),
       waits=st.lists(st.sampled_from([0.0, 0.0, 0.0, 5.0, 31.0, 70.0]), min_size=60, max_size=60))
def test_any_key_at_any_moment_never_crashes(clock, game, keys, waits, tmp_path_factory, monkeypatch):
    monkeypatch.setenv("TABLEMATE_HOME", str(tmp_path_factory.mktemp("home")))
    box = Box(clock)
    open_game(box, game)
    for key, wait in zip(keys, waits):
        box.press(key)
        box.wait(wait, step=1.0)
        assert not (isinstance(box.mode, MessageScreen) and box.mode.title == "Sorry"), box.app.log[-1]
    box.close()


def test_taboo_round_from_the_keys_with_cues(box):
    open_game(box, "taboo")
    box.press("K1")                                   # start
    box.press("K1", "K1", "K1", "K1", "K1", "K2", "K3", "K3")
    box.wait(45.0, step=0.5)
    cues = []
    original = box.app.cue
    box.app.cue = lambda name: (cues.append(name), original(name))
    box.wait(16.0, step=0.5)
    assert cues.count("tick") == 10 and cues[-1] == "time-up"
    box.press("K4")                                   # End at time-up
    assert box.mode.view == "summary"
    assert box.mode.state.scores == [2, 4, 2]         # the seed's worked example


def test_a_timer_resumes_paused_with_the_time_left(clock):
    box = Box(clock)
    open_game(box, "taboo")
    box.press("K1")
    box.wait(20.0, step=0.5)
    box.close()                                       # the power goes
    clock.advance(300.0)
    again = Box(clock)
    timer = again.mode.state.timer
    assert not timer.running and 38.0 <= timer.remaining(clock()) <= 40.5
    again.wait(10.0)
    assert again.mode.state.timer.remaining(clock()) == timer.remaining(clock())
    again.press("K4")                                 # resume
    assert again.mode.state.timer.running
    again.close()


def test_perquackey_throw_from_the_keys(box):
    open_game(box, "perquackey")
    box.press("K2")                                   # key the letters in
    for _ in range(10):
        box.press("K2", "K3")                         # every cube on its first face
    box.press("K4")
    assert box.mode.state.letters == "AABFGEFCDB"
    box.press("K3")                                   # timer
    cues = []
    original = box.app.cue
    box.app.cue = lambda name: (cues.append(name), original(name))
    box.wait(151.0, step=0.5)
    assert "warning" in cues
    box.press("K2")                                   # count
    box.press("K2", "K2", "K1", "K2")                 # two 3s, one 4
    assert box.mode.softkeys(box.clock()) == ("Next", "+1", "-1", "OK")
    box.press("K4")
    assert box.mode.state.scores[0] == 70 + 120
    assert box.mode.view == "result" and box.mode.last_solution is not None
    assert box.mode.last_solution.best_score >= 190


def test_cryptic_roll_and_a_first_guess(box):
    open_game(box, "cryptic")
    box.press("K1")
    assert box.mode.state.dice is not None and box.hw.sounder.last_cue == "roll"
    box.press("K2", "K1", "K1")                       # Alice guesses, right
    box.press("K2", "K2", "K3")                       # length 5 -> 7
    assert box.mode.state.scores == [14, 0] and box.mode.state.rolls_left == 3


def test_password_key_that_means_nothing_now(box):
    open_game(box, "password")
    box.press("K3")                                   # a form of the word
    box.press("K3")                                   # means nothing while waiting for the exact word
    assert box.hw.sounder.last_cue == "error" and "One more try" in box.app.log[-1]


def test_perquackey_reads_the_cubes_from_the_camera(clock, tmp_path):
    import cv2

    from firmware.modes.perquackey import LetterEntry
    from vision.synth import make_throw
    throw = make_throw(21, vulnerable=False)
    cv2.imwrite(str(tmp_path / "throw.jpg"), throw.image)
    box = Box(clock, camera=str(tmp_path))
    open_game(box, "perquackey")
    box.press("K1")                                   # read the cubes
    assert isinstance(box.mode, LetterEntry)
    assert sorted(box.mode.letters) == sorted(t.letter for t in throw.cubes)
    box.press("K4")                                   # accept
    assert sorted(box.mode.state.letters) == sorted(t.letter for t in throw.cubes)
    box.close()


def test_perquackey_without_a_camera_offers_the_keys(box):
    from firmware.modes.perquackey import LetterEntry
    open_game(box, "perquackey")
    box.press("K1")
    assert isinstance(box.mode, LetterEntry) and "No camera" in box.app.log[-1]


@pytest.mark.parametrize("game, view", [("password", "pad"), ("perquackey", "board"), ("taboo", "standings"),
                                        ("cryptic", "status")])
def test_hold_k2_shows_the_scores_in_every_game(box, game, view):
    mode = open_game(box, game)
    box.press("K2-long")
    assert mode.view == view
    box.press("K2-long")
    assert mode.view != view
