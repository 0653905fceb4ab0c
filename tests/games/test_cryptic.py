import random
from collections import Counter

import pytest
from hypothesis import given, settings, strategies as st

from firmware.games import cryptic as cw
from firmware.games.core import RuleError, replay
from firmware.modes.cryptic import roll_dice

SETTINGS = {"names": ["Ann", "Ben"], "target": 30, "guess_tokens": 10, "question_tokens": 3}


def game(events, **extra):
    return replay(cw, {**SETTINGS, **extra}, events)


def roll(a, b):
    return {"kind": "roll", "dice": [a, b]}


def guess(player, length=None):
    return {"kind": "guess", "player": player, "correct": length is not None, "length": length}


def test_a_plain_roll_names_two_slots_and_passes_the_turn():
    s = game([roll(2, 5)])
    assert s.dice == (2, 5) and s.action is None and s.turn == 1


@pytest.mark.parametrize("face", range(1, 7))
def test_every_double_does_its_action(face):
    s = game([roll(face, face)])
    assert s.action == face and s.done == [face]


def test_a_repeated_double_offers_only_the_actions_not_yet_done():
    s = game([roll(3, 3), roll(3, 3)])
    assert s.choosing and cw.actions_left(s) == [1, 2, 4, 5, 6]
    with pytest.raises(RuleError, match="already done"):
        cw.apply(s, {"kind": "choose", "action": 3})
    with pytest.raises(RuleError, match="Choose"):
        cw.apply(s, roll(1, 2))
    s = cw.apply(s, {"kind": "choose", "action": 5})
    assert s.action == 5 and s.done == [3, 5]


def test_when_all_six_are_done_a_double_is_a_plain_roll():
    events = [roll(f, f) for f in range(1, 7)] + [roll(4, 4)]
    s = game(events)
    assert not s.choosing and s.action is None and s.dice == (4, 4)


def test_first_guess_doubles_and_the_catch_up_succeeds():
    s = game([roll(1, 2), guess(0, 5)])
    assert s.scores == [10, 0] and s.rolls_left == 3 and s.guesses == [9, 10]
    s = cw.apply(s, roll(2, 3))
    s = cw.apply(s, guess(1, 4))
    assert s.scores == [10, 4] and s.round == 2 and s.rolls_left is None and s.done == []


def test_the_catch_up_fails_after_three_rolls():
    events = [roll(1, 2), guess(0, 5), roll(1, 3), guess(1), roll(2, 4), roll(5, 6), guess(1)]
    s = game(events)
    assert s.scores == [10, 3] and s.round == 2
    s_first = game(events, catchup_fail_points="first")
    assert s_first.scores == [13, 0]
    with pytest.raises(RuleError, match="used the catch-up rolls"):
        game(events[:-1] + [roll(1, 1)])
    ended = game(events[:-1] + [{"kind": "end_round"}])
    assert ended.scores == [10, 3]
    with pytest.raises(RuleError, match="still has 2"):
        game(events[:4] + [{"kind": "end_round"}])


def test_one_guess_between_rolls():
    s = game([roll(1, 2), guess(0)])
    with pytest.raises(RuleError, match="already guessed"):
        cw.apply(s, guess(0))
    s = cw.apply(s, guess(1))          # the other player may still guess
    s = cw.apply(s, roll(3, 4))
    s = cw.apply(s, guess(0))
    assert s.guesses == [8, 9]


def test_running_out_of_tokens_ends_the_game():
    events = []
    for _ in range(3):
        events += [roll(1, 2), guess(0)]
    s = game(events, guess_tokens=3)
    assert cw.outcome(s).reason == "Ann ran out of guess tokens" and cw.outcome(s).tie
    with pytest.raises(RuleError, match="over"):
        cw.apply(s, roll(1, 2))


def test_reaching_30_ends_the_game():
    events = [roll(1, 2), guess(0, 8), roll(2, 3), guess(1), roll(2, 3), roll(2, 3), guess(1),
              roll(4, 5), guess(0, 8)]
    s = game(events)
    assert s.scores == [32, 3] and cw.outcome(s).winners == ("Ann",) and cw.outcome(s).reason == "reached 30"


def test_question_tokens_replace_a_roll():
    s = game([{"kind": "question"}])
    assert s.questions == [2, 3] and s.turn == 1
    s = game([{"kind": "question"}] * 6)
    with pytest.raises(RuleError, match="no Ask any Question"):
        cw.apply(s, {"kind": "question"})


def test_question_tokens_come_back_every_round_and_guess_tokens_do_not():
    # "At the start of each round ... each player takes eight clue tokens and three question
    # marks"; the Take a Guess tokens are taken once, at the initial setup.
    s = game([{"kind": "question"}] * 4 + [guess(0), {"kind": "end_round"}])
    assert s.round == 2 and s.questions == [3, 3] and s.guesses == [9, 10]
    s = game([{"kind": "question"}, {"kind": "end_round"}], question_tokens=1)
    assert s.questions == [1, 1]


def test_a_wrong_guess_before_the_first_roll_ends_the_guessers_turn():
    # "If incorrect, your turn is over": Ann was to open the round and loses that roll.
    s = game([guess(0)])
    assert s.turn == 1 and s.guesses == [9, 10]
    s = cw.apply(s, roll(2, 5))                     # Ben rolls first
    assert s.turn == 0
    s = game([guess(1)])                            # Ben was not on turn: Ann still opens
    assert s.turn == 0
    s = game([{"kind": "end_round"}, guess(1)])     # round 2 is Ben's to open
    assert s.round == 2 and s.turn == 0
    s = game([roll(2, 5), guess(0)])                # after her roll Ann's turn was over anyway
    assert s.turn == 1


def test_both_slots_padlocked_rolls_again_without_a_turn():
    # "If both the player's and opponent's positions are already marked with padlocks, roll again."
    s = cw.apply(game([roll(2, 5)]), {"kind": "reroll", "dice": [3, 4]})
    assert s.dice == (3, 4) and s.turn == 1
    s = cw.apply(s, {"kind": "reroll", "dice": [6, 6]})           # a double on the re-roll acts
    assert s.action == 6 and s.done == [6] and s.turn == 1
    with pytest.raises(RuleError, match="Roll again only"):
        cw.apply(s, {"kind": "reroll", "dice": [1, 2]})
    with pytest.raises(RuleError, match="Roll again only"):
        game([{"kind": "question"}, {"kind": "reroll", "dice": [1, 2]}])
    catching_up = game([roll(1, 2), guess(0, 5), roll(2, 3)])
    again = cw.apply(catching_up, {"kind": "reroll", "dice": [4, 5]})
    assert catching_up.rolls_left == again.rolls_left == 2


def test_dice_are_fair():
    rng = random.Random(1234)
    rolls = [roll_dice(rng) for _ in range(36000)]
    faces = Counter(f for r in rolls for f in r)
    pairs = Counter(rolls)
    doubles = sum(1 for a, b in rolls if a == b)
    assert all(abs(n - 12000) < 400 for n in faces.values()) and len(faces) == 6   # ~4 sigma
    assert len(pairs) == 36 and all(abs(n - 1000) < 130 for n in pairs.values())
    assert abs(doubles / len(rolls) - 1 / 6) < 0.01


@settings(max_examples=100, deadline=None)
@given(st.lists(st.one_of(st.tuples(st.integers(1, 6), st.integers(1, 6)).map(lambda d: roll(*d)),
                          st.sampled_from([guess(0), guess(1), guess(0, 5), guess(1, 7), {"kind": "question"},
                                           {"kind": "end_round"}, {"kind": "choose", "action": 2},
                                           {"kind": "reroll", "dice": [2, 3]}])),
                max_size=150))
def test_random_play_keeps_the_invariants(events):
    s = game([])
    for e in events:
        try:
            s = cw.apply(s, e)
        except RuleError:
            continue
        assert all(t >= 0 for t in s.guesses + s.questions) and max(s.questions) <= s.questions_per_round
        assert s.rolls_left is None or 0 <= s.rolls_left <= 3
        assert len(set(s.done)) == len(s.done) <= 6
