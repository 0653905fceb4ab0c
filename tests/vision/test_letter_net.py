"""The learned letter network: the shipped model, run by OpenCV, on a font it never saw;
the reader's fall-back when the model is missing; how the training data is labelled."""
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import letter_net
from vision.classifier import LETTERS, letter_distances
from vision.glyphs import normalise
from vision.render import glyph_tile
from vision.synth import make_throw
from vision.reader import read_image

HELD_OUT = Path("/usr/share/fonts/truetype/liberation/LiberationSerif-Bold.ttf")
TWINS = {"N": "NZ", "Z": "NZ", "M": "MW", "W": "MW"}     # a quarter or half turn of each other
needs_font = pytest.mark.skipif(not HELD_OUT.exists(), reason="the held-out Liberation fonts are not installed")


def tilted(letter: str, degrees: float) -> np.ndarray:
    """The letter's mask on a face, turned `degrees` counter-clockwise."""
    tile = np.array(glyph_tile(letter, HELD_OUT, 96))
    turn = cv2.getRotationMatrix2D((48, 48), degrees, 0.8)
    return (cv2.warpAffine(tile, turn, (96, 96)) > 127).astype(np.uint8) * 255


def test_the_shipped_models_load_with_opencv_and_are_small():
    for path in (letter_net.MODEL_PATH, letter_net.SHEARED_PATH):
        assert path.exists() and path.stat().st_size < 1_000_000
    p = letter_net.scores(np.zeros((3, letter_net.INPUT, letter_net.INPUT), np.uint8))
    assert p.shape == (3, letter_net.CLASSES)
    assert np.allclose(p.sum(axis=1), 1)


@needs_font
def test_the_reading_is_the_two_networks_averaged_and_they_differ():
    glyphs = np.array([normalise(tilted(letter, 30)) for letter in "AHRWK"])
    plain, sheared = (letter_net.scores(glyphs, path) for path in (letter_net.MODEL_PATH, letter_net.SHEARED_PATH))
    assert not np.allclose(plain, sheared, atol=1e-3)
    assert np.allclose(letter_net.scores(glyphs), (plain + sheared) / 2)


@needs_font
def test_a_font_it_never_saw_is_read_in_every_quarter_turn_with_the_turn():
    glyphs = [(np.rot90(tilted(letter, 0), -k).copy(), k) for letter in LETTERS[:26] for k in range(4)]
    readings = letter_net.read_glyphs([(mask, None) for mask, _ in glyphs])
    right = sum(LETTERS[int(r.probabilities.argmax())] in TWINS.get(letter, letter)
                for r, letter in zip(readings, [le for le in LETTERS[:26] for _ in range(4)]))
    assert right >= 0.95 * len(glyphs)
    # the turn that fits a lopsided letter best is the one that was taken off it
    for r, (_, k), letter in zip(readings, glyphs, [le for le in LETTERS[:26] for _ in range(4)]):
        if letter in "EFGJKLPR" and LETTERS[int(r.probabilities.argmax())] == letter:
            assert r.turns[LETTERS.index(letter)] == k, (letter, k)


@needs_font
def test_a_font_it_never_saw_is_read_at_any_angle():
    # faces.py straightens a cube lying at 45 degrees, but not always exactly
    asked = [(letter, degrees) for letter in LETTERS[:26] for degrees in (45.0, 135.0, -30.0, 200.0, -15.0)]
    readings = letter_net.read_glyphs([(tilted(letter, degrees), None) for letter, degrees in asked])
    right = sum(LETTERS[int(r.probabilities.argmax())] in TWINS.get(letter, letter)
                for r, (letter, _) in zip(readings, asked))
    assert right >= 0.95 * len(asked)


@needs_font
def test_a_known_turn_settles_the_twins():
    # an orientation bar under N tells the reader the turn; N and Z are then apart
    for letter, k in (("N", 1), ("Z", 1), ("M", 2), ("W", 2), ("N", 0), ("Z", 3)):
        (reading,) = letter_net.read_glyphs([(np.rot90(tilted(letter, 0), -k).copy(), k)])
        assert LETTERS[int(reading.probabilities.argmax())] == letter, (letter, k)


@needs_font
def test_qu_is_a_letter_only_when_the_set_has_it():
    mask = tilted("Qu", 10)
    with_qu, without = letter_net.read_glyphs([(mask, None)], qu=True)[0], letter_net.read_glyphs([(mask, None)])[0]
    assert LETTERS[int(with_qu.probabilities.argmax())] == "Qu"
    assert len(with_qu.probabilities) == 27 and len(without.probabilities) == 26
    assert without.probabilities.sum() == pytest.approx(1)


def test_a_missing_model_is_said_plainly_and_the_reader_falls_back(monkeypatch, tmp_path):
    monkeypatch.setattr(letter_net, "MODEL_PATH", tmp_path / "letters.onnx")
    with pytest.raises(letter_net.ModelMissing, match="missing"):
        letter_net.read_glyphs([(tilted("A", 0), None)])
    throw = make_throw(3)
    reading = read_image(throw.image, "classic", len(throw.cubes))
    assert any("reference glyphs alone" in note and "missing" in note for note in reading.notes)
    assert sorted(c.letter for c in reading.cubes) == sorted(t.letter for t in throw.cubes)


def test_a_missing_sheared_model_is_said_plainly(monkeypatch, tmp_path):
    monkeypatch.setattr(letter_net, "SHEARED_PATH", tmp_path / "letters-sheared.onnx")
    with pytest.raises(letter_net.ModelMissing, match="letters-sheared.onnx is missing"):
        letter_net.read_glyphs([(tilted("A", 0), None)])


def test_an_unreadable_model_is_said_plainly(monkeypatch, tmp_path):
    broken = tmp_path / "letters.onnx"
    broken.write_bytes(b"not a network")
    monkeypatch.setattr(letter_net, "MODEL_PATH", broken)
    with pytest.raises(letter_net.ModelMissing, match="could not be read"):
        letter_net.read_glyphs([(tilted("A", 0), None)])


def test_training_glyphs_cut_from_a_throw_carry_the_letter_and_turn_the_references_see():
    # the turn of each training glyph comes from the scene's geometry; the reference
    # glyphs, asked about the true letter, should mostly agree on it
    from vision.train_letters import NOT_A_LETTER, TRAIN_SEED, pipeline_masks
    found = [(mask, cls) for mask, cls in pipeline_masks(TRAIN_SEED + 1) if cls != NOT_A_LETTER]
    assert len(found) >= 8
    agree = sum(letter_distances(mask, qu=True)[1][cls // 4] == cls % 4 for mask, cls in found
                if LETTERS[cls // 4] not in "HINOSXZ")       # those fit more than one turn
    assert agree >= 0.8 * sum(LETTERS[cls // 4] not in "HINOSXZ" for _, cls in found)


def test_training_runs_and_exports_a_model_opencv_reads(tmp_path):
    pytest.importorskip("torch")
    from vision import train_letters
    images, labels = train_letters.rendered_set(300, 1, train_letters.train_fonts()[:2])
    model = train_letters.train(images, labels, (images[:50], labels[:50]), epochs=1, seed=1)
    out = tmp_path / "letters.onnx"
    train_letters.export(model, (1, letter_net.INPUT, letter_net.INPUT), out, "glyph", "logits")
    assert letter_net.scores(images[:4], out).shape == (4, letter_net.CLASSES)


def test_the_trainer_writes_both_networks_from_its_cache(tmp_path):
    pytest.importorskip("torch")
    from vision import train_letters
    images, labels = train_letters.rendered_set(200, 2, train_letters.train_fonts()[:2])
    cache = tmp_path / "glyphs.npz"
    np.savez(cache, tx=images, ty=labels, vx=images[:40], vy=labels[:40])
    train_letters.main(["--cache", str(cache), "--rendered", "100", "--epochs", "1", "--threads", "1",
                        "--out", str(tmp_path)])
    for name in ("letters.onnx", "letters-sheared.onnx"):
        assert letter_net.scores(images[:2], tmp_path / name).shape == (2, letter_net.CLASSES)


def test_the_sheared_network_is_taught_wider_shears():
    from vision import train_letters
    plain = [train_letters._shear(np.random.default_rng(seed), False) for seed in range(400)]
    sheared = [train_letters._shear(np.random.default_rng(seed), True) for seed in range(400)]
    assert max(map(abs, plain)) < 0.35 < max(map(abs, sheared)) <= train_letters.WIDE_SHEAR
    assert np.mean(np.abs(plain) > 0.2) < 0.03 < 0.1 < np.mean(np.abs(sheared) > 0.2)
