"""The main menu, the settings and the games' registry."""
from __future__ import annotations

import importlib
from dataclasses import dataclass

from firmware import __version__, config, paths
from firmware.games import rules
from firmware.games.core import replay
from firmware.journal import Journal
from firmware.modes.base import ListMode, Mode


@dataclass(frozen=True)
class GameEntry:
    label: str
    module: str     # the controller module: has PlayMode and setup(app)

    def controller(self):
        return importlib.import_module(self.module)


GAMES = {
    "password": GameEntry("Password", "firmware.modes.password"),
    "perquackey": GameEntry("Perquackey", "firmware.modes.perquackey"),
    "taboo": GameEntry("Taboo (3 players)", "firmware.modes.taboo"),
    "cryptic": GameEntry("Cryptic Words", "firmware.modes.cryptic"),
}


def game_mode(app, journal: Journal):
    """The controller of a saved or new game, its state replayed from the journal."""
    return GAMES[journal.game].controller().PlayMode(app, journal)


def start_game(app, game: str, settings: dict) -> None:
    """Begin a new game; the one before it is kept in the history, never thrown away."""
    current = paths.current_journal()
    if current.exists():
        try:
            previous = Journal.load(current)
            state = replay(rules(previous.game), previous.settings, previous.events)
            finished = rules(previous.game).outcome(state) is not None
            previous.archive(paths.history_dir(), "finished" if finished else "unfinished")
            if not finished:
                app.flash("The unfinished game was kept in the history.")
        except Exception:
            current.replace(current.with_name("unreadable-previous.jsonl"))
    journal = Journal.create(current, game, settings, started=app.clock())
    app.switch(game_mode(app, journal))
    app.cue("start")


def main_menu(app) -> Mode:
    items = []
    current = paths.current_journal()
    if current.exists():
        try:
            saved = Journal.load(current)
            items.append((f"Resume {GAMES[saved.game].label}", lambda: app.switch(game_mode(app, saved))))
        except Exception:
            pass  # app.start already set an unreadable journal aside with a message
    for entry in GAMES.values():
        items.append((entry.label, lambda entry=entry: app.switch(entry.controller().setup(app))))
    items.append(("Settings", lambda: app.switch(settings_menu(app))))
    return ListMode(app, "TableMate", items)


# --- settings -----------------------------------------------------------------------
class SettingsMenu(ListMode):
    """Every setting with a menu label, then the tests and About; K3 changes a value and
    saves it at once (writing only what differs from the defaults)."""

    def __init__(self, app):
        self.menu_settings = [s for s in config.SETTINGS if s.menu]
        items = [(s.menu, lambda s=s: self.change(s)) for s in self.menu_settings]
        items += [("Key test", lambda: app.switch(KeyTest(app, self))),
                  ("Camera test", lambda: app.switch(CameraTest(app, self))),
                  ("About", lambda: app.switch(about(app, self)))]
        super().__init__(app, "Settings", items, back=lambda: app.switch(main_menu(app)))

    def labels(self):
        labels = super().labels()
        for i, s in enumerate(self.menu_settings):
            value = self.app.settings[s.key]
            shown = {True: "on", False: "off"}.get(value, value) if isinstance(value, bool) else value
            labels[i] = f"{s.menu}: {shown}"
        return labels

    def change(self, setting) -> None:
        values = self.app.settings
        choices = setting.choices
        values[setting.key] = choices[(choices.index(values[setting.key]) + 1) % len(choices)] \
            if values[setting.key] in choices else choices[0]
        apply_setting(self.app, setting.key)
        if self.app.config_file is not None:
            try:
                config.save(self.app.config_file, values)
            except OSError as exc:
                self.app.warn(f"The setting works now but could not be saved to {self.app.config_file} "
                              f"({exc.strerror}).")


def apply_setting(app, key: str) -> None:
    hw = app.hardware
    if hw is None:
        return
    if key == "display.contrast":
        hw.display.contrast(app.settings[key])
    elif key == "sound.enabled":
        hw.sounder.enabled = app.settings[key]


def settings_menu(app) -> Mode:
    return SettingsMenu(app)


class KeyTest(Mode):
    """Shows each key's last gesture, so wiring and the long-press time can be checked."""

    title = "Key test"

    def __init__(self, app, back):
        super().__init__(app)
        self.back, self.seen = back, {}

    def softkeys(self, now):
        return ("", "", "", "hold:Back")

    def on_key(self, press, now):
        if press.long and press.key == "K4":
            return self.app.switch(self.back)
        self.seen[press.key] = "long" if press.long else "short"
        self.app.cue("click")

    def draw(self, p, now):
        p.title("Key test", "hold K4: back")
        for i, key in enumerate(("K1", "K2", "K3", "K4")):
            x = i * 32
            p.centre(key, 16, 11, x, x + 32)
            p.centre(self.seen.get(key, "-"), 32, 10, x, x + 32)


class CameraTest(Mode):
    """K3 takes a picture, shows it small and saves it under the state folder."""

    title = "Camera test"

    def __init__(self, app, back):
        super().__init__(app)
        self.back, self.thumb, self.note = back, None, "K3 takes a picture."

    def softkeys(self, now):
        return ("", "", "Capture", "Back")

    def on_key(self, press, now):
        if press.key == "K4":
            return self.app.switch(self.back)
        if press.key != "K3":
            return self.app.refuse("K3 captures, K4 goes back.")
        camera = self.app.hardware.camera if self.app.hardware else None
        if camera is None:
            return self.app.refuse("No camera: set camera.source (see `tablemate doctor`).")
        try:
            frame = camera.capture()
        except OSError as exc:
            return self.app.refuse(str(exc))
        import time

        import cv2
        from PIL import Image
        folder = paths.state_dir() / "captures"
        folder.mkdir(parents=True, exist_ok=True)
        target = folder / time.strftime("capture-%Y%m%d-%H%M%S.jpg", time.localtime(now))
        cv2.imwrite(str(target), frame)
        rgb = Image.fromarray(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY))
        rgb.thumbnail((80, 40))
        self.thumb = rgb.convert("1")
        self.note = f"{frame.shape[1]}x{frame.shape[0]} saved as {target.name}"
        self.app.cue("click")

    def draw(self, p, now):
        p.title("Camera test")
        if self.thumb is not None:
            p.image.paste(self.thumb, ((128 - self.thumb.width) // 2, 12))
            p.centre(self.note, 44, 7)
        else:
            p.message(self.note)


class About(ListMode):
    """The version and the hardware found, one line each (K1/K2 scroll, K4 back)."""

    def __init__(self, app, back):
        hw = app.hardware
        rows = [f"{'simulated' if hw is None or hw.simulated else 'real'} hardware"]
        rows += [f"{part}: {what}" for part, what in (hw.found.items() if hw else [])]
        rows += [f"saves in {paths.state_dir()}"]
        super().__init__(app, f"TableMate {__version__}", [(row, lambda: None) for row in rows],
                         back=lambda: app.switch(back))

    def softkeys(self, now):
        return ("Up", "Down", "", "Back")

    def draw(self, p, now):
        p.title(self.title, f"{self.cursor + 1}/{len(self.items)}")
        top = min(max(0, self.cursor - 3), max(0, len(self.items) - 4))
        for i, row in enumerate(self.labels()[top:top + 4]):
            p.text((2, 11 + i * 10), row, p.fit(row, 9, 124))


def about(app, back) -> Mode:
    return About(app, back)
