"""Perquackey's chart, bonuses, vulnerability and turns, against rules.md's worked examples."""
import pytest
from hypothesis import given, settings, strategies as st

from firmware.games import perquackey as pq
from firmware.games.core import RuleError, replay


def full(*lengths):
    return {n: 5 for n in lengths}


def test_the_rules_worked_examples():
    assert pq.throw_points({3: 2}) == 70
    assert pq.throw_points(full(3, 4)) == 100 + 200 + 300 == 600
    assert pq.throw_points(full(4, 5)) == 1100
    assert pq.throw_points(full(9, 10)) == 10500          # no bonus above 8
    assert pq.throw_points(full(3, 4, 5)) == 100 + 200 + 400 + 300 + 500


def test_only_five_words_of_a_length_count():
    assert pq.throw_points({4: 9}) == pq.throw_points({4: 5}) == 200


def test_rule_options():
    capped = dict(pq.DEFAULT_RULES, ten_letter_row="5000", bonus_5_6=600)
    assert pq.throw_points({10: 3}, rules=capped) == 5000
    assert pq.throw_points(full(5, 6), rules=capped) == 400 + 700 + 600
    assert pq.throw_points(full(5, 6)) == 400 + 700 + 800


def test_vulnerable_throws_have_no_3s_and_no_3_4_bonus():
    assert pq.throw_points(full(3, 4), vulnerable=True) == 200
    assert len(pq.cubes(True)) == 13 and len(pq.cubes(False)) == 10


def test_black_cubes_carry_all_26_letters():
    assert set("".join(pq.BLACK_CUBES)) == set("ABCDEFGHIJKLMNOPQRSTUVWXYZ")


def game(events, names=("Ann", "Ben"), **rules):
    return replay(pq, {"names": list(names), **rules}, events)


def score(**counts):
    return {"kind": "score", "counts": {str(k[1:]): v for k, v in counts.items()}}


def test_vulnerability_enters_at_the_threshold():
    s = game([score(n9=5, n10=1)])                 # Ann: 3000 + 1500 = 4500 -> vulnerable
    assert s.scores == [4500, 0] and s.vulnerable == [True, False]
    s = pq.apply(s, score(n3=1))                   # Ben
    s = pq.apply(s, score(n4=1))                   # Ann vulnerable, 120 < 500: set 500
    assert s.scores[0] == 4000 and s.history[-1].points == 120 and s.history[-1].change == -500
    s = pq.apply(s, score(n3=1))                   # Ben
    with pytest.raises(RuleError, match="3-letter"):
        pq.apply(s, score(n3=1, n4=5))


def test_a_set_under_2000_puts_the_player_back_on_the_black_cubes():
    # The sheet: "AT NO TIME MAY A PLAYER USE THE VULNERABLE CUBES IF HIS SCORE IS LESS
    # THAN 2,000 POINTS."  Ann reaches exactly 2000, is set to 1500, throws 10 cubes again
    # with 3-letter words, and becomes vulnerable again when she is back over 2000.
    s = game([score(n8=3, n6=3), score(), score(n4=3, n3=4), score()])   # Ann 1750 + 250 = 2000
    assert s.scores[0] == 2000 and s.vulnerable[0]
    s = pq.apply(s, {"kind": "letters", "letters": "AAEEBHIRSUQBC"})   # 13 cubes
    s = pq.apply(s, score(n4=1))                                       # 120 < 500: set
    assert s.scores[0] == 1500 and not s.vulnerable[0] and s.history[-1].change == -500
    s = pq.apply(s, score())                                           # Ben
    with pytest.raises(RuleError, match="10 cubes, not 13"):
        pq.apply(s, {"kind": "letters", "letters": "AAEEBHIRSUQBC"})
    s = pq.apply(s, {"kind": "letters", "letters": "AAEEBHIRSU"})
    assert pq.apply(s, score(n3=1)).history[-1].change == 60    # under 500, and not set again
    s = pq.apply(s, score(n3=5, n4=5))            # 100 + 200 + the 3&4 bonus 300, not set
    assert s.history[-1].change == 600 and s.scores[0] == 2100 and s.vulnerable[0]


def test_exactly_at_the_threshold_is_vulnerable():
    s = game([score(n8=3, n6=3)])                  # 1250 + 500 = 1750
    s = pq.apply(s, score())
    s = pq.apply(s, score(n4=3, n3=4))             # 160 + 90 = 250 -> exactly 2000
    assert s.scores[0] == 2000 and s.vulnerable[0]


def test_the_first_to_5000_wins_at_once_by_default():
    # The sheet: "THE FIRST PERSON TO ATTAIN A TOTAL SCORE OF 5.000 POINTS WINS THE GAME."
    s = game([score(n10=4)], names=("Ann", "Ben", "Cy"))       # Ann 6000
    assert pq.outcome(s).winners == ("Ann",) and "first to 5000" in pq.outcome(s).reason
    with pytest.raises(RuleError, match="over"):
        pq.apply(s, score(n10=5))


def test_finishing_the_round_is_the_house_rule_option():
    s = game([score(n10=4)], names=("Ann", "Ben", "Cy"), finish_round=True)   # Ann 6000, round goes on
    assert pq.outcome(s) is None
    s = pq.apply(s, score(n10=5))                              # Ben 7500
    s = pq.apply(s, score())
    assert pq.outcome(s).winners == ("Ben",)


def test_a_tie_at_the_end_of_the_round_is_shared():
    s = game([score(n10=4), score(n10=4)], finish_round=True)
    assert pq.outcome(s).winners == ("Ann", "Ben") and pq.outcome(s).tie


def test_word_groups_complete_at_five_words():
    counts = {3: 5, 4: 4, 5: 6, 11: 5}
    assert pq.complete_groups(counts) == [3, 5]              # 11 letters are off the chart
    assert pq.complete_groups(counts, vulnerable=True) == [5]  # no 3-letter group when vulnerable
    assert pq.groups_just_completed({3: 5, 4: 4}, {3: 5, 4: 5}) == [4]
    assert pq.groups_just_completed({3: 5, 4: 5}, {3: 6, 4: 5}) == []
    assert pq.groups_just_completed({3: 4}, {3: 5}, vulnerable=True) == []


def test_partners_illegal_suggestion_pays_every_opposing_side():
    s = game([{"kind": "illegal", "side": 1}], names=("Us", "Them", "Others"), partners=True)
    assert s.scores == [300, 0, 300]
    with pytest.raises(RuleError, match="partners"):
        game([{"kind": "illegal", "side": 1}])


def test_letters_must_match_the_number_of_cubes():
    s = game([{"kind": "letters", "letters": "abcdefghij"}])
    assert s.letters == "ABCDEFGHIJ"
    with pytest.raises(RuleError, match="10 cubes"):
        game([{"kind": "letters", "letters": "abc"}])


def test_the_timer_runs_per_throw():
    s = game([{"kind": "start", "at": 0.0}])
    assert s.timer.remaining(170.0) == 10.0
    s = pq.apply(s, {"kind": "pause", "at": 100.0})
    s = pq.apply(s, score(n3=1))
    assert s.timer is None and s.turn == 1


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.integers(3, 10), st.integers(0, 9)), st.booleans())
def test_more_words_never_score_less(counts, vulnerable):
    base = pq.throw_points(counts, vulnerable)
    for n in range(4, 11):
        more = {**counts, n: counts.get(n, 0) + 1}
        assert pq.throw_points(more, vulnerable) >= base
