"""systemd's notify protocol (READY=1, WATCHDOG=1), spoken only when systemd asked for it."""
from __future__ import annotations

import os
import socket
import time

WATCHDOG_EVERY_S = 1.0   # the unit's WatchdogSec is far longer; no need to speak every tick


class Notifier:
    def __init__(self, environ=os.environ):
        address = environ.get("NOTIFY_SOCKET", "")
        self._address = "\0" + address[1:] if address.startswith("@") else address
        self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) if address else None
        self._fed_at = float("-inf")

    def send(self, message: str) -> None:
        if self._sock is not None:
            try:
                self._sock.sendto(message.encode(), self._address)
            except OSError:
                pass  # systemd went away: nothing useful to do about it from here

    def ready(self) -> None:
        self.send("READY=1")

    def watchdog(self) -> None:
        now = time.monotonic()
        if now - self._fed_at >= WATCHDOG_EVERY_S:
            self._fed_at = now
            self.send("WATCHDOG=1")
