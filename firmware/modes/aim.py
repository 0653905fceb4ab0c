"""Settings > Aim camera: a live thumbnail of what the camera sees, with the top faces it
finds boxed, so a family can place the box."""
from __future__ import annotations

from firmware.actions import Aim, Back, Cue, Flash, Refuse, TakeEmptyTable
from firmware.modes.base import Screen


class AimScreen(Screen):
    """Asks the worker for a picture, shows it, asks for the next: a live view at the
    pace the camera and the face finder allow.  K3 keeps the table in view as the empty
    table (take it with no cubes on it), K4 goes back (the pictures then stop)."""

    title = "Aim camera"

    def __init__(self):
        self.thumb, self.faces, self.note, self.error = None, 0, "", None
        self.keeping = False        # the empty table is being taken

    def on_open(self):
        return [Aim()]

    def softkeys(self, now):
        return ("", "", "..." if self.keeping else "Empty", "Back")

    def on_key(self, press, now):
        if press.key == "K4":
            return [Back()]
        if press.key == "K3":
            if self.keeping:
                return [Refuse("Still taking the empty table: a moment.")]
            self.keeping = True
            return [TakeEmptyTable()]
        return [Refuse("Move the box until the cubes are boxed; K3 keeps the empty table, K4 goes back.")]

    def on_result(self, done, now):
        if isinstance(done.request, TakeEmptyTable):
            self.keeping = False
            return [Refuse(done.error)] if done.error else [Cue("click"), Flash(done.value, 4.0)]
        if done.error:
            self.thumb, self.error = None, done.error
            return []                # no more pictures: the message stays until Back
        self.thumb, self.faces, notes = done.value
        self.error, self.note = None, notes[0] if notes else ""
        return [Aim()]

    def draw(self, p, now):
        if self.error:
            p.title("Aim camera")
            p.paragraph(self.error)
            return
        if self.thumb is None:
            p.title("Aim camera")
            p.paragraph("Looking...")
            return
        p.image.paste(self.thumb, (0, 0))
        x = self.thumb.width + 3
        p.text((x, 2), f"{self.faces}", 14)
        p.text((x, 20), "face" if self.faces == 1 else "faces", 8)
        p.text((x, 30), "found", 8)
        if self.note:
            p.text((x, 40), "moved?", 8)
