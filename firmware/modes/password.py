"""Password at the table: the dial, the keys for what happened to each clue, the score pad."""
from __future__ import annotations

from firmware.actions import Refuse, StartGame
from firmware.games import password as rules
from firmware.modes.game import GameScreen
from firmware.modes.setup import PRESET_NAMES, Field, FormScreen, option_fields, option_values


def setup(settings: dict) -> FormScreen:
    fields = [Field("Players", ["4 (teams)", "3"])]
    fields += [Field(f"Team {t} {ab}", PRESET_NAMES, PRESET_NAMES[i], names=True)
               for i, (t, ab) in enumerate([(1, "A"), (1, "B"), (2, "A"), (2, "B")])]
    fields += option_fields(rules, settings)

    def done(v):
        if v["Players"] == "3":
            names = {"G": v["Team 1 A"], "R1": v["Team 1 B"], "R2": v["Team 2 A"]}
            game = {"players": 3, "names": names}
        else:
            names = {"A1": v["Team 1 A"], "B1": v["Team 1 B"], "A2": v["Team 2 A"], "B2": v["Team 2 B"]}
            game = {"players": 4, "names": names, "first_team": int(option_values(rules, settings, v)["first_team"])}
        return [StartGame("password", game)]

    def check(v):
        count = 3 if v["Players"] == "3" else 4
        names = [v[f] for f in ("Team 1 A", "Team 1 B", "Team 2 A", "Team 2 B")[:count]]
        if len(set(names)) < count:
            return "Each player needs a different name."
        return None

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
