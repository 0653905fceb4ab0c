"""Perquackey (seed 002): the score chart, the bonuses, vulnerability and the turns.

A throw is scored from how many words of each length the player made: each cell of the
chart is the running TOTAL for that length (only five words of a length count).  Two
adjacent full groups earn a bonus.  A player is vulnerable while their score is
2000 or more: they throw all 13 cubes, may not use 3-letter words, and are set 500 if a
throw makes under 500 (its points then do not count).  A set that takes them under 2000
puts them back on the 10 black cubes, since "at no time may a player use the vulnerable
cubes if his score is less than 2,000 points".  The first to 5000 wins (finishing the
round first is a house-rule option)."""
from __future__ import annotations

from dataclasses import dataclass, field

from firmware.games.core import Outcome, RuleError, Timer, applier, finished
from firmware.games.options import Option
from firmware.games.options import defaults as option_defaults

WORDS_PER_GROUP = 5
CHART = {  # letters -> total for 1..5 words of that length (rules digest)
    3: (60, 70, 80, 90, 100),
    4: (120, 140, 160, 180, 200),
    5: (200, 250, 300, 350, 400),
    6: (300, 400, 500, 600, 700),
    7: (500, 650, 800, 950, 1100),
    8: (750, 1000, 1250, 1500, 1750),
    9: (1000, 1500, 2000, 2500, 3000),
    10: (1500, 3000, 4500, 6000, 7500),
}
CAPPED_TEN_ROW = (1500, 3000, 5000, 5000, 5000)   # one printing caps the 10-letter row
BONUS = {3: 300, 4: 500, 5: 800, 6: 1200, 7: 1850}  # full groups L and L+1; none above 8
SHORTEST, LONGEST = 3, 10
BLACK_CUBES = ("AAAEEE", "AAAEEE", "BHIKRT", "FHIRSU", "GIMRSU", "EJQVXZ", "FINPTU", "CMOOPW", "DLNORT", "BLOOWY")
RED_CUBES = {"classic": ("QSSVWY", "BFHLNP", "CDGJKM"), "later": ("BFPQSY", "CDGJKM", "HLNSVW")}

NAME, LABEL, HAS_TIMER = "perquackey", "Perquackey", True
OPTIONS = (
    Option("timer_s", 180, "Length of a throw, seconds (the sand timer is 3 minutes).",
           (60, 90, 120, 150, 180, 240), menu="PQ timer"),
    Option("vulnerable_at", 2000, "Score that makes a player vulnerable (one edition: 2500).", (2000, 2500),
           menu="PQ vulnerable"),
    Option("vulnerable_minimum", 500, "A vulnerable throw under this is set.", low=0, high=5000),
    Option("set_penalty", 500, "Points a set (failed vulnerable) throw costs.", low=0, high=5000),
    Option("winning_score", 5000, "Score that wins.", (3000, 5000, 10000), menu="PQ target"),
    Option("red_set", "classic", "Red (vulnerable) cubes: classic or later printing.", ("classic", "later"),
           menu="PQ red cubes"),
    Option("ten_letter_row", "7500", "10-letter row of the chart: 7500, or capped at 5000.", ("7500", "5000"),
           menu="PQ 10-letter"),
    Option("bonus_5_6", 800, "Bonus for full 5s and 6s (one source says 600).", (800, 600), menu="PQ 5&6 bonus"),
    Option("partner_penalty", 300, "Points each opposing side gets for an illegal suggestion.", low=0, high=1000),
    Option("finish_round", False, "House rule: when a player reaches the target, the others of that round still "
           "throw and the highest score then wins (the sheet: the first to the target wins).", (True, False),
           menu="PQ finish rnd"),
)
DEFAULT_RULES = option_defaults(OPTIONS)


def rules_of(settings: dict) -> dict:
    return {**DEFAULT_RULES, **{k: v for k, v in settings.items() if k in DEFAULT_RULES}}


def chart_row(length: int, rules: dict) -> tuple[int, ...]:
    if length == 10 and str(rules["ten_letter_row"]) == "5000":
        return CAPPED_TEN_ROW
    return CHART[length]


def bonus(length: int, rules: dict) -> int:
    return rules["bonus_5_6"] if length == 5 else BONUS[length]


def shortest(vulnerable: bool) -> int:
    return SHORTEST + 1 if vulnerable else SHORTEST


def throw_points(counts: dict[int, int], vulnerable: bool = False, rules: dict | None = None) -> int:
    """The chart value of a throw with `counts[length]` words of each length (extra words
    beyond five count as five; lengths off the chart and, when vulnerable, 3-letter words
    score nothing) plus the bonuses for adjacent full groups."""
    rules = rules or DEFAULT_RULES
    low = shortest(vulnerable)
    used = {n: min(WORDS_PER_GROUP, max(0, int(counts.get(n, 0)))) for n in range(low, LONGEST + 1)}
    points = sum(chart_row(n, rules)[c - 1] for n, c in used.items() if c)
    points += sum(bonus(n, rules) for n in BONUS
                  if n >= low and used.get(n) == WORDS_PER_GROUP and used.get(n + 1) == WORDS_PER_GROUP)
    return points


def complete_groups(counts: dict[int, int], vulnerable: bool = False) -> list[int]:
    """The word lengths whose group is complete (five words), in order: the sheet has the
    scribe "advise the player that the word group has been completed".  A length that does
    not score (3 letters when vulnerable, off the chart) never completes."""
    return [n for n in range(shortest(vulnerable), LONGEST + 1) if int(counts.get(n, 0)) >= WORDS_PER_GROUP]


def groups_just_completed(before: dict[int, int], after: dict[int, int], vulnerable: bool = False) -> list[int]:
    """The lengths that reached five words between two counts: when to sound the cue."""
    done = set(complete_groups(before, vulnerable))
    return [n for n in complete_groups(after, vulnerable) if n not in done]


def cubes(vulnerable: bool, red_set: str = "classic") -> tuple[str, ...]:
    return BLACK_CUBES + (RED_CUBES[red_set] if vulnerable else ())


@dataclass
class Turn:
    player: int
    counts: dict[int, int]
    points: int           # what the throw made on the chart
    change: int           # what it did to the score (negative when set)
    letters: str = ""


@dataclass
class State:
    names: tuple[str, ...]
    rules: dict
    partners: bool = False
    scores: list[int] = field(default_factory=list)
    vulnerable: list[bool] = field(default_factory=list)
    first: int = 0
    turn: int = 0
    round: int = 1
    timer: Timer | None = None
    letters: str = ""
    history: list[Turn] = field(default_factory=list)
    crossed: list[int] = field(default_factory=list)   # who reached the target, in order
    finished: Outcome | None = None


def new_game(settings: dict) -> State:
    names = tuple(settings.get("names", ("Player 1", "Player 2")))
    if not 1 <= len(names) <= 6:
        raise RuleError("Perquackey is for 1 to 6 players or sides.")
    first = int(settings.get("first", 0)) % len(names)
    return State(names=names, rules=rules_of(settings), partners=bool(settings.get("partners", False)),
                 scores=[0] * len(names), vulnerable=[False] * len(names), first=first, turn=first)


def active_timer(state: State) -> Timer | None:
    return state.timer


def _playing(state: State) -> None:
    if state.finished:
        raise RuleError("The game is over.")


def _letters(state: State, event: dict) -> None:
    _playing(state)
    letters = "".join(ch for ch in str(event["letters"]).upper() if ch.isalpha())
    wanted = len(cubes(state.vulnerable[state.turn]))
    if len(letters) != wanted:
        raise RuleError(f"This throw has {wanted} cubes, not {len(letters)}.")
    state.letters = letters


def _start(state: State, event: dict) -> None:
    _playing(state)
    if state.timer is not None:
        raise RuleError("The timer is already set for this throw.")
    state.timer = Timer.new(state.rules["timer_s"])
    state.timer.start(event["at"])


def _pause(state: State, event: dict) -> None:
    if state.timer is None:
        raise RuleError("The timer is not running.")
    state.timer.pause(event["at"])


def _resume(state: State, event: dict) -> None:
    if state.timer is None or state.timer.running:
        raise RuleError("The timer is not paused.")
    if state.timer.expired(event["at"]):
        raise RuleError("Time is up.")
    state.timer.start(event["at"])


def _score(state: State, event: dict) -> None:
    """The words of the throw were counted: score it and pass the cubes on."""
    _playing(state)
    player, rules = state.turn, state.rules
    counts = {int(k): int(v) for k, v in event.get("counts", {}).items()}
    if any(v < 0 for v in counts.values()):
        raise RuleError("Word counts cannot be negative.")
    vulnerable = state.vulnerable[player]
    if vulnerable and counts.get(SHORTEST):
        raise RuleError("A vulnerable player may not use 3-letter words.")
    points = throw_points(counts, vulnerable, rules)
    if vulnerable and points < rules["vulnerable_minimum"]:
        change = -rules["set_penalty"]      # set: the throw's own points do not count
    else:
        change = points
    _add(state, player, change)
    state.history.append(Turn(player, counts, points, change, state.letters))
    _next_turn(state)


def _illegal(state: State, event: dict) -> None:
    """A partner suggested a word illegally: every opposing side gets the penalty."""
    _playing(state)
    if not state.partners:
        raise RuleError("Illegal suggestions only apply when playing with partners.")
    side = int(event["side"])
    for other in range(len(state.names)):
        if other != side:
            _add(state, other, state.rules["partner_penalty"])
    _check_end(state, round_over=False)


def _add(state: State, player: int, change: int) -> None:
    """Change a score; vulnerability follows it both ways (a set under the threshold puts
    the player back on the black cubes), and reaching the target is remembered."""
    state.scores[player] += change
    state.vulnerable[player] = state.scores[player] >= state.rules["vulnerable_at"]
    if state.scores[player] >= state.rules["winning_score"] and player not in state.crossed:
        state.crossed.append(player)


def _next_turn(state: State) -> None:
    state.timer, state.letters = None, ""
    state.turn = (state.turn + 1) % len(state.names)
    round_over = state.turn == state.first
    if round_over:
        state.round += 1
    _check_end(state, round_over)


def _check_end(state: State, round_over: bool) -> None:
    """First to the target wins; with finish_round the round is completed first and the
    highest score then wins (several at the same score share the win)."""
    if not state.crossed or state.finished:
        return
    if not state.rules["finish_round"]:
        state.finished = Outcome((state.names[state.crossed[0]],), f"first to {state.rules['winning_score']}")
    elif round_over or len(state.names) == 1:
        state.finished = Outcome.highest(state.names, state.scores,
                                         f"highest score after reaching {state.rules['winning_score']}")


HANDLERS = {"letters": _letters, "start": _start, "pause": _pause, "resume": _resume, "score": _score,
            "illegal": _illegal}

apply = applier(HANDLERS)
outcome = finished


def summary(state: State) -> dict:
    result = state.finished
    return {
        "game": "perquackey",
        "phase": "over" if result else "playing",
        "round": state.round,
        "turn": None if result else state.names[state.turn],
        "scores": dict(zip(state.names, state.scores)),
        "vulnerable": [n for n, v in zip(state.names, state.vulnerable) if v],
        "throws": [{"player": state.names[t.player], "counts": {str(k): v for k, v in t.counts.items() if v},
                    "points": t.points, "change": t.change, "letters": t.letters} for t in state.history],
        **Outcome.summary(result),
    }
