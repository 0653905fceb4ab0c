"""`tablemate read --truth`: scoring readings against the letters written down."""
import io
import json

import cv2
import pytest

from vision import cli
from vision.cli import read_images
from vision.reader import CubeReading
from vision.synth import make_throw
from vision.truth import TruthFileError, load_truth, score_photo, summary_lines

RECORD = {"image": "a.jpg", "size": 60, "cubes": [{"letter": "E", "red": False, "x": 100, "y": 100},
                                                  {"letter": "T", "red": False, "x": 300, "y": 100}]}


def reading(letter, x, y, confidence=0.99, uncertain=False, red=False):
    return CubeReading(letter, red, x, y, confidence, uncertain)


def test_found_right_phantoms_and_silent_wrong_are_counted():
    score = score_photo("a.jpg", [reading("E", 105, 98), reading("I", 300, 110), reading("X", 600, 600, 0.5, True)],
                        RECORD)
    assert (score.found, score.right, score.phantoms, score.silent_wrong) == (2, 1, 1, 1)
    assert not score.all_right
    # the phantom counts as a wrong reading in the reliability table
    assert sorted(score.pairs) == [(0.5, False), (0.99, False), (0.99, True)]


def test_a_reading_beyond_reach_is_a_phantom_and_the_cube_is_missed():
    score = score_photo("a.jpg", [reading("E", 100 + 0.7 * 60, 100), reading("T", 300, 100)], RECORD)
    assert (score.found, score.right, score.phantoms) == (1, 1, 1)


def test_two_readings_on_one_cube_are_one_found_and_one_phantom():
    score = score_photo("a.jpg", [reading("E", 100, 100), reading("E", 110, 100, 0.6), reading("T", 300, 100)],
                        RECORD)
    assert (score.found, score.right, score.phantoms) == (2, 2, 1)


def test_a_cube_read_in_the_wrong_ink_is_counted_apart_from_its_letter():
    score = score_photo("a.jpg", [reading("E", 100, 100, red=True), reading("T", 300, 100)], RECORD)
    assert (score.right, score.colour_wrong) == (2, 1)
    assert "red/black wrong 1" in summary_lines([score])[0]
    # a record that does not say which cubes are red (any letter dice) checks no colour
    plain = {**RECORD, "cubes": [{k: v for k, v in c.items() if k != "red"} for c in RECORD["cubes"]]}
    assert score_photo("a.jpg", [reading("E", 100, 100, red=True), reading("T", 300, 100)], plain).colour_wrong == 0


def test_the_summary_has_totals_and_a_reliability_table():
    lines = summary_lines([score_photo("a.jpg", [reading("E", 100, 100), reading("T", 300, 100)], RECORD)])
    assert lines[0].startswith("photos 1: cubes 2, found 2 (100.0 %), right 2 (100.0 %), phantoms 0")
    assert "photos all right 1/1" in lines[0]
    assert any("confidence 0.95-1.00: 2 readings, 100.0 % right" in line for line in lines)


def test_bad_truth_files_get_plain_messages(tmp_path):
    for text, message in (("not json", "not JSON"), ('{"image": "a.jpg"}', "expected a list")):
        path = tmp_path / "truth.json"
        path.write_text(text)
        try:
            load_truth(path)
        except TruthFileError as exc:
            assert message in str(exc)
        else:
            raise AssertionError("accepted a bad truth file")
    err = io.StringIO()
    assert read_images([], truth_path=str(tmp_path / "gone.json"), out=io.StringIO(), err=err) == 1
    assert "cannot read the truth file" in err.getvalue()


def test_the_read_command_scores_a_folder_against_its_truth(tmp_path):
    throw = make_throw(21, vulnerable=False)
    photo = tmp_path / "throw.jpg"
    cv2.imwrite(str(photo), throw.image)
    other = tmp_path / "other.jpg"
    cv2.imwrite(str(other), throw.image)
    truth = [{"image": "throw.jpg", "vulnerable": False, "red_set": "classic", "size": 95,
              "cubes": [{"letter": c.letter, "red": c.red, "x": c.x, "y": c.y} for c in throw.cubes]}]
    (tmp_path / "truth.json").write_text(json.dumps(truth))
    out, err = io.StringIO(), io.StringIO()
    assert read_images([str(photo), str(other)], truth_path=str(tmp_path / "truth.json"), out=out, err=err) == 0
    assert "other.jpg: not in the truth file" in err.getvalue()
    text = out.getvalue()
    assert "truth: 10 cubes, found 10, right 10, phantoms 0, silent wrong 0, red/black wrong 0  ALL RIGHT" in text
    assert "photos 1: cubes 10, found 10" in text


def test_a_truth_template_is_the_readings_for_a_person_to_correct_and_never_overwrites(tmp_path):
    throw = make_throw(21, vulnerable=False)
    photo = tmp_path / "throw.jpg"
    cv2.imwrite(str(photo), throw.image)
    template = tmp_path / "truth.json"
    err = io.StringIO()
    assert read_images([str(photo)], template_path=str(template), out=io.StringIO(), err=err) == 0
    assert "check every letter" in err.getvalue()
    [record] = json.loads(template.read_text())
    assert (record["image"], record["red_set"], record["vulnerable"]) == ("throw.jpg", "classic", False)
    assert 0.8 * 95 < record["size"] < 1.25 * 95 and len(record["cubes"]) == 10     # the flat throw's faces
    assert all(set(c) <= {"letter", "red", "x", "y", "check"} for c in record["cubes"])
    # as written it is the reader's own word, so it scores every cube right: a file to correct
    out = io.StringIO()
    assert read_images([str(photo)], truth_path=str(template), out=out, err=io.StringIO()) == 0
    assert "ALL RIGHT" in out.getvalue()
    # a second run never writes over it (letters corrected there would be lost)
    template.write_text("corrected by hand")
    err = io.StringIO()
    assert read_images([str(photo)], template_path=str(template), out=io.StringIO(), err=err) == 1
    assert "already there" in err.getvalue() and template.read_text() == "corrected by hand"
    # nor reads a photo before saying it has no folder to write in
    err = io.StringIO()
    assert read_images([str(photo)], template_path=str(tmp_path / "new" / "truth.json"), out=io.StringIO(),
                       err=err) == 1
    assert "no folder" in err.getvalue() and not (tmp_path / "new").exists()


def test_a_truth_template_run_stopped_part_way_keeps_the_photos_read(tmp_path, monkeypatch):
    photos = []
    for seed in (21, 22):
        photos.append(tmp_path / f"throw-{seed}.jpg")
        cv2.imwrite(str(photos[-1]), make_throw(seed, vulnerable=False).image)
    template = tmp_path / "truth.json"
    read, read_calls = cli.read_image, []

    def stopped_at_the_second(image, *rest, **options):
        if len(read_calls) == 1:
            raise KeyboardInterrupt          # the person stops the run (Ctrl-C) while it reads the second
        read_calls.append(1)
        return read(image, *rest, **options)
    monkeypatch.setattr(cli, "read_image", stopped_at_the_second)
    with pytest.raises(KeyboardInterrupt):
        read_images([str(p) for p in photos], template_path=str(template), out=io.StringIO(), err=io.StringIO())
    [record] = json.loads(template.read_text())
    assert record["image"] == "throw-21.jpg" and len(record["cubes"]) == 10
    assert not (tmp_path / "truth.json.part").exists()


def test_a_truth_template_is_not_written_where_no_photo_could_be_read(tmp_path):
    # an empty template would only stand in the way of the next run ("already there")
    bad = tmp_path / "bad.jpg"
    bad.write_text("not a photo")
    err = io.StringIO()
    assert read_images([str(bad)], template_path=str(tmp_path / "truth.json"), out=io.StringIO(), err=err) == 1
    assert "was not written" in err.getvalue() and not (tmp_path / "truth.json").exists()
