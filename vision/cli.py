"""`tablemate read`: the cube reader on photo files, one line per image."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import cv2
import numpy as np

from device.camera import read_image as load_image
from device.errors import CameraError
from vision.reader import CubeCountError, read_image


def read_images(paths: list[str], cube_set: str = "classic", as_json: bool = False, debug_dir: str | None = None,
                out=sys.stdout, err=sys.stderr) -> int:
    """Read each image; a file that cannot be read gets one line on stderr and the exit
    status 1, and the others are still read."""
    status = 0
    for path in paths:
        try:
            image = load_image(path)
            working: list = []
            reading = read_image(image, cube_set, debug=working if debug_dir else None)
        except (CameraError, CubeCountError) as exc:
            print(f"tablemate read: {exc}", file=err)
            status = 1
            continue
        if debug_dir:
            write_debug(Path(debug_dir), Path(path).stem, image, working)
        for note in reading.notes:
            print(f"tablemate read: {path}: {note}", file=err)
        if as_json:
            print(json.dumps({"image": path, "cubes": [c.as_json() for c in reading.cubes],
                              "ms": round(reading.ms, 1)}), file=out)
        else:
            letters = " ".join(c.letter.lower() if c.red else c.letter for c in reading.cubes)
            unsure = sum(c.uncertain for c in reading.cubes)
            print(f"{path}: {len(reading.cubes)} cubes: {letters}  (red in lower case; {unsure} uncertain; "
                  f"{reading.ms:.0f} ms)", file=out)
    return status


def write_debug(folder: Path, stem: str, image: np.ndarray, working: list) -> None:
    """Two pictures per image: the faces found on the photo, and each face's steps
    (straightened face, its ink, the upright glyph) with the decision."""
    folder.mkdir(parents=True, exist_ok=True)
    marked = image.copy()
    rows = []
    for glyph, cube in working:
        colour = (0, 0, 255) if cube.uncertain else (0, 200, 0)
        cv2.polylines(marked, [glyph.corners.astype(np.int32)], True, colour, 3)
        cv2.putText(marked, cube.letter, (int(cube.x) - 12, int(cube.y) - 40), cv2.FONT_HERSHEY_SIMPLEX, 1.2,
                    colour, 3)
        upright = cv2.resize(np.rot90(glyph.mask, cube.turns).copy(), glyph.mask.shape[::-1])
        panel = np.hstack([glyph.square, cv2.cvtColor(glyph.mask, cv2.COLOR_GRAY2BGR),
                           cv2.cvtColor(upright, cv2.COLOR_GRAY2BGR), np.full_like(glyph.square, 255)])
        text = f"{cube.letter} {'red' if cube.red else 'black'} {cube.confidence:.2f}{' ?' if cube.uncertain else ''}"
        cv2.putText(panel, text, (3 * glyph.square.shape[1] + 4, 50), cv2.FONT_HERSHEY_SIMPLEX, 0.45, colour, 1)
        rows.append(panel)
    cv2.imwrite(str(folder / f"{stem}-faces.jpg"), marked)
    if rows:
        cv2.imwrite(str(folder / f"{stem}-glyphs.png"), np.vstack(rows))
