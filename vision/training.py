"""What the reader's two trainers share: their data's split and cache, the training loop
and the export to ONNX.
Only for training (torch), never at run time."""
from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Callable

import numpy as np

SETS = ("tx", "ty", "vx", "vy")     # training inputs and answers, validation inputs and answers


def predicted(model, x, batch: int = 2048):
    """The model's outputs for every row of `x`, a batch at a time (a whole validation
    set at once takes gigabytes for the first layer's activations alone)."""
    import torch
    return torch.cat([model(x[first:first + batch]) for first in range(0, len(x), batch)])


def fit(model, x, y, loss: Callable, epochs: int, seed: int, report: Callable[[object], str],
        augment: Callable | None = None, batch: int = 256):
    """AdamW with a one-cycle schedule over shuffled batches; after each epoch, a line
    with the mean loss and what `report(model)` says of the validation set."""
    import torch
    optimiser = torch.optim.AdamW(model.parameters(), 3e-3, weight_decay=1e-4)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, 3e-3, total_steps=epochs * ((len(x) + batch - 1) // batch))
    generator = torch.Generator().manual_seed(seed)
    for epoch in range(epochs):
        model.train()
        start = time.perf_counter()
        order = torch.randperm(len(x), generator=generator)
        total = 0.0
        for first in range(0, len(x), batch):
            chosen = order[first:first + batch]
            inputs = x[chosen] if augment is None else augment(x[chosen], generator)
            value = loss(model(inputs), y[chosen])
            optimiser.zero_grad()
            value.backward()
            optimiser.step()
            schedule.step()
            total += value.item() * len(chosen)
        model.eval()
        with torch.no_grad():
            said = report(model)
        print(f"epoch {epoch + 1}/{epochs}: loss {total / len(x):.4f}, {said} "
              f"({time.perf_counter() - start:.0f} s)", flush=True)
    return model


def export(model, shape: tuple[int, ...], path: Path, input_name: str, output_name: str) -> None:
    """ONNX that OpenCV's dnn module reads (the plain TorchScript exporter, opset 13),
    any batch size."""
    import torch
    path.parent.mkdir(parents=True, exist_ok=True)
    model.eval()
    torch.onnx.export(model, torch.zeros(1, *shape), str(path), input_names=[input_name],
                      output_names=[output_name], opset_version=13, dynamo=False,
                      dynamic_axes={input_name: {0: "batch"}, output_name: {0: "batch"}})
    print(f"wrote {path} ({path.stat().st_size // 1024} KB)")


def arguments(description: str, throws: int, epochs: int, out: Path, what: str) -> argparse.ArgumentParser:
    """The options both trainers take; each adds its own."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--throws", type=int, default=throws, help=f"3-D throws to take {what} from")
    parser.add_argument("--epochs", type=int, default=epochs)
    parser.add_argument("--workers", type=int, default=2, help="processes rendering throws")
    parser.add_argument("--threads", type=int, default=2, help="torch's threads (1 on a busy machine)")
    parser.add_argument("--cache", type=Path, help="keep the generated data here, and reuse it")
    parser.add_argument("--out", type=Path, default=out)
    return parser


def training_sets(args: argparse.Namespace, first_seed: int, make: Callable[[list[int], int], tuple],
                  described: Callable[[tuple], str]):
    """The training and validation sets (inputs and answers each) of `args.throws` throws
    from `first_seed`: every tenth throw kept for validation, never trained on.  Read from
    `args.cache` where it exists, else made by `make(seeds, workers)` (and kept there)."""
    if args.cache and args.cache.exists():
        data = np.load(args.cache)
        return tuple(data[name] for name in SETS)
    start = time.perf_counter()
    seeds = range(first_seed, first_seed + args.throws)
    sets = (*make([s for s in seeds if s % 10], args.workers), *make([s for s in seeds if not s % 10], args.workers))
    print(f"data: {described(sets)} ({time.perf_counter() - start:.0f} s)", flush=True)
    if args.cache:
        np.savez_compressed(args.cache, **dict(zip(SETS, sets)))
    return sets


def start_torch(threads: int) -> None:
    """Torch, on `threads` threads, or a plain sentence saying how to install it."""
    try:
        import torch
    except ImportError:
        raise SystemExit("Training needs torch: pip install -e '.[train]'.") from None
    torch.set_num_threads(threads)
