"""The rules core stays pure: firmware/games imports no hardware, vision, clock or dice."""
import ast
from pathlib import Path

FORBIDDEN = {"device", "vision", "gpiozero", "luma", "cv2", "picamera2", "pytesseract", "PIL",
             "time", "random", "secrets", "datetime", "socket", "subprocess", "firmware.modes", "firmware.app"}
GAMES = Path(__file__).resolve().parents[1] / "firmware" / "games"


def imported_names(path: Path):
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            yield node.module


def test_games_import_nothing_impure():
    files = sorted(GAMES.glob("*.py"))
    assert len(files) >= 2
    for path in files:
        for name in imported_names(path):
            top = {name, name.split(".")[0], ".".join(name.split(".")[:2])}
            assert not top & FORBIDDEN, f"{path.name} imports {name}"


def test_device_knows_no_game_rules():
    for path in (GAMES.parents[1] / "device").glob("*.py"):
        for name in imported_names(path):
            assert not name.startswith("firmware"), f"device/{path.name} imports {name}"
