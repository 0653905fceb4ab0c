"""Cryptic Words at the table: the dice roller, the doubles actions, tokens and score."""
from __future__ import annotations

import random
import secrets

from firmware.actions import Back, Go, Refuse, StartGame
from firmware.games import cryptic as rules
from firmware.modes.base import ListScreen, refused
from firmware.modes.game import GameScreen
from firmware.screen import wrap
from firmware.modes.setup import PRESET_NAMES, Field, FormScreen, option_fields, option_values

ANIMATION_S = 0.6
GUESS_LENGTH = 5                          # where the length chooser starts
_system_random = secrets.SystemRandom()   # the operating system's randomness: fair dice


def roll_dice(rng=_system_random) -> tuple[int, int]:
    return rng.randint(1, 6), rng.randint(1, 6)


def setup(settings: dict) -> FormScreen:
    fields = [Field("Player 1", PRESET_NAMES, PRESET_NAMES[0], names=True),
              Field("Player 2", PRESET_NAMES, PRESET_NAMES[1], names=True)]
    fields += option_fields(rules, settings)

    def done(v):
        return [StartGame("cryptic", {"names": [v["Player 1"], v["Player 2"]], **option_values(rules, settings, v)})]

    def check(v):
        return "The players need different names." if v["Player 1"] == v["Player 2"] else None

    return FormScreen("cryptic", "Cryptic Words set-up", fields, done, check)


class PlayScreen(GameScreen):
    home_view = "dice"
    views = ("dice", "guess-who", "guess-right", "guess-length", "status")
    rng = _system_random

    def __init__(self, session, settings: dict | None = None):
        super().__init__(session, settings)
        self.guesser = 0
        self.length = GUESS_LENGTH    # the guessed word's length, on the guess-length view
        self.pick = None              # the doubles action the chooser points at (kept apart from the length)
        self.animate_until = 0.0
        self._shuffle = random.Random()   # only for the tumbling faces of the animation

    def draft_extra(self):
        extra = {}
        if self.view.startswith("guess"):
            extra.update(guesser=self.guesser, length=self.length)
        if self.state.choosing and self.pick is not None:
            extra["pick"] = self._pick()
        return extra

    def restore(self, draft):
        super().restore(draft)
        if draft.get("guesser") in (0, 1):
            self.guesser = draft["guesser"]
        if draft.get("length") in rules.WORD_LENGTHS:
            self.length = draft["length"]
        if self.state.choosing and draft.get("pick") in rules.actions_left(self.state):
            self.pick = draft["pick"]

    def _pick(self) -> int:
        left = rules.actions_left(self.state)
        return self.pick if self.pick in left else left[0]

    # --- keys -------------------------------------------------------------------------
    def softkeys(self, now):
        s = self.state
        if s.finished:
            return ("", "Status", "", "Menu")
        if self.view == "status":
            return ("", "", "", "Back")
        if s.choosing:
            return ("Prev", "Next", "Choose", "")
        return {
            "dice": ("Roll", "Guess", "Ask" if s.questions[rules._roller(s)] else "", "More"),
            "guess-who": (s.names[0], s.names[1], "", "Cancel"),
            "guess-right": ("Right", "Wrong", "", "Cancel"),
            "guess-length": ("-", "+", "OK", "Cancel"),
            "status": ("", "", "", "Back"),
        }[self.view]

    def on_game_key(self, press, now):
        s, key = self.state, press.key
        if press.long:
            if key == "K2":
                self.view = "status" if self.view != "status" else "dice"
                return []
            return [Refuse("Hold K1: undo, K2: status, K4: menu.")]
        if s.finished:
            return self.over_key(key, "status")
        if self.view == "status":
            if key != "K4":
                return [Refuse("K4 goes back to the dice.")]
            self.view = "dice"
            return []
        if s.choosing:
            return self._choose(key)
        return getattr(self, "_" + self.view.replace("-", "_"))(key, now)

    def _dice(self, key, now):
        if key == "K1":
            actions = self.submit({"kind": "roll", "dice": list(roll_dice(self.rng))}, cue="roll")
            if not refused(actions):
                self.animate_until = now + ANIMATION_S
            return actions
        if key == "K2":
            self.view, self.length = "guess-who", GUESS_LENGTH
            return []
        if key == "K3":
            return self.submit({"kind": "question"})
        items = [("End of round", lambda: [Back()] + self._end_round()),
                 ("Status", lambda: [Back()] + self._status()), ("Back", [Back()])]
        if self.may_roll_again():
            items.insert(0, ("Roll again (both padlocked)", lambda: [Back()] + self._roll_again(now)))
        return [Go(ListScreen("Cryptic Words", items))]

    def may_roll_again(self) -> bool:
        """The rules' re-roll: after a plain roll, when the players find both slots it names
        already padlocked (only they can see the tiles)."""
        s = self.state
        return s.dice is not None and s.action is None and not s.choosing and not s.finished

    def _roll_again(self, now) -> list:
        actions = self.submit({"kind": "reroll", "dice": list(roll_dice(self.rng))}, cue="roll")
        if not refused(actions):
            self.animate_until = now + ANIMATION_S
        return actions

    def _end_round(self) -> list:
        self.view = "dice"
        return self.submit({"kind": "end_round"}, cue="score")

    def _choose(self, key) -> list:
        left = rules.actions_left(self.state)
        if key in ("K1", "K2"):
            step = -1 if key == "K1" else 1
            self.pick = left[(left.index(self._pick()) + step) % len(left)]
            return []
        if key == "K3":
            actions = self.submit({"kind": "choose", "action": self._pick()})
            self.pick = None
            return actions
        return [Refuse("Choose an action with K1/K2, then K3.")]

    def _guess_who(self, key, now):
        if key == "K3":
            return [Refuse("K1 or K2: who guesses; K4 cancels.")]
        if key in ("K1", "K2"):
            self.guesser = 0 if key == "K1" else 1
            self.view = "guess-right"
        else:
            self.view = "dice"
        return []

    def _guess_right(self, key, now):
        if key == "K3":
            return [Refuse("K1: right, K2: wrong, K4 cancels.")]
        if key == "K1":
            self.view = "guess-length"
        elif key == "K2":
            self.view = "dice"
            return self.submit({"kind": "guess", "player": self.guesser, "correct": False}, cue="error")
        else:
            self.view = "dice"
        return []

    def _guess_length(self, key, now):
        lengths = list(rules.WORD_LENGTHS)
        if key in ("K1", "K2"):
            i = lengths.index(self.length) + (1 if key == "K2" else -1)
            self.length = lengths[i % len(lengths)]
        elif key == "K3":
            self.view = "dice"
            return self.submit({"kind": "guess", "player": self.guesser, "correct": True, "length": self.length},
                               cue="score")
        else:
            self.view = "dice"
        return []

    def _status(self, key=None, now=None) -> list:
        """From the More menu: open the status view; in the status view: any key goes back."""
        self.view = "status" if self.view != "status" else "dice"
        return []

    # --- screens ----------------------------------------------------------------------
    def draw(self, p, now):
        s = self.state
        if self.view == "status":
            return self._draw_status(p)
        if s.finished:
            p.title("Cryptic Words: over", f"{s.scores[0]}-{s.scores[1]}")
            winners = s.finished.winners
            bottom = p.headline(" & ".join(winners) + (" tie" if len(winners) > 1 else " wins"), 12, 14)
            p.headline(s.finished.reason, max(bottom, 33), 9)
            return
        p.title(f"Round {s.round}", f"{p.shorten(s.names[0], 36)} {s.scores[0]}-{s.scores[1]} "
                                    f"{p.shorten(s.names[1], 36)}")
        if s.choosing:
            left = rules.actions_left(s)
            p.left(f"Double {s.dice[0]}-{s.dice[1]} done: pick another", 11, 9)
            p.inverse((0, 24, 127, 35), rules.DOUBLE_ACTIONS[self._pick()], 10)
            p.left(f"{len(left)} actions left", 38, 8)
            return
        if self.view.startswith("guess"):
            return self._draw_guess(p)
        self._draw_dice(p, now)

    def _draw_dice(self, p, now):
        s = self.state
        a, b = s.dice or (None, None)
        rolling = now < self.animate_until
        if rolling:
            a, b = self._shuffle.randint(1, 6), self._shuffle.randint(1, 6)
        for i, face in enumerate((a, b)):
            x = 2 + i * 32
            p.box((x, 13, x + 27, 40))
            p.centre("?" if face is None else str(face), 11, 22, x, x + 28)
        roller = s.names[rules._roller(s)]
        rows = []
        if rolling:
            rows.append("rolling...")
        elif s.dice is None:
            rows += [roller, "rolls"]
        else:
            if s.action:
                rows += wrap(p, rules.DOUBLE_ACTIONS[s.action], 8, 60)
            elif s.dice[0] == s.dice[1]:
                rows += ["all actions", "done"]
            else:
                rows.append(f"slots {s.dice[0]} & {s.dice[1]}")
            rows += ["next:", roller] if len(rows) == 1 else [f"next: {roller}"]
        for i, row in enumerate(rows):
            p.left(p.shorten(row, 60), 12 + i * 9, 8, 66)
        if s.rolls_left is not None:
            bottom = f"catch-up: {p.shorten(s.names[1 - s.first], 44)} has {s.rolls_left} roll(s)"
        else:
            bottom = (f"guesses {p.shorten(s.names[0], 34)} {s.guesses[0]}, "
                      f"{p.shorten(s.names[1], 34)} {s.guesses[1]}")
        p.left(bottom, 42, 8, 1)

    def _draw_guess(self, p):
        s = self.state
        if self.view == "guess-who":
            p.centre("Who guesses?", 12, 12)
            for i in (0, 1):
                p.left(f"{s.names[i]}: {s.guesses[i]} guess tokens", 27 + i * 10, 8, 2)
        elif self.view == "guess-right":
            p.headline(f"{s.names[self.guesser]}'s guess", 12, 12, rows=1)
            p.centre("right or wrong?", 32, 10)
        else:
            p.centre("Letters in the word", 11, 9)
            p.big(str(self.length), y=20, size=26)

    def _draw_status(self, p):
        s = self.state
        done = " ".join(str(a) for a in sorted(s.done)) or "none"
        p.title(f"Round {s.round}", f"doubles: {done}")
        for i in (0, 1):
            y = 11 + i * 9
            p.left(s.names[i], y, 8, 2, 70)
            p.right(f"{s.guesses[i]} guess {s.questions[i]} ask", y, 8, 127, 72)
        if s.finished:
            last = f"Over: {s.finished.reason}."
        elif s.rolls_left is not None:
            last = f"Catch-up: {s.names[1 - s.first]} has {s.rolls_left} roll(s) left."
        else:
            last = s.log[-1] if s.log else "No round finished yet."
        p.paragraph(last, top=31, size=8)
