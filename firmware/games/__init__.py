"""The rules core: one pure module per game.  Nothing here reads the clock, draws a random
number, touches hardware or does I/O (except loading the word list from the package):
time and dice arrive inside events."""

import importlib

GAME_NAMES = ("password", "perquackey", "taboo", "cryptic")


def rules(game: str):
    """The rules module of a game, by the name its journal header gives."""
    if game not in GAME_NAMES:
        raise KeyError(f"unknown game {game!r}")
    return importlib.import_module(f"firmware.games.{game}")
