"""The reader's bench: readings matched to cubes one to one within reach, phantoms and
misses counted, and readings grouped by confidence."""
from types import SimpleNamespace as Reading

import numpy as np
import pytest

from vision import bench
from vision.bench import Score, match, reliability, score_throw
from vision.reader import read_image
from vision.synth import Throw, make_throw
from vision.truth import CubeTruth
from vision.synth_tray import make_tray_throw
from vision.synth3d import make_scene, make_throw_3d, worn_print


def test_each_reading_goes_to_one_cube_within_reach_and_the_rest_are_phantoms():
    truths = [CubeTruth("A", False, 100, 100), CubeTruth("B", False, 200, 100), CubeTruth("C", True, 400, 400)]
    readings = [Reading(x=104, y=100), Reading(x=102, y=101), Reading(x=195, y=104), Reading(x=700, y=700)]
    owner, phantoms = match(readings, truths, radius=30)
    assert owner == {0: 1, 1: 2}              # the nearer of two readings takes the cube
    assert phantoms == [0, 3]                 # the other, and one far from any cube
    assert 2 not in owner                     # no reading near the third cube: missed


def test_readings_are_grouped_by_confidence():
    rows = dict((name, (count, share)) for name, count, share in
                reliability([(0.2, False), (0.6, True), (0.9, True), (0.97, True), (0.99, False), (1.0, True)]))
    assert rows["0.00-0.50"] == (1, 0.0)
    assert rows["0.80-0.95"] == (1, 1.0)
    assert rows[">= 0.95"][0] == 3 and abs(rows[">= 0.95"][1] - 2 / 3) < 1e-9


def test_a_flat_throw_is_scored_cube_by_cube():
    throw = make_throw(3)
    score = Score()
    score_throw(score, throw, "classic")
    assert (score.throws, score.cubes, score.phantoms, score.missed) == (1, len(throw.cubes), 0, 0)
    assert score.right >= len(throw.cubes) - 1 and score.colour_right == len(throw.cubes)
    assert score.all_right == (score.right == len(throw.cubes))
    assert len(score.by_confidence) == len(throw.cubes)
    assert sum(right for _, right in score.by_confidence) == score.right


def test_a_cube_read_in_the_wrong_colour_counts_against_the_reader_unless_marked(monkeypatch):
    truths = [CubeTruth("F", False, 100, 100), CubeTruth("N", True, 300, 100), CubeTruth("W", True, 500, 100)]
    said = [Reading(letter="F", red=True, x=100, y=100, confidence=0.94, uncertain=False),   # red for black, sure
            Reading(letter="N", red=False, x=300, y=100, confidence=0.8, uncertain=True),    # black for red, in doubt
            Reading(letter="W", red=True, x=500, y=100, confidence=0.99, uncertain=False)]
    monkeypatch.setattr(bench, "read_image", lambda *_: Reading(cubes=said, ms=1.0))
    score = Score()
    score_throw(score, Throw(np.zeros((8, 8, 3), np.uint8), truths, size=40), "classic")
    assert (score.right, score.colour_right, score.silent_colour, score.silent_wrong) == (3, 1, 1, 0)


@pytest.fixture
def asked(monkeypatch):
    """The (cube set, count) of every reading the bench asks for."""
    calls = []
    monkeypatch.setattr(bench, "read_image", lambda image, cube_set, expected: calls.append(
        (cube_set, expected)) or read_image(image, cube_set, expected))
    return calls


def test_a_boggle_board_is_read_as_any_letter_dice_without_its_count(asked):
    throw = make_tray_throw(2)
    score = Score()
    score_throw(score, throw, "any")
    assert asked == [("any", None)]            # as a player reads a board: the count is not given
    assert score.cubes == len(throw.cubes) in (16, 25) and score.missed <= 1
    assert len(score.ms_other) == 1 and not score.ms_13


def test_throws_with_their_print_worn_pale_are_scored_apart_as_well(capsys):
    from vision.bench import evaluate, report_parts
    seeds = [32, 33, 34]                              # worn pale twice, and print whole
    assert [bool(worn_print(seed)) for seed in seeds] == [True, True, False]
    score, parts = evaluate(lambda seed: (make_throw_3d(seed, hard=False), "classic"), 3, 32)
    whole, worn = parts["print whole"], parts["print worn pale"]
    assert (whole.throws, worn.throws) == (1, 2)
    assert whole.cubes + worn.cubes == score.cubes and whole.right + worn.right == score.right
    assert sorted(score.by_confidence) == sorted(whole.by_confidence + worn.by_confidence)
    report_parts(parts)
    assert "print worn pale:    2 throws" in capsys.readouterr().out


def test_a_folder_of_photos_is_scored_against_its_truth_file_each_kind_apart(tmp_path, capsys):
    import json

    import cv2

    from vision.bench import bench_photos
    throw, board = make_throw(5, vulnerable=True), make_tray_throw(4)
    cv2.imwrite(str(tmp_path / "throw.jpg"), throw.image)
    cv2.imwrite(str(tmp_path / "board.jpg"), board.image)
    (tmp_path / "torn.jpg").write_text("not a picture")
    cubes = [{"letter": c.letter, "red": c.red, "x": c.x, "y": c.y} for c in throw.cubes]
    cv2.imwrite(str(tmp_path / "plain.jpg"), throw.image)
    uncoloured = [{k: v for k, v in c.items() if k != "red"} for c in cubes]
    records = [{"image": "throw.jpg", "vulnerable": True, "red_set": "classic", "size": 95, "cubes": cubes},
               # the same throw, its colours not written down: not counted wrong (as `read --truth` takes it)
               {"image": "plain.jpg", "vulnerable": True, "red_set": "classic", "size": 95, "cubes": uncoloured},
               {"image": "board.jpg", "size": board.size,     # no "vulnerable": any letter dice, no count
                "cubes": [{"letter": c.letter, "x": c.x, "y": c.y} for c in board.cubes]},
               {"image": "torn.jpg", "cubes": cubes}]
    (tmp_path / "truth.json").write_text(json.dumps(records))
    scores = bench_photos(tmp_path)
    printed = capsys.readouterr().out
    perquackey, dice = scores["Perquackey throws"], scores["any letter dice"]
    assert (perquackey.throws, perquackey.cubes, dice.throws, dice.cubes) == (2, 26, 1, len(board.cubes))
    assert perquackey.right >= 24 and dice.right >= len(board.cubes) - 1
    assert perquackey.colour_right >= 13 + 12           # the plain copy's 13 all count, whatever was read
    assert any(c.red for c in throw.cubes)              # (so a red reading there would have been counted wrong)
    assert "torn.jpg: not an image" in printed
    # each kind against its own targets: any letter dice have no colours to get right
    perquackey_part, dice_part = printed.split("any letter dice in")
    assert "red/black right" in perquackey_part and "red/black right" not in dice_part
    assert ">= 99.5 %" in perquackey_part and ">= 97 %" in dice_part
    assert "reader slowest" in perquackey_part          # the worst wait, not only the usual ones


def test_3d_renders_are_read_as_any_letter_dice_too_one_in_three_hard(asked):
    throw, cube_set = bench._letter_dice(3)
    assert throw.cubes == make_throw_3d(3, hard=True).cubes
    assert bench._letter_dice(4)[0].cubes == make_throw_3d(4, hard=False).cubes
    score = Score()
    score_throw(score, throw, cube_set)
    assert asked == [("any", None)]            # as `tablemate read --set any` reads letter dice
    assert score.cubes == len(throw.cubes) and score.right >= len(throw.cubes) - 2


def test_renders_held_in_the_hand_are_read_as_any_letter_dice(asked):
    seed = bench.FIRST_SEED["held"]
    throw, cube_set = bench._held(seed)
    scene = make_scene(seed, hard=False, held=True)
    assert 20 <= scene.camera.tilt_deg <= 45 and not scene.hard
    assert throw.cubes == make_throw_3d(seed, hard=False, held=True).cubes
    score = Score()
    score_throw(score, throw, cube_set)
    assert asked == [("any", None)]
    assert score.cubes == len(throw.cubes) and score.right >= len(throw.cubes) - 3
