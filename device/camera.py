"""The camera looking down at the table.  Every source gives BGR numpy arrays (OpenCV's
order): picamera2 on a Pi, a USB webcam through OpenCV, or image files taken in turn."""
from __future__ import annotations

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


class Webcam:
    """A USB webcam through OpenCV's V4L2 backend."""

    def __init__(self, index: int = 0):
        import cv2
        self._cap = cv2.VideoCapture(index, cv2.CAP_V4L2)
        if not self._cap.isOpened():
            raise CameraError(f"No webcam at /dev/video{index}: plug one in, or set camera.source to an image folder.")
        self.description = f"webcam /dev/video{index}"
        self.live = True

    def capture(self):
        ok, frame = self._cap.read()
        if not ok or frame is None:
            raise CameraError("The webcam gave no picture: check its cable and that no other program uses it.")
        return frame

    def close(self) -> None:
        self._cap.release()


class PiCamera:
    """The Raspberry Pi camera through picamera2 (apt's python3-picamera2, imported only here)."""

    def __init__(self):
        try:
            from picamera2 import Picamera2
        except ImportError as exc:
            raise CameraError("picamera2 is not installed: `sudo apt install python3-picamera2`, "
                              "with a venv made --system-site-packages.") from exc
        try:
            self._cam = Picamera2()
            self._cam.configure(self._cam.create_still_configuration(main={"format": "RGB888"}))
            self._cam.start()
        except (IndexError, RuntimeError) as exc:
            raise CameraError("No Pi camera found: check the ribbon cable (contacts facing the right way) "
                              "and run `rpicam-hello --list-cameras`.") from exc
        self.description = "Raspberry Pi camera"
        self.live = True

    def capture(self):
        try:
            self._cam.autofocus_cycle()  # Camera Module 3 focuses; others have no autofocus
        except Exception:
            pass
        return self._cam.capture_array("main")  # RGB888 in libcamera's naming is BGR in memory

    def close(self) -> None:
        self._cam.close()


def open_camera(source: str):
    """`source`: "picamera", "webcam" or "webcam:N", "none", or a path to an image or folder."""
    if source in ("", "none"):
        return None
    if source == "picamera":
        return PiCamera()
    if source.startswith("webcam"):
        _, _, index = source.partition(":")
        return Webcam(int(index or 0))
    return ImageFiles(source)
