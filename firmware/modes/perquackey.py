"""Perquackey at the table: whose throw, the cubes (read or keyed in), the timer, counting
the words, the scoreboard, and what the best possible throw would have been."""
from __future__ import annotations

from firmware.actions import (Back, Cue, Flash, Go, LeaveGame, ReadCubes, Refuse, Solve, StartGame, StopWatching,
                               Warn, WarmUp, Watch)
from firmware.effects import WATCHING
from firmware.games import perquackey as rules
from firmware.modes.base import Screen, refused
from firmware.modes.game import GameScreen
from firmware.modes.setup import PRESET_NAMES, Field, FormScreen, option_fields, option_values
from firmware.modes.timing import TimerCues, mmss
from firmware.session import TIMER_KINDS

MAX_PLAYERS = 6


def setup(settings: dict) -> FormScreen:
    def count(v):
        return 1 if v["Players"] == "1 (solo)" else v["Players"]

    def several(v):
        return count(v) > 1

    fields = [Field("Players", ["1 (solo)", 2, 3, 4, 5, 6], 2), Field("Partners", ["off", "on"], when=several)]
    fields += [Field(f"Player {i + 1}", PRESET_NAMES, PRESET_NAMES[i], names=True,
                     when=lambda v, i=i: i < count(v)) for i in range(MAX_PLAYERS)]
    fields += [Field("Starts", [f"Player {i + 1}" for i in range(MAX_PLAYERS)], when=several, upto=count)]
    fields += option_fields(rules, settings)

    def done(v):
        n = count(v)
        return [StartGame("perquackey", {
            **option_values(rules, settings, v), "names": [v[f"Player {i + 1}"] for i in range(n)],
            "partners": n > 1 and v["Partners"] == "on", "first": (int(v["Starts"].split()[-1]) - 1) % n})]

    def check(v):
        n = count(v)
        names = [v[f"Player {i + 1}"] for i in range(n)]
        if len(set(names)) < n:
            return "Each player needs a different name."
        return None

    return FormScreen("perquackey", "Perquackey set-up", fields, done, check)


class LetterEntry(Screen):
    """Set each cube's top letter by choosing among that cube's six faces: K1 previous cube,
    K2 next face, K3 next cube, K4 done.  Red cubes are drawn inverted; a reading the
    camera was unsure of is underlined until it is looked at."""

    def __init__(self, play: "PlayScreen", letters: list[str], unsure: list[bool], cursor: int | None = None):
        self.play, self.faces, self.red = play, play.cube_faces(), play.red()
        play.keying = True            # no watching the table while letters are keyed in
        self.letters, self.unsure = list(letters), list(unsure)
        self.cursor = cursor if cursor is not None else (unsure.index(True) if True in unsure else 0)

    def untouched(self) -> bool:
        return all(letter == "?" for letter in self.letters)

    def softkeys(self, now):
        return ("<", "Face", ">", "Back" if self.untouched() else "Done")

    def on_key(self, press, now):
        if press.long:
            if press.key == "K4":   # leave without the letters (a read that went wrong, a change of mind)
                return [Back()]
            return [Refuse("K1/K3 move, K2 changes the letter, K4 done, hold K4 leaves.")]
        n = len(self.faces)
        if press.key == "K1":
            self.cursor = (self.cursor - 1) % n
        elif press.key == "K3":
            self.cursor = (self.cursor + 1) % n
        elif press.key == "K2":
            faces = sorted(set(self.faces[self.cursor]))
            current = self.letters[self.cursor]
            self.letters[self.cursor] = faces[(faces.index(current) + 1) % len(faces)] if current in faces else faces[0]
            self.unsure[self.cursor] = False
        else:
            if self.untouched():
                return [Back()]     # nothing keyed in: nothing to keep
            if "?" in self.letters:
                return [Refuse("Some cubes have no letter yet (shown as ?); hold K4 leaves without them.")]
            actions = self.play.submit({"kind": "letters", "letters": "".join(self.letters)})
            if refused(actions):
                return actions
            self.play.keying = False
            return [Back()] + actions + self.play.sync_watch()
        return []

    def tick(self, now):
        return self.play.tick(now)    # a timer started by the watcher runs under this screen

    def draw(self, p, now):
        timer = self.play.state.timer     # running under this screen after an automatic start
        p.title(mmss(timer.remaining(now)) if timer is not None else "Cubes",
                f"cube {self.cursor + 1}/{len(self.faces)}")
        draw_cubes(p, self.letters, self.red, self.unsure, self.cursor)
        p.text((2, 43), "faces: " + " ".join(sorted(set(self.faces[self.cursor]))), 8)

    def draft(self):
        return {"screen": "letters", "letters": "".join(self.letters), "unsure": self.unsure, "cursor": self.cursor}

    @classmethod
    def restore(cls, play: "PlayScreen", draft: dict) -> "LetterEntry | None":
        letters, unsure, cursor = draft.get("letters"), draft.get("unsure"), draft.get("cursor")
        n = len(play.cube_faces())
        if not (isinstance(letters, str) and len(letters) == n and isinstance(unsure, list) and len(unsure) == n
                and isinstance(cursor, int) and 0 <= cursor < n):
            return None
        return cls(play, list(letters), [bool(u) for u in unsure], cursor)


def draw_cubes(p, letters, red, unsure=None, cursor=None, y=12):
    """The throw as a row or two of small cubes: red ones filled, unsure ones underlined."""
    per_row = 7
    for i, letter in enumerate(letters):
        x, yy = 2 + (i % per_row) * 18, y + (i // per_row) * 16
        filled = red[i]
        p.box((x, yy, x + 15, yy + 14), fill=1 if filled else 0)
        p.centre(letter, yy, 11, x, x + 16, fill=0 if filled else 1)
        if unsure and unsure[i]:
            p.draw.line((x, yy + 15, x + 15, yy + 15), fill=1)
        if cursor == i:
            p.draw.rectangle((x - 1, yy - 1, x + 16, yy + 15), outline=1)
            p.draw.rectangle((x - 2, yy - 2, x + 17, yy + 16), outline=1)




class PlayScreen(GameScreen):
    home_view = "turn"
    views = ("turn", "count", "result", "board")

    def __init__(self, session, settings: dict | None = None):
        super().__init__(session, settings)
        self.cues = TimerCues(warn_at=30, ticks_from=10)
        self.counts: dict[int, int] = {}
        self.row = 0
        self.board_cursor = 0
        self.board_from = "turn"      # the view the scoreboard goes back to (a count keeps its words)
        self.last_solution = None
        self.reading = False          # the worker is reading the cubes
        self.keying = False           # the letters are being keyed in (LetterEntry is open)
        self.watching_as: Watch | None = None   # the Watch asked for, while waiting for a throw
        self.watched = False          # the worker said it is watching the table

    def on_open(self):
        # the word index and the reader's references take a second or two on a Pi:
        # built on the worker while the players set up, not when first needed
        return [WarmUp(self.family())] + self._solve_last() + self.sync_watch()

    def on_key(self, press, now):
        actions = super().on_key(press, now)
        if any(isinstance(a, LeaveGame) for a in actions):
            return actions            # the loop stops the watch of a screen it closes
        return actions + self.sync_watch()

    # --- the camera watching the throw ---------------------------------------------------
    def waiting_for_throw(self) -> bool:
        s = self.state
        return not s.finished and s.timer is None and not s.letters and not self.keying and not self.reading

    def sync_watch(self) -> list:
        """Watch the table while a throw is awaited, and only then."""
        wanted = Watch(self.vulnerable(), self.state.rules["red_set"]) if self.waiting_for_throw() else None
        if wanted == self.watching_as:
            return []
        self.watching_as, self.watched = wanted, False
        return [wanted or StopWatching()]

    def _watched(self, done, now) -> list:
        if done.request != self.watching_as:
            return []                 # an answer to a watch since replaced
        if done.value == WATCHING:
            self.watched = True
            return []
        if not self.waiting_for_throw():
            return []
        if done.error:
            return [Flash(done.error, 4.0)]
        return self._read_at_rest(done.value, now)

    def _read_at_rest(self, read, now) -> list:
        """The cubes came to rest and were read: show them and start the timer (each an
        ordinary journal step, so undo, resume and replay treat them as keyed ones)."""
        notes = [Warn(note) for note in read.notes]
        if "?" in read.letters:
            return notes + [Go(self.letter_entry(read.letters, read.unsure))]
        actions = self.submit({"kind": "letters", "letters": "".join(read.letters), "auto": True})
        if refused(actions):
            return notes + actions
        self.view = "turn"
        actions = self.submit({"kind": "start", "at": now, "auto": True}, cue="start") if read.start else actions
        if any(read.unsure):        # the players fix these while they play
            actions.append(Go(self.letter_entry(read.letters, read.unsure)))
        return notes + actions

    def auto_started(self) -> bool:
        """The timer running now was started by the watcher (K3 takes it back)."""
        steps = [e for e in self.journal.events if e["kind"] not in TIMER_KINDS]
        return bool(steps) and steps[-1]["kind"] == "start" and bool(steps[-1].get("auto"))

    def _take_back_start(self) -> list:
        """A wrong automatic start: the timer and the reading both go."""
        self.session.undo()
        steps = [e for e in self.journal.events if e["kind"] not in TIMER_KINDS]
        if steps and steps[-1]["kind"] == "letters" and steps[-1].get("auto"):
            self.session.undo()
        self.view = "turn"
        return [Flash("Timer and letters taken back: throw again, or K1 reads.")]

    def draft_extra(self):
        if self.view == "count":
            return {"counts": {str(k): v for k, v in self.counts.items() if v}, "row": self.row}
        if self.view == "board" and self.board_cursor:
            return {"side": self.board_cursor}
        return {}

    def restore(self, draft):
        super().restore(draft)
        counts, row = draft.get("counts"), draft.get("row")
        if self.view == "count":
            if isinstance(counts, dict):
                self.counts = {int(k): v for k, v in counts.items() if str(k).isdigit() and isinstance(v, int)
                               and 0 <= v <= rules.WORDS_PER_GROUP}
            if isinstance(row, int) and 0 <= row < len(self.lengths()):
                self.row = row
        if self.view == "result" and not self.state.history:
            self.view = self.home_view
        side = draft.get("side")
        if self.view == "board" and isinstance(side, int) and 0 <= side < len(self.state.names):
            self.board_cursor = side

    # --- helpers ----------------------------------------------------------------------
    @property
    def player(self) -> int:
        return self.state.turn

    def family(self) -> bool:
        return bool(self.settings["words.family_friendly"])

    def vulnerable(self) -> bool:
        return self.state.vulnerable[self.player]

    def lengths(self) -> list[int]:
        return list(range(rules.shortest(self.vulnerable()), rules.LONGEST + 1))

    def tick(self, now):
        return self.cues.update(self.state.timer, now)

    # --- keys -------------------------------------------------------------------------
    def softkeys(self, now):
        s = self.state
        if s.finished:
            return ("", "Board", "", "Menu")
        if self.view == "count":
            return ("Next", "+1", "-1", "OK")
        if self.view == "result":
            return ("", "", "", "Next")
        if self.view == "board":
            return ("Up", "Down", "Illegal" if s.partners else "", "Back")
        if s.timer is None:
            return ("..." if self.reading else "Read", "Letters", "Timer", "Board")
        if s.timer.expired(now):
            return ("", "Count", "", "Board")
        return ("Resume" if not s.timer.running else "Pause", "Count", "Undo" if self.auto_started() else "",
                "Board")

    def on_game_key(self, press, now):
        s, key = self.state, press.key
        if press.long:
            if key == "K2" and self.view != "result":   # the scoreboard, and back to where it was
                self.view, self.board_from = ("board", self.view) if self.view != "board" else (self.board_from, "turn")
                return []
            return [Refuse("Hold K1: undo, K2: scoreboard, K4: menu.")]
        if s.finished:
            return self.over_key(key, "board")
        return getattr(self, f"_key_{self.view}")(key, now)

    def _key_turn(self, key, now):
        s = self.state
        if key == "K4":
            self.view, self.board_cursor, self.board_from = "board", 0, "turn"
        elif s.timer is None:
            if key == "K1":
                if self.reading:
                    return [Refuse("Still reading the cubes: a moment.")]
                self.reading = True
                return [ReadCubes(self.vulnerable(), self.state.rules["red_set"])]
            if key == "K2":
                return [Go(self.letter_entry())]
            return self.submit({"kind": "start", "at": now}, cue="start")
        elif key == "K1" and not s.timer.expired(now):
            return self.submit({"kind": "pause" if s.timer.running else "resume", "at": now})
        elif key == "K2":
            self.view, self.counts, self.row = "count", {}, 0
        elif key == "K3" and self.auto_started() and not s.timer.expired(now):
            return self._take_back_start()
        else:
            return [Refuse("K2 counts the words.")]
        return []

    def _key_count(self, key, now):
        lengths = self.lengths()
        n = lengths[self.row]
        if key == "K1":
            self.row = (self.row + 1) % len(lengths)
        elif key == "K2":
            before = dict(self.counts)
            self.counts[n] = min(rules.WORDS_PER_GROUP, self.counts.get(n, 0) + 1)
            if rules.groups_just_completed(before, self.counts, self.vulnerable()):
                return [Cue("score"), Flash(f"{n}-letter words: group complete.")]
        elif key == "K3":
            self.counts[n] = max(0, self.counts.get(n, 0) - 1)
        else:
            actions = self.submit({"kind": "score", "counts": {str(k): v for k, v in self.counts.items() if v}},
                                  cue="score")
            if not refused(actions):
                self.view, self.counts, self.last_solution = "result", {}, None
                actions += self._solve_last()
            return actions
        return []

    def _solve_last(self) -> list:
        """What the last throw could have made, for the result screen (on the worker)."""
        if self.view != "result" or not self.state.history or not self.state.history[-1].letters:
            return []
        return [Solve(self.state.history[-1].letters, self.family())]

    def _key_result(self, key, now):
        if key != "K4":
            return [Refuse("K4: on to the next throw.")]
        self.view = "turn"
        return []

    def _key_board(self, key, now):
        n = len(self.state.names)
        if key == "K1":
            self.board_cursor = (self.board_cursor - 1) % n
        elif key == "K2":
            self.board_cursor = (self.board_cursor + 1) % n
        elif key == "K3":
            return self.submit({"kind": "illegal", "side": self.board_cursor}, cue="error")
        else:
            self.view, self.board_from = self.board_from, "turn"
        return []

    # --- slow work coming back --------------------------------------------------------
    def on_result(self, done, now):
        if isinstance(done.request, Watch):
            return self._watched(done, now) + self.sync_watch()
        if isinstance(done.request, ReadCubes):
            self.reading = False
            if self.state.timer is not None or self.state.finished:
                return self.sync_watch()   # the throw moved on while the camera worked
            if done.error:
                return [Refuse(done.error), Go(self.letter_entry())]
            read = done.value
            return [Warn(note) for note in read.notes] + [Go(self.letter_entry(read.letters, read.unsure))]
        if isinstance(done.request, Solve):
            if done.error:
                return [Warn(done.error)]
            history = self.state.history
            if self.view == "result" and history and history[-1].letters == done.request.letters:
                self.last_solution = done.value
        return []

    # --- cubes --------------------------------------------------------------------------
    def cube_faces(self) -> list[str]:
        return list(rules.cubes(self.vulnerable(), self.state.rules["red_set"]))

    def red(self) -> list[bool]:
        return [i >= len(rules.BLACK_CUBES) for i in range(len(self.cube_faces()))]

    def letter_entry(self, letters=None, unsure=None) -> LetterEntry:
        n = len(self.cube_faces())
        letters = list(letters or self.state.letters or "?" * n)
        return LetterEntry(self, letters, unsure or [False] * n)

    # --- screens ----------------------------------------------------------------------
    def draw(self, p, now):
        s = self.state
        if self.view == "board" or (s.finished and self.view == "board"):
            return self._draw_board(p)
        if s.finished:
            p.title("Perquackey: game over")
            bottom = p.headline(" & ".join(s.finished.winners) + (" win" if s.finished.tie else " wins"), 11, 12)
            p.headline(s.finished.reason, max(bottom, 30), 8)
            return
        if self.view == "count":
            return self._draw_count(p, now)
        if self.view == "result" and s.history:
            return self._draw_result(p)
        name = s.names[self.player]
        p.title(f"R{s.round} {name}", f"{s.scores[self.player]}" + (" VUL" if self.vulnerable() else ""))
        if s.timer is None:
            if self.reading:
                p.centre("Reading the cubes...", 24, 10)
            elif s.letters:
                draw_cubes(p, s.letters, self.red())
            else:
                p.centre(f"{len(self.cube_faces())} cubes" + (", no 3s" if self.vulnerable() else ""), 14, 12)
                p.centre("Reading..." if self.reading else "K1 read them, K3 start", 32, 9)
                if self.watched:
                    p.centre("watching the table", 43, 8)
            return
        remaining = s.timer.remaining(now)
        if remaining <= 0:
            p.big("TIME!", y=12, size=30)
        elif s.timer.running:
            p.big(mmss(remaining), y=11, size=36)
        else:   # smaller, so that the word says why it stands still
            p.big(mmss(remaining), y=11, size=28)
            p.centre("paused", 41, 9)

    def _draw_count(self, p, now):
        lengths = self.lengths()
        total = rules.throw_points(self.counts, self.vulnerable(), self.state.rules)
        timer = self.state.timer
        left = timer.remaining(now) if timer is not None else 0
        # the words are counted while the sand runs: the time stays in view
        p.title(f"Words  {mmss(left)}" + ("" if timer is None or timer.running else " paused") if left > 0
                else "Words made", f"= {total}")
        for i, n in enumerate(lengths):
            x, y = (i % 4) * 32, 12 + (i // 4) * 20
            text = f"{n}:{self.counts.get(n, 0)}"
            if i == self.row:
                p.inverse((x, y, x + 30, y + 12), text, 10)
            else:
                p.text((x + 2, y - 1), text, 10)

    def _draw_result(self, p):
        s = self.state
        turn = s.history[-1]
        p.title(f"{p.shorten(s.names[turn.player], 56)}'s throw", f"total {s.scores[turn.player]}")
        verdict = f"SET {turn.change}" if turn.change < 0 else f"+{turn.points}"
        p.text((2, 11), verdict, 14)
        solution = self.last_solution
        if solution is not None:
            p.right(f"best {solution.best_score}", 13, 9)
            longest = [w.upper() for w in solution.longest(2)]
            p.left(p.first_fit(["longest: " + " ".join(longest), "longest: " + " ".join(longest[:1])], 8, 124),
                   29, 8, 2)
            p.left(f"{sum(len(ws) for ws in solution.words.values())} words possible", 39, 8, 2)

    def _draw_board(self, p):
        s = self.state
        p.title("Scoreboard", f"to {s.rules['winning_score']}")
        top = min(max(0, self.board_cursor - 3), max(0, len(s.names) - 4))
        for row, i in enumerate(range(top, min(len(s.names), top + 4))):
            y = 12 + row * 10
            mark = (">" if i == s.turn else "") + ("V" if s.vulnerable[i] else "")
            selected = s.partners and i == self.board_cursor
            if selected:
                p.box((0, y, 127, y + 9), fill=1, outline=1)
            fill = 0 if selected else 1
            p.text((2, y - 1), mark, 9, fill=fill)
            name = p.shorten(s.names[i], 70, p.fit(s.names[i], 9, 70))
            p.text((18, y - 1), name, p.fit(name, 9, 70), fill=fill)
            score = str(s.scores[i])
            p.text((125 - p.width(score, 9), y - 1), score, 9, fill=fill)
