"""The word and cube commands: `tablemate words` (the Perquackey solver and the house
words) and `tablemate read` (the cube reader on image files)."""
from __future__ import annotations

import json
import sys
from pathlib import Path


def cmd_words(args) -> int:
    from firmware import house_words
    if args.add or args.remove:
        try:
            for word in args.add or []:
                house_words.change(word, add=True)
            for word in args.remove or []:
                house_words.change(word, add=False)
        except ValueError as exc:
            return _words_error(args, str(exc))
        added, removed = house_words.read()
        print(f"House words: {len(added)} added, {len(removed)} removed ({house_words.house_file()}).")
        return 0
    if args.house:
        added, removed = house_words.read()
        for w in sorted(added):
            print(f"+{w}")
        for w in sorted(removed):
            print(f"-{w}")
        return 0
    if not args.letters:
        return _words_error(args, "give the throw's letters (10, or 13 when vulnerable), e.g. "
                                  "`tablemate words AAEEBHIRSU`.")
    from firmware.games.words import check_letters, solve
    try:
        check_letters("".join(args.letters))
        wordlist = house_words.load_wordlist(family=_family_friendly(args))
    except (ValueError, OSError) as exc:   # bad letters, a damaged or missing list
        return _words_error(args, str(exc))
    solution = solve(wordlist, "".join(args.letters))
    if args.json:
        print(json.dumps(solution.as_json()))
        return 0
    kind = "vulnerable (13 cubes, no 3-letter words)" if solution.vulnerable else "10 cubes"
    print(f"{solution.letters}: {kind}")
    for n, ws in sorted(solution.words.items()):
        counted = "" if n <= 10 and (n > 3 or not solution.vulnerable) else "  (not scored)"
        print(f"{n:>2} letters ({len(ws)}){counted}: {' '.join(ws)}")
    best = "  ".join(f"{n}: {' '.join(ws)}" for n, ws in sorted(solution.best_words.items()))
    print(f"Best possible: {solution.best_score} points with {best or 'no words'}")
    return 0


def _words_error(args, message: str) -> int:
    """A `words` error: one JSON object on stdout with --json (a script reads one shape),
    a plain sentence on stderr otherwise."""
    if args.json:
        print(json.dumps({"error": message}))
    else:
        print(f"tablemate words: {message}", file=sys.stderr)
    return 2


def _family_friendly(args) -> bool:
    """The setting words.family_friendly from the config file in force."""
    from firmware import config, paths
    path = Path(args.config) if getattr(args, "config", None) else paths.config_path()
    values, problems = config.load(path)
    for problem in problems:
        print(f"tablemate: {problem}", file=sys.stderr)
    return bool(values["words.family_friendly"])


def cmd_read(args) -> int:
    from vision.cli import read_images
    return read_images(args.images, cube_set=args.set, as_json=args.json, debug_dir=args.debug,
                       truth_path=args.truth, template_path=args.truth_template)


def add_word_commands(sub) -> None:
    words = sub.add_parser("words", help="every word a Perquackey throw can make, and the best score")
    words.add_argument("letters", nargs="*", help="the letters on the cubes (10, or 13 when vulnerable)")
    words.add_argument("--json", action="store_true", help="one JSON object")
    words.add_argument("--add", nargs="+", metavar="WORD", help="add house words")
    words.add_argument("--remove", nargs="+", metavar="WORD", help="take words out of the list")
    words.add_argument("--house", action="store_true", help="list the house words")
    words.set_defaults(func=cmd_words)

    read = sub.add_parser("read", help="read the cubes in photos of a throw")
    read.add_argument("images", nargs="+")
    read.add_argument("--json", action="store_true", help="one JSON object a line per image")
    read.add_argument("--set", choices=("classic", "later", "any"), default="classic",
                      help="the red cube set, or any letters for other dice")
    read.add_argument("--debug", metavar="DIR", help="write pictures of each step there")
    read.add_argument("--truth", metavar="FILE", help="score the readings against a truth file (JSON)")
    read.add_argument("--truth-template", metavar="FILE",
                      help="write the readings to a new truth file, for you to correct and score with --truth")
    read.set_defaults(func=cmd_read)
