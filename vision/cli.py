"""`tablemate read`: the cube reader on photo files, one line per image."""
from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import cv2
import numpy as np

from device.camera import read_image as load_image
from device.errors import CameraError
from vision.top_faces import CROWDED as CROWD, FAR_PART
from vision.reader import CubeCountError, PhotoTooSmall, read_image
from vision.truth import TruthFileError, load_truth, score_photo, set_and_count, summary_lines


def read_images(paths: list[str], cube_set: str = "classic", as_json: bool = False, debug_dir: str | None = None,
                truth_path: str | None = None, template_path: str | None = None,
                out=sys.stdout, err=sys.stderr) -> int:
    """Read each image; a file that cannot be read gets one line on stderr and the exit
    status 1, and the others are still read.  With a truth file, each photo is read with
    the cube set and count its record gives (as the game knows them) and scored.  With a
    template path, the readings are written there as a truth file for a person to correct
    (never over a file already there)."""
    status = 0
    try:
        truth = load_truth(truth_path) if truth_path else None
    except TruthFileError as exc:
        print(f"tablemate read: {exc}", file=err)
        return 1
    if template_path and Path(template_path).exists():
        print(f"tablemate read: {template_path} is already there; the truth template is written only to a new "
              f"file, so letters you corrected are never lost.", file=err)
        return 1
    if template_path and not Path(template_path).parent.is_dir():
        print(f"tablemate read: there is no folder {Path(template_path).parent} to write the truth template in: "
              f"make it first, or give a path in a folder that is there.", file=err)
        return 1
    scores, template = [], []
    for path in paths:
        record = truth.get(Path(path).name) if truth is not None else None
        if truth is not None and record is None:
            print(f"tablemate read: {path}: not in the truth file, read but not scored.", file=err)
        try:
            image = load_image(path)
            working: list = []
            reading = read_image(image, *set_and_count(record, cube_set),
                                 debug=working if debug_dir or template_path else None)
        except (CameraError, CubeCountError, PhotoTooSmall) as exc:
            print(f"tablemate read: {'' if isinstance(exc, CameraError) else f'{path}: '}{exc}", file=err)
            status = 1
            continue
        if debug_dir:
            write_debug(Path(debug_dir), Path(path).stem, image, working)
        if template_path:
            template.append(truth_record(Path(path).name, cube_set, reading, working))
            _write_template(template_path, template)      # after each photo: a run stopped part way keeps it
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
        if record is not None:
            score = score_photo(path, reading.cubes, record)
            scores.append(score)
            print(f"  truth: {score.cubes} cubes, found {score.found}, right {score.right}, phantoms "
                  f"{score.phantoms}, silent wrong {score.silent_wrong}, red/black wrong {score.colour_wrong}"
                  f"{'  ALL RIGHT' if score.all_right else ''}",
                  file=out)
    if truth is not None:
        for line in summary_lines(scores):
            print(line, file=out)
    if template_path and not template:
        print(f"tablemate read: no photo was read, so {template_path} was not written.", file=err)
    elif template_path:
        print(f"tablemate read: wrote {len(template)} photos' readings to {template_path}. They are the reader's, not "
              f"the truth: check every letter and colour (those it doubted say \"check\": true), add the cubes it "
              f"missed, take out any it made up, set \"vulnerable\" for each throw, then score with --truth.",
              file=err)
    return status


def _write_template(path: str, template: list[dict]) -> None:
    """The truth template so far, written whole beside it and then put in its place (a
    stop in the middle of writing leaves the last one whole)."""
    part = Path(path).with_name(Path(path).name + ".part")
    part.write_text(json.dumps(template, indent=1) + "\n")
    os.replace(part, path)


def truth_record(image: str, cube_set: str, reading, working: list) -> dict:
    """A truth file's record made from a reading, for a person to correct: the cubes read
    (those in doubt marked to check), the side of a top face (the faces' outlines), and
    for a Perquackey throw of 10 or 13 cubes whether it is vulnerable."""
    sides = [float(np.sqrt(cv2.contourArea(glyph.corners.astype(np.float32)))) for glyph, cube in working
             if cube is not None]
    record: dict = {"image": image, "red_set": cube_set}
    if cube_set != "any" and len(reading.cubes) in (10, 13):
        record["vulnerable"] = len(reading.cubes) == 13
    if sides:
        record["size"] = round(float(np.median(sides)), 1)
    record["cubes"] = [{"letter": c.letter, "red": bool(c.red), "x": round(float(c.x), 1), "y": round(float(c.y), 1),
                        **({"check": True} if c.uncertain else {})} for c in reading.cubes]
    return record


def write_debug(folder: Path, stem: str, image: np.ndarray, working: list) -> None:
    """Per image: the faces found on the photo (thick, with the letter) and the candidates
    rejected (thin, numbered; those past the most the finder keeps only counted), the
    reasons for those numbers in a text file (written on the photo, the hundreds of a
    wood grain or a cloth would hide it), the far part of a steep view looked at again
    (a yellow box, said at the file's end), and each face's steps (straightened face,
    its ink, the upright glyph) with the decision."""
    folder.mkdir(parents=True, exist_ok=True)
    marked = image.copy()
    rows, reasons, crowd, far = [], [], 0, []
    for glyph, cube in working:
        if cube is None:            # a rejected candidate: its outline, and why under its number
            if glyph.reason == CROWD:
                crowd += 1
                continue
            if glyph.reason == FAR_PART:
                (x0, y0), (x1, y1) = glyph.corners.min(axis=0).astype(int), glyph.corners.max(axis=0).astype(int)
                cv2.rectangle(marked, (x0, y0), (x1, y1), (0, 210, 255), 2)
                far.append(f"Looked at again on its own (the yellow box): {FAR_PART}, ({x0}, {y0}) to ({x1}, {y1}).")
                continue
            corners = glyph.corners.astype(np.int32)
            cv2.polylines(marked, [corners], True, (200, 120, 0), 1)
            reasons.append(f"{len(reasons) + 1:4d}  at ({glyph.corners[:, 0].mean():.0f}, "
                           f"{glyph.corners[:, 1].mean():.0f})  {glyph.reason}")
            cv2.putText(marked, str(len(reasons)), tuple(int(v) for v in corners.min(axis=0)),
                        cv2.FONT_HERSHEY_SIMPLEX, 0.4, (200, 120, 0), 1)
            continue
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
    if crowd:
        reasons.append(f"      {crowd} more outlines, not numbered: {CROWD}")
    (folder / f"{stem}-rejected.txt").write_text(
        "Candidates rejected, by their number on the faces picture (blue), with their middle in pixels:\n"
        + "\n".join(reasons + far) + "\n")
    if rows:
        cv2.imwrite(str(folder / f"{stem}-glyphs.png"), np.vstack(rows))
