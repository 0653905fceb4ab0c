"""The word and cube commands: `tablemate words` (the Perquackey solver and the house
words) and `tablemate read` (the cube reader on image files)."""
from __future__ import annotations

import json
import sys


def cmd_words(args) -> int:
    from firmware import house_words
    if args.add or args.remove:
        for word in args.add or []:
            house_words.change(word, add=True)
        for word in args.remove or []:
            house_words.change(word, add=False)
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
        print("tablemate words: give the throw's letters (10, or 13 when vulnerable), e.g. "
              "`tablemate words AAEEBHIRSU`.", file=sys.stderr)
        return 2
    from firmware.games.words import check_letters, solve
    try:
        check_letters("".join(args.letters))
    except ValueError as exc:
        print(f"tablemate words: {exc}", file=sys.stderr)
        return 2
    solution = solve(house_words.load_wordlist(), "".join(args.letters))
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


def cmd_read(args) -> int:
    from vision.cli import read_images
    return read_images(args.images, cube_set=args.set, as_json=args.json, debug_dir=args.debug,
                       truth_path=args.truth)


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
    read.set_defaults(func=cmd_read)
