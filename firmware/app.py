"""The app loop: the one owner of all state.

gpiozero callbacks only put edges on `queue`; `step(now)` drains them through the key
gestures into the current mode, ticks timers and cues, and sends a frame to the display
only when the picture changed.  `run()` is that loop against the real clock."""
from __future__ import annotations

import queue
import sys
import time
import traceback

from device.keys import KeyGestures
from firmware import paths
from firmware.journal import Journal, JournalError
from firmware.notify import Notifier
from firmware.screen import Painter

FLASH_S = 2.5
HEARTBEAT_S = 2.0


class App:
    def __init__(self, settings: dict, clock=time.time, config_file=None):
        self.settings = settings
        self.clock = clock
        self.config_file = config_file
        self.queue: queue.SimpleQueue = queue.SimpleQueue()
        self.gestures = KeyGestures(settings["keys.debounce_ms"] / 1000, settings["keys.long_press_ms"] / 1000)
        self.hardware = None
        self.finger = None          # the simulator's presses on mock pins
        self.mode = None
        self.frame = None           # the last image sent to the display
        self.frames_sent = 0
        self._flash = ("", 0.0)
        self.log: list[str] = []    # warnings and refusals, newest last
        self._heartbeat_at = 0.0
        self.notifier = Notifier()
        self.running = True
        self._early: list = []      # edges taken off the queue while waiting for them

    # --- wiring -------------------------------------------------------------------
    def attach(self, hardware) -> None:
        self.hardware = hardware
        if hardware.simulated and hardware.keypad is not None:
            from device.simulated import Finger
            self.finger = Finger(hardware.pin_factory, hardware.keypad.pins, self.gestures.long_s,
                                 self.gestures.debounce_s)
        for problem in hardware.problems:
            self.warn(problem)

    def start(self) -> None:
        """Resume an unfinished game, or open the main menu."""
        from firmware.modes import menu
        now = self.clock()
        journal_path = paths.current_journal()
        if journal_path.exists():
            try:
                journal = Journal.load(journal_path)
                for warning in journal.warnings:
                    self.warn(warning)
                self.mode = menu.game_mode(self, journal)
                self._pause_after_restart(now)
                self.flash(f"Resumed {menu.GAMES[journal.game].label}")
            except (JournalError, KeyError) as exc:
                broken = journal_path.with_name(f"unreadable-{int(now)}.jsonl")
                journal_path.replace(broken)
                self.warn(f"The saved game could not be read ({exc}); it was moved to {broken}.")
        if self.mode is None:
            self.mode = menu.main_menu(self)
        self.redraw(now)
        self.notifier.ready()

    def _pause_after_restart(self, now: float) -> None:
        """A timer that ran when the box went down resumes paused, with the time it had
        left when the box was last seen alive."""
        timer = self.mode.timer()
        if timer is None or not timer.running:
            return
        last_seen = now
        try:
            last_seen = float(paths.heartbeat_path().read_text())
        except (OSError, ValueError):
            pass
        last_event = max((e.get("at", 0) for e in self.mode.journal.events), default=0)
        self.mode.submit({"kind": "pause", "at": min(now, max(last_seen, last_event))}, cue="click")

    # --- what modes call ------------------------------------------------------------
    def switch(self, mode) -> None:
        self.mode = mode

    def cue(self, name: str) -> None:
        if self.hardware is not None:
            self.hardware.sounder.play(name, self.clock())

    def flash(self, text: str, seconds: float = FLASH_S) -> None:
        self._flash = (text, self.clock() + seconds)

    def refuse(self, text: str) -> None:
        """A key that means nothing now: a short error cue and a line saying why."""
        self.log.append(text)
        self.cue("error")
        self.flash(text)

    def warn(self, text: str) -> None:
        self.log.append(text)
        print(f"tablemate: {text}", file=sys.stderr)
        self.flash(text, 4.0)

    def leave_game(self) -> None:
        from firmware.modes import menu
        mode = self.mode
        if mode.outcome is not None:
            mode.journal.archive(paths.history_dir(), "finished")
        self.switch(menu.main_menu(self))

    def failsafe(self, exc: BaseException) -> None:
        """Show what went wrong and offer the way back to a safe screen; the journal is
        untouched, so the game can be resumed from the menu."""
        from firmware.modes import menu
        from firmware.modes.base import MessageMode
        traceback.print_exception(exc, file=sys.stderr)
        self.log.append(f"{type(exc).__name__}: {exc}")
        self.cue("error")
        self.switch(MessageMode(self, "Sorry", f"Something went wrong: {exc}. Your game is saved.",
                                lambda: self.switch(menu.main_menu(self)), "Menu"))

    # --- the loop -------------------------------------------------------------------
    def press(self, press, now: float | None = None) -> None:
        """A person's press: on the simulator it goes through the mock pins."""
        now = self.clock() if now is None else now
        self.finger.press(press, now)

    def step(self, now: float | None = None) -> None:
        now = self.clock() if now is None else now
        if self.finger is not None:
            self.finger.tick(now)
        presses = []
        for edge in self._early:
            presses += self.gestures.edge(edge)
        self._early.clear()
        while True:
            try:
                presses += self.gestures.edge(self.queue.get_nowait())
            except queue.Empty:
                break
        presses += self.gestures.tick(now)
        for press in presses:
            self._guarded(self.mode.on_key, press, now)
        self._guarded(self.mode.tick, now)
        if self.hardware is not None:
            self.hardware.sounder.tick(now)
        self._heartbeat(now)
        self.redraw(now)
        self.notifier.watchdog()

    def _guarded(self, fn, *args) -> None:
        try:
            fn(*args)
        except Exception as exc:  # the failsafe: never leave the players with a dead box
            self.failsafe(exc)

    def _heartbeat(self, now: float) -> None:
        timer = getattr(self.mode, "timer", lambda: None)()
        if timer is not None and timer.running and now - self._heartbeat_at >= HEARTBEAT_S:
            self._heartbeat_at = now
            path = paths.heartbeat_path()
            tmp = path.with_suffix(".tmp")
            try:
                tmp.write_text(repr(now))
                tmp.replace(path)
            except OSError:
                pass  # only costs precision on resume

    def render(self, now: float):
        p = Painter()
        try:
            self.mode.draw(p, now)
            p.softkeys(self.mode.softkeys(now))
        except Exception as exc:
            self.failsafe(exc)
            p = Painter()
            self.mode.draw(p, now)
            p.softkeys(self.mode.softkeys(now))
        text, until = self._flash
        if text and now < until:
            p.message(text)
        return p.image

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

    def _idle(self) -> bool:
        return self.gestures.next_deadline() is None and (self.finger is None or self.finger.next_deadline() is None)

    def run(self, keyboard=None) -> None:
        """Loop until Ctrl-C (or the end of a piped key script)."""
        try:
            while self.running:
                now = self.clock()
                timeout = max(0.0, self.next_wakeup(now) - now)
                if keyboard is not None:
                    presses = keyboard.read(timeout)
                    for press in presses:
                        self.press(press)
                    if getattr(keyboard, "closed", False) and self._idle():
                        self.running = False  # a piped script ended and every key was handled
                else:
                    try:  # real keys: wake the moment an edge arrives
                        self._early.append(self.queue.get(timeout=timeout))
                    except queue.Empty:
                        pass
                self.step()
        except KeyboardInterrupt:
            pass
