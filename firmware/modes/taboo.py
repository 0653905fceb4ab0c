"""Three-player Taboo at the table: who does what this round, the timer, the counts."""
from __future__ import annotations

from firmware.actions import Refuse, StartGame
from firmware.games import taboo as rules
from firmware.modes.base import refused
from firmware.modes.game import GameScreen
from firmware.modes.setup import PRESET_NAMES, Field, FormScreen, option_fields, option_values
from firmware.modes.timing import TimerCues, mmss


def setup(settings: dict) -> FormScreen:
    fields = [Field(f"Player {i + 1}", PRESET_NAMES, PRESET_NAMES[i], names=True) for i in range(3)]
    fields += option_fields(rules, settings)

    def done(v):
        return [StartGame("taboo", {"names": [v[f"Player {i + 1}"] for i in range(3)],
                                    **option_values(rules, settings, v)})]

    def check(v):
        return None if len({v[f"Player {i + 1}"] for i in range(3)}) == 3 else "Each player needs a different name."

    return FormScreen("taboo", "Taboo set-up", fields, done, check)


class PlayScreen(GameScreen):
    home_view = "round"
    views = ("round", "summary", "standings")   # summary: after a round

    def __init__(self, session, settings: dict | None = None):
        super().__init__(session, settings)
        self.cues = TimerCues(warn_at=None, ticks_from=10)

    def tick(self, now):
        return self.cues.update(rules.active_timer(self.state), now)

    def _time_up(self, now) -> bool:
        t = self.state.timer
        return t is not None and t.expired(now)

    def softkeys(self, now):
        s, ph = self.state, rules.phase(self.state)
        if self.view in ("summary", "standings"):
            return ("", "", "", "Next" if self.view == "summary" else "Back")
        if ph == "over":
            return ("", "Scores", "", "Menu")
        if ph == "tied":
            return ("Overtm" if s.last_round == rules.ROUNDS else "", "Share", "", "")
        if ph == "ready":
            return ("Start", "Scores", "Refuse" if rules.refusal_offer(s) is not None else "", "")
        if self._time_up(now):
            return ("Right", "Pass", "Buzz", "End")
        return ("Right", "Pass", "Buzz", "Resume" if not s.timer.running else "Pause")

    def on_game_key(self, press, now):
        s, ph, key = self.state, rules.phase(self.state), press.key
        if press.long:
            if key == "K3" and ph == "playing":  # end the round early (a wrongly set timer)
                return self._end_round(now)
            if key == "K2":
                self.view = "round" if self.view == "standings" else "standings"
                return []
            return [Refuse("Hold K1: undo, K2: scores, K3: end the round, K4: menu.")]
        if self.view != "round":
            if key != "K4":
                return [Refuse(f"K4: {'next' if self.view == 'summary' else 'back'}.")]
            self.view = "round"
            return []
        if ph == "over":
            return self.over_key(key, "standings")
        if ph == "tied":
            kind = {"K1": "overtime", "K2": "co_winners"}.get(key)
            return self.submit({"kind": kind, "at": now}) if kind else [Refuse("K1 overtime, K2 co-winners.")]
        if ph == "ready":
            if key == "K1":
                return self.submit({"kind": "start", "at": now}, cue="start")
            if key == "K2":
                self.view = "standings"
                return []
            if key == "K3":
                return self.submit({"kind": "refuse", "at": now})
            return [Refuse("K1 starts the round.")]
        if key == "K4":
            if self._time_up(now):
                return self._end_round(now)
            return self.submit({"kind": "pause" if s.timer.running else "resume", "at": now})
        kind = {"K1": "correct", "K2": "pass", "K3": "buzz"}[key]
        return self.submit({"kind": kind, "at": now}, cue="score" if kind == "correct" else "click")

    def _end_round(self, now) -> list:
        actions = self.submit({"kind": "end_round", "at": now}, cue="score")
        if not refused(actions):
            self.view = "summary"
        return actions

    # --- screens ----------------------------------------------------------------------
    def draw(self, p, now):
        s = self.state
        if self.view == "standings":
            return self._draw_standings(p)
        if self.view == "summary" and s.history:
            return self._draw_summary(p, s.history[-1])
        ph = rules.phase(s)
        if ph == "over":
            result = rules.outcome(s)
            p.title("Taboo: game over")
            bottom = p.headline(" & ".join(result.winners) + (" win" if result.tie else " wins"), 11, 12)
            p.headline(result.reason, max(bottom, 30), 8)
            return
        if ph == "tied":
            p.title("Taboo: tie after 12")
            p.paragraph("The leaders are level. K1: three overtime rounds, K2: share the win.", size=8)
            return
        r = s.round
        giver, guesser, referee = rules.roles(r.number)
        label = f"Round {r.number}" + (" OT" if r.number > rules.ROUNDS else f"/{rules.ROUNDS}")
        p.title(label, "Skunk" if s.skunk_rule else "")
        remaining = s.timer.remaining(now) if s.timer else s.round_s
        p.big(mmss(remaining), y=11, size=28, x0=0, x1=58)
        for i, (role, short, who) in enumerate((("Gives", "G", giver), ("Guess", "?", guesser),
                                                ("Ref", "R", referee))):
            name = s.names[who]
            p.left(p.first_fit([f"{role} {name}", f"{short} {name}"], 9, 66), 11 + i * 10, 9, 60)
        if ph == "ready":
            offer = rules.refusal_offer(s)
            note = f"{s.names[offer]} may refuse" if offer is not None else "K1 starts the timer"
            p.centre(note, 42, 8)
        else:
            status = "TIME!" if self._time_up(now) else ("paused" if not s.timer.running else "")
            p.left(f"OK {r.correct}  pass {r.passes}  buzz {r.buzzes}  {status}".strip(), 42, 8, 2)

    def _draw_summary(self, p, r):
        s = self.state
        p.title(f"Round {r.number} summary", "SKUNKED" if r.skunked else "")
        p.left(f"OK {r.correct}  pass {r.passes}  buzz {r.buzzes}", 11, 9, 2)
        for i, name in enumerate(s.names):
            p.left(p.shorten(name, 70), 21 + i * 10, 9, 2, 72)
            p.right(f"{r.deltas[i]:+d}", 21 + i * 10, 9, 96, 74)
            p.right(str(s.scores[i]), 21 + i * 10, 9, 126, 98)

    def _draw_standings(self, p):
        s = self.state
        p.title("Standings", f"after {len(s.history)} rounds")
        order = sorted(range(3), key=lambda i: -s.scores[i])
        for row, i in enumerate(order):
            p.left(p.shorten(f"{row + 1}. {s.names[i]}", 96), 12 + row * 13, 11, 2, 98)
            p.right(str(s.scores[i]), 12 + row * 13, 11, 126, 100)
