"""Perquackey at the table: whose throw, the cubes (read or keyed in), the timer, counting
the words, the scoreboard, and what the best possible throw would have been."""
from __future__ import annotations

from firmware.games import perquackey as rules
from firmware.modes.base import Mode
from firmware.modes.game import GameMode
from firmware.modes.setup import PRESET_NAMES, Field, FormMode
from firmware.modes.timing import TimerCues, mmss

LABEL = "Perquackey"
MAX_PLAYERS = 6


def setup(app):
    from firmware.modes import menu
    fields = [Field("Players", ["1 (solo)", 2, 3, 4, 5, 6], 2), Field("Partners", ["off", "on"])]
    fields += [Field(f"Player {i + 1}", PRESET_NAMES, PRESET_NAMES[i], names=True) for i in range(MAX_PLAYERS)]
    fields += [Field("Starts", [f"Player {i + 1}" for i in range(MAX_PLAYERS)])]

    def count(v):
        return 1 if v["Players"] == "1 (solo)" else v["Players"]

    def done(v):
        n = count(v)
        settings = {**rules.rules_of({k.split(".", 1)[1]: val for k, val in app.settings.items()
                                      if k.startswith("perquackey.")}),
                    "names": [v[f"Player {i + 1}"] for i in range(n)], "partners": v["Partners"] == "on",
                    "first": int(v["Starts"].split()[-1]) - 1}
        settings["ten_letter_row"] = str(settings["ten_letter_row"])
        menu.start_game(app, "perquackey", settings)

    def check(v):
        n = count(v)
        names = [v[f"Player {i + 1}"] for i in range(n)]
        if len(set(names)) < n:
            return "Each player needs a different name."
        if int(v["Starts"].split()[-1]) > n:
            return f"Only {n} player(s): choose who starts among them."
        return None

    return FormMode(app, "Perquackey set-up", fields, done, lambda: app.switch(menu.main_menu(app)), check)


class LetterEntry(Mode):
    """Set each cube's top letter by choosing among that cube's six faces: K1 previous cube,
    K2 next face, K3 next cube, K4 done.  Red cubes are drawn inverted; a reading the
    camera was unsure of is underlined until it is looked at."""

    def __init__(self, app, play, faces: list[str], letters: list[str], red: list[bool], unsure: list[bool]):
        super().__init__(app)
        self.play, self.faces, self.letters, self.red, self.unsure = play, faces, letters, red, unsure
        self.cursor = unsure.index(True) if True in unsure else 0

    def softkeys(self, now):
        return ("<", "Face", ">", "Done")

    def on_key(self, press, now):
        if press.long:
            return self.app.refuse("K1/K3 move, K2 changes the letter, K4 done.")
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
            if "?" in self.letters:
                return self.app.refuse("Some cubes have no letter yet (shown as ?).")
            self.app.switch(self.play)
            self.play.submit({"kind": "letters", "letters": "".join(self.letters)})

    def draw(self, p, now):
        p.title("Cubes", f"cube {self.cursor + 1}/{len(self.faces)}")
        draw_cubes(p, self.letters, self.red, self.unsure, self.cursor)
        p.text((2, 43), "faces: " + " ".join(sorted(set(self.faces[self.cursor]))), 8)


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



def _warm_up() -> None:
    """Build the word index and the reader's reference glyphs on a side thread while the
    players set up, so the first Read or score does not stall the loop (each takes a
    second or two on a Pi).  Both are pure computations cached for the process."""
    import threading

    def work():
        try:
            from firmware.house_words import load_wordlist
            load_wordlist()
            from vision.classifier import references
            references()
        except Exception:
            pass  # the same work runs again, with its errors shown, when it is needed
    threading.Thread(target=work, name="warm-up", daemon=True).start()


class PlayMode(GameMode):
    game = rules

    def __init__(self, app, journal):
        super().__init__(app, journal)
        self.cues = TimerCues(warn_at=30, ticks_from=10)
        self.view = "turn"            # "turn", "count", "result", "board"
        self.counts: dict[int, int] = {}
        self.row = 0
        self.board_cursor = 0
        self.last_solution = None
        _warm_up()


    # --- helpers ----------------------------------------------------------------------
    @property
    def player(self) -> int:
        return self.state.turn

    def vulnerable(self) -> bool:
        return self.state.vulnerable[self.player]

    def lengths(self) -> list[int]:
        return list(range(rules.shortest(self.vulnerable()), rules.LONGEST + 1))

    def tick(self, now):
        self.cues.update(self.app, self.state.timer, now)

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
            return ("Read", "Letters", "Timer", "Board")
        if s.timer.expired(now):
            return ("", "Count", "", "Board")
        return ("Resume" if not s.timer.running else "Pause", "Count", "", "Board")

    def on_game_key(self, press, now):
        s, key = self.state, press.key
        if press.long:
            if key == "K2" and self.view in ("turn", "board"):
                self.view = "board" if self.view != "board" else "turn"
                return
            return self.app.refuse("Hold K1: undo, K2: scoreboard, K4: menu.")
        if s.finished:
            return self.over_key(key, "board", "turn")
        getattr(self, f"_key_{self.view}")(key, now)

    def _key_turn(self, key, now):
        s = self.state
        if key == "K4":
            self.view, self.board_cursor = "board", 0
        elif s.timer is None:
            if key == "K1":
                self.read_cubes()
            elif key == "K2":
                self.key_in_letters()
            else:
                self.submit({"kind": "start", "at": now}, cue="start")
        elif key == "K1" and not s.timer.expired(now):
            self.submit({"kind": "pause" if s.timer.running else "resume", "at": now})
        elif key == "K2":
            self.view, self.counts, self.row = "count", {}, 0
        else:
            self.app.refuse("K2 counts the words.")

    def _key_count(self, key, now):
        lengths = self.lengths()
        n = lengths[self.row]
        if key == "K1":
            self.row = (self.row + 1) % len(lengths)
        elif key == "K2":
            self.counts[n] = min(rules.WORDS_PER_GROUP, self.counts.get(n, 0) + 1)
        elif key == "K3":
            self.counts[n] = max(0, self.counts.get(n, 0) - 1)
        else:
            letters = self.state.letters
            if self.submit({"kind": "score", "counts": {str(k): v for k, v in self.counts.items() if v}},
                           cue="score"):
                self.view = "result"
                self.last_solution = self._solve(letters)

    def _key_result(self, key, now):
        if key == "K4":
            self.view = "turn"

    def _key_board(self, key, now):
        n = len(self.state.names)
        if key == "K1":
            self.board_cursor = (self.board_cursor - 1) % n
        elif key == "K2":
            self.board_cursor = (self.board_cursor + 1) % n
        elif key == "K3":
            self.submit({"kind": "illegal", "side": self.board_cursor}, cue="error")
        else:
            self.view = "turn"

    # --- cubes --------------------------------------------------------------------------
    def _cube_faces(self) -> list[str]:
        return list(rules.cubes(self.vulnerable(), self.state.rules["red_set"]))

    def _red(self) -> list[bool]:
        return [i >= len(rules.BLACK_CUBES) for i in range(len(self._cube_faces()))]

    def key_in_letters(self, letters=None, unsure=None) -> None:
        faces = self._cube_faces()
        letters = list(letters or self.state.letters or "?" * len(faces))
        self.app.switch(LetterEntry(self.app, self, faces, letters, self._red(), unsure or [False] * len(faces)))

    def read_cubes(self) -> None:
        """Photograph the throw, read it, and let the player check it (or key it in)."""
        camera = self.app.hardware.camera if self.app.hardware else None
        if camera is None:
            self.app.refuse("No camera: key the letters in.")
            return self.key_in_letters()
        try:
            from vision.reader import read_throw
            # a live camera gives two frames of the same throw, read together
            frames = [camera.capture() for _ in range(2 if getattr(camera, "live", False) else 1)]
            reading = read_throw(frames, vulnerable=self.vulnerable(), red_set=self.state.rules["red_set"])
        except ImportError as exc:
            self.app.refuse(f"The cube reader is not installed ({exc.name}): key the letters in.")
            return self.key_in_letters()
        except (OSError, ValueError) as exc:
            self.app.refuse(f"{exc} Key the letters in.")
            return self.key_in_letters()
        self.key_in_letters(reading.letters_by_cube, reading.unsure_by_cube)

    def _solve(self, letters: str):
        if not letters:
            return None
        try:
            from firmware.games.words import solve
            from firmware.house_words import load_wordlist
            return solve(load_wordlist(), letters)
        except (ImportError, ValueError, OSError) as exc:
            self.app.warn(f"The solver is not available ({exc}).")
            return None

    # --- screens ----------------------------------------------------------------------
    def draw(self, p, now):
        s = self.state
        if self.view == "board" or (s.finished and self.view == "board"):
            return self._draw_board(p)
        if s.finished:
            p.title("Perquackey: game over")
            p.centre(" & ".join(s.finished.winners) + (" win" if s.finished.tie else " wins"), 13, 14)
            p.centre(s.finished.reason, 30, 8)
            p.centre("  ".join(f"{n} {v}" for n, v in zip(s.names, s.scores))[:40], 41, 8)
            return
        if self.view == "count":
            return self._draw_count(p)
        if self.view == "result":
            return self._draw_result(p)
        name = s.names[self.player]
        p.title(f"R{s.round} {name}", f"{s.scores[self.player]}" + (" VUL" if self.vulnerable() else ""))
        if s.timer is None:
            if s.letters:
                draw_cubes(p, s.letters, self._red())
            else:
                p.centre(f"{len(self._cube_faces())} cubes" + (", no 3s" if self.vulnerable() else ""), 14, 12)
                p.centre("K1 read them, K3 start", 32, 9)
            return
        remaining = s.timer.remaining(now)
        if remaining <= 0:
            p.big("TIME!", y=12, size=30)
        else:
            p.big(mmss(remaining), y=11, size=36)
            if not s.timer.running:
                p.centre("paused", 44, 8)

    def _draw_count(self, p):
        lengths = self.lengths()
        total = rules.throw_points(self.counts, self.vulnerable(), self.state.rules)
        p.title("Words made", f"= {total}")
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
        p.title(f"{s.names[turn.player]}'s throw", f"total {s.scores[turn.player]}")
        verdict = f"SET {turn.change}" if turn.change < 0 else f"+{turn.points}"
        p.text((2, 11), verdict, 14)
        solution = self.last_solution
        if solution is not None:
            p.right(f"best {solution.best_score}", 13, 9)
            p.text((2, 29), "longest: " + " ".join(w.upper() for w in solution.longest(2)), 8)
            p.text((2, 39), f"{sum(len(ws) for ws in solution.words.values())} words possible", 8)

    def _draw_board(self, p):
        s = self.state
        p.title("Scoreboard", f"to {s.rules['winning_score']}")
        top = min(max(0, self.board_cursor - 3), max(0, len(s.names) - 4))
        rows = []
        for i in range(top, min(len(s.names), top + 4)):
            mark = (">" if i == s.turn else " ") + ("V" if s.vulnerable[i] else " ")
            rows.append(f"{mark} {s.names[i][:9]:<9} {s.scores[i]:>5}")
        p.lines(rows, selected=self.board_cursor - top if s.partners else None)
