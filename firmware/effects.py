"""Slow outside work, off the loop: camera capture, cube reading, the solver, saving a
capture, warming up.  One worker thread takes the requests in order; each result goes back
as an `EffectDone` on the loop's queue (the same queue the key edges use), so the loop
stays the one owner of state, keeps redrawing ("Reading...") and keeps answering keys.

The reader's references and the word index are built once, on this worker: a read
queued behind the warm-up waits for it instead of building them a second time."""
from __future__ import annotations

import queue
import threading
import time

from firmware import paths
from firmware.actions import Capture, EffectDone, ReadCubes, Solve, WarmUp

_STOP = object()


def read_cubes(request: ReadCubes, camera):
    if camera is None:
        raise LookupError("No camera: key the letters in.")
    try:
        from vision.reader import read_throw
    except ImportError as exc:
        raise LookupError(f"The cube reader is not installed ({exc.name}): key the letters in.") from exc
    try:
        # a live camera gives two frames of the same throw, read together
        frames = [camera.capture() for _ in range(2 if getattr(camera, "live", False) else 1)]
        reading = read_throw(frames, vulnerable=request.vulnerable, red_set=request.red_set)
    except (OSError, ValueError) as exc:
        raise LookupError(f"{exc} Key the letters in.") from exc
    return list(reading.letters_by_cube), list(reading.unsure_by_cube)


def solve(request: Solve, camera):
    try:
        from firmware.games.words import solve as solve_letters
        from firmware.house_words import load_wordlist
        return solve_letters(load_wordlist(family=request.family), request.letters)
    except (ImportError, ValueError, OSError) as exc:
        raise LookupError(f"The solver is not available ({exc}).") from exc


def capture(request: Capture, camera):
    if camera is None:
        raise LookupError("No camera: set camera.source (see `tablemate doctor`).")
    try:
        frame = camera.capture()
    except OSError as exc:
        raise LookupError(str(exc)) from exc
    import cv2
    from PIL import Image
    folder = paths.state_dir() / "captures"
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / time.strftime("capture-%Y%m%d-%H%M%S.jpg", time.localtime())  # wall time: for people
    n = 1
    while target.exists():
        n += 1
        target = target.with_name(f"{target.stem.split('_')[0]}_{n}.jpg")
    cv2.imwrite(str(target), frame)
    thumb = Image.fromarray(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY))
    thumb.thumbnail((80, 40))
    return thumb.convert("1"), f"{frame.shape[1]}x{frame.shape[0]} saved as {target.name}"


def warm_up(request: WarmUp, camera):
    from firmware.house_words import load_wordlist
    load_wordlist(family=request.family)
    try:
        from vision.classifier import references
    except ImportError:
        return None   # no reader installed: a Read says so when it is pressed
    references()
    return None


JOBS = {ReadCubes: read_cubes, Solve: solve, Capture: capture, WarmUp: warm_up}


class Effects:
    """The worker.  `sink` is the loop's queue.put.  With `threaded=False` each request
    runs at once in the caller's thread (tests and rendered screenshots: deterministic),
    and its result still arrives through the queue, on the loop's next step."""

    def __init__(self, sink, camera=None, threaded: bool = True):
        self._sink, self.camera, self._threaded = sink, camera, threaded
        self._jobs: queue.SimpleQueue = queue.SimpleQueue()
        self._pending = 0
        self._lock = threading.Lock()
        self._thread = None
        if threaded:
            self._thread = threading.Thread(target=self._work, name="effects", daemon=True)
            self._thread.start()

    @property
    def busy(self) -> bool:
        """Work asked for whose result has not been put on the queue yet."""
        with self._lock:
            return self._pending > 0

    def submit(self, request, to=None) -> None:
        with self._lock:
            self._pending += 1
        if self._threaded:
            self._jobs.put((request, to))
        else:
            self._run(request, to)

    def _run(self, request, to) -> None:
        try:
            done = EffectDone(request, value=JOBS[type(request)](request, self.camera), to=to)
        except LookupError as exc:
            done = EffectDone(request, error=str(exc.args[0]), to=to)
        except Exception as exc:   # the worker must outlive any failure; the screen says what happened
            done = EffectDone(request, error=f"{type(exc).__name__}: {exc}", to=to)
        self._sink(done)
        with self._lock:
            self._pending -= 1

    def _work(self) -> None:
        while True:
            item = self._jobs.get()
            if item is _STOP:
                return
            self._run(*item)

    def close(self, timeout: float = 10.0) -> None:
        """Finish the work under way (a thread stopped inside OpenCV at exit can abort the
        process) and stop."""
        if self._thread is not None:
            self._jobs.put(_STOP)
            self._thread.join(timeout)
            self._thread = None
