"""Screens on their own: a key press in, a list of actions out; no loop, no pins, no display."""
import pytest

from device.keys import KeyPress
from firmware import config
from firmware.actions import (Back, Cue, EffectDone, Flash, Go, Home, LeaveGame, ReadCubes, Refuse, ResumeGame,
                              SaveSetting, SetAside, Solve, StartGame, StopWatching, WarmUp, Watch)
from firmware.effects import Letters
from firmware.games import GAMES
from firmware.modes import cryptic, menu, perquackey
from firmware.screen import Painter
from firmware.session import Session

K1, K2, K3, K4 = (KeyPress(k) for k in ("K1", "K2", "K3", "K4"))
NOW = 100.0


def session(game, **settings):
    base = {"password": {}, "taboo": {"names": ["Al", "Bo", "Cy"]}}.get(game, {"names": ["Al", "Bo"]})
    return Session.new(game, {**base, **settings}, wall=1_800_000_000.0)


def draws(screen):
    p = Painter()
    screen.draw(p, NOW)
    return p.image.getbbox() is not None


def test_perquackey_read_asks_the_worker_and_says_so():
    play = perquackey.PlayScreen(session("perquackey"))
    assert play.on_open() == [WarmUp(), Watch(vulnerable=False, red_set="classic")]
    assert play.on_key(K1, NOW) == [ReadCubes(vulnerable=False, red_set="classic"), StopWatching()]
    assert play.softkeys(NOW)[0] == "..." and draws(play)
    assert play.on_key(K1, NOW) == [Refuse("Still reading the cubes: a moment.")]
    done = EffectDone(ReadCubes(False, "classic"), value=Letters(list("AABFGEFCDB"), [False] * 9 + [True]))
    [go] = play.on_result(done, NOW)
    assert isinstance(go, Go) and go.screen.letters == list("AABFGEFCDB") and go.screen.cursor == 9
    assert not play.reading


def test_a_failed_read_says_why_and_offers_the_keys():
    play = perquackey.PlayScreen(session("perquackey"))
    play.on_key(K1, NOW)
    refuse, go = play.on_result(EffectDone(ReadCubes(False, "classic"), error="No camera: key the letters in."), NOW)
    assert refuse == Refuse("No camera: key the letters in.") and go.screen.letters == ["?"] * 10


def test_perquackey_score_asks_for_the_best_throw_and_undo_from_the_result_is_safe():
    """Issue 11, defect 8: undo after the first throw, from its result screen."""
    s = session("perquackey")
    s.submit({"kind": "letters", "letters": "AABFGEFCDB"})
    s.submit({"kind": "start", "at": 1.0})
    play = perquackey.PlayScreen(s)
    play.on_key(K2, NOW)                                       # count
    play.on_key(K2, NOW)
    actions = play.on_key(K4, NOW)
    assert actions == [Cue("score"), Solve("AABFGEFCDB"), Watch(False, "classic")] and play.view == "result"
    # the throw is back (timer and letters): no throw awaited, so no watching
    assert play.on_key(KeyPress("K1", long=True), NOW) == [Flash("Undone: score"), StopWatching()]
    assert play.view == "turn" and draws(play)


def test_every_game_leaves_to_the_menu_on_a_long_k4():
    for game in GAMES:
        play = menu.CONTROLLERS[game.NAME].PlayScreen(session(game.NAME))
        assert play.on_key(KeyPress("K4", long=True), NOW) == [LeaveGame()]
        assert draws(play)


def test_cryptic_the_doubles_chooser_and_the_guessed_length_are_apart():
    """Choosing a repeated double's action used to leave the guess length at 1 or 2,
    and +/- then failed with "1 is not in list"."""
    s = session("cryptic")
    for dice in ([1, 1], [2, 3], [1, 1]):                       # double 1 twice: choose an action
        s.submit({"kind": "roll", "dice": dice})
    play = cryptic.PlayScreen(s)
    assert s.state.choosing and play.softkeys(NOW) == ("Prev", "Next", "Choose", "")
    play.on_key(K2, NOW)
    assert play.on_key(K3, NOW) == [Cue("click")] and 3 in s.state.done   # "Reveal first letter"
    play.on_key(K2, NOW)                                        # Guess
    play.on_key(K1, NOW)                                        # the first player
    play.on_key(K1, NOW)                                        # right
    assert play.view == "guess-length" and play.length == 5
    play.on_key(K2, NOW)
    assert play.length == 6
    play.on_key(K3, NOW)
    assert s.state.scores[0] == 12


def test_the_menu_asks_before_setting_a_game_aside():
    """Issue 11, defect 2: never set a game aside silently."""
    s = session("taboo")
    home = menu.main_menu(config.defaults(), s)
    assert home.labels()[:2] == ["Resume Taboo (3 players)", "Password"]
    home.on_key(K2, NOW)
    [go] = home.on_key(K3, NOW)
    ask = go.screen
    assert ask.labels() == ["Resume Taboo (3 players)", "Set it aside", "Cancel"]
    assert ask.on_key(K3, NOW) == [ResumeGame()]
    ask.on_key(K2, NOW)
    set_aside = ask.on_key(K3, NOW)
    assert set_aside[:2] == [SetAside(), Home()] and isinstance(set_aside[2].screen.fields[0].value, str)
    ask.on_key(K2, NOW)
    assert ask.on_key(K3, NOW) == [Back()]


def test_a_form_starts_its_game_with_every_option():
    form = menu.setup_screen("taboo", {**config.defaults(), "taboo.round_s": 90})
    assert [f.label for f in form.fields][-2:] == ["Round", "Skunk rule"]
    _remember, start = form.on_key(K3, NOW)
    assert start == StartGame("taboo", {"names": ["Alice", "Bob", "Chris"], "round_s": 90, "skunk_rule": False})


@pytest.mark.parametrize("game", [g.NAME for g in GAMES])
def test_every_form_starts_a_game_the_rules_accept(game):
    _remember, start = menu.setup_screen(game, config.defaults()).on_key(K3, NOW)
    assert isinstance(start, StartGame) and start.game == game
    Session.new(game, start.settings, wall=0.0)


def test_a_setting_is_asked_of_the_loop_not_changed_by_the_menu():
    values = config.defaults()
    settings_menu = menu.SettingsMenu(values)
    assert settings_menu.on_key(K3, NOW) == [SaveSetting("display.contrast", 255)]
    assert values["display.contrast"] == 200
