"""Tesseract's second opinion on a glyph the classifier is unsure of.

Tesseract reads a clean, upright capital well but cannot tell which way up a cube lies,
so it is only asked about a glyph already turned upright, and its answer counts only if
it is one of the letters that could be there.

Tesseract is asked in-process through tesserocr where it is installed (the model is
loaded once per thread, then a glyph takes a millisecond or two); otherwise through the
tesseract program (pytesseract), where every glyph costs a process start of about 0.1 s
on a PC, so fewer glyphs are asked."""
from __future__ import annotations

import os
import shutil
import threading
from pathlib import Path

import cv2
import numpy as np

MIN_CONFIDENCE = 40        # Tesseract's own 0..100 scale
# where Debian, Raspberry Pi OS, Fedora and Homebrew keep Tesseract's language files
TESSDATA_PLACES = ("/usr/share/tesseract-ocr/5/tessdata", "/usr/share/tesseract-ocr/4.00/tessdata",
                   "/usr/share/tessdata", "/usr/local/share/tessdata", "/opt/homebrew/share/tessdata")
_local = threading.local()


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


def tessdata() -> Path | None:
    """The folder holding Tesseract's English model, if there is one."""
    places = [os.environ["TESSDATA_PREFIX"]] if os.environ.get("TESSDATA_PREFIX") else []
    return next((Path(p) for p in [*places, *TESSDATA_PLACES] if Path(p, "eng.traineddata").is_file()), None)


def _in_process():
    """This thread's in-process Tesseract (a model loaded once), or None without tesserocr
    or the English model.  Not shared: one Tesseract must not serve two threads at once."""
    if not hasattr(_local, "api"):
        _local.api = None                 # asked once per thread, found or not
        try:
            import tesserocr
        except ImportError:
            return None
        folder = tessdata()
        if folder is not None:
            try:
                _local.api = tesserocr.PyTessBaseAPI(path=f"{folder}/", lang="eng", psm=tesserocr.PSM.SINGLE_CHAR)
            except RuntimeError:          # a model file it cannot load: the program is asked instead
                pass
    return _local.api


def in_process() -> bool:
    """Whether glyphs are read in-process (cheap) rather than by starting a program each."""
    return _in_process() is not None


def _accepted(text: str, confidence: float, candidates: str) -> tuple[str, float] | None:
    text = text.strip()
    return (text, confidence) if len(text) == 1 and text in candidates and confidence >= MIN_CONFIDENCE else None


def _read_in_process(api, image: np.ndarray, candidates: str) -> tuple[str, float] | None:
    """One glyph read in-process.  Tesseract 5.5 sometimes splits a wide capital into
    pieces of itself ("WwW" for a W): pieces that are all one letter are that letter."""
    import tesserocr
    from PIL import Image
    api.SetImage(Image.fromarray(image))
    api.Recognize()
    found = api.GetIterator()
    if found is None:
        return None
    level = tesserocr.RIL.SYMBOL
    symbols = []
    for symbol in tesserocr.iterate_level(found, level):
        try:
            symbols.append((symbol.GetUTF8Text(level).strip(), symbol.Confidence(level)))
        except RuntimeError:          # a blob with no text
            continue
    letters = {text.upper() for text, _ in symbols if text}
    if len(letters) != 1:
        return None                  # nothing read, or more than one letter
    return _accepted(letters.pop(), float(np.mean([conf for _, conf in symbols])), candidates)


def read_letter(mask: np.ndarray, turns: int, candidates: str) -> tuple[str, float] | None:
    """Tesseract's letter and confidence for the glyph, or None if it reads nothing."""
    api = _in_process()
    if api is not None:
        return _read_in_process(api, upright_image(mask, turns), candidates)
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
    answers = [a for text, conf in zip(data["text"], data["conf"]) if (a := _accepted(text, float(conf), candidates))]
    return max(answers, key=lambda a: a[1], default=None)
