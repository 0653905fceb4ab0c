"""`tablemate screens`: the main screens of every game, rendered by the program itself on
simulated hardware (each tour is a sequence of key presses) and saved as PNG files."""
from __future__ import annotations

import os
import random
import tempfile
from pathlib import Path

from PIL import Image, ImageOps

from firmware.harness import SimulatedBox

# name -> what a person does from the main menu: key presses, and seconds (floats) waited.
# Every tour ends with a wait so that notes shown for a moment have gone.
LETTERS = ("K2", "K3") * 10 + ("K4",)            # key in ten cubes, each set to its first face
TOURS: dict[str, tuple] = {
    "menu": (3.0,),
    "settings": ("K1", "K3", 3.0),
    "password-setup": ("K3", 3.0),
    "password-three": ("K3", "K2", 3.0),
    "password-dial": ("K3", "K3", "K1", "K1", 3.0),
    "password-double": ("K3", "K3") + ("K2",) * 8 + ("K1",) * 3 + (3.0,),
    "password-pad": ("K3", "K3", "K1", "K2", "K1", "K1", "K2", "K2", "K2-long", 3.0),
    "perquackey-turn": ("K2", "K3", "K3", 3.0),
    "perquackey-cubes": ("K2", "K3", "K3", "K2") + ("K2", "K3") * 4 + (3.0,),
    "perquackey-timer": ("K2", "K3", "K3", "K3", 47.0),
    "perquackey-count": ("K2", "K3", "K3", "K3", "K2", "K2", "K2", "K1", "K2", "K2", "K1", "K2", 3.0),
    "perquackey-result": ("K2", "K3", "K3", "K2") + LETTERS + ("K3", "K2") + ("K2",) * 5
                         + ("K1", "K2", "K2", "K2", "K4", 3.0),
    "taboo-round": ("K2", "K2", "K3", "K3", "K1", "K1", "K1", "K2", "K1", "K3", 22.0),
    "taboo-summary": ("K2", "K2", "K3", "K3", "K1") + ("K1",) * 5 + ("K2", "K3", "K3", 61.0, "K4", 3.0),
    "cryptic-dice": ("K1", "K1", "K3", "K3", "K1", 3.0),
    "cryptic-more": ("K1", "K1", "K3", "K3", "K1", "K4", 3.0),
    "cryptic-status": ("K1", "K1", "K3", "K3", "K1", "K1", "K4", "K2", "K2", "K3", 3.0),
}


def render(name: str, scale: int = 3, steps: tuple | None = None) -> Image.Image:
    """One tour (or any `steps` of key presses and waits), run on a fresh simulated box
    in a private state folder."""
    previous = os.environ.get("TABLEMATE_HOME")
    with tempfile.TemporaryDirectory() as home:
        os.environ["TABLEMATE_HOME"] = home
        try:
            from firmware.modes import cryptic
            cryptic.PlayScreen.rng = random.Random(name)   # the same dice on every render
            box = SimulatedBox()
            for step in steps if steps is not None else TOURS[name]:
                box.wait(step) if isinstance(step, float) else box.press(step)
            image = box.frame.convert("L")
            box.close()
        finally:
            cryptic.PlayScreen.rng = cryptic._system_random
            if previous is None:
                os.environ.pop("TABLEMATE_HOME", None)
            else:
                os.environ["TABLEMATE_HOME"] = previous
    big = image.resize((image.width * scale, image.height * scale), Image.NEAREST)
    return ImageOps.expand(ImageOps.colorize(big, "#000000", "#9fe8ff"), border=scale * 2, fill="#333333")


def parse_steps(text: str) -> tuple:
    """"K3 K3 K1 2.5 K2-long" -> key presses, with numbers as seconds waited."""
    steps = []
    for word in text.split():
        try:
            steps.append(float(word))
        except ValueError:
            from device.keys import KeyPress
            steps.append(str(KeyPress.parse(word)))
    return tuple(steps) + (3.0,)


def render_all(out: Path, scale: int = 3) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name in TOURS:
        path = out / f"{name}.png"
        render(name, scale).save(path)
        written.append(path)
    return written
