"""The game in play: replay, undo, the checks on saved events, putting games away, timers
across a restart."""
import json

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from device.keys import KeyPress
from firmware import config, paths
from firmware.app import App
from firmware.harness import FakeClock
from firmware.games import GAMES, rules
from firmware.games.core import RuleError
from firmware.journal import Journal
from firmware.session import Session, bring_back, saved_games, set_aside_unreadable

SETTINGS = {
    "password": {"players": 4, "names": {"A1": "Al", "B1": "Bo", "A2": "Cy", "B2": "Di"}},
    "perquackey": {"names": ["Al", "Bo"]},
    "taboo": {"names": ["Al", "Bo", "Cy"]},
    "cryptic": {"names": ["Al", "Bo"]},
}


def saved(game, events):
    """A current game on disk with these events, as a power cut would leave it."""
    header = {"tablemate_journal": 1, "game": game, "settings": SETTINGS[game], "started": 1_800_000_000.0}
    path = paths.current_journal()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(line) + "\n" for line in [header, *events]))
    return path


def test_a_step_that_no_longer_fits_is_dropped_by_its_own_index():
    """Issue 11, defect 1: the failing event, not the first one equal to it."""
    saved("password", [{"kind": "form"}, {"kind": "missed"}, {"kind": "form"}, {"kind": "form"}])
    session = Session.resume()
    assert [e["kind"] for e in session.journal.events] == ["form", "missed", "form"]
    assert session.state.password == 1 and session.state.form is not None
    assert "did not fit" in session.warnings[0]
    assert [e["kind"] for e in Journal.load(paths.current_journal()).events] == ["form", "missed", "form"]


@pytest.mark.parametrize("game, events, bad", [
    ("cryptic", [{"kind": "roll", "dice": [1, 2]}], {"kind": "guess", "player": 5, "correct": True}),
    ("taboo", [], {"kind": "start", "at": None}),
    ("perquackey", [], {"kind": "start", "at": None}),
    ("perquackey", [{"kind": "start", "at": 5.0}], {"kind": "pause", "at": "soon"}),
    ("password", [{"kind": "missed"}], {"kind": 7}),
])
def test_a_damaged_but_well_formed_event_is_dropped_with_a_warning(game, events, bad):
    """Issue 11, defect 7: checked on replay, dropped, never a crash loop."""
    saved(game, events + [bad])
    session = Session.resume()
    assert session.journal.events == events
    assert len(session.warnings) == 1 and "was dropped" in session.warnings[0]
    timer = session.timer()
    if timer is not None:
        timer.remaining(10.0)          # the state is one the screens can show


EVENT = st.fixed_dictionaries({"kind": st.sampled_from(
    ["missed", "guessed", "form", "challenge", "letters", "start", "pause", "resume", "score", "illegal",
     "correct", "pass", "buzz", "end_round", "refuse", "co_winners", "overtime", "roll", "choose", "question",
     "guess", "nonsense"])}, optional={
    "at": st.one_of(st.none(), st.floats(allow_nan=True), st.integers(-5, 10**6), st.text(max_size=3)),
    "player": st.one_of(st.integers(-3, 8), st.none(), st.booleans()),
    "side": st.one_of(st.integers(-3, 8), st.text(max_size=2)),
    "who": st.one_of(st.sampled_from(["R1", "R2", "both", "A1", "G"]), st.integers()),
    "correct": st.one_of(st.booleans(), st.integers(0, 2)),
    "length": st.one_of(st.integers(-2, 12), st.text(max_size=2)),
    "dice": st.one_of(st.lists(st.integers(-1, 8), max_size=3), st.none()),
    "action": st.one_of(st.integers(-1, 8), st.none()),
    "letters": st.one_of(st.text(alphabet="ABCEQZ?1 ", max_size=16), st.integers()),
    "counts": st.one_of(st.dictionaries(st.sampled_from(["3", "4", "10", "x", "-1"]), st.integers(-3, 9)),
                        st.lists(st.integers())),
    "one_word": st.one_of(st.booleans(), st.none()),
})


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(game=st.sampled_from(list(SETTINGS)), events=st.lists(EVENT, max_size=25))
def test_random_wrong_events_never_prevent_a_start(game, events, tmp_path_factory, monkeypatch):
    """Random well-formed but wrong events: the box starts, shows the game, its scores,
    and undoes (the presses go straight to the screen: what is tested is the state)."""
    monkeypatch.setenv("TABLEMATE_HOME", str(tmp_path_factory.mktemp("home")))
    saved(game, events)
    clock = FakeClock()
    app = App(config.defaults(), clock=clock, wall=clock, threaded_effects=False)   # no pins: fast
    app.start()
    assert app.session is not None and app.mode.__class__.__name__ == "PlayScreen"
    for key in ("K2-long", "K2-long", "K1-long", "K2", "K1-long"):
        now = clock.advance(0.5)
        app.handle(KeyPress.parse(key), now)
        app.step(clock.advance(0.5))
        assert getattr(app.mode, "title", "") != "Sorry", app.log[-1]


def test_undo_takes_the_timer_moves_along_with_the_step_before_them():
    saved("taboo", [{"kind": "start", "at": 1.0}, {"kind": "correct", "at": 2.0}, {"kind": "pause", "at": 3.0}])
    session = Session.resume()
    assert session.undo() == "correct"
    assert [e["kind"] for e in session.journal.events] == ["start"]
    assert session.undo() == "start"
    with pytest.raises(RuleError, match="Nothing to undo"):
        session.undo()


def test_a_timer_resumes_paused_after_a_reboot_whatever_the_new_clock_says():
    """Issue 11, defect 10: the old run's monotonic stamps only; a reboot starts the
    monotonic clock again near 0 and the wall clock may jump by hours."""
    session = Session.new("taboo", SETTINGS["taboo"], wall=1_800_000_000.0)
    session.submit({"kind": "start", "at": 50_000.0})
    session.heartbeat(50_020.0)                       # seen alive 20 s into the minute
    again = Session.resume()
    assert again.pause_after_restart()
    timer = again.timer()
    assert not timer.running and timer.remaining(3.0) == pytest.approx(40.0)
    again.submit({"kind": "resume", "at": 3.0})       # the new run's clock
    assert again.timer().remaining(13.0) == pytest.approx(30.0)


def test_a_heartbeat_of_another_game_is_not_used():
    paths.state_dir().mkdir(parents=True, exist_ok=True)
    paths.heartbeat_path().write_text("1 99999.0")    # left by an earlier game
    session = Session.new("perquackey", SETTINGS["perquackey"], wall=0.0)
    session.submit({"kind": "start", "at": 100.0})
    session.submit({"kind": "letters", "letters": "AABFGEFCDB"})
    session.submit({"kind": "pause", "at": 110.0})
    session.submit({"kind": "resume", "at": 120.0})
    again = Session.resume()
    again.pause_after_restart()
    assert again.timer().left == pytest.approx(170.0)


def test_put_away_games_never_overwrite_each_other():
    """Issue 11, defect 3: two games set aside in the same second both stay."""
    first = Session.new("password", SETTINGS["password"], wall=1_800_000_000.0)
    one = first.put_away().path
    second = Session.new("password", SETTINGS["password"], wall=1_800_000_000.0)
    two = second.put_away().path
    assert one != two and one.exists() and two.exists()
    assert [g.path for g in saved_games()] == sorted([one, two], reverse=True)


def test_with_the_history_unwritable_games_stay_beside_it_with_a_warning():
    paths.state_dir().mkdir(parents=True, exist_ok=True)
    paths.history_dir().write_text("not a folder")   # as good as unwritable, even for root
    filed = [Session.new("taboo", SETTINGS["taboo"], wall=1_800_000_000.0).put_away() for _ in range(2)]
    assert len({f.path for f in filed}) == 2 and all(f.path.exists() for f in filed)
    assert all("could not be written" in f.warning for f in filed)
    paths.current_journal().write_text("garbage\n")
    message = set_aside_unreadable(paths.current_journal(), "no header", 1_800_000_000.0)
    assert "could not be read" in message and "kept as set-aside-" in message
    assert len(saved_games()) == 2                   # the unfinished ones, resumable


def test_a_saved_game_comes_back_as_the_current_one():
    session = Session.new("cryptic", SETTINGS["cryptic"], wall=1_800_000_000.0)
    session.submit({"kind": "roll", "dice": [3, 4]})
    path = session.put_away().path
    back = bring_back(path)
    assert back.state.dice == (3, 4) or list(back.state.dice) == [3, 4]
    assert paths.current_journal().exists() and not path.exists()


def test_the_registry_keeps_the_contract():
    from firmware.games import CONTRACT
    for game in GAMES:
        for name in CONTRACT:
            assert hasattr(game, name), f"{game.__name__} lacks {name}"
        state = game.new_game(SETTINGS[game.NAME])
        assert game.HAS_TIMER == ("start" in game.HANDLERS)      # a timer is started by an event
        assert rules(game.NAME) is game and json.dumps(game.summary(state))


JSON = st.recursive(st.none() | st.booleans() | st.integers(-3, 20) | st.text(max_size=12),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
                    max_leaves=12)
DRAFT_SCREEN = st.fixed_dictionaries({"screen": st.sampled_from(["play", "letters", "form", "name", "menu"]),
                                      "game": st.sampled_from(list(SETTINGS))},
                                     optional={"view": st.sampled_from(["count", "result", "board", "pad", "guess-length",
                                                                        "summary", "nonsense"]) | JSON,
                                               "counts": JSON, "row": JSON, "letters": JSON, "unsure": JSON,
                                               "cursor": JSON,
                                               "values": JSON, "field": JSON, "name": JSON, "letter": JSON,
                                               "guesser": JSON, "length": JSON})


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(game=st.sampled_from(list(SETTINGS)), with_game=st.booleans(), screens=st.lists(DRAFT_SCREEN, min_size=1,
                                                                                       max_size=3))
def test_a_damaged_draft_never_prevents_a_start(game, with_game, screens, tmp_path_factory, monkeypatch):
    """The draft is a convenience: whatever it holds, the box starts and draws."""
    monkeypatch.setenv("TABLEMATE_HOME", str(tmp_path_factory.mktemp("home")))
    if with_game:
        saved(game, [])
    paths.draft_path().write_text(json.dumps({"game": game if with_game else None, "events": 0 if with_game else None,
                                              "screens": screens}))
    clock = FakeClock()
    app = App(config.defaults(), clock=clock, wall=clock, threaded_effects=False)
    app.start()
    for key in ("K2", "K1", "K3", "K4"):
        now = clock.advance(0.5)
        app.handle(KeyPress.parse(key), now)
        app.step(clock.advance(0.5))
        assert getattr(app.mode, "title", "") != "Sorry", app.log[-1]
