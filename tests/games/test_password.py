"""Password against the seeds' own examples, and invariants over random play."""
import pytest
from hypothesis import given, settings, strategies as st

from firmware.games import password as pw
from firmware.games.core import RuleError, replay

NAMES4 = {"A1": "Ron", "B1": "Jake", "A2": "Dylan", "B2": "Sophie"}
MISS, GOT, FORM = {"kind": "missed"}, {"kind": "guessed"}, {"kind": "form"}


def play(events, players=4, first_team=1, names=NAMES4):
    return replay(pw, {"players": players, "names": names, "first_team": first_team}, events)


def test_three_clues_before_the_guess_score_8():
    # seed 000: "if three clue words had been given, the point value for that Password would be 8"
    s = play([MISS, MISS, GOT])
    assert s.cells["B1"][0] == 8


def test_password_5_counts_double():
    s = play([MISS] * 10 * 8 + [MISS, MISS, MISS, GOT])  # eight passwords nobody got, then A5 at 7
    assert pw.word(s) == ("B", 5)
    assert s.cells["B2"][4] == 14
    s = play([MISS] * 10 * 9 + [MISS] * 4 + [GOT])       # B5 guessed with the dial at 6
    assert 12 in (s.cells["A1"][4], s.cells["A2"][4])


def test_ten_missed_clues_score_nothing_and_move_on():
    s = play([MISS] * 10)
    assert pw.word(s) == ("B", 1) and all(v is None for c in s.cells.values() for v in c)


def test_order_of_play_and_alternating_first_clue():
    s = pw.new_game({"players": 4, "names": NAMES4, "first_team": 2})
    seen = []
    for _ in range(10):
        seen.append(("".join(map(str, pw.word(s))), pw.giver(s)))
        s = pw.apply(s, GOT)
    assert seen == [("A1", "A2"), ("B1", "B1"), ("A2", "A1"), ("B2", "B2"), ("A3", "A2"),
                    ("B3", "B1"), ("A4", "A1"), ("B4", "B2"), ("A5", "A2"), ("B5", "B1")]
    assert pw.outcome(s) is not None


def test_clues_alternate_between_the_teams():
    s = pw.new_game({"players": 4, "names": NAMES4, "first_team": 1})
    givers = []
    for _ in range(4):
        givers.append(pw.giver(s))
        s = pw.apply(s, MISS)
    assert givers == ["A1", "A2", "A1", "A2"]


def challenge(one_word):
    return {"kind": "challenge", "one_word": one_word}


def seed_game_events():
    """A play-by-play consistent with seed 000's example.  Team 1 (Ron A, Jake B) opens A1,
    so A1 A3 A5 B2 B4 are opened by team 1 and the others by team 2.  Ron scored on B words
    2 and 4; Dylan on B words 1 and 5 (No. 5 at 6: 12); nobody on B3; Jake on A words 1, 3
    and 5 (doubled); Sophie on A words 2 and 4.  Two of the scores can only come from a
    won challenge (the dial's value when the other team's giver was on)."""
    return ([MISS] * 2 + [GOT]                  # A1: Jake at 8
            + [MISS] * 3 + [challenge(False)]   # B1: team 1's 4th clue was two words: Dylan 7
            + [MISS] * 6 + [GOT]                # A2: Sophie at 4
            + [MISS] * 2 + [GOT]                # B2: Ron at 8
            + [MISS] * 3 + [challenge(False)]   # A3: team 2's 4th clue was two words: Jake 7
            + [MISS] * 10                       # B3: nobody
            + [MISS] * 4 + [GOT]                # A4: Sophie at 6
            + [MISS] * 2 + [GOT]                # B4: Ron at 8
            + [MISS] * 4 + [GOT]                # A5: Jake at 6, doubled: 12
            + [MISS] * 4 + [GOT])               # B5: Dylan at 6, doubled: 12


def test_form_of_the_word_one_more_try():
    exact = play([MISS, FORM, GOT])
    assert exact.cells["B2"][0] == 9
    wrong = play([MISS, FORM, MISS])
    assert all(v is None for c in wrong.cells.values() for v in c) and pw.word(wrong) == ("B", 1)
    with pytest.raises(RuleError):
        play([FORM, FORM])


def test_a_challenge_gives_the_value_to_the_team_that_was_right():
    upheld = play([MISS, MISS, {"kind": "challenge", "one_word": False}])  # team 1's clue was two words
    assert upheld.cells["B2"][0] == 8 and upheld.cells["B1"][0] is None
    broken = play([MISS, MISS, {"kind": "challenge", "one_word": True}])
    assert broken.cells["B1"][0] == 8


def test_three_player_game():
    names = {"G": "Ann", "R1": "Bo", "R2": "Cy"}
    s = play([MISS, MISS, {"kind": "guessed", "who": "R1"},
              {"kind": "guessed", "who": "both"},
              {"kind": "missed"}] + [MISS] * 9 +
             [{"kind": "form", "who": "R2"}, {"kind": "guessed", "who": "R2"},
              MISS, MISS, MISS, MISS, {"kind": "guessed", "who": "R2"}], players=3, names=names)
    assert s.cells["R1"] == [8, 10, None, None, None]
    assert s.cells["R2"] == [None, 10, None, 10, 12]
    assert pw.outcome(s).winners == ("Cy",)
    with pytest.raises(RuleError, match="over"):
        pw.apply(s, MISS)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from([MISS, GOT, FORM, {"kind": "challenge", "one_word": True},
                                 {"kind": "challenge", "one_word": False}]), max_size=120))
def test_invariants_over_random_play(events):
    s = pw.new_game({"players": 4, "names": NAMES4})
    for e in events:
        try:
            new = pw.apply(s, e)
        except RuleError:
            continue
        assert pw.apply(s, e).__dict__ == new.__dict__  # same step, same state
        s = new
        if not pw.is_over(s):
            assert 1 <= pw.dial(s) <= 10
        cells = [v for c in s.cells.values() for v in c if v is not None]
        assert all(0 < v <= 20 for v in cells)
        assert sum(pw.totals(s).values()) == sum(cells)
