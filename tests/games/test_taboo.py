import pytest
from hypothesis import given, settings, strategies as st

from firmware.games import taboo
from firmware.games.core import RuleError, replay

NAMES = ["Alice", "Bob", "Chris"]


def game(events, skunk=False):
    return replay(taboo, {"names": NAMES, "skunk_rule": skunk, "round_s": 60}, events)


def round_of(correct=0, passes=0, buzzes=0, at=0.0):
    return ([{"kind": "start", "at": at}] + [{"kind": "correct"}] * correct + [{"kind": "pass"}] * passes
            + [{"kind": "buzz"}] * buzzes + [{"kind": "end_round", "at": at + 60}])


def test_the_seeds_worked_example():
    # Alice gives to Bob, Chris referees; Bob 5 correct, Alice 1 pass, 2 buzzes: 2 / 4 / 2
    s = game(round_of(correct=5, passes=1, buzzes=2))
    assert s.scores == [2, 4, 2]


def test_the_rotation_table_and_overtime():
    table = [[NAMES[i] for i in taboo.roles(n)] for n in range(1, 16)]
    assert table[:6] == [["Alice", "Bob", "Chris"], ["Chris", "Alice", "Bob"], ["Bob", "Chris", "Alice"],
                         ["Alice", "Chris", "Bob"], ["Bob", "Alice", "Chris"], ["Chris", "Bob", "Alice"]]
    assert table[6:12] == table[:6]
    assert table[12:15] == table[:3]


def test_skunk_rule_resets_to_the_lowest_with_a_minimum_penalty_of_2():
    s = game(round_of(correct=5) + round_of(correct=3) + round_of(passes=1, buzzes=1), skunk=True)
    # before round 3: Alice 5+3=8, Bob 5, Chris 3; round 3 Bob gives to Chris, Alice referees
    assert s.history[-1].skunked
    assert s.scores == [8 + 1 + 1, 3, 3 - 2]     # Bob 5 -> 3 (the lowest), Chris 3 -> 1 (minimum penalty 2)
    off = game(round_of(correct=5) + round_of(correct=3) + round_of(passes=1, buzzes=1), skunk=False)
    assert off.scores == [8 + 1, 5 - 2, 3 - 1]


def full_game(per_round):
    events = []
    for n in range(1, 12):
        events += round_of(**per_round(n), at=n * 100.0)
    return events


def test_a_leader_active_in_round_12_may_refuse_it_and_win():
    s = game(full_game(lambda n: {"correct": 3 if taboo.roles(n)[1] == 1 else 1}))
    assert taboo.refusal_offer(s) == 1   # Bob leads; round 12: Chris gives to Bob
    done = taboo.apply(s, {"kind": "refuse"})
    assert taboo.outcome(done).winners == ("Bob",)


def test_with_the_skunk_rule_round_12_cannot_be_refused():
    # The seed offers the Skunk Rule to players who "don't care for that" (a leader refusing
    # round 12 and walking away as the champion): with it on, round 12 is played.
    s = game(full_game(lambda n: {"correct": 3 if taboo.roles(n)[1] == 1 else 1}), skunk=True)
    assert taboo.leaders(s.scores) == [1] and taboo.roles(12)[1] == 1   # Bob leads and guesses in round 12
    assert taboo.refusal_offer(s) is None
    with pytest.raises(RuleError, match="Skunk Rule"):
        taboo.apply(s, {"kind": "refuse"})
    s = taboo.apply(s, {"kind": "start", "at": 1200.0})
    s = taboo.apply(s, {"kind": "end_round", "at": 1260.0})           # no correct answer: skunked
    assert s.history[-1].skunked and taboo.outcome(s) is not None


def test_a_leader_refereeing_round_12_may_not_refuse():
    s = game(full_game(lambda n: {"correct": 3 if taboo.roles(n)[0] == 0 else 0}))
    assert taboo.leaders(s.scores) == [0] and taboo.refusal_offer(s) is None
    with pytest.raises(RuleError):
        taboo.apply(s, {"kind": "refuse"})


def test_a_tie_after_round_12_offers_co_winners_or_overtime():
    events = []
    for n in range(1, 13):
        events += round_of(correct=1, at=n * 100.0)   # everyone ends level at 8
    s = game(events)
    assert taboo.phase(s) == "tied" and len(set(s.scores)) == 1
    co = taboo.apply(s, {"kind": "co_winners"})
    assert taboo.outcome(co).winners == tuple(NAMES)
    ot = taboo.apply(s, {"kind": "overtime"})
    assert taboo.phase(ot) == "ready" and ot.round.number == 13
    ot = _apply(ot, round_of(correct=2, at=1300.0))   # round 13: Alice gives to Bob: both +2
    ot = _apply(ot, round_of(buzzes=1, at=1400.0))    # round 14: Chris gives, Bob referees and buzzes
    assert taboo.outcome(ot) is None
    ot = _apply(ot, round_of(at=1500.0))
    assert ot.scores == [10, 11, 7] and taboo.outcome(ot).winners == ("Bob",)


def _apply(state, events):
    for e in events:
        state = taboo.apply(state, e)
    return state


def test_keys_at_the_wrong_moment_are_refused():
    s = game([])
    for kind in ("correct", "pass", "buzz", "end_round", "pause", "co_winners", "overtime", "refuse"):
        with pytest.raises(RuleError):
            taboo.apply(s, {"kind": kind, "at": 0.0})


def test_the_timer_pauses_and_cannot_resume_after_time_is_up():
    s = game([{"kind": "start", "at": 0.0}, {"kind": "pause", "at": 20.0}])
    assert s.timer.remaining(100.0) == 40.0
    s = taboo.apply(s, {"kind": "resume", "at": 100.0})
    assert s.timer.remaining(130.0) == 10.0
    with pytest.raises(RuleError, match="Time is up"):
        taboo.apply(taboo.apply(s, {"kind": "pause", "at": 150.0}), {"kind": "resume", "at": 151.0})


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from(["start", "correct", "pass", "buzz", "end_round", "pause", "resume",
                                 "refuse", "co_winners", "overtime"]), max_size=200), st.booleans())
def test_random_play_keeps_the_rules(kinds, skunk):
    s = game([], skunk=skunk)
    for i, kind in enumerate(kinds):
        before = list(s.scores)
        try:
            s = taboo.apply(s, {"kind": kind, "at": float(i)})
        except RuleError:
            continue
        if kind == "end_round":
            r = s.history[-1]
            giver, guesser, referee = taboo.roles(r.number)
            change = [a - b for a, b in zip(s.scores, before)]
            if r.skunked:
                assert change[giver] <= -2 and change[guesser] <= -2 and change[referee] == r.buzzes + 1
            else:
                assert change[giver] == r.correct - r.passes - r.buzzes
                assert change[guesser] == r.correct - r.passes and change[referee] == r.buzzes
                assert sum(change) == 2 * r.correct - 2 * r.passes
