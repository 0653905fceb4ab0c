"""Train the two small letter networks that `vision.letter_net` runs, and export them to ONNX.

    pip install -e '.[train]'            # torch and onnx: only for training, never at run time
    python -m vision.train_letters       # some twenty minutes on two CPU cores, both networks

The network looks at one normalised glyph mask (32 x 32, as `vision.glyphs.normalise`
makes it) and says which letter it is AND which quarter turn makes it upright, in one
answer: 27 letters ("Qu" included) x 4 turns, plus one class for "not a letter" (a
shadow, a paper edge, a sliver of a side face).  Letters that are turns of each other
(N and Z, M and W) share their probability between the two readings, and the reader's
cube assignment or the orientation bar settles them where there is one; with `--set
any` on dice with no bar, only the font's details do (an N read Z is then left unsure
only where the networks are).

The reader averages two such networks, alike but for the shear of their rendered glyphs:
the plain one (`letters.onnx`) learns the few hundredths of shear a straightened face
keeps, the sheared one (`letters-sheared.onnx`) also the third of its height a steep
face's misplaced corners leave.  Each alone reads about as well as the other; averaged,
they lost a few letters fewer on the tuning throws (`vision/HISTORY.md`, 2026-12-06).

It learns from two sources, both made here from fixed seeds:

* glyph masks cut by the reader's own pipeline (`search_faces` + `extract_ink`) from 3-D
  renders, each labelled by the cube it lies on, its turn from the scene's geometry;
  candidates that lie on no cube are the "not a letter" examples;
* glyph tiles of the same fonts drawn with every distortion the pipeline shows: any tilt
  up to 45 degrees, stretch, stroke weight, blur, perspective, a piece of a neighbouring
  letter or of the face's edge at the border, clipping.

Only fonts the bench never uses are trained on (DejaVu, FreeMono and eleven other
families: TRAIN_FONT_FILES, with the Debian packages to install), and only 3-D seeds from
TRAIN_SEED up, so the bench measures the reader on fonts and throws it has never seen."""
from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import cv2
import numpy as np

from vision.classifier import LETTERS
from vision.glyphs import extract_ink, normalise
from vision.letter_net import INPUT, MODEL_PATH, NOT_A_LETTER, CLASSES, SHEARED_PATH
from vision.render import BARRED, glyph_tile
from vision.training import arguments, export, fit, predicted, start_torch, training_sets

# The training fonts, regular and bold, by the Debian package that installs each: sans,
# serif, condensed and monospaced designs, so that the network learns letters, not one
# font's details.  Never a Liberation font, FreeSans or FreeSerif, nor a font drawn to
# match them (Arimo, Tinos, Nimbus, Arkpandora): those are the bench's held-out fonts.
_FONTS = Path("/usr/share/fonts")
_DEJAVU, _EXTRA = ("fonts-dejavu-core", "truetype/dejavu/DejaVu"), ("fonts-dejavu-extra", "truetype/dejavu/DejaVu")
TRAIN_FONT_FILES = [(package, start + name) for (package, start), names in (
    (_DEJAVU, ("Sans.ttf", "Sans-Bold.ttf", "Serif.ttf", "Serif-Bold.ttf")),
    (_EXTRA, ("SansCondensed.ttf", "SansCondensed-Bold.ttf", "SerifCondensed.ttf", "SerifCondensed-Bold.ttf")),
    (_DEJAVU, ("SansMono.ttf", "SansMono-Bold.ttf")),
    (("fonts-freefont-ttf", "truetype/freefont/FreeMono"), (".ttf", "Bold.ttf")),
    (("fonts-roboto-unhinted", "truetype/roboto/unhinted/RobotoTTF/Roboto-"), ("Regular.ttf", "Bold.ttf")),
    (("fonts-open-sans", "truetype/open-sans/OpenSans-"), ("Regular.ttf", "Bold.ttf")),
    (("fonts-lato", "truetype/lato/Lato-"), ("Regular.ttf", "Bold.ttf")),
    (("fonts-cantarell", "opentype/cantarell/Cantarell-"), ("Regular.otf", "Bold.otf")),
    (("fonts-clear-sans", "truetype/clear-sans/ClearSans-"), ("Regular.ttf", "Bold.ttf")),
    (("fonts-b612", "opentype/b612/B612-"), ("Regular.otf", "Bold.otf")),
    (("fonts-adf-gillius", "truetype/adf/GilliusADF-"), ("Regular.otf", "Bold.otf")),
    (("fonts-adf-baskervald", "truetype/adf/BaskervaldADFStd"), (".otf", "-Bold.otf")),
    (("fonts-crosextra-carlito", "truetype/crosextra/Carlito-"), ("Regular.ttf", "Bold.ttf")),
    (("fonts-crosextra-caladea", "truetype/crosextra/Caladea-"), ("Regular.ttf", "Bold.ttf")),
    (("fonts-inter", "opentype/inter/Inter-"), ("Regular.otf", "Bold.otf")),
) for name in names]                 # (Debian package, file): the order the throws draw them in
TRAIN_FONTS = [_FONTS / name for _, name in TRAIN_FONT_FILES]
TRAIN_SEED = 1_000_000          # far above the bench's seeds (100_000-300_200) and the tests'
MATCH_RADIUS = 0.6              # of the face's side: a face this near a cube lies on it
TILE = 96                       # as the straightened face
SHEARED_SHARE, WIDE_SHEAR = 0.3, 0.4  # the sheared network: this share of its rendered glyphs sheared up to this
MEMBERS = {"plain": (MODEL_PATH.name, False), "sheared": (SHEARED_PATH.name, True)}  # file, sheared


def train_fonts() -> list[Path]:
    """The training fonts installed here (all of them, for the shipped model)."""
    fonts = [f for f in TRAIN_FONTS if f.exists()]
    missing = sorted({package for package, name in TRAIN_FONT_FILES if not (_FONTS / name).exists()})
    if not fonts:
        raise SystemExit(f"No training fonts found: install them with `sudo apt install {' '.join(missing)}`.")
    if missing:
        print(f"Training without {len(TRAIN_FONTS) - len(fonts)} of the fonts: "
              f"`sudo apt install {' '.join(missing)}` adds them.", flush=True)
    return fonts


def label(letter: int, turns: int) -> int:
    """The class of a letter that `turns` counter-clockwise quarter turns make upright."""
    return letter * 4 + turns % 4


# --- glyphs cut by the reader's own pipeline from 3-D renders ---------------------------------

def _upright_turns(face_corners: np.ndarray, tile_corners: np.ndarray, glyph_turns: int) -> int:
    """The quarter turns that make the glyph upright in the straightened face: which of the
    face's corners the glyph tile's top-left corner fell on, less the glyph's own turn on
    its tile."""
    corner = int(np.argmin(np.linalg.norm(face_corners - tile_corners[0], axis=1)))
    return (corner - glyph_turns) % 4


def pipeline_masks(seed: int) -> list[tuple[np.ndarray, int]]:
    """Every glyph mask the reader cuts from one 3-D throw, with its class."""
    from vision.faces import search_faces
    from vision.synth3d import make_scene, render
    scene = make_scene(seed, fonts=train_fonts(), hard=seed % 3 == 0, red_set="later" if seed % 4 == 3 else "classic")
    throw = render(scene, seed)
    found = []
    for face in search_faces(throw.image).faces:
        ink = extract_ink(face.square)
        if ink is None:
            continue
        gaps = [np.hypot(c.x - face.centre[0], c.y - face.centre[1]) for c in throw.cubes]
        nearest = int(np.argmin(gaps))
        if gaps[nearest] > MATCH_RADIUS * throw.size:
            found.append((ink.mask, NOT_A_LETTER))
            continue
        cube = scene.cubes[nearest]
        turns = _upright_turns(face.corners, scene.camera.project(cube.face("top")[2]), cube.turns["top"])
        found.append((ink.mask, label(LETTERS.index(cube.letters["top"]), turns)))
    return found


def pipeline_set(seeds: range, workers: int) -> tuple[np.ndarray, np.ndarray]:
    """The masks of many throws, each in its four quarter turns (a turned mask is the
    same glyph needing more turns), normalised."""
    with ProcessPoolExecutor(workers) as pool:
        found = [m for masks in pool.map(pipeline_masks, seeds, chunksize=4) for m in masks]
    images, labels = [], []
    for mask, cls in found:
        for k in range(4):
            images.append(normalise(np.rot90(mask, -k).copy()))
            labels.append(cls if cls == NOT_A_LETTER else label(cls // 4, cls % 4 + k))
    return np.array(images, np.uint8), np.array(labels, np.int64)


# --- rendered glyph tiles, distorted -------------------------------------------------------------

def _tiles(fonts: list[Path]) -> dict:
    """Every letter of every font at three widths, with and without its bar."""
    tiles = {}
    for font in fonts:
        for index, letter in enumerate(LETTERS):
            for stretch in (0.8, 1.0, 1.2):
                for bar in (False, True) if letter in BARRED else (False,):
                    tiles[(font, index, stretch, bar)] = np.array(glyph_tile(letter, font, TILE, bar, stretch))
    return tiles


def _tilt(rng: np.random.Generator) -> float:
    """Mostly the few degrees a straightened face is off, sometimes anything up to 45."""
    return float(rng.normal(0, 5)) if rng.random() < 0.6 else float(rng.uniform(-45, 45))


def _shear(rng: np.random.Generator, sheared: bool) -> float:
    """The few hundredths a straightened face keeps; for the sheared network, also up to
    WIDE_SHEAR (a glyph straightened from a steep face with misplaced corners)."""
    if sheared and rng.random() < SHEARED_SHARE:
        return float(rng.uniform(-WIDE_SHEAR, WIDE_SHEAR))
    return float(rng.normal(0, 0.08))


def _warp(tile: np.ndarray, rng: np.random.Generator, sheared: bool = False) -> np.ndarray:
    """Tilt, stretch, shear and a little perspective, about the tile's centre."""
    size = tile.shape[0]
    angle = np.radians(_tilt(rng))
    scale = rng.uniform(0.75, 1.05)
    sx, sy = scale * rng.uniform(0.85, 1.15), scale * rng.uniform(0.85, 1.15)
    shear = _shear(rng, sheared)
    c, s = np.cos(angle), np.sin(angle)
    linear = np.array([[c, -s], [s, c]]) @ np.array([[sx, shear], [0, sy]])
    corners = np.float32([[0, 0], [size, 0], [size, size], [0, size]]) - size / 2
    moved = corners @ linear.T + size / 2 + rng.normal(0, size * 0.025, (4, 2))
    m = cv2.getPerspectiveTransform(corners + size / 2, moved.astype(np.float32))
    return cv2.warpPerspective(tile, m, (size, size), flags=cv2.INTER_LINEAR)


def _weight_and_blur(glyph: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Blur then threshold at a random level: thinner or bolder strokes, softened corners
    and the ragged edge of a glyph seen at a few dozen pixels."""
    small = int(rng.uniform(28, 96))
    g = cv2.resize(cv2.resize(glyph, (small, small), interpolation=cv2.INTER_AREA), glyph.shape[::-1],
                   interpolation=cv2.INTER_LINEAR)
    g = cv2.GaussianBlur(g, (0, 0), rng.uniform(0.5, 2.0))
    mask = (g > rng.uniform(0.3, 0.7) * 255).astype(np.uint8) * 255
    return mask


def _intrude(mask: np.ndarray, tiles: list[np.ndarray], rng: np.random.Generator) -> np.ndarray:
    """What enters the glyph mask from beyond the top face: the face's edge as a strip
    along a side, or a piece of a side face's letter near a corner; or the outline cuts
    the glyph off short."""
    size = mask.shape[0]
    ys, xs = np.nonzero(mask)
    if len(xs) == 0:
        return mask
    mask = mask.copy()
    choice = rng.random()
    if choice < 0.4:                               # a strip of edge, touching the glyph
        side = int(rng.integers(0, 4))
        depth = int(rng.uniform(2, 8))
        at = [ys.min(), xs.max(), ys.max(), xs.min()][side]
        strip = slice(max(0, at - depth), at + 1) if side in (0, 3) else slice(at, min(size, at + depth + 1))
        span = slice(int(rng.uniform(0, size / 2)), int(rng.uniform(size / 2, size)))
        if side in (0, 2):
            mask[strip, span] = 255
        else:
            mask[span, strip] = 255
    elif choice < 0.75:                            # a piece of another letter at the border
        other = tiles[int(rng.integers(0, len(tiles)))]
        piece = int(rng.uniform(size * 0.12, size * 0.3))
        shift = np.float32([[1, 0, rng.choice([-1, 1]) * (size - piece)], [0, 1, rng.uniform(-0.3, 0.3) * size]])
        if rng.random() < 0.5:
            shift = shift[::-1].copy()
            shift[:, :2] = [[1, 0], [0, 1]]
        mask = np.maximum(mask, cv2.warpAffine(other, shift, (size, size)))
    else:                                          # cut off along one side
        cut = int(rng.uniform(0.03, 0.15) * (xs.max() - xs.min() + 1))
        side = int(rng.integers(0, 4))
        if side == 0:
            mask[:ys.min() + cut] = 0
        elif side == 1:
            mask[:, xs.max() - cut:] = 0
        elif side == 2:
            mask[ys.max() - cut:] = 0
        else:
            mask[:, :xs.min() + cut] = 0
    return mask


def rendered_set(count: int, seed: int, fonts: list[Path], sheared: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """`count` distorted glyphs in random quarter turns, normalised, with their classes
    (`sheared`: for the sheared network)."""
    rng = np.random.default_rng(seed)
    tiles = _tiles(fonts)
    keys = list(tiles)
    plain = list(tiles.values())
    images, labels = np.empty((count, INPUT, INPUT), np.uint8), np.empty(count, np.int64)
    for n in range(count):
        key = keys[int(rng.integers(0, len(keys)))]
        mask = _weight_and_blur(_warp(tiles[key], rng, sheared), rng)
        if rng.random() < 0.3:
            mask = _intrude(mask, plain, rng)
        turns = int(rng.integers(0, 4))
        images[n] = normalise(np.rot90(mask, -turns).copy())
        labels[n] = label(key[1], turns)
    return images, labels


# --- the network ------------------------------------------------------------------------------------

def build_model():
    """Three small convolutions and one linear layer: about 100 000 weights, some 1.5 million
    multiplications a glyph."""
    import torch.nn as nn

    def block(cin, cout):
        return [nn.Conv2d(cin, cout, 3, padding=1), nn.BatchNorm2d(cout), nn.ReLU(), nn.MaxPool2d(2)]
    return nn.Sequential(*block(1, 12), *block(12, 24), *block(24, 48), nn.Flatten(),
                         nn.Dropout(0.2), nn.Linear(48 * (INPUT // 8) ** 2, CLASSES))


def letter_accuracy(logits, labels) -> float:
    """The share whose letter (summed over its turns) is right, turn aside."""
    import torch
    p = torch.softmax(logits, 1)
    letters = torch.cat([p[:, :-1].reshape(len(p), -1, 4).sum(2), p[:, -1:]], 1)
    truth = torch.where(labels == NOT_A_LETTER, letters.shape[1] - 1, labels // 4)
    return float((letters.argmax(1) == truth).float().mean())


def train(images: np.ndarray, labels: np.ndarray, valid: tuple[np.ndarray, np.ndarray], epochs: int, seed: int):
    import torch
    torch.manual_seed(seed)
    vx = torch.from_numpy(valid[0]).float().unsqueeze(1) / 255
    vy = torch.from_numpy(valid[1])

    def smoothed(logits, truth):
        return torch.nn.functional.cross_entropy(logits, truth, label_smoothing=0.02)
    return fit(build_model(), torch.from_numpy(images).float().unsqueeze(1) / 255, torch.from_numpy(labels),
               smoothed, epochs, seed,
               lambda model: f"validation letters right {letter_accuracy(predicted(model, vx), vy) * 100:.2f} %")


def main(argv: list[str] | None = None) -> None:
    parser = arguments(__doc__.split("\n\n")[0], 1000, 10, MODEL_PATH.parent, "glyphs")
    parser.add_argument("--rendered", type=int, default=100_000, help="distorted glyph tiles")
    parser.add_argument("--network", choices=("both", *MEMBERS), default="both",
                        help="which network to train (--out is the folder they are written to)")
    args = parser.parse_args(argv)
    start_torch(args.threads)
    fonts = train_fonts()
    tx, ty, vx, vy = training_sets(args, TRAIN_SEED, pipeline_set, lambda sets: (
        f"{len(sets[0]) // 4} + {len(sets[2]) // 4} pipeline glyphs "
        f"({(sets[1] == NOT_A_LETTER).sum() // 4} not letters)"))
    for name in MEMBERS if args.network == "both" else (args.network,):
        file, sheared = MEMBERS[name]
        # the rendered glyphs are quick to draw again (some 25 s), and differ by network
        rx, ry = rendered_set(args.rendered, TRAIN_SEED, fonts, sheared)
        print(f"the {name} network: {len(rx)} rendered glyphs", flush=True)
        model = train(np.concatenate([tx, rx]), np.concatenate([ty, ry]), (vx, vy), args.epochs, TRAIN_SEED)
        export(model, (1, INPUT, INPUT), args.out / file, "glyph", "logits")


if __name__ == "__main__":
    main()
