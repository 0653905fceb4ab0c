"""Tesseract's second opinion on a glyph the classifier is unsure of.

Tesseract reads a clean, upright capital well but cannot tell which way up a cube lies,
so it is only asked about a glyph already turned upright, and its answer counts only if
it is one of the letters that could be there.  One call costs a process start (about 0.1 s on a PC), so it is
asked only about uncertain faces."""
from __future__ import annotations

import shutil

import cv2
import numpy as np

MIN_CONFIDENCE = 40        # Tesseract's own 0..100 scale


class TesseractMissing(RuntimeError):
    pass


def available() -> bool:
    return shutil.which("tesseract") is not None


def upright_image(mask: np.ndarray, turns: int) -> np.ndarray:
    """Black ink on white, upright, cropped with a margin, about 64 pixels tall."""
    glyph = np.rot90(mask, turns)
    ys, xs = np.nonzero(glyph)
    if len(xs) == 0:
        return np.full((64, 64), 255, np.uint8)
    crop = glyph[ys.min():ys.max() + 1, xs.min():xs.max() + 1]
    scale = 64 / crop.shape[0]
    crop = cv2.resize(crop, (max(1, int(crop.shape[1] * scale)), 64), interpolation=cv2.INTER_AREA)
    return cv2.copyMakeBorder(255 - crop, 24, 24, 24, 24, cv2.BORDER_CONSTANT, value=255)


def read_letter(mask: np.ndarray, turns: int, candidates: str) -> tuple[str, float] | None:
    """Tesseract's letter and confidence for the glyph, or None if it reads nothing."""
    try:
        import pytesseract
    except ImportError as exc:
        raise TesseractMissing("pytesseract is not installed") from exc
    # no whitelist: Tesseract 5 then tends to answer nothing at all; the answer is
    # checked against the candidates below instead
    config = "--psm 10"
    try:
        data = pytesseract.image_to_data(upright_image(mask, turns), config=config,
                                         output_type=pytesseract.Output.DICT)
    except pytesseract.TesseractNotFoundError as exc:
        raise TesseractMissing("the tesseract program is not installed (sudo apt install tesseract-ocr)") from exc
    best = None
    for text, conf in zip(data["text"], data["conf"]):
        text, conf = text.strip(), float(conf)
        if len(text) == 1 and text in candidates and conf >= MIN_CONFIDENCE and (best is None or conf > best[1]):
            best = (text, conf)
    return best
