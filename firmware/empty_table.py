"""The frame of the empty table from the camera fixed on the box, kept in the state
folder: with it the reader tells the cubes from the table by difference, whatever the
table looks like.  Taken automatically when the watcher sees the table empty and still
between throws, or from Settings > Empty table."""
from __future__ import annotations

import os

from firmware import paths
from firmware.journal import fsync_dir


def path():
    return paths.state_dir() / "empty-table.png"


def load():
    """The saved frame (BGR), or None when there is none or it cannot be read (a damaged
    file only costs the difference: the reader works without it)."""
    import cv2
    where = path()
    if not where.is_file():
        return None
    return cv2.imread(str(where), cv2.IMREAD_COLOR)


def save(frame) -> None:
    """Write the frame durably: a power cut leaves the old one or the new one, whole."""
    import cv2
    where = path()
    where.parent.mkdir(parents=True, exist_ok=True)
    ok, data = cv2.imencode(".png", frame)
    if not ok:
        raise OSError(f"the frame could not be encoded for {where.name}")
    tmp = where.with_suffix(".tmp")
    with open(tmp, "wb") as f:
        f.write(data.tobytes())
        f.flush()
        os.fsync(f.fileno())
    tmp.replace(where)
    fsync_dir(where.parent)
