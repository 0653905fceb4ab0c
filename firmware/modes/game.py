"""The screen part every game shares: events go to the session (journal first, then the
state), long K1 is undo and long K4 is back to the menu in every game."""
from __future__ import annotations

from firmware import config
from firmware.actions import Cue, Flash, LeaveGame, Refuse
from firmware.games.core import RuleError
from firmware.modes.base import Screen


class GameScreen(Screen):
    """A game in play.  `view` names what it shows; `home_view` is the screen of the game
    itself, the one an undo comes back to."""

    home_view = ""
    views: tuple[str, ...] = ()

    def __init__(self, session, settings: dict | None = None):
        self.session = session
        self.settings = settings if settings is not None else config.defaults()   # the box's, as it changes
        self.view = self.home_view

    @property
    def state(self):
        return self.session.state

    @property
    def outcome(self):
        return self.session.outcome

    @property
    def journal(self):
        return self.session.journal

    def timer(self):
        return self.session.timer()

    def submit(self, event: dict, cue: str = "click") -> list:
        """The event through the session; a refusal comes back as a Refuse."""
        try:
            self.session.submit(event)
        except RuleError as exc:
            return [Refuse(str(exc))]
        return [Cue("win" if self.outcome else cue)]

    def undo(self) -> list:
        try:
            undone = self.session.undo()
        except RuleError as exc:
            return [Refuse(str(exc))]
        self.view = self.home_view   # a view of the step just undone has nothing left to show
        self.after_undo()
        return [Flash(f"Undone: {undone}")]

    def after_undo(self) -> None:
        pass

    def on_key(self, press, now):
        if press.long and press.key == "K1":
            return self.undo()
        if press.long and press.key == "K4":
            return [LeaveGame()]
        return self.on_game_key(press, now) or []

    def on_game_key(self, press, now) -> list:
        raise NotImplementedError

    def over_key(self, key: str, scores_view: str) -> list:
        """Keys on a finished game: K2 shows the scores, K4 goes back from them, or to the
        menu (which files the game in the history)."""
        if key == "K2":
            self.view = scores_view if self.view != scores_view else self.home_view
        elif key == "K4":
            if self.view == scores_view:
                self.view = self.home_view
            else:
                return [LeaveGame()]
        else:
            return [Refuse("The game is over: K2 shows the scores, K4 the menu.")]
        return []

    # --- kept through a power cut ---------------------------------------------------
    def draft(self) -> dict | None:
        extra = self.draft_extra()
        if self.view == self.home_view and not extra:
            return None
        return {"screen": "play", "view": self.view, **extra}

    def draft_extra(self) -> dict:
        """Work in progress beyond the view (a count being made...)."""
        return {}

    def restore(self, draft: dict) -> None:
        if draft.get("view") in self.views:
            self.view = draft["view"]
