"""The cameras as a Pi meets them: a webcam that queues stale frames, and picamera2 failing
in the ways it does."""
import errno

import cv2
import numpy as np
import pytest

from device import hardware
from device.camera import MAX_STALE_FRAMES, WARM_UP_FRAMES, PiCamera, Webcam, parse_size, small_picture
from device.errors import CameraError
from firmware import config
from firmware.harness import FakeClock
from pi_fakes import FakeV4L2, fake_picamera2, install


def frame_number(frame) -> int:
    return int(frame[0, 0, 0])


def test_a_webcam_gives_the_frame_taken_when_read_is_pressed_not_the_previous_throw():
    clock = FakeClock(100.0)
    cap = FakeV4L2(clock, fps=30, buffers=4)
    camera = Webcam(0, open_capture=lambda index: cap, clock=clock)
    first = frame_number(camera.capture())
    assert first > 100 * 30 + WARM_UP_FRAMES     # the frames taken while exposure settled were dropped
    clock.advance(12.0)                          # the players throw and press Read
    pressed_at = clock()
    taken = frame_number(camera.capture())
    assert taken / 30 >= pressed_at              # not one of the four queued after the last read
    assert clock() - pressed_at < 2 / 30         # and no long wait for it
    camera.close()
    assert cap.released


def test_a_webcam_read_again_soon_waits_for_one_new_frame_only():
    clock = FakeClock(100.0)
    cap = FakeV4L2(clock)
    camera = Webcam(0, open_capture=lambda index: cap, clock=clock)
    before = frame_number(camera.capture())
    clock.advance(0.01)
    assert frame_number(camera.capture()) == before + 1


def test_a_webcam_is_asked_for_a_picture_large_enough_to_read_the_cubes():
    # most webcams open at 640x480, where a thrown cube is some 20 pixels across
    cap = FakeV4L2(FakeClock(100.0))
    camera = Webcam(0, open_capture=lambda index: cap, clock=cap.clock)
    assert camera.size == (1920, 1080) and cap.fourcc == cv2.VideoWriter_fourcc(*"MJPG")
    assert camera.description == "webcam /dev/video0, 1920x1080"
    smaller = FakeV4L2(FakeClock(100.0))
    assert Webcam(0, open_capture=lambda index: smaller, clock=smaller.clock, size=(1280, 720)).size == (1280, 720)


def test_a_webcam_with_small_pictures_only_gives_those_and_says_they_make_the_cubes_small():
    cap = FakeV4L2(FakeClock(100.0), sizes=((640, 480), (320, 240)))
    camera = Webcam(0, open_capture=lambda index: cap, clock=cap.clock)
    assert camera.size == (640, 480)
    assert small_picture(np.zeros((480, 640, 3), np.uint8)).startswith("its 640x480 picture makes the cubes small")
    assert small_picture(np.zeros((1080, 1920, 3), np.uint8)) is None


def test_the_webcam_size_comes_from_the_settings():
    values, problems = config.validate({"camera": {"webcam_size": "1280x720"}})
    assert not problems and parse_size(values["camera.webcam_size"]) == (1280, 720)
    values, problems = config.validate({"camera": {"webcam_size": "800x600"}})
    assert values["camera.webcam_size"] == "1920x1080" and "camera.webcam_size" in problems[0]


def test_a_driver_that_always_has_frames_queued_still_ends_the_drain():
    class Flood(FakeV4L2):
        def grab(self):                          # never waits: a frame is always queued
            self.held = (self.held or 0) + 1
            return True
    cap = Flood(FakeClock(100.0))
    camera = Webcam(0, open_capture=lambda index: cap, clock=cap.clock)
    assert frame_number(camera.capture()) == WARM_UP_FRAMES + MAX_STALE_FRAMES


@pytest.mark.parametrize("error, sentence", [
    (PermissionError(errno.EACCES, "Permission denied", "/dev/dma_heap/linux,cma"),
     "No permission to use the Pi camera (/dev/dma_heap/linux,cma): add the user to the video group"),
    (RuntimeError("Camera __init__ sequence did not complete."),
     "The Pi camera is in use by another program"),
    (IndexError("list index out of range"), "No Pi camera found: check the ribbon cable"),
    (OSError(errno.ENODEV, "No such device"), "The Pi camera could not be opened (OSError"),
])
def test_every_picamera2_failure_becomes_a_sentence(monkeypatch, error, sentence):
    install(monkeypatch, fake_picamera2(error))
    with pytest.raises(CameraError) as caught:
        PiCamera()
    assert str(caught.value).startswith(sentence)


def test_a_pi_camera_that_fails_leaves_the_box_running_with_keyed_in_letters(monkeypatch, clock):
    install(monkeypatch, fake_picamera2(PermissionError(errno.EACCES, "Permission denied", "/dev/dma_heap/system")))
    hw = hardware.build(config.defaults(), lambda edge: None, clock, mode="simulated", display="dummy",
                        camera="picamera")
    try:
        assert hw.camera is None and hw.found["camera"] == "missing"
        assert any(p.startswith("Camera: No permission") and p.endswith("Letters can still be keyed in.")
                   for p in hw.problems)
    finally:
        hw.close()


def test_a_working_pi_camera_takes_bgr_pictures(monkeypatch):
    install(monkeypatch, fake_picamera2(None))
    camera = PiCamera()
    assert camera.capture().shape == (48, 64, 3)
    camera.close()
