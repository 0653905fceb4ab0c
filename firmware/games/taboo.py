"""Taboo for three players (seed 003): each plays for themselves; roles rotate.

Per round: giver +1 a correct, -1 a pass, -1 a buzz; guesser +1 a correct, -1 a pass;
referee +1 a buzz.  Skunk Rule (optional): a round with no correct answer resets the
giver and the guesser to the lowest score of all players before the round, with a
minimum penalty of 2, and the referee scores 1 on top of the buzzes.  A sole leader who is
active in round 12 may refuse to play it and win, except under the Skunk Rule."""
from __future__ import annotations

from dataclasses import dataclass, field

from firmware.games.core import Outcome, RuleError, Timer, applier, finished
from firmware.games.options import Option

# (giver, guesser, referee) as indexes of the three players, rounds 1 to 6 (seed 003's table)
ROTATION = ((0, 1, 2), (2, 0, 1), (1, 2, 0), (0, 2, 1), (1, 0, 2), (2, 1, 0))
ROUNDS = 12
OVERTIME_ROUNDS = 3          # rounds 13-15 follow the rotation of rounds 1-3
SKUNK_MIN_PENALTY = 2
SKUNK_REFEREE_POINTS = 1
ROUND_S = 60                 # one turn of the Taboo hourglass

NAME, LABEL, HAS_TIMER = "taboo", "Taboo (3 players)", True
OPTIONS = (
    Option("round_s", ROUND_S, "Length of a Taboo round, seconds (one turn of the hourglass).",
           (30, 45, 60, 90, 120), menu="Taboo round", form="Round"),
    Option("skunk_rule", False, "Skunk Rule: a round with no correct answer resets the two active players "
           "(see the rules).", (True, False), menu="Taboo skunk", form="Skunk rule"),
)


@dataclass
class Round:
    number: int
    correct: int = 0
    passes: int = 0
    buzzes: int = 0
    deltas: tuple[int, int, int] = (0, 0, 0)
    skunked: bool = False


@dataclass
class State:
    names: tuple[str, str, str]
    skunk_rule: bool
    round_s: float
    scores: list[int] = field(default_factory=lambda: [0, 0, 0])
    round: Round = field(default_factory=lambda: Round(1))
    timer: Timer | None = None            # None until the round starts
    history: list[Round] = field(default_factory=list)
    last_round: int = ROUNDS              # 15 once overtime is agreed
    finished: Outcome | None = None


def new_game(settings: dict) -> State:
    names = tuple(settings.get("names", ("Alice", "Bob", "Chris")))
    return State(names=names, skunk_rule=bool(settings.get("skunk_rule", False)),
                 round_s=float(settings.get("round_s", ROUND_S)))


def roles(number: int) -> tuple[int, int, int]:
    """(giver, guesser, referee) for round `number` (1-based; 13-15 are overtime)."""
    if number > ROUNDS:
        return ROTATION[(number - ROUNDS - 1) % OVERTIME_ROUNDS]
    return ROTATION[(number - 1) % len(ROTATION)]


def phase(state: State) -> str:
    """"over", "tied" (after the last round, leaders level), "ready" or "playing"."""
    if state.finished:
        return "over"
    if state.round.number > state.last_round:
        return "tied"
    return "ready" if state.timer is None else "playing"


def active_timer(state: State) -> Timer | None:
    return state.timer


def leaders(scores) -> list[int]:
    best = max(scores)
    return [i for i, s in enumerate(scores) if s == best]


def refusal_offer(state: State) -> int | None:
    """Going into round 12 a sole leader who is active in it (giver or guesser) may refuse
    to play it and win: the player who can, or None.  The seed offers the Skunk Rule to
    players who "don't care for that", so with the Skunk Rule on nobody may refuse: round
    12 is played, and a leader who fails to score in it is skunked like in any round."""
    if state.skunk_rule or state.round.number != ROUNDS or phase(state) != "ready":
        return None
    lead = leaders(state.scores)
    giver, guesser, _ = roles(ROUNDS)
    return lead[0] if len(lead) == 1 and lead[0] in (giver, guesser) else None


def _need(state: State, wanted: str) -> None:
    now = phase(state)
    if now != wanted:
        raise RuleError({"over": "The game is over.", "tied": "The leaders are tied: choose overtime or co-winners.",
                         "ready": "Start the round first.", "playing": "The round is under way."}[now])


def _start(state: State, event: dict) -> None:
    _need(state, "ready")
    state.timer = Timer.new(state.round_s)
    state.timer.start(event["at"])


def _pause(state: State, event: dict) -> None:
    _need(state, "playing")
    state.timer.pause(event["at"])


def _resume(state: State, event: dict) -> None:
    _need(state, "playing")
    if state.timer.expired(event["at"]):
        raise RuleError("Time is up: end the round.")
    state.timer.start(event["at"])


def _count(attribute: str):
    def handler(state: State, event: dict) -> None:
        _need(state, "playing")
        setattr(state.round, attribute, getattr(state.round, attribute) + 1)
    return handler


def round_deltas(state: State) -> tuple[tuple[int, int, int], bool]:
    """Each player's change for the round being played, and whether it was skunked."""
    r = state.round
    giver, guesser, referee = roles(r.number)
    delta = [0, 0, 0]
    skunked = state.skunk_rule and r.correct == 0
    if skunked:
        lowest = min(state.scores)
        for p in (giver, guesser):
            delta[p] = min(lowest, state.scores[p] - SKUNK_MIN_PENALTY) - state.scores[p]
        delta[referee] = r.buzzes + SKUNK_REFEREE_POINTS
    else:
        delta[giver] = r.correct - r.passes - r.buzzes
        delta[guesser] = r.correct - r.passes
        delta[referee] = r.buzzes
    return tuple(delta), skunked


def _end_round(state: State, event: dict) -> None:
    _need(state, "playing")
    deltas, skunked = round_deltas(state)
    state.scores = [s + d for s, d in zip(state.scores, deltas)]
    state.round.deltas, state.round.skunked = deltas, skunked
    state.history.append(state.round)
    state.round, state.timer = Round(state.round.number + 1), None
    if state.round.number > state.last_round:
        lead = leaders(state.scores)
        if len(lead) == 1:
            state.finished = Outcome((state.names[lead[0]],), "highest score")
        elif state.last_round > ROUNDS:  # still level after overtime
            state.finished = Outcome(tuple(state.names[i] for i in lead), "tied after overtime")


def _refuse(state: State, event: dict) -> None:
    if state.skunk_rule:
        raise RuleError("With the Skunk Rule on, round 12 is played: nobody may refuse it.")
    player = refusal_offer(state)
    if player is None:
        raise RuleError("Only a sole leader who is active in round 12 may refuse to play it.")
    state.finished = Outcome((state.names[player],), "refused to play round 12 while leading")


def _co_winners(state: State, event: dict) -> None:
    _need(state, "tied")
    state.finished = Outcome(tuple(state.names[i] for i in leaders(state.scores)), "co-winners")


def _overtime(state: State, event: dict) -> None:
    _need(state, "tied")
    if state.last_round > ROUNDS:
        raise RuleError("Overtime was already played.")
    state.last_round = ROUNDS + OVERTIME_ROUNDS


HANDLERS = {"start": _start, "pause": _pause, "resume": _resume, "correct": _count("correct"),
            "pass": _count("passes"), "buzz": _count("buzzes"), "end_round": _end_round,
            "refuse": _refuse, "co_winners": _co_winners, "overtime": _overtime}

apply = applier(HANDLERS)
outcome = finished


def summary(state: State) -> dict:
    result = state.finished
    return {
        "game": "taboo",
        "phase": phase(state),
        "round": None if result else state.round.number,
        "scores": dict(zip(state.names, state.scores)),
        "rounds": [{"round": r.number, "correct": r.correct, "passes": r.passes, "buzzes": r.buzzes,
                    "deltas": dict(zip(state.names, r.deltas)), "skunked": r.skunked} for r in state.history],
        **Outcome.summary(result),
    }
