"""The screen side of the rules: what each game's screen offers, shows and refuses."""
import random

from device.keys import KeyPress
from firmware import config
from firmware.actions import Back, Cue, Flash, Go, Refuse, Solve, WarmUp, Watch
from firmware.games import cryptic as cryptic_rules
from firmware.games import perquackey as perquackey_rules
from firmware.games import taboo as taboo_rules
from firmware.modes import cryptic, password, perquackey, taboo
from firmware.modes.base import run
from firmware.screen import Painter
from firmware.session import Session

K1, K2, K3, K4 = (KeyPress(k) for k in ("K1", "K2", "K3", "K4"))
HOLD_K2 = KeyPress("K2", long=True)
NOW = 100.0


def session(game, **settings):
    base = {"password": {}, "taboo": {"names": ["Al", "Bo", "Cy"]}}.get(game, {"names": ["Al", "Bo"]})
    return Session.new(game, {**base, **settings}, wall=1_800_000_000.0)


def painted(screen, now=NOW) -> str:
    """Every text the screen draws, in order, for looking at what it shows."""
    p = Painter()
    screen.draw(p, now)
    p.softkeys(screen.softkeys(now))
    assert p.problems == []
    return " | ".join(placed.text for placed in p.placed)


# --- Cryptic Words ---------------------------------------------------------------------
def more_menu(play):
    [go] = play.on_key(K4, NOW)
    return go.screen


def test_cryptic_roll_again_is_offered_after_a_plain_roll_and_submits_a_reroll():
    s = session("cryptic")
    play = cryptic.PlayScreen(s)
    play.rng = random.Random(1)
    assert "Roll again (both padlocked)" not in more_menu(play).labels()      # nothing rolled yet
    s.submit({"kind": "roll", "dice": [2, 5]})
    menu = more_menu(play)
    assert menu.labels()[0] == "Roll again (both padlocked)"
    turn, rolls = s.state.turn, len(s.journal.events)
    actions = run(menu.items[0][1])
    assert actions[0] == Back() and Cue("roll") in actions
    last = s.journal.events[-1]
    assert last["kind"] == "reroll" and len(s.journal.events) == rolls + 1
    assert tuple(last["dice"]) == s.state.dice and s.state.turn == turn   # the same player rolls again


def test_cryptic_a_wrong_guess_before_the_first_roll_shows_the_other_roller():
    s = session("cryptic")
    play = cryptic.PlayScreen(s)
    assert "Al | rolls" in painted(play)
    play.on_key(K2, NOW)                      # Guess
    play.on_key(K1, NOW)                      # Al guesses
    play.on_key(K2, NOW)                      # wrong
    assert s.state.turn == 1 and "Bo | rolls" in painted(play)


def test_cryptic_question_tokens_come_back_each_round_on_screen():
    s = session("cryptic", question_tokens=1)
    play = cryptic.PlayScreen(s)
    assert play.softkeys(NOW)[2] == "Ask"
    play.on_key(K3, NOW)                      # Al asks: his only token
    assert s.state.questions == [0, 1] and play.softkeys(NOW)[2] == "Ask"      # Bo's turn, Bo has one
    s.submit({"kind": "roll", "dice": [2, 5]})                                 # Al's turn: none left
    assert play.softkeys(NOW)[2] == "" and play.on_key(K3, NOW)[0].__class__ is Refuse
    s.submit({"kind": "end_round"})
    assert s.state.questions == [1, 1] and play.softkeys(NOW)[2] == "Ask"
    play.view = "status"
    assert "1 guess 1 ask" not in painted(play) and "10 guess 1 ask" in painted(play)


def test_cryptic_status_says_whose_tokens_and_offers_no_catch_up_after_the_game():
    s = session("cryptic", target=20)
    play = cryptic.PlayScreen(s)
    shown = painted(play)
    assert "guesses Al 10, Bo 10" in shown
    s.submit({"kind": "guess", "player": 0, "correct": True, "length": 8})   # 16, catch-up for Bo
    play.view = "status"
    assert "Catch-up: Bo has 3 roll(s) left." in painted(play)
    s.submit({"kind": "guess", "player": 1, "correct": True, "length": 3})   # next round
    s.submit({"kind": "guess", "player": 0, "correct": True, "length": 4})   # 24: Al wins
    assert s.state.finished and s.state.rolls_left is not None
    play.view = "status"
    shown = painted(play)
    assert "Catch-up" not in shown and "Over: reached 20." in shown


def test_cryptic_hold_k2_shows_the_status_while_a_double_is_chosen():
    s = session("cryptic")
    for dice in ([1, 1], [2, 3], [1, 1]):
        s.submit({"kind": "roll", "dice": dice})
    play = cryptic.PlayScreen(s)
    assert s.state.choosing
    assert play.on_key(HOLD_K2, NOW) == [] and play.view == "status"
    assert play.softkeys(NOW) == ("", "", "", "Back")
    assert play.on_key(K1, NOW) == [Refuse("K4 goes back to the dice.")]
    play.on_key(K4, NOW)
    assert play.view == "dice" and play.softkeys(NOW) == ("Prev", "Next", "Choose", "")


# --- Perquackey ------------------------------------------------------------------------
def test_perquackey_counting_runs_with_the_timer_in_view_and_cues_a_complete_group():
    s = session("perquackey")
    s.submit({"kind": "start", "at": NOW})
    play = perquackey.PlayScreen(s)
    play.on_key(K2, NOW + 10)                  # count while the sand runs
    assert play.view == "count" and "Words  2:50" in painted(play, NOW + 10)
    assert s.state.timer.running
    cues = [play.on_key(K2, NOW + 11) for _ in range(4)]
    assert cues == [[], [], [], []]
    assert play.on_key(K2, NOW + 12) == [Cue("score"), Flash("3-letter words: group complete.")]
    assert play.on_key(K2, NOW + 13) == []      # still five: no second cue
    assert play.tick(NOW + 145) == []
    assert play.tick(NOW + 151) == [Cue("warning")]        # the timer's cues go on while counting


def test_perquackey_cubes_and_three_letter_rows_follow_vulnerability_both_ways():
    s = session("perquackey", names=["Al"])
    s.submit({"kind": "score", "counts": {"10": 1, "7": 1}})                # 2000: vulnerable
    play = perquackey.PlayScreen(s)
    assert s.state.vulnerable[0] and len(play.cube_faces()) == 13 and play.lengths()[0] == 4
    assert "13 cubes, no 3s" in painted(play)
    s.submit({"kind": "score", "counts": {"4": 1}})                         # set 500: back under 2000
    assert not s.state.vulnerable[0] and len(play.cube_faces()) == 10 and play.lengths()[0] == 3
    assert "10 cubes" in painted(play) and "no 3s" not in painted(play)


def test_perquackey_ends_at_the_first_to_5000():
    s = session("perquackey")
    s.submit({"kind": "score", "counts": {"10": 5}})                        # Al: 7500
    play = perquackey.PlayScreen(s)
    assert s.state.finished and "Al wins" in painted(play) and "first to 5000" in painted(play)


def test_perquackey_hold_k2_shows_the_board_from_the_count_and_keeps_the_words():
    s = session("perquackey")
    s.submit({"kind": "start", "at": NOW})
    play = perquackey.PlayScreen(s)
    play.on_key(K2, NOW)
    play.on_key(K2, NOW)
    assert play.on_key(HOLD_K2, NOW) == [] and play.view == "board"
    play.on_key(K4, NOW)
    assert play.view == "count" and play.counts == {3: 1}


def test_perquackey_result_refuses_keys_that_mean_nothing():
    s = session("perquackey")
    s.submit({"kind": "score", "counts": {"3": 1}})
    play = perquackey.PlayScreen(s)
    play.view = "result"
    # the next throw is awaited already, so the screen also asks the worker to watch the table
    assert [a for a in play.on_key(K2, NOW) if not isinstance(a, Watch)] == [Refuse("K4: on to the next throw.")]
    assert [a for a in play.on_key(K4, NOW) if not isinstance(a, Watch)] == [] and play.view == "turn"


def test_perquackey_the_cube_screen_can_always_be_left():
    play = perquackey.PlayScreen(session("perquackey"))
    [go] = play.on_key(K2, NOW)                # Letters: every cube "?"
    entry = go.screen
    assert entry.softkeys(NOW)[3] == "Back" and entry.on_key(K4, NOW) == [Back()]
    entry.on_key(K2, NOW)                      # one cube set, the rest still "?"
    assert entry.softkeys(NOW)[3] == "Done" and isinstance(entry.on_key(K4, NOW)[0], Refuse)
    assert entry.on_key(KeyPress("K4", long=True), NOW) == [Back()]


def test_perquackey_word_lists_follow_the_family_setting():
    settings = config.defaults() | {"words.family_friendly": False}
    s = session("perquackey")
    s.submit({"kind": "letters", "letters": "AABFGEFCDB"})
    s.submit({"kind": "score", "counts": {"3": 1}})
    play = perquackey.PlayScreen(s, settings)
    assert play.on_open()[0] == WarmUp(family=False)          # then the watch on the table
    play.view = "result"
    assert play.on_open() == [WarmUp(family=False), Solve("AABFGEFCDB", family=False)]
    assert perquackey.PlayScreen(s).on_open()[0] == WarmUp(family=True)


# --- Taboo and Password ------------------------------------------------------------------
def taboo_to_round_12(s):
    """Eleven rounds in which the leader-to-be scores whenever active in them."""
    leader = taboo_rules.roles(taboo_rules.ROUNDS)[0]
    for number in range(1, taboo_rules.ROUNDS):
        s.submit({"kind": "start", "at": NOW})
        if leader in taboo_rules.roles(number)[:2]:
            s.submit({"kind": "correct", "at": NOW})
        s.submit({"kind": "end_round", "at": NOW})
    return leader


def test_taboo_refuse_is_offered_to_the_leader_without_the_skunk_rule_only():
    plain = session("taboo")
    leader = taboo_to_round_12(plain)
    play = taboo.PlayScreen(plain)
    assert play.softkeys(NOW)[2] == "Refuse" and f"{plain.state.names[leader]} may refuse" in painted(play)
    skunk = session("taboo", skunk_rule=True)
    taboo_to_round_12(skunk)
    play = taboo.PlayScreen(skunk)
    assert play.softkeys(NOW)[2] == "" and "may refuse" not in painted(play)
    assert isinstance(play.on_key(K3, NOW)[0], Refuse) and skunk.state.finished is None


def test_taboo_summary_and_password_pad_refuse_keys_that_mean_nothing():
    s = session("taboo")
    s.submit({"kind": "start", "at": NOW})
    play = taboo.PlayScreen(s)
    play.on_key(KeyPress("K3", long=True), NOW)                      # end the round early
    assert play.view == "summary" and play.on_key(K1, NOW) == [Refuse("K4: next.")]
    pw = password.PlayScreen(session("password"))
    pw.on_key(HOLD_K2, NOW)
    assert pw.view == "pad" and pw.on_key(K3, NOW) == [Refuse("K4 goes back from the score pad.")]


def test_password_header_totals_say_which_team():
    s = session("password", names={"A1": "Al", "B1": "Bo", "A2": "Cy", "B2": "Di"})
    s.submit({"kind": "guessed"})
    shown = painted(password.PlayScreen(s))
    assert "T1 10 T2 0" in shown


def test_setting_problems_at_start_are_shown_on_the_display(clock, tmp_path):
    from firmware.harness import SimulatedBox
    path = tmp_path / "config.toml"
    path.write_text("[sound]\nvolume = 11\n[display]\ncontrast = 999\n", encoding="utf-8")
    settings, problems = config.load(path)
    assert len(problems) == 2
    box = SimulatedBox(clock, settings=settings)
    box.app.config_file = path
    box.app.start()
    shown = []
    for _ in range(40):                        # each warning stays, line after line, until read
        note = box.app.notes.current(clock())
        if note and note not in shown:
            shown.append(note)
        box.wait(0.5)
    assert shown[:2] == problems
    box.close()
