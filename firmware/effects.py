"""Slow outside work, off the loop: camera capture, cube reading, the solver, saving a
capture, warming up.  One worker thread takes the requests in order; each result goes back
as an `EffectDone` on the loop's queue (the same queue the key edges use), so the loop
stays the one owner of state, keeps redrawing ("Reading...") and keeps answering keys.

The reader's references and the word index are built once, on this worker: a read
queued behind the warm-up waits for it instead of building them a second time.

Watching the throw (`Watch`) is a look at the table every so often on the same worker,
between the other jobs: each look is a few milliseconds of work on a small frame; only
when the cubes have come to rest does the worker read them (see `ThrowWatch`)."""
from __future__ import annotations

import queue
import threading
import time

from dataclasses import dataclass, field

from firmware import config, empty_table, paths
from firmware.actions import Aim, Capture, EffectDone, ReadCubes, Solve, StopWatching, TakeEmptyTable, WarmUp, Watch

_STOP = object()
_WAKE = object()
MOVED_NOTE = ("The empty-table frame no longer matches what the camera sees (was it moved?): reading without it. "
              "Settings > Empty table takes a new one.")


def _reader():
    try:
        from vision import reader
    except ImportError as exc:
        raise LookupError(f"The cube reader is not installed ({exc.name}): key the letters in.") from exc
    return reader


def background_for(frame, notes: list[str]):
    """The saved frame of the empty table if it still matches the view, else None (with a
    note saying why when there was one)."""
    background = empty_table.load()
    if background is None:
        return None
    from vision.watch import same_view, small_grey
    if background.shape != frame.shape or not same_view(small_grey(background), small_grey(frame)):
        notes.append(MOVED_NOTE)
        return None
    return background


@dataclass
class Letters:
    """A throw read: each cube's letter and whether the reader was unsure of it; `notes`
    for the players; `start`: the timer may start by itself (Settings > Auto timer)."""
    letters: list[str]
    unsure: list[bool]
    notes: list[str] = field(default_factory=list)
    start: bool = False


def read_throw_now(camera, vulnerable: bool, red_set: str, first=None, frames: int | None = None) -> Letters:
    """Photograph the throw (`first`: a frame just taken) and read it, with the empty
    table's frame when it still fits.  LookupError with a plain sentence when it fails.
    A live camera gives two frames of the same throw unless told `frames`, read together
    (a hand may be in one)."""
    reader = _reader()
    count = frames or (2 if getattr(camera, "live", False) else 1)
    try:
        frames = [first] if first is not None else []
        frames += [camera.capture() for _ in range(count - len(frames))]
        notes: list[str] = []
        background = background_for(frames[0], notes)
        reading = reader.read_throw(frames, vulnerable=vulnerable, red_set=red_set, background=background)
    except (OSError, ValueError) as exc:
        raise LookupError(f"{exc} Key the letters in.") from exc
    # plain str and bool (the reader may give numpy's): they go into the journal and the draft
    return Letters([str(letter) for letter in reading.letters_by_cube], [bool(u) for u in reading.unsure_by_cube],
                   notes)


def read_cubes(request: ReadCubes, camera):
    if camera is None:
        raise LookupError("No camera: key the letters in.")
    return read_throw_now(camera, request.vulnerable, request.red_set)


def solve(request: Solve, camera):
    try:
        from firmware.games.words import solve as solve_letters
        from firmware.house_words import load_wordlist
        return solve_letters(load_wordlist(family=request.family), request.letters)
    except (ImportError, ValueError, OSError) as exc:
        raise LookupError(f"The solver is not available ({exc}).") from exc


def _grab(camera):
    if camera is None:
        raise LookupError("No camera: set camera.source (see `tablemate doctor`).")
    try:
        return camera.capture()
    except OSError as exc:
        raise LookupError(str(exc)) from exc


def capture(request: Capture, camera):
    frame = _grab(camera)
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
        from vision import ocr
        from vision.classifier import references
    except ImportError:
        return None   # no reader installed: a Read says so when it is pressed
    references()
    ocr.in_process()      # loads Tesseract's model on this thread, the one that reads
    return None


AIM_HEIGHT = 52          # the thumbnail's height on the OLED, above the key labels


def aim(request: Aim, camera):
    """What the camera sees, small enough for the OLED, with the top faces the reader would
    read boxed (no second opinion from Tesseract: a live view wants speed)."""
    import cv2
    from PIL import Image, ImageDraw
    frame = _grab(camera)
    notes: list[str] = []
    seen: list = []
    try:
        _reader().read_frames([frame], "classic", None, use_ocr=False, debug=seen,
                              background=background_for(frame, notes))
    except (LookupError, ValueError):
        seen = []
    faces = [glyph.corners for glyph, reading in seen if reading is not None]
    height, width = frame.shape[:2]
    scale = AIM_HEIGHT / height
    small = cv2.resize(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY), (max(1, round(width * scale)), AIM_HEIGHT),
                       interpolation=cv2.INTER_AREA)
    # the OLED has no grey: a dimmed, dithered picture, and each face found a white patch
    # with a dark rim, so the faces stand out even a few pixels wide
    thumb = Image.fromarray((small * 0.5).astype("uint8")).convert("1")
    draw = ImageDraw.Draw(thumb)
    for corners in faces:
        outline = [(float(x) * scale, float(y) * scale) for x, y in corners]
        xs, ys = [x for x, _ in outline], [y for _, y in outline]
        draw.rectangle((min(xs) - 1, min(ys) - 1, max(xs) + 1, max(ys) + 1), fill=0)
        draw.polygon(outline, fill=1, outline=1)
    return thumb, len(faces), notes


def take_empty_table(request: TakeEmptyTable, camera):
    from vision.watch import blank, small_grey
    frame = _grab(camera)
    if blank(small_grey(frame)):
        raise LookupError("The picture is blank (lens covered, or too dark): nothing was kept.")
    try:
        empty_table.save(frame)
    except OSError as exc:
        raise LookupError(f"The empty table could not be saved ({exc}).") from exc
    return f"Empty table kept ({frame.shape[1]}x{frame.shape[0]}): the reader uses it until the camera moves."


JOBS = {ReadCubes: read_cubes, Solve: solve, Capture: capture, WarmUp: warm_up, Aim: aim,
        TakeEmptyTable: take_empty_table}
WATCHING = "watching"     # the first result of a Watch: the camera is on the table


class ThrowWatch:
    """One Watch request at work: a look every `period` seconds.  When the cubes seem to
    have come to rest the worker reads them at once, and the reading is given out only if
    nothing has moved by the end of the rest time (a reading takes about as long as that
    wait, so the letters come soon after the rest)."""

    def __init__(self, request: Watch, camera, settings: dict, now: float):
        from vision.watch import Watcher
        self.request, self.camera, self.settings = request, camera, settings
        self.period = 1.0 / settings["watch.looks_per_s"]
        self.watcher = Watcher(rest_s=settings["watch.rest_ms"] / 1000)
        self.background_loaded = False   # read from disk at the first look: on the worker, not the loop
        self.next_look = now
        self.failing = False       # the camera failed at the last look: said once, not at every look
        self.pending: Letters | str | None = None   # the reading (or what went wrong) awaiting the rest

    def look(self, now: float):
        """One look; a value or LookupError for the screen, or None (nothing to say)."""
        from vision import watch
        self.next_look = now + self.period
        if not self.background_loaded:
            self.background_loaded = True
            self.watcher.set_background(empty_table.load())
        try:
            frame = self.camera.capture()
        except OSError as exc:
            if self.failing:
                return None
            self.failing = True
            raise LookupError(f"The camera stopped giving pictures ({exc}); K1 reads when it is back.") from exc
        self.failing = False
        seen = self.watcher.see(frame, now)
        if seen.moved or seen.hand:
            self.pending = None
        if seen.event == watch.BLANK:
            raise LookupError("The camera sees a blank picture (lens covered, or too dark): aim it at the table "
                              "(Settings > Aim camera).")
        if seen.event == watch.EMPTY:
            self._keep_empty(frame)
        elif seen.event == watch.READ:
            self.pending = self._read(frame)
        elif seen.event == watch.AT_REST:
            pending, self.pending = self.pending, None
            if isinstance(pending, str):
                raise LookupError(pending)
            return pending
        return None

    def _keep_empty(self, frame) -> None:
        try:
            empty_table.save(frame)
        except OSError:
            return   # the reader works without it; the next empty table tries again
        self.watcher.set_background(frame)

    def _background_fits(self, frame) -> bool:
        from vision.watch import same_view, small_grey
        background = self.watcher.background
        return background is not None and same_view(background, small_grey(frame, self.watcher.width))

    def _read(self, frame) -> Letters | str | None:
        """The throw in `frame` read (the watcher has seen it still: one frame is enough),
        or the sentence saying what went wrong."""
        try:
            letters = read_throw_now(self.camera, self.request.vulnerable, self.request.red_set, first=frame,
                                     frames=1)
        except LookupError as exc:
            text = str(exc.args[0])
            # no cube at all, and no empty table known for this view (none yet, or the
            # camera moved): the players gathered the cubes, and this is the one to keep
            if text.startswith("No cubes found") and not self._background_fits(frame):
                self._keep_empty(frame)
                return None
            return text
        letters.start = bool(self.settings["watch.auto_start"])
        return letters


class Effects:
    """The worker.  `sink` is the loop's queue.put.  With `threaded=False` each request
    runs at once in the caller's thread (tests and rendered screenshots: deterministic),
    and its result still arrives through the queue, on the loop's next step; the looks
    of a Watch are then taken by `poll(now)`, which the loop calls at every step."""

    def __init__(self, sink, camera=None, threaded: bool = True, settings: dict | None = None, clock=time.monotonic):
        self._sink, self.camera, self._threaded = sink, camera, threaded
        self.settings = settings if settings is not None else config.defaults()
        self._clock = clock
        self._jobs: queue.SimpleQueue = queue.SimpleQueue()
        self._pending = 0
        self._lock = threading.Lock()
        self._watch: tuple[ThrowWatch, object] | None = None
        self._thread = None
        if threaded:
            self._thread = threading.Thread(target=self._work, name="effects", daemon=True)
            self._thread.start()

    @property
    def busy(self) -> bool:
        """Work asked for whose result has not been put on the queue yet."""
        with self._lock:
            return self._pending > 0

    @property
    def watching_for(self):
        """The screen a Watch reports to, or None."""
        watch = self._watch
        return watch[1] if watch else None

    def submit(self, request, to=None) -> None:
        if isinstance(request, (Watch, StopWatching)):
            return self._set_watch(request, to)
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

    def _set_watch(self, request, to) -> None:
        """Start (or restart) watching, or stop.  No live camera, or watching turned off
        in Settings: no looks, and nothing said (K1 still reads)."""
        watch = None
        camera = self.camera
        if isinstance(request, Watch) and self.settings["watch.enabled"] and getattr(camera, "live", False):
            try:
                watch = (ThrowWatch(request, camera, self.settings, self._clock()), to)
            except ImportError:
                watch = None     # no vision package: nothing to watch with
        self._watch = watch
        if watch is not None:
            self._sink(EffectDone(request, value=WATCHING, to=to))
        if self._threaded:
            self._jobs.put(_WAKE)

    def poll(self, now: float) -> None:
        """Take a look if one is due (the loop calls this when there is no worker thread)."""
        if not self._threaded:
            self._look(now)

    def _look(self, now: float) -> None:
        current = self._watch
        if current is None or now < current[0].next_look:
            return
        watch, to = current
        try:
            value = watch.look(now)
        except LookupError as exc:
            return self._sink(EffectDone(watch.request, error=str(exc.args[0]), to=to))
        except Exception as exc:   # a look that fails must not stop the worker
            watch.next_look = now + 5.0
            return self._sink(EffectDone(watch.request, error=f"Watching stopped a moment ({type(exc).__name__}: "
                                                              f"{exc}).", to=to))
        if value is not None and self._watch is current:
            self._sink(EffectDone(watch.request, value=value, to=to))

    def _work(self) -> None:
        while True:
            current = self._watch
            timeout = None if current is None else max(0.0, current[0].next_look - self._clock())
            try:
                item = self._jobs.get(timeout=timeout)
            except queue.Empty:
                self._look(self._clock())
                continue
            if item is _STOP:
                return
            if item is not _WAKE:
                self._run(*item)

    def close(self, timeout: float = 10.0) -> None:
        """Finish the work under way (a thread stopped inside OpenCV at exit can abort the
        process) and stop."""
        if self._thread is not None:
            self._jobs.put(_STOP)
            self._thread.join(timeout)
            self._thread = None
