"""What every game module shares: the rule error, the outcome value, the timer and replay."""
from __future__ import annotations

import copy
from dataclasses import dataclass


class RuleError(ValueError):
    """An event the rules do not allow right now; the message says why, for the screen."""


@dataclass(frozen=True)
class Outcome:
    """How a game ended: the winners (several on a tie) and why."""
    winners: tuple[str, ...]
    reason: str

    @property
    def tie(self) -> bool:
        return len(self.winners) > 1

    @classmethod
    def highest(cls, names, scores, reason: str) -> "Outcome":
        """The players with the highest score win (several on a tie)."""
        best = max(scores)
        return cls(tuple(name for name, score in zip(names, scores) if score == best), reason)

    @staticmethod
    def summary(result: "Outcome | None") -> dict:
        """A game summary's winners and why (none while the game goes on)."""
        return {"winners": list(result.winners) if result else [], "reason": result.reason if result else None}


@dataclass
class Timer:
    """A countdown as state plus the clock: `left` seconds remained at `since`, and it runs
    if `running`.  Nothing sleeps; the screen asks `remaining(now)`."""
    length: float
    left: float
    since: float = 0.0
    running: bool = False

    @classmethod
    def new(cls, length: float) -> "Timer":
        return cls(length=length, left=length)

    def remaining(self, now: float) -> float:
        if not self.running:
            return self.left
        return max(0.0, self.left - (now - self.since))

    def expired(self, now: float) -> bool:
        return self.remaining(now) <= 0

    def start(self, now: float) -> None:
        if self.running:
            raise RuleError("The timer is already running.")
        self.since, self.running = now, True

    def pause(self, now: float) -> None:
        if not self.running:
            raise RuleError("The timer is not running.")
        self.left, self.since, self.running = self.remaining(now), now, False


def evolve(state, handlers: dict, event: dict):
    """Apply one event to a copy of `state` with the handler named by its kind."""
    handler = handlers.get(event.get("kind"))
    if handler is None:
        raise RuleError(f"Unknown event {event.get('kind')!r}.")
    new = copy.deepcopy(state)
    handler(new, event)
    return new


def applier(handlers: dict):
    """A game's `apply(state, event)`, from its table of event handlers."""
    def apply(state, event: dict):
        return evolve(state, handlers, event)
    return apply


def finished(state) -> Outcome | None:
    """The `outcome` of a game whose state keeps it in a `finished` field."""
    return state.finished


def replay(game, settings: dict, events: list[dict]):
    """The state after `events`, from a new game with `settings`."""
    state = game.new_game(settings)
    for event in events:
        state = game.apply(state, event)
    return state
