"""The `tablemate` command: start the box, replay a saved game, print the config, check
the hardware, render screens, measure speed, solve and read cubes."""
from __future__ import annotations

import argparse
import json
import os
import signal
import sys
from pathlib import Path

from firmware import __version__, config, paths


def _settings(args, quiet: bool = False) -> tuple[dict, Path]:
    """The settings, with each problem in the file on stderr (`quiet`: the box shows and
    logs them itself, once)."""
    path = Path(args.config) if getattr(args, "config", None) else paths.config_path()
    values, problems = config.load(path)
    for problem in [] if quiet else problems:
        print(f"tablemate: {problem}", file=sys.stderr)
    return values, path


def cmd_run(args) -> int:
    from device import hardware as hw
    from firmware.app import App
    signal.signal(signal.SIGTERM, _stop)  # `systemctl stop` ends the box as Ctrl-C does: panel off, pins closed
    settings, path = _settings(args, quiet=True)
    if args.display == "pygame":
        os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    app = App(settings, config_file=path)
    interactive = sys.stdin.isatty() and args.input == "auto" or args.input == "terminal"
    hardware = hw.build(settings, app.queue.put, app.clock, mode=args.hardware, display=args.display,
                        camera=args.camera)
    app.attach(hardware)
    keyboard = None
    if hardware.simulated:
        from device.simulated import LineKeyboard, TerminalKeyboard
        keyboard = TerminalKeyboard() if interactive else LineKeyboard()
    try:
        paths.state_dir().mkdir(parents=True, exist_ok=True)
        app.start()
        app.run(keyboard)
    finally:
        app.close()
        if keyboard is not None:
            keyboard.close()
        hardware.close()
    return 0


def _stop(signum, frame):
    raise SystemExit(0)  # through the same `finally` as Ctrl-C; systemd counts exit 0 as a clean stop


def cmd_replay(args) -> int:
    from firmware.games import rules
    from firmware.journal import Journal, JournalError
    from firmware.session import replay
    try:
        journal = Journal.load(Path(args.file), repair=False)
        game = rules(journal.game)
        for warning in journal.warnings:
            print(f"tablemate: {warning}", file=sys.stderr)
        state, dropped = replay(game, journal.settings, journal.events)
    except FileNotFoundError:
        print(f"tablemate: {args.file}: no such file.", file=sys.stderr)
        return 2
    except (JournalError, KeyError) as exc:
        print(f"tablemate: {exc}", file=sys.stderr)
        return 2
    except (ValueError, TypeError) as exc:
        print(f"tablemate: {args.file}: its settings do not fit the game ({exc}).", file=sys.stderr)
        return 2
    for index, event, exc in dropped:
        print(f"tablemate: {args.file}: step {index + 1} ({event.get('kind') if isinstance(event, dict) else event}) "
              f"does not fit the game ({exc}); it was left out.", file=sys.stderr)
    print(json.dumps(game.summary(state), indent=2))
    return 0


def cmd_config(args) -> int:
    if args.path:
        print(paths.config_path())
        return 0
    if args.defaults:
        sys.stdout.write(config.to_toml(config.defaults()))
        return 0
    values, path = _settings(args)
    sys.stdout.write(f"# {path}\n" + config.to_toml(values, documented=False))
    return 0


def cmd_doctor(args) -> int:
    from firmware.doctor import run_doctor
    return run_doctor(args.config)


def cmd_screens(args) -> int:
    from firmware.showcase import parse_steps, render, render_all
    if args.keys is not None:
        try:
            steps = parse_steps(args.keys)
        except ValueError as exc:
            print(f"tablemate screens: {exc}", file=sys.stderr)
            return 2
        target = Path(args.out)
        if target.suffix.lower() != ".png":
            target = target / "screen.png"
        target.parent.mkdir(parents=True, exist_ok=True)
        render("", args.scale, steps).save(target)
        print(target)
        return 0
    for path in render_all(Path(args.out), scale=args.scale):
        print(path)
    return 0


def cmd_bench(args) -> int:
    from firmware.bench import run_bench, run_photo_bench
    return run_photo_bench(args.photos) if args.photos else run_bench(quick=args.quick)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="tablemate", description="TableMate, the word-game companion.")
    parser.add_argument("--version", action="version", version=f"tablemate {__version__}")
    parser.add_argument("--config", help="config file (default: %s)" % paths.config_path())
    sub = parser.add_subparsers(dest="command")

    run = sub.add_parser("run", help="start TableMate (the default)")
    for p in (parser, run):
        p.add_argument("--display", choices=("auto", "ssd1306", "sh1106", "terminal", "pygame", "dummy"),
                       help="where the screen goes (default: the config's display.kind)")
        p.add_argument("--hardware", choices=("auto", "real", "simulated"), help="real pins or simulated ones")
        p.add_argument("--camera", help="picamera, webcam[:N], none, or an image file or folder")
        p.add_argument("--input", choices=("auto", "terminal", "lines"), default="auto",
                       help="simulated keys from the terminal, or as words (K1, K2-long) from a pipe")
    run.set_defaults(func=cmd_run)

    replay = sub.add_parser("replay", help="print the final state of a saved game as JSON")
    replay.add_argument("file")
    replay.set_defaults(func=cmd_replay)

    cfg = sub.add_parser("config", help="print the settings in force")
    cfg.add_argument("--defaults", action="store_true", help="print every setting with its default and meaning")
    cfg.add_argument("--path", action="store_true", help="print where the config file is read from")
    cfg.set_defaults(func=cmd_config)

    doctor = sub.add_parser("doctor", help="check the display, keys, camera, Tesseract and storage")
    doctor.set_defaults(func=cmd_doctor)

    screens = sub.add_parser("screens", help="render the main screens of every game (or any screen) to PNG")
    screens.add_argument("--out", default="firmware/docs/screens", help="a folder, or a .png file with --keys")
    screens.add_argument("--keys", help='render the screen reached by these presses from the main menu, '
                         'e.g. "K3 K3 K1 K1" (numbers wait that many seconds)')
    screens.add_argument("--scale", type=int, default=3)
    screens.set_defaults(func=cmd_screens)

    bench = sub.add_parser("bench", help="measure start-up, key-press, solver and reader speed")
    bench.add_argument("--quick", action="store_true", help="fewer repetitions")
    bench.add_argument("--photos", metavar="DIR", help="only the cube reader, on the photos in DIR scored "
                       "against DIR/truth.json (photos of your own cubes, or renders made elsewhere)")
    bench.set_defaults(func=cmd_bench)

    from firmware.commands import add_word_commands
    add_word_commands(sub)

    args = parser.parse_args(argv)
    if args.command is None:
        args.func = cmd_run
    try:
        return args.func(args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
