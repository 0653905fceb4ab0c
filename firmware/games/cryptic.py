"""Cryptic Words (seed 004): two players, two dice, guess tokens and the score.

Players alternate rolling.  Not doubles: the two dice name the slots questioned.  Doubles:
the action for that double is done by both players; if it was already done this round, any
action not yet done is chosen instead (and once all six are done, a double is read as a
plain roll).  When both slots the dice name are already padlocked the roller rolls again:
a re-roll that is not a new turn and uses no catch-up roll.  An "Ask any Question" token
may replace a roll; each player takes three of them at the start of every round ("each
player takes eight clue tokens and three question marks"), while the "Take a Guess"
tokens last the whole game.  A wrong guess ends the guesser's turn ("If incorrect, your
turn is over"): before the round's first roll, the player about to open it loses that
roll to the other.  A correct guess scores the word's length, doubled for the first to
guess; then the other player gets three rolls to guess, and if they fail, 3 points go (by
default) to the player who failed."""
from __future__ import annotations

from dataclasses import dataclass, field

from firmware.games.core import Outcome, RuleError, applier, finished
from firmware.games.options import Option

DOUBLE_ACTIONS = {1: "Mark starting tile", 2: "Mark ending tile", 3: "Reveal first letter",
                  4: "Show last letter", 5: "Reveal word length", 6: "Order the tiles"}
FIRST_GUESS_MULTIPLIER = 2
CATCHUP_FAIL_POINTS = 3
WORD_LENGTHS = range(3, 9)      # "at least 3-8 letters"

NAME, LABEL, HAS_TIMER = "cryptic", "Cryptic Words", False
OPTIONS = (
    Option("target", 30, "Score that ends the game.", (20, 30, 40), menu="CW target", form="Target"),
    Option("guess_tokens", 10, "Take a Guess tokens each.", (5, 8, 10, 12), menu="CW guesses", form="Guesses"),
    Option("question_tokens", 3, "Ask any Question tokens each player takes at the start of every round.",
           (0, 1, 2, 3), menu="CW questions", form="Questions"),
    Option("catchup_rolls", 3, "Rolls the other player gets after the first correct guess.", low=1, high=6),
    Option("catchup_fail_points", "failer", "Who scores 3 when the catch-up fails: the player who failed "
           "(rules digest), or the one who guessed first (the other reading of the seed).", ("failer", "first"),
           menu="CW 3pts to"),
)


@dataclass
class State:
    names: tuple[str, str]
    target: int = 30
    catchup_rolls: int = 3
    fail_points_to: str = "failer"              # or "first"
    scores: list[int] = field(default_factory=lambda: [0, 0])
    guesses: list[int] = field(default_factory=lambda: [10, 10])
    questions: list[int] = field(default_factory=lambda: [3, 3])   # left this round
    questions_per_round: int = 3
    round: int = 1
    turn: int = 0                               # who rolls next
    opened: bool = False                        # a roll or a question has opened the round
    dice: tuple[int, int] | None = None         # the last roll
    action: int | None = None                   # the doubles action done on the last roll
    choosing: bool = False                      # a repeated double waits for a chosen action
    done: list[int] = field(default_factory=list)   # doubles actions done this round
    guessed: list[bool] = field(default_factory=lambda: [False, False])  # since the last roll
    first: int | None = None                    # who guessed first this round
    rolls_left: int | None = None               # the catch-up's rolls
    finished: Outcome | None = None
    log: list[str] = field(default_factory=list)  # what ended each round, for the screen and replay


def new_game(settings: dict) -> State:
    guesses, questions = int(settings.get("guess_tokens", 10)), int(settings.get("question_tokens", 3))
    return State(names=tuple(settings.get("names", ("Player 1", "Player 2"))),
                 target=int(settings.get("target", 30)), catchup_rolls=int(settings.get("catchup_rolls", 3)),
                 fail_points_to=settings.get("catchup_fail_points", "failer"),
                 guesses=[guesses, guesses], questions=[questions, questions], questions_per_round=questions)


def actions_left(state: State) -> list[int]:
    return [a for a in DOUBLE_ACTIONS if a not in state.done]


def active_timer(state: State):
    return None


def _playing(state: State) -> None:
    if state.finished:
        raise RuleError("The game is over.")
    if state.choosing:
        raise RuleError("Choose the doubles action first.")


def _take_turn(state: State) -> None:
    """A roll or a question was used: guesses open again, the catch-up counts it."""
    state.guessed, state.opened = [False, False], True
    if state.rolls_left is not None:
        if state.rolls_left == 0:
            raise RuleError(f"{state.names[1 - state.first]} has used the catch-up rolls: end the round.")
        state.rolls_left -= 1
    else:
        state.turn = 1 - state.turn
    state.action = None


def _dice(event: dict) -> tuple[int, int]:
    a, b = event["dice"]
    if not (1 <= a <= 6 and 1 <= b <= 6):
        raise RuleError("Dice show 1 to 6.")
    return a, b


def _roll(state: State, event: dict) -> None:
    _playing(state)
    a, b = _dice(event)
    _take_turn(state)
    _land(state, a, b)


def _reroll(state: State, event: dict) -> None:
    """Both slots the dice named were already padlocked: the same player rolls again, and
    neither a turn nor a catch-up roll is used."""
    _playing(state)
    if state.dice is None or state.action is not None:
        raise RuleError("Roll again only after a plain roll whose two slots are both padlocked.")
    a, b = _dice(event)
    _land(state, a, b)


def _land(state: State, a: int, b: int) -> None:
    """The dice show a and b: doubles do their action (or wait for one to be chosen)."""
    state.dice = (a, b)
    if a == b and actions_left(state):
        if a in state.done:
            state.choosing = True
        else:
            state.action = a
            state.done.append(a)


def _choose(state: State, event: dict) -> None:
    if not state.choosing:
        raise RuleError("There is no doubles action to choose.")
    action = event["action"]
    if action not in actions_left(state):
        raise RuleError(f"{DOUBLE_ACTIONS.get(action, action)} was already done this round.")
    state.choosing = False
    state.action = action
    state.done.append(action)


def _question(state: State, event: dict) -> None:
    _playing(state)
    player = _roller(state)
    if state.questions[player] <= 0:
        raise RuleError(f"{state.names[player]} has no Ask any Question token left.")
    _take_turn(state)
    state.questions[player] -= 1
    state.dice = None


def _roller(state: State) -> int:
    return 1 - state.first if state.rolls_left is not None else state.turn


def _guess(state: State, event: dict) -> None:
    _playing(state)
    player = event["player"]
    if state.guesses[player] <= 0:
        raise RuleError(f"{state.names[player]} has no guess token left.")
    if state.guessed[player]:
        raise RuleError(f"{state.names[player]} already guessed since the last roll.")
    if state.first == player:
        raise RuleError(f"{state.names[player]} already found the word this round.")
    state.guesses[player] -= 1
    state.guessed[player] = True
    if event.get("correct"):
        length = int(event["length"])
        if length not in WORD_LENGTHS:
            raise RuleError("A secret word has 3 to 8 letters.")
        if state.first is None:
            state.scores[player] += length * FIRST_GUESS_MULTIPLIER
            state.first, state.rolls_left = player, state.catchup_rolls
            state.log.append(f"R{state.round}: {state.names[player]} first, {length * FIRST_GUESS_MULTIPLIER}")
        else:
            state.scores[player] += length
            state.log.append(f"R{state.round}: {state.names[player]} caught up, {length}")
            _next_round(state)
    elif state.rolls_left == 0 and player == 1 - state.first:
        _catchup_failed(state)
    elif state.rolls_left is None and not state.opened and player == state.turn:
        state.turn = 1 - player      # wrong before opening the round: that turn is over
    _check_end(state)


def _catchup_failed(state: State) -> None:
    failer = 1 - state.first
    gets = failer if state.fail_points_to == "failer" else state.first
    state.scores[gets] += CATCHUP_FAIL_POINTS
    state.log.append(f"R{state.round}: {state.names[failer]} missed; +{CATCHUP_FAIL_POINTS} {state.names[gets]}")
    _next_round(state)


def _end_round(state: State, event: dict) -> None:
    _playing(state)
    if state.rolls_left:
        raise RuleError(f"{state.names[1 - state.first]} still has {state.rolls_left} roll(s) to guess.")
    if state.first is not None:
        _catchup_failed(state)
    else:
        state.log.append(f"R{state.round}: nobody guessed")
        _next_round(state)
    _check_end(state)


def _next_round(state: State) -> None:
    state.round += 1
    state.done, state.first, state.rolls_left = [], None, None
    state.dice, state.action, state.guessed, state.opened = None, None, [False, False], False
    state.questions = [state.questions_per_round] * 2   # "each player takes ... three question marks"
    state.turn = (state.round - 1) % 2       # the opening roll alternates from round to round


def _check_end(state: State) -> None:
    if state.finished:
        return
    reason = None
    if max(state.scores) >= state.target:
        reason = f"reached {state.target}"
    elif min(state.guesses) <= 0:
        reason = f"{state.names[state.guesses.index(0)]} ran out of guess tokens"
    if reason:
        state.finished = Outcome.highest(state.names, state.scores, reason)


HANDLERS = {"roll": _roll, "reroll": _reroll, "choose": _choose, "question": _question, "guess": _guess,
            "end_round": _end_round}

apply = applier(HANDLERS)
outcome = finished


def summary(state: State) -> dict:
    result = state.finished
    return {
        "game": "cryptic",
        "phase": "over" if result else ("catch-up" if state.rolls_left is not None else "playing"),
        "round": state.round,
        "scores": dict(zip(state.names, state.scores)),
        "guess_tokens": dict(zip(state.names, state.guesses)),
        "question_tokens": dict(zip(state.names, state.questions)),
        "actions_done": [DOUBLE_ACTIONS[a] for a in state.done],
        "rounds": state.log,
        **Outcome.summary(result),
    }
