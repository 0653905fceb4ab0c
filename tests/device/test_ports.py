import io

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin
from PIL import Image

from device import display as display_port
from device.buzzer import CUES, Sounder, TonalOutput
from device.camera import ImageFiles, open_camera, read_image
from device.errors import CameraError, DisplayError


def test_dummy_display_keeps_the_last_frame():
    d = display_port.open_display("dummy")
    img = Image.new("1", (128, 64), 1)
    d.display(img)
    assert d.image.getpixel((5, 5)) == 255 or d.image.getpixel((5, 5)) == 1


def test_terminal_display_fits_80x24_and_shows_every_pixel():
    out = io.StringIO()
    d = display_port.open_display("terminal", out=out)
    img = Image.new("1", (128, 64), 0)
    img.putpixel((0, 0), 1)
    img.putpixel((127, 63), 1)
    d.display(img)
    lines = out.getvalue().replace("\x1b[H", "").replace("\x1b[J", "").split("\r\n")
    assert len(lines) <= 24 and max(len(line) for line in lines) <= 80
    cells = display_port.braille_lines(img)
    assert len(cells) == 16 and len(cells[0]) == 64
    assert cells[0][0] == chr(0x2801) and cells[-1][-1] == chr(0x2880)


def test_missing_i2c_bus_is_explained():
    with pytest.raises(DisplayError, match="I2C is off|permission"):
        display_port.open_display("ssd1306", port=19)


def test_unknown_display_kind_is_explained():
    with pytest.raises(DisplayError, match="choose one of"):
        display_port.open_display("crt")


def test_sounder_plays_a_cue_note_by_note_on_a_mock_tonal_buzzer():
    factory = MockFactory(pin_class=MockPWMPin)
    out = TonalOutput(18, pin_factory=factory)
    s = Sounder(out)
    s.play("start", now=0.0)
    assert out.device.is_active
    first = out.device.value
    s.tick(0.09)
    assert out.device.value != first  # the second, higher note
    s.tick(0.5)
    s.tick(0.6)
    assert not out.device.is_active and not s.busy
    out.close()
    factory.close()


def test_sound_off_plays_nothing():
    class Recorder:
        def __init__(self):
            self.calls = []

        def tone(self, f):
            self.calls.append(f)

        def silence(self):
            self.calls.append(None)
    rec = Recorder()
    s = Sounder(rec, enabled=False)
    for cue in CUES:
        s.play(cue, 0.0)
        s.tick(5.0)
    assert rec.calls == []


def test_image_folder_camera_cycles_and_bad_files_are_explained(tmp_path):
    import cv2
    import numpy as np
    for i in range(2):
        cv2.imwrite(str(tmp_path / f"{i}.png"), np.full((10, 20, 3), i * 100, np.uint8))
    cam = open_camera(str(tmp_path))
    assert cam.capture()[0, 0, 0] == 0 and cam.capture()[0, 0, 0] == 100 and cam.capture()[0, 0, 0] == 0
    (tmp_path / "junk.jpg").write_bytes(b"not an image")
    with pytest.raises(CameraError, match="not an image"):
        read_image(tmp_path / "junk.jpg")
    with pytest.raises(CameraError, match="does not exist"):
        ImageFiles(tmp_path / "nowhere")
    assert open_camera("none") is None
