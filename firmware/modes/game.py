"""The controller part every game shares: events go through the rules, then the journal,
then the screen; long K1 is undo and long K4 is back to the menu in every game."""
from __future__ import annotations

from firmware.games.core import RuleError
from firmware.modes.base import Mode

# Events that only move a timer: undo skips over them and takes them along with the step
# they followed, so "undo" always means the last thing the players did.
TIMER_KINDS = frozenset({"pause", "resume"})


class GameMode(Mode):
    game = None          # the pure rules module
    title = ""

    def __init__(self, app, journal):
        super().__init__(app)
        self.journal = journal
        self.state = self._replay()

    def _replay(self):
        state = self.game.new_game(self.journal.settings)
        for event in list(self.journal.events):
            try:
                state = self.game.apply(state, event)
            except (RuleError, KeyError, TypeError, ValueError) as exc:
                self.journal.drop(self.journal.events.index(event))
                self.app.warn(f"A saved step ({event.get('kind')}) no longer fits the game ({exc}); it was dropped.")
        return state

    @property
    def outcome(self):
        return self.game.outcome(self.state)

    def submit(self, event: dict, cue: str = "click") -> bool:
        """Check the event against the rules, write it durably, then show it."""
        try:
            new = self.game.apply(self.state, event)
        except RuleError as exc:
            self.app.refuse(str(exc))
            return False
        self.journal.append(event)
        self.state = new
        self.app.cue("win" if self.outcome else cue)
        return True

    def undo(self) -> None:
        steps = [i for i, e in enumerate(self.journal.events) if e["kind"] not in TIMER_KINDS]
        if not steps:
            return self.app.refuse("Nothing to undo.")
        last = steps[-1]
        undone = self.journal.events[last]["kind"]
        while len(self.journal.events) > last:
            self.journal.drop(len(self.journal.events) - 1)
        self.state = self._replay()
        self.app.flash(f"Undone: {undone.replace('_', ' ')}")

    def timer(self):
        """The running or paused timer, if this game has one now."""
        return getattr(self.game, "active_timer", lambda s: None)(self.state)

    def on_key(self, press, now):
        if press.long and press.key == "K1":
            return self.undo()
        if press.long and press.key == "K4":
            return self.app.leave_game()
        self.on_game_key(press, now)

    def on_game_key(self, press, now) -> None:
        raise NotImplementedError

    def over_key(self, key: str, scores_view: str, home_view: str) -> None:
        """Keys on a finished game: K2 shows the scores, K4 goes back from them, or to the
        menu (which files the game in the history)."""
        if key == "K2":
            self.view = scores_view if self.view != scores_view else home_view
        elif key == "K4":
            if self.view == scores_view:
                self.view = home_view
            else:
                self.app.leave_game()
        else:
            self.app.refuse("The game is over: K2 shows the scores, K4 the menu.")
