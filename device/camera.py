"""The camera looking down at the table.  Every source gives BGR numpy arrays (OpenCV's
order): picamera2 on a Pi, a USB webcam through OpenCV, or image files taken in turn."""
from __future__ import annotations

import time
from pathlib import Path

from .errors import CameraError

IMAGE_SUFFIXES = {".jpg", ".jpeg", ".png", ".bmp", ".tif", ".tiff", ".webp"}


def read_image(path: str | Path):
    """Load one image as a BGR array, or raise CameraError saying why it cannot be read."""
    import cv2
    path = Path(path)
    if not path.is_file():
        raise CameraError(f"{path}: no such file.")
    image = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if image is None:
        raise CameraError(f"{path}: not an image OpenCV can read (JPEG, PNG, BMP, TIFF or WebP).")
    return image


class ImageFiles:
    """A file, or a folder whose images are taken in name order, one per capture, in a loop."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        if self.path.is_dir():
            self.files = sorted(p for p in self.path.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
            if not self.files:
                raise CameraError(f"{self.path} holds no images: put JPEG or PNG photos of thrown cubes there.")
        elif self.path.is_file():
            self.files = [self.path]
        else:
            raise CameraError(f"The image source {self.path} does not exist: set camera.source to a file or folder.")
        self._next = 0
        self.live = False          # each capture is another photo, not another look at the same table
        self.description = f"images from {self.path}"

    def capture(self):
        path = self.files[self._next % len(self.files)]
        self._next += 1
        return read_image(path)

    def close(self) -> None:
        pass


# OpenCV's V4L2 backend keeps 4 buffers.  The driver fills them within about 130 ms of a
# read and then drops newer frames, so a frame read when Read is pressed is one taken just
# after the previous read.  Frames are grabbed (not decoded) until a grab has to wait for
# the sensor: that frame is new.
MAX_STALE_FRAMES = 8
WARM_UP_FRAMES = 10      # about a third of a second: auto exposure and white balance settle
# Most webcams open at 640x480, where a thrown cube is some 20 pixels across: too small to
# read well.  A larger picture is asked for, compressed (MJPG), which most webcams give at
# their full frame rate where raw frames that large come at a few a second.
WEBCAM_SIZE = (1920, 1080)
SMALL_PICTURE = 1280     # pixels across: a picture narrower than this makes the cubes small


def _v4l2(index: int):
    import cv2
    return cv2.VideoCapture(index, cv2.CAP_V4L2)


class Webcam:
    """A USB webcam through OpenCV's V4L2 backend, giving the newest frame on each capture.
    `open_capture(index)` returns a cv2.VideoCapture-like object; `clock` is monotonic."""

    def __init__(self, index: int = 0, open_capture=_v4l2, clock=time.monotonic,
                 size: tuple[int, int] = WEBCAM_SIZE):
        import cv2
        self._cap = open_capture(index)
        self._clock = clock
        if not self._cap.isOpened():
            raise CameraError(f"No webcam at /dev/video{index}: plug one in, or set camera.source to an image folder.")
        # the size asked for: the driver gives the nearest it has (so the size is read back)
        self._cap.set(cv2.CAP_PROP_FOURCC, cv2.VideoWriter_fourcc(*"MJPG"))
        self._cap.set(cv2.CAP_PROP_FRAME_WIDTH, size[0])
        self._cap.set(cv2.CAP_PROP_FRAME_HEIGHT, size[1])
        self.size = (int(self._cap.get(cv2.CAP_PROP_FRAME_WIDTH)), int(self._cap.get(cv2.CAP_PROP_FRAME_HEIGHT)))
        self._cap.set(cv2.CAP_PROP_BUFFERSIZE, 1)   # fewer stale frames, where the driver allows it
        self._frame_s = 1.0 / (self._cap.get(cv2.CAP_PROP_FPS) or 30.0)
        for _ in range(WARM_UP_FRAMES):
            self._cap.grab()
        self.description = f"webcam /dev/video{index}, {self.size[0]}x{self.size[1]}"
        self.live = True

    def capture(self):
        for _ in range(MAX_STALE_FRAMES):
            asked = self._clock()
            if not self._cap.grab():
                break
            if self._clock() - asked >= self._frame_s / 2:
                break  # this grab waited for the sensor: a frame taken now
        ok, frame = self._cap.retrieve()
        if not ok or frame is None:
            raise CameraError("The webcam gave no picture: check its cable and that no other program uses it.")
        return frame

    def close(self) -> None:
        self._cap.release()


def explain_picamera(exc: Exception) -> str:
    """What a picamera2 failure means, in one sentence."""
    text = str(exc)
    if isinstance(exc, PermissionError):
        where = exc.filename or "/dev/dma_heap and /dev/video*"
        return (f"No permission to use the Pi camera ({where}): add the user to the video group "
                f"(sudo usermod -aG video $USER) and log in again.")
    if "did not complete" in text or "busy" in text.lower():
        return ("The Pi camera is in use by another program (the TableMate service, or an rpicam app): "
                "stop it first, e.g. `sudo systemctl stop tablemate`.")
    if isinstance(exc, IndexError):
        return ("No Pi camera found: check the ribbon cable (contacts facing the right way) "
                "and run `rpicam-hello --list-cameras`.")
    return (f"The Pi camera could not be opened ({type(exc).__name__}: {text}): check the ribbon cable "
            f"and run `rpicam-hello --list-cameras`.")


class PiCamera:
    """The Raspberry Pi camera through picamera2 (apt's python3-picamera2, imported only here)."""

    def __init__(self):
        try:
            from picamera2 import Picamera2
        except ImportError as exc:
            raise CameraError("picamera2 is not installed: `sudo apt install python3-picamera2`, "
                              "with a venv made --system-site-packages.") from exc
        self._cam = None
        try:  # picamera2 raises IndexError, RuntimeError, PermissionError and more
            self._cam = Picamera2()
            self._cam.configure(self._cam.create_still_configuration(main={"format": "RGB888"}))
            self._cam.start()
        except Exception as exc:
            self.close()
            raise CameraError(explain_picamera(exc)) from exc
        self.description = "Raspberry Pi camera"
        self.live = True

    def capture(self):
        try:
            self._cam.autofocus_cycle()  # Camera Module 3 focuses; others have no autofocus
        except Exception:
            pass
        try:
            return self._cam.capture_array("main")  # RGB888 in libcamera's naming is BGR in memory
        except Exception as exc:
            raise CameraError(f"The Pi camera gave no picture ({exc}): check the ribbon cable.") from exc

    def close(self) -> None:
        if self._cam is not None:
            try:
                self._cam.close()
            except Exception:
                pass


def small_picture(frame) -> str | None:
    """A sentence where a picture is too narrow for the cubes to read well, or None."""
    if frame.shape[1] >= SMALL_PICTURE:
        return None
    return (f"its {frame.shape[1]}x{frame.shape[0]} picture makes the cubes small: they read best some 40 "
            f"pixels across (a camera giving {SMALL_PICTURE} pixels across or more, or one nearer the table)")


def parse_size(text: str) -> tuple[int, int]:
    """"1920x1080" -> (1920, 1080)."""
    width, _, height = text.partition("x")
    return int(width), int(height)


def open_camera(source: str, webcam_size: str | None = None):
    """`source`: "picamera", "webcam" or "webcam:N", "none", or a path to an image or folder;
    `webcam_size` the picture size asked of a webcam ("1920x1080", the setting's form)."""
    if source in ("", "none"):
        return None
    if source == "picamera":
        return PiCamera()
    if source.startswith("webcam"):
        _, _, index = source.partition(":")
        return Webcam(int(index or 0), size=parse_size(webcam_size) if webcam_size else WEBCAM_SIZE)
    return ImageFiles(source)
