"""The loop: the one owner of all state.

gpiozero callbacks put key edges on `queue`, and the worker (`firmware.effects`) puts the
results of slow work there too.  `step(now)` takes them off in order, turns edges into
presses, asks the screen on top for actions and performs them, ticks timers and cues,
writes any work in progress durably, feeds the watchdog, and sends a frame to the display
only when the picture changed.  `run()` is that loop against the real clock.

Two clocks: `clock` is monotonic and drives timers and key gestures (a Pi has no
real-time clock and its first network sync can step the wall clock by hours); `wall` is
only for people (when a game was started, file names)."""
from __future__ import annotations

import queue
import sys
import time
import traceback
from collections import deque

from device.keys import Edge, KeyGestures
from firmware import actions as act
from firmware import config, paths
from firmware.effects import Effects
from firmware.games.core import RuleError
from firmware.journal import Draft, JournalError
from firmware.modes import menu
from firmware.modes.base import MessageScreen
from firmware.modes.game import GameScreen
from firmware.modes.perquackey import LetterEntry
from firmware.modes.setup import FormScreen, NameEntry
from firmware.modes.setup import remember as remember_setup
from firmware.notify import Notifier
from firmware.screen import Painter, note_seconds
from firmware.session import Session, bring_back, saved_games, set_aside_unreadable

FLASH_S = 2.5
WARN_S = 4.0


class Notes:
    """The lines shown over the screen for a moment.  A newer flash replaces an older one;
    a warning is never replaced: it stays its full time, and what comes after waits."""

    def __init__(self):
        self._items: deque[list] = deque()   # [text, seconds, shown since (None: not yet), warning]

    def flash(self, text: str, seconds: float = FLASH_S) -> None:
        self._items = deque(item for item in self._items if item[3])
        self._items.append([text, note_seconds(text, seconds), None, False])

    def warn(self, text: str) -> None:
        self._items.append([text, note_seconds(text, WARN_S), None, True])

    def current(self, now: float) -> str | None:
        while self._items and self._items[0][2] is not None and now >= self._items[0][2] + self._items[0][1]:
            self._items.popleft()
        if not self._items:
            return None
        if self._items[0][2] is None:
            self._items[0][2] = now
        return self._items[0][0]

    def shown_for(self, now: float) -> float:
        """Seconds the current note has been up (a long one shows a line at a time)."""
        return now - self._items[0][2] if self._items and self._items[0][2] is not None else 0.0


class App:
    def __init__(self, settings: dict, clock=time.monotonic, wall=time.time, config_file=None,
                 threaded_effects: bool = True):
        self.settings = settings
        self.clock, self.wall = clock, wall
        self.config_file = config_file
        self.queue: queue.SimpleQueue = queue.SimpleQueue()
        self.gestures = KeyGestures(settings["keys.debounce_ms"] / 1000, settings["keys.long_press_ms"] / 1000)
        self.effects = Effects(self.queue.put, threaded=threaded_effects, settings=settings, clock=clock)
        self.hardware = None
        self.finger = None          # the simulator's presses on mock pins
        self.session: Session | None = None
        self.stack: list = []       # the screens, the one shown last
        self.frame = None           # the last image sent to the display
        self.frames_sent = 0
        self.notes = Notes()
        self.log: list[str] = []    # warnings and refusals, newest last
        self.notifier = Notifier()
        self.running = True
        self.drafts: Draft | None = None
        self._early: list = []      # items taken off the queue while waiting for them

    @property
    def mode(self):
        """The screen shown now."""
        return self.stack[-1]

    # --- wiring -------------------------------------------------------------------
    def attach(self, hardware) -> None:
        self.hardware = hardware
        self.effects.camera = hardware.camera
        if hardware.simulated and hardware.keypad is not None:
            from device.simulated import Finger
            self.finger = Finger(hardware.pin_factory, hardware.keypad.pins, self.gestures.long_s,
                                 self.gestures.debounce_s, self.clock)
        for problem in hardware.problems:
            self.warn(problem)

    def start(self) -> None:
        """Resume an unfinished game where the players left it, or open the main menu."""
        self.drafts = Draft(paths.draft_path())
        journal_path = paths.current_journal()
        warnings = self._config_problems()
        if journal_path.exists():
            try:
                self.session = Session.resume(journal_path)
                warnings += self.session.take_warnings()
            except Exception as exc:  # whatever is in the file, the box must start: never a crash loop
                self.session = None
                try:
                    warnings.append(set_aside_unreadable(journal_path, str(exc), self.wall()))
                except OSError as move:
                    warnings.append(f"The saved game could not be read ({exc}) nor moved away ({move.strerror}).")
        self.stack = [self.home()]
        if self.session is not None:
            self.stack.append(menu.play_screen(self.session, self.settings))
        self._restore_drafts()
        if self.session is not None:
            try:
                self.session.pause_after_restart()
            except OSError as exc:
                warnings.append(f"The timer could not be paused in the journal ({exc.strerror}).")
            self._ask(self.stack[1], "on_open", self.clock())
        for warning in warnings:
            self.warn(warning)
        if self.session is not None:
            self.flash(f"Resumed {self.session.label}")
        self.redraw(self.clock())
        self.notifier.ready()

    def _config_problems(self) -> list[str]:
        """What is wrong in the settings file, as sentences for the OLED: the players see
        why a setting is not what they set (the console has them too)."""
        if self.config_file is None:
            return []
        return config.load(self.config_file)[1]

    def home(self):
        return menu.main_menu(self.settings, self.session, saved_games(), self.about_rows())

    def about_rows(self) -> list[str]:
        hw = self.hardware
        rows = [f"{'simulated' if hw is None or hw.simulated else 'real'} hardware"]
        rows += [f"{part}: {what}" for part, what in (hw.found.items() if hw else [])]
        return rows + [f"saves in {paths.state_dir()}"]

    # --- notes and cues ------------------------------------------------------------
    def cue(self, name: str) -> None:
        if self.hardware is not None:
            self.hardware.sounder.play(name, self.clock())

    def flash(self, text: str, seconds: float = FLASH_S) -> None:
        self.notes.flash(text, seconds)

    def refuse(self, text: str) -> None:
        """A key that means nothing now: a short error cue and a line saying why."""
        self.log.append(text)
        self.cue("error")
        self.flash(text)

    def warn(self, text: str) -> None:
        self.log.append(text)
        print(f"tablemate: {text}", file=sys.stderr)
        self.notes.warn(text)

    def failsafe(self, exc: BaseException) -> None:
        """Show what went wrong and offer the way back to a safe screen; the journal is
        untouched, so the game can be resumed from the menu."""
        traceback.print_exception(exc, file=sys.stderr)
        self.log.append(f"{type(exc).__name__}: {exc}")
        self.cue("error")
        self.stack = [self.home(), MessageScreen("Sorry", f"Something went wrong: {exc}. Your game is saved.",
                                                 [act.Home()], "Menu")]

    # --- doing what screens ask ------------------------------------------------------
    def _ask(self, screen, method: str, now: float, *args) -> None:
        """Ask a screen for actions (`screen.method(*args)`) and perform them; any failure
        goes to the failsafe."""
        try:
            self._perform(getattr(screen, method)(*args) or [], now, screen)
        except Exception as exc:  # the failsafe: never leave the players with a dead box
            self.failsafe(exc)

    def _perform(self, actions: list, now: float, source) -> None:
        for action in actions:
            self._do(action, now, source)

    def _do(self, a, now: float, source) -> None:
        if isinstance(a, act.Go):
            self.stack.append(a.screen)
            self._perform(a.screen.on_open(), now, a.screen)
        elif isinstance(a, act.Back):
            if len(self.stack) > 1:
                self.stack.pop()
        elif isinstance(a, act.Home):
            self.stack = [self.home()]
        elif isinstance(a, act.Refuse):
            self.refuse(a.text)
        elif isinstance(a, act.Flash):
            self.flash(a.text, a.seconds)
        elif isinstance(a, act.Warn):
            self.warn(a.text)
        elif isinstance(a, act.Cue):
            self.cue(a.name)
        elif isinstance(a, act.StartGame):
            self._start_game(a, now)
        elif isinstance(a, act.ResumeGame):
            self._resume_game(a, now)
        elif isinstance(a, act.SetAside):
            self._set_aside()
        elif isinstance(a, act.LeaveGame):
            self._leave_game(now)
        elif isinstance(a, act.SaveSetting):
            self._save_setting(a.key, a.value)
        elif isinstance(a, act.RememberSetup):
            try:
                remember_setup(a.game, a.values)
            except OSError as exc:
                self.warn(f"The names could not be kept for the next game ({exc.strerror}).")
        elif isinstance(a, act.EFFECTS):
            self.effects.submit(a, to=source)
        else:
            raise TypeError(f"not an action: {a!r}")

    def _show_game(self, now: float) -> None:
        play = menu.play_screen(self.session, self.settings)
        self.stack = [self.home(), play]
        self._perform(play.on_open(), now, play)

    def _start_game(self, a, now: float) -> None:
        if self.session is not None and not self._put_away():   # the menu asks first; this keeps the policy
            return
        try:
            self.session = Session.new(a.game, a.settings, self.wall())
        except (RuleError, OSError, TypeError, ValueError) as exc:
            return self.refuse(f"The game could not start ({exc}).")
        self._show_game(now)
        self.cue("start")

    def _resume_game(self, a, now: float) -> None:
        if a.saved is not None:
            try:
                self.session = bring_back(a.saved)
            except (OSError, JournalError, KeyError, RuleError, TypeError, ValueError) as exc:
                return self.warn(f"That saved game could not be resumed ({exc}).")
            for warning in self.session.take_warnings():
                self.warn(warning)
        if self.session is None:
            return self.refuse("No game to resume.")
        self._show_game(now)
        timer = self.session.timer()
        if timer is not None and not timer.running and not timer.expired(now):
            self.flash("The timer is paused: resume it with its key.")

    def _put_away(self) -> bool:
        """File the current game (one policy: see firmware.session); False if even that
        failed, and the game then stays the current one."""
        try:
            filed = self.session.put_away()
        except OSError as exc:
            self.warn(f"The game could not be put away ({exc.strerror or exc}); it stays the current game.")
            return False
        self.session = None
        if filed.warning:
            self.warn(filed.warning)
        return True

    def _set_aside(self) -> None:
        if self._put_away():
            self.flash("Set aside: Saved games resumes it.")

    def _leave_game(self, now: float) -> None:
        """Back to the menu.  A running timer pauses (its cues would sound for a screen
        nobody looks at); a finished game is filed in the history."""
        if self.session.pause(now):
            self.flash("The timer is paused while you are away.")
        if self.session.outcome is not None:
            self._put_away()
        self.stack = [self.home()]

    def _save_setting(self, key: str, value) -> None:
        self.settings[key] = value
        hw = self.hardware
        if hw is not None and key == "display.contrast":
            hw.display.contrast(value)
        elif hw is not None and key == "sound.enabled":
            hw.sounder.enabled = value
        if self.config_file is not None:
            try:
                config.save(self.config_file, self.settings)
            except OSError as exc:
                self.warn(f"The setting works now but could not be saved to {self.config_file} ({exc.strerror}).")

    # --- work in progress, kept through a power cut ------------------------------------
    def draft(self) -> dict | None:
        screens = [d for d in (s.draft() for s in self.stack) if d is not None]
        if not screens:
            return None
        session = self.session
        return {"game": session.game if session else None,
                "events": len(session.journal.events) if session else None, "screens": screens}

    def _save_draft(self) -> None:
        try:
            self.drafts.save(self.draft())
        except OSError as exc:
            self.warn(f"Work in progress could not be saved ({exc.strerror}); the game itself is safe.")

    def _restore_drafts(self) -> None:
        """Rebuild the screens over the game from the draft, if it belongs to this very
        journal (a draft older than the last event is stale and is ignored)."""
        draft = self.drafts.load()
        session = self.session
        if not draft or draft.get("game") != (session.game if session else None) \
                or draft.get("events") != (len(session.journal.events) if session else None):
            return
        try:
            for d in draft.get("screens") or []:
                screen = self._restored(d)
                if screen is not None:
                    self.stack.append(screen)
        except Exception as exc:  # a draft is a convenience: never a reason not to start
            self.stack = self.stack[:2 if session else 1]
            self.warn(f"The work in progress could not be restored ({exc}).")

    def _restored(self, d: dict):
        top, kind = self.stack[-1], d.get("screen")
        if kind == "play" and isinstance(top, GameScreen):
            top.restore(d)
        elif kind == "letters" and hasattr(top, "letter_entry"):
            return LetterEntry.restore(top, d)
        elif kind == "form" and self.session is None and d.get("game") in menu.CONTROLLERS:
            form = menu.setup_screen(d["game"], self.settings)
            form.restore(d)
            return form
        elif kind == "name" and isinstance(top, FormScreen):
            field = next((f for f in top.fields if f.label == d.get("field") and f.names), None)
            if field is not None:
                entry = NameEntry(field)
                entry.restore(d)
                return entry
        return None

    # --- the loop -------------------------------------------------------------------
    def press(self, press, now: float | None = None) -> None:
        """A person's press: on the simulator it goes through the mock pins."""
        now = self.clock() if now is None else now
        self.finger.press(press, now)

    def handle(self, press, now: float) -> None:
        """A press, as the key gestures report it, to the screen shown now."""
        self._ask(self.mode, "on_key", now, press, now)

    def _take(self) -> list:
        items, self._early = self._early, []
        while True:
            try:
                items.append(self.queue.get_nowait())
            except queue.Empty:
                return items

    def step(self, now: float | None = None) -> None:
        now = self.clock() if now is None else now
        if self.finger is not None:
            self.finger.tick(now)
        for item in self._take():
            if isinstance(item, Edge):
                for press in self.gestures.edge(item):
                    self.handle(press, now)
            elif isinstance(item, act.EffectDone):
                if any(item.to is screen for screen in self.stack):   # else: its screen has gone
                    self._ask(item.to, "on_result", now, item, now)
        for press in self.gestures.tick(now):
            self.handle(press, now)
        if self.effects.watching_for is not None and not any(self.effects.watching_for is s for s in self.stack):
            self.effects.submit(act.StopWatching())     # the screen that watched has gone
        self.effects.poll(now)
        self._ask(self.mode, "tick", now, now)
        if self.session is not None:
            self.session.heartbeat(now)
        if self.hardware is not None:
            self.hardware.sounder.tick(now)
        self._save_draft()
        self.redraw(now)
        self.notifier.watchdog()

    def render(self, now: float):
        return self.paint(now).image

    def paint(self, now: float) -> Painter:
        """The frame for `now`, with what the Painter found did not fit (`problems`)."""
        p = Painter()
        try:
            self.mode.draw(p, now)
            p.softkeys(self.mode.softkeys(now))
        except Exception as exc:
            self.failsafe(exc)
            p = Painter()
            self.mode.draw(p, now)
            p.softkeys(self.mode.softkeys(now))
        note = self.notes.current(now)
        if note:
            p.note(note, self.notes.shown_for(now))
        return p

    def redraw(self, now: float) -> None:
        image = self.render(now)
        if self.frame is None or image.tobytes() != self.frame.tobytes():
            self.frame = image
            self.frames_sent += 1
            if self.hardware is not None:
                self.hardware.display.display(image)
        status = getattr(self.hardware.display, "status", None) if self.hardware else None
        if status is not None:
            cue = self.hardware.sounder.last_cue
            self.hardware.display.status = (f"[{cue}] " if cue else "") + (self.log[-1] if self.log else "")

    def next_wakeup(self, now: float) -> float:
        deadlines = [now + 0.1]
        for source in (self.gestures, self.finger):
            if source is not None and source.next_deadline() is not None:
                deadlines.append(source.next_deadline())
        return min(deadlines)

    def idle(self) -> bool:
        """Nothing left to do for the keys already pressed: no edge waiting, no gesture or
        simulated finger mid-way, no slow work under way."""
        return (not self._early and self.queue.empty() and self.gestures.next_deadline() is None
                and (self.finger is None or self.finger.next_deadline() is None) and not self.effects.busy)

    def run(self, keyboard=None) -> None:
        """Loop until Ctrl-C (or the end of a piped key script, once all of it was handled)."""
        try:
            while self.running:
                now = self.clock()
                timeout = max(0.0, self.next_wakeup(now) - now)
                if keyboard is not None and not getattr(keyboard, "closed", False):
                    for press in keyboard.read(timeout):
                        self.press(press)
                else:
                    try:  # real keys (or the worker): wake the moment something arrives
                        self._early.append(self.queue.get(timeout=timeout))
                    except queue.Empty:
                        pass
                self.step()
                if keyboard is not None and getattr(keyboard, "closed", False) and self.idle():
                    self.running = False
        except KeyboardInterrupt:
            pass

    def close(self) -> None:
        self.effects.close()
