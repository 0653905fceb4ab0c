"""Train the small face network that `vision.face_net` runs, and export it to ONNX.

    pip install -e '.[train]'            # torch and onnx: only for training, never at run time
    python -m vision.train_faces         # about 40 minutes on two CPU cores (15 to render, 25 to train), 24 GB

The network sees the photo round one candidate outline, straightened into the middle of
a small window (`face_net.window`), and says how well the outline fits a cube's top face.
It learns from the candidates the finder itself traces on 3-D renders: each is labelled
by how much it overlaps the nearest true top face (intersection over union), so a side
face, an outline running over two touching cubes, a shadow or a paper edge all score 0,
and a displaced outline scores in between.  The window is turned as the finder turns it
(the camera's foot, as the finder works it out, down) and seen mirrored half the time.

Only fonts the bench never uses are rendered (the letter trainer's), and only seeds from
TRAIN_SEED up, so the bench measures the finder on throws it has never seen; every tenth
throw is kept back to validate on.  One throw in five is taken with the camera held in the
hand (20-45 degrees from the vertical), where the top faces look flattest and the side
faces largest."""
from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor

import cv2
import numpy as np

from vision.bright import order_corners
from vision.face_net import MODEL_PATH, WINDOW, windows
from vision.faces import find_candidates
from vision.train_letters import train_fonts
from vision.training import arguments, export, fit, predicted, start_torch, training_sets

TRAIN_SEED = 2_000_000          # apart from the bench's seeds, the tests' and the letter network's
SURE = (0.3, 0.7)               # overlaps below the first are no top face, above the second surely one


def held(seed: int) -> bool:
    """Whether a throw is taken with the camera held in the hand: one in five of the
    throws trained on (seeds 1 more than a multiple of 5), and one in five of the tenth
    kept back to validate on (multiples of 10, so of 50)."""
    return seed % 5 == 1 or seed % 50 == 0


def overlap(a: np.ndarray, b: np.ndarray) -> float:
    """Intersection over union of two convex outlines."""
    a, b = order_corners(a).astype(np.float32), order_corners(b).astype(np.float32)
    inter, _ = cv2.intersectConvexConvex(a, b)
    return float(inter / max(cv2.contourArea(a) + cv2.contourArea(b) - inter, 1e-6))


def throw_windows(seed: int) -> tuple[np.ndarray, np.ndarray]:
    """The windows of every candidate the finder judges in one 3-D throw, and each one's
    overlap with the nearest true top face."""
    from vision.synth3d import make_scene, render
    scene = make_scene(seed, fonts=train_fonts(), hard=seed % 3 == 0, red_set="later" if seed % 4 == 3 else "classic",
                       held=held(seed))
    throw = render(scene, seed)
    found = find_candidates(throw.image)
    tops = [scene.camera.project(cube.face("top")[2]) * found.scale for cube in scene.cubes]
    asked = found.judged()
    # the camera's foot as the finder works it out, not the scene's truth
    seen = windows(found.view.small, [c.corners for c in asked], [found.foot_of(c) for c in asked])
    overlaps = [max(overlap(c.corners, top) for top in tops) for c in asked]
    return seen.reshape(-1, WINDOW, WINDOW, 3), np.array(overlaps, np.float32)


def windows_set(seeds, workers: int) -> tuple[np.ndarray, np.ndarray]:
    with ProcessPoolExecutor(workers) as pool:
        found = list(pool.map(throw_windows, seeds, chunksize=4))
    return np.concatenate([w for w, _ in found]), np.concatenate([o for _, o in found])


def build_model():
    """Three small convolutions and one linear layer: about 21 000 weights."""
    import torch.nn as nn

    def block(cin, cout):
        return [nn.Conv2d(cin, cout, 3, padding=1), nn.BatchNorm2d(cout), nn.ReLU(), nn.MaxPool2d(2)]
    return nn.Sequential(*block(3, 16), *block(16, 32), *block(32, 48), nn.Flatten(),
                         nn.Dropout(0.2), nn.Linear(48 * (WINDOW // 8) ** 2, 1))


def _as_tensors(windows: np.ndarray, overlaps: np.ndarray):
    """Windows as float (N, 3, WINDOW, WINDOW); targets 0 below SURE, 1 above, between
    in proportion."""
    import torch
    target = np.clip((overlaps - SURE[0]) / (SURE[1] - SURE[0]), 0, 1).astype(np.float32)
    # divided in place: the float copy of some 300 000 windows alone is 9 GB
    return torch.from_numpy(windows).permute(0, 3, 1, 2).float().div_(255), torch.from_numpy(target)


def _mirrored(batch, generator):
    """The batch mirrored left to right half the time (which keeps the camera's foot down)."""
    import torch
    return torch.flip(batch, (3,)) if int(torch.randint(0, 2, (1,), generator=generator)) else batch


def train(windows: np.ndarray, overlaps: np.ndarray, valid: tuple[np.ndarray, np.ndarray], epochs: int, seed: int):
    import torch
    torch.manual_seed(seed)
    x, y = _as_tensors(windows, overlaps)
    vx, _ = _as_tensors(*valid)
    top, other = valid[1] > SURE[1], valid[1] < SURE[0]

    def bce(logits, target):
        return torch.nn.functional.binary_cross_entropy_with_logits(logits.squeeze(1), target)

    def report(model) -> str:
        said = torch.sigmoid(predicted(model, vx).squeeze(1)).numpy() > 0.5
        return (f"validation: top faces taken {said[top].mean() * 100:.2f} %, "
                f"other outlines refused {(~said[other]).mean() * 100:.2f} %")
    return fit(build_model(), x, y, bce, epochs, seed, report, augment=_mirrored)


def main(argv: list[str] | None = None) -> None:
    args = arguments(__doc__.split("\n\n")[0], 2700, 8, MODEL_PATH, "candidates").parse_args(argv)
    start_torch(args.threads)
    tx, ty, vx, vy = training_sets(args, TRAIN_SEED, windows_set, lambda sets: (
        f"{len(sets[0])} + {len(sets[2])} candidates ({(sets[1] > SURE[1]).sum()} top faces)"))
    model = train(tx, ty, (vx, vy), args.epochs, TRAIN_SEED)
    export(model, (3, WINDOW, WINDOW), args.out, "window", "logit")


if __name__ == "__main__":
    main()
