"""Password at the table: the dial, the keys for what happened to each clue, the score pad."""
from __future__ import annotations

from firmware.actions import Refuse, StartGame
from firmware.games import password as rules
from firmware.modes.game import GameScreen
from firmware.modes.setup import PRESET_NAMES, Field, FormScreen, option_fields, option_values


TEAM_SLOTS = {"A1": "Team 1 A", "B1": "Team 1 B", "A2": "Team 2 A", "B2": "Team 2 B"}
THREE_SLOTS = {"G": "Giver", "R1": "Receiver 1", "R2": "Receiver 2"}


def _slots(v) -> dict:
    """Role -> form line for the number of players chosen."""
    return THREE_SLOTS if v["Players"] == "3" else TEAM_SLOTS


def setup(settings: dict) -> FormScreen:
    def teams(v):
        return v["Players"] != "3"

    fields = [Field("Players", ["4 (teams)", "3"])]
    fields += [Field(label, PRESET_NAMES, PRESET_NAMES[i], names=True, when=teams)
               for i, label in enumerate(TEAM_SLOTS.values())]
    fields += [Field(label, PRESET_NAMES, PRESET_NAMES[i], names=True, when=lambda v: not teams(v))
               for i, label in enumerate(THREE_SLOTS.values())]
    for field in option_fields(rules, settings):   # who opens password A1: teams only
        field.when = teams
        fields.append(field)

    def done(v):
        names = {role: v[label] for role, label in _slots(v).items()}
        if not teams(v):
            return [StartGame("password", {"players": 3, "names": names})]
        return [StartGame("password", {"players": 4, "names": names,
                                       "first_team": int(option_values(rules, settings, v)["first_team"])})]

    def check(v):
        names = [v[label] for label in _slots(v).values()]
        return "Each player needs a different name." if len(set(names)) < len(names) else None

    return FormScreen("password", "Password set-up", fields, done, check)


class PlayScreen(GameScreen):
    home_view = "dial"
    views = ("dial", "pad", "challenge")

    # --- keys -------------------------------------------------------------------------
    def softkeys(self, now):
        s = self.state
        if self.view == "pad":
            return ("", "", "", "Back")
        if rules.is_over(s):
            return ("", "Pad", "", "Menu")
        if self.view == "challenge":
            return ("1 word", "2 words", "", "Cancel")
        if s.players == 3:
            if s.form:
                return ("Wrong", "Exact", "", "")
            return ("Miss", s.names["R1"], s.names["R2"], "Both")
        if s.form:
            return ("Wrong", "Exact", "", "")
        return ("Miss", "Got it", "Form", "Chall.")

    def on_game_key(self, press, now):
        s = self.state
        if press.long:
            if press.key == "K2":
                self.view = "dial" if self.view == "pad" else "pad"
                return []
            return [Refuse("Hold K1: undo, hold K2: score pad, hold K4: menu.")]
        key = press.key
        if self.view == "pad":
            if key != "K4":
                return [Refuse("K4 goes back from the score pad.")]
            self.view = "dial"
            return []
        if rules.is_over(s):
            return self.over_key(key, "pad")
        if self.view == "challenge":
            if key == "K3":
                return [Refuse("K1: it was one word, K2: two words, K4: cancel.")]
            self.view = "dial"
            if key in ("K1", "K2"):
                return self.submit({"kind": "challenge", "one_word": key == "K1"}, cue="score")
            return []
        if s.form:
            return self._form_try(key)
        if s.players == 3:
            return self._three_player(key)
        if key == "K1":
            return self.submit({"kind": "missed"}, cue="click")
        if key == "K2":
            return self.submit({"kind": "guessed"}, cue="score")
        if key == "K3":
            return self.submit({"kind": "form"}, cue="warning")
        self.view = "challenge"
        return []

    def _form_try(self, key):
        if key == "K1":
            return self.submit({"kind": "missed"}, cue="error")
        if key == "K2":
            return self.submit({"kind": "guessed", "who": self.state.form}, cue="score")
        return [Refuse("One more try: K1 if it was wrong, K2 if exact.")]

    def _three_player(self, key):
        if key == "K1":
            return self.submit({"kind": "missed"}, cue="click")
        who = {"K2": "R1", "K3": "R2", "K4": "both"}[key]
        return self.submit({"kind": "guessed", "who": who}, cue="score")

    # --- screens ----------------------------------------------------------------------
    def header_totals(self, p) -> str:
        """The running totals with whose they are: "T1 12 T2 8", or each receiver's."""
        s = self.state
        if s.players == 4:
            return " ".join(f"T{t} {rules.team_total(s, t)}" for t in (1, 2))
        return " ".join(f"{p.shorten(s.names[r], 30)} {rules.player_total(s, r)}" for r in ("R1", "R2"))

    def draw(self, p, now):
        s = self.state
        if self.view == "pad" or (rules.is_over(s) and self.view == "pad"):
            return self._draw_pad(p)
        if rules.is_over(s):
            return self._draw_result(p)
        lst, number = rules.word(s)
        p.title(f"Password {lst}{number}", self.header_totals(p))
        doubled = rules.multiplier(s) == 2
        p.big(str(rules.dial(s)), y=11, size=38, x0=0, x1=44 if doubled else 58)
        if doubled:
            p.inverse((45, 13, 59, 23), "x2", 9)
        x0 = 62
        if self.view == "challenge":
            giver = s.names[rules.giver(s)]
            p.left("Challenge", 11, 10, x0)
            p.left(f"{giver}'s", 23, 9, x0)
            p.left("clue was:", 33, 9, x0)
            return
        if s.players == 3:
            p.left(s.names["G"], 11, 10, x0)
            p.left("gives", 22, 9, x0)
        else:
            p.left(s.names[rules.giver(s)], 11, 10, x0)
            p.left(p.first_fit([f"\u2192 {s.names[rules.receiver(s)]}"], 9, 66), 22, 9, x0)
        if s.form:
            p.inverse((60, 42, 127, 52), f"Form? {s.names[s.form]}", 8)
        else:
            p.left(f"clue {s.clues + 1}/{rules.CLUES_PER_PASSWORD}", 32, 9, x0)

    def _draw_pad(self, p):
        s = self.state
        p.title("Score pad", self.header_totals(p))
        for col in range(rules.WORDS_PER_LIST):
            p.centre(str(col + 1) + ("*" if col + 1 == rules.DOUBLE_WORD else ""), 10, 8, 36 + col * 15, 51 + col * 15)
        p.centre("Tot", 10, 8, 110, 128)
        for row, role in enumerate(s.cells):
            y = 19 + row * 8
            p.text((0, y), p.shorten(s.names[role], 34, 8), 8)
            for col, cell in enumerate(s.cells[role]):
                p.centre("-" if cell is None else str(cell), y, 8, 36 + col * 15, 51 + col * 15)
            p.centre(str(rules.player_total(s, role)), y, 8, 110, 128)

    def _draw_result(self, p):
        s = self.state
        result = self.outcome
        p.title("Password: game over")
        if result.tie:
            bottom = p.headline("A tie!", 13, 14)
        else:
            bottom = p.headline(f"{result.winners[0]} win" + ("" if s.players == 4 else "s"), 12, 14)
        p.centre(self.header_totals(p), max(bottom, 33), 9)
