"""The main menu, the saved games, the question before a new game, and the settings."""
from __future__ import annotations

from firmware import __version__, config
from firmware.actions import (Back, Capture, Cue, Flash, Go, Home, Refuse, ResumeGame, SaveSetting, SetAside,
                              TakeEmptyTable)
from firmware.games import GAMES
from firmware.modes import cryptic, password, perquackey, taboo
from firmware.modes.aim import AimScreen
from firmware.modes.base import ListScreen, Screen
from firmware.screen import WIDTH, wrap

# Each game's screens, by the rules module they play (the registry's order is the menu's).
CONTROLLERS = {module.rules.NAME: module for module in (password, perquackey, taboo, cryptic)}


def play_screen(session, settings: dict | None = None):
    return CONTROLLERS[session.game].PlayScreen(session, settings)


def setup_screen(game: str, settings: dict):
    return CONTROLLERS[game].setup(settings)


def main_menu(settings: dict, session=None, saved=(), about_rows=()) -> ListScreen:
    """Resume the game in progress, start one (asking first if one is in progress), the
    saved games, the settings."""
    items = []
    if session is not None:
        items.append((resume_label(session), [ResumeGame()]))
    for game in GAMES:
        def start(name=game.NAME):
            return [Go(setup_screen(name, settings))]
        items.append((game.LABEL, start if session is None else
                      (lambda start=start: [Go(ask_first(session.label, start()))])))
    if saved:
        items.append(("Saved games", lambda: [Go(saved_list(saved, session))]))
    items.append(("Settings", lambda: [Go(SettingsMenu(settings, about_rows))]))
    return ListScreen("TableMate", items, back=())


def resume_label(session) -> str:
    """"Resume Taboo (3 players)", or, with its timer stopped part-way, "Resume Taboo: paused"."""
    timer = session.timer()
    if timer is not None and not timer.running and 0 < timer.left < timer.length:
        return f"Resume {session.label.split(' (')[0]}: paused"
    return f"Resume {session.label}"


def ask_first(label: str, then: list) -> ListScreen:
    """A game is in progress and the players chose another: never set it aside silently."""
    return ListScreen(f"{label.split(' (')[0]} not over", [
        (f"Resume {label}", [ResumeGame()]),
        ("Set it aside", [SetAside(), Home(), *then]),
        ("Cancel", [Back()])])


def saved_list(saved, session) -> ListScreen:
    """Unfinished games set aside, newest first; K3 resumes one."""
    items = []
    for game in saved:
        resume = [ResumeGame(game.path)]
        items.append((game.label, resume if session is None else
                      (lambda resume=resume: [Go(ask_first(session.label, resume))])))
    return ListScreen("Saved games", items)


# --- settings -----------------------------------------------------------------------
class SettingsMenu(ListScreen):
    """Every setting with a menu label, then the tests and About; K3 changes a value (the
    loop applies it and saves it at once)."""

    def __init__(self, settings: dict, about_rows=()):
        self.settings = settings   # read here; only the loop changes it (SaveSetting)
        self.menu_settings = [s for s in config.SETTINGS if s.menu]
        items = [(s.menu, lambda s=s: [SaveSetting(s.key, self.next_value(s))]) for s in self.menu_settings]
        items += [("Key test", lambda: [Go(KeyTest())]),
                  ("Camera test", lambda: [Go(CameraTest())]),
                  ("Aim camera", lambda: [Go(AimScreen())]),
                  ("Empty table", [Flash("Keeping the empty table..."), TakeEmptyTable()]),
                  ("About", lambda: [Go(About(about_rows))])]
        super().__init__("Settings", items)

    def on_result(self, done, now):
        """Empty table: clear the table, then choose it (the worker photographs it)."""
        if isinstance(done.request, TakeEmptyTable):
            return [Refuse(done.error)] if done.error else [Cue("click"), Flash(done.value, 4.0)]
        return []

    def next_value(self, setting):
        value, choices = self.settings[setting.key], setting.choices
        return choices[(choices.index(value) + 1) % len(choices)] if value in choices else choices[0]

    def labels(self):
        labels = super().labels()
        for i, s in enumerate(self.menu_settings):
            value = self.settings[s.key]
            shown = {True: "on", False: "off"}.get(value, value) if isinstance(value, bool) else value
            labels[i] = f"{s.menu}: {shown}"
        return labels


class KeyTest(Screen):
    """Shows each key's last gesture, so wiring and the long-press time can be checked."""

    title = "Key test"

    def __init__(self):
        self.seen = {}

    def softkeys(self, now):
        return ("K1", "K2", "K3", "K4")   # each key shows what it did; the title says hold K4 leaves

    def on_key(self, press, now):
        if press.long and press.key == "K4":
            return [Back()]
        self.seen[press.key] = "long" if press.long else "short"
        return [Cue("click")]

    def draw(self, p, now):
        p.title("Key test", "hold K4: back")
        for i, key in enumerate(("K1", "K2", "K3", "K4")):
            x = i * 32
            p.centre(key, 16, 11, x, x + 32)
            p.centre(self.seen.get(key, "-"), 32, 10, x, x + 32)


class CameraTest(Screen):
    """K3 takes a picture (on the worker), shows it small and saves it under the state folder."""

    title = "Camera test"

    def __init__(self):
        self.thumb, self.note, self.busy = None, "K3 takes a picture.", False

    def softkeys(self, now):
        return ("", "", "..." if self.busy else "Capture", "Back")

    def on_key(self, press, now):
        if press.key == "K4":
            return [Back()]
        if press.key != "K3":
            return [Refuse("K3 captures, K4 goes back.")]
        if self.busy:
            return [Refuse("Still taking the picture: a moment.")]
        self.busy, self.note = True, "Taking a picture..."
        return [Capture()]

    def on_result(self, done, now):
        self.busy = False
        if done.error:
            self.note = "K3 takes a picture."
            return [Refuse(done.error)]
        self.thumb, self.note = done.value
        return [Cue("click")]

    def draw(self, p, now):
        p.title("Camera test")
        if self.thumb is not None:
            p.image.paste(self.thumb, ((128 - self.thumb.width) // 2, 12))
            p.centre(self.note, 44, 7)
        else:
            p.paragraph(self.note)


class About(Screen):
    """The version and the hardware found, a line each, wrapped to the width (a path is
    long); K1/K2 scroll, K4 back."""

    ROWS = 4

    def __init__(self, rows):
        self.title = f"TableMate {__version__}"
        self.rows, self.first, self.shown = list(rows), 0, 0

    def softkeys(self, now):
        return ("Up", "Down", "", "Back")

    def on_key(self, press, now):
        if press.key == "K4" and not press.long:
            return [Back()]
        if press.key in ("K1", "K2") and not press.long:
            step = -1 if press.key == "K1" else 1
            self.first = min(max(0, self.first + step), max(0, self.shown - self.ROWS))
            return []
        return [Refuse("K1/K2 scroll, K4 goes back.")]

    def draw(self, p, now):
        lines = [line for row in self.rows for line in wrap(p, row, 8, WIDTH - 4)]
        self.shown = len(lines)
        p.title(self.title, f"{self.first + 1}/{max(1, len(lines) - self.ROWS + 1)}")
        for i, line in enumerate(lines[self.first:self.first + self.ROWS]):
            p.left(line, 11 + i * 10, 8, 2)
