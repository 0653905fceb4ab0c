"""The rules core: one pure module per game.  Nothing here reads the clock, draws a random
number, touches hardware or does I/O (except loading the word list from the package):
time and dice arrive inside events.

The registry: every game is a plain import below, in menu order.  Each module keeps the
same contract (`CONTRACT`): its NAME (the journal's name for it), LABEL (the menu's),
HAS_TIMER, its OPTIONS, and new_game / apply / outcome / summary."""

from firmware.games import cryptic, password, perquackey, taboo

GAMES = (password, perquackey, taboo, cryptic)
BY_NAME = {game.NAME: game for game in GAMES}
GAME_NAMES = tuple(BY_NAME)
CONTRACT = ("NAME", "LABEL", "HAS_TIMER", "OPTIONS", "new_game", "apply", "outcome", "summary")


def rules(game: str):
    """The rules module of a game, by the name its journal header gives."""
    if game not in BY_NAME:
        raise KeyError(f"unknown game {game!r}")
    return BY_NAME[game]


def active_timer(game, state):
    """The running or paused timer of a game that has one, else None."""
    return game.active_timer(state) if game.HAS_TIMER else None
