"""Password, home edition: the scoring dial and the score pad (seeds 000 and 001).

4 players: two teams, each an A and a B player.  Ten passwords in the order A1, B1, A2,
B2 ... B5; the A players give clues for the A list (the B players receive) and the other
way round.  Clues alternate between the teams.  Who opens a password alternates as both
seeds say: the B list's first word is opened by the other team than the A list's (000:
"teams alternate in giving the first clue"), and within each list the other giver opens
the next word (001: "for their second word the other player gets to give the first
clue").  So with team 1 opening A1: A1 1, B1 2, A2 2, B2 1, A3 1, B3 2, ... B5 2.
3 players: one giver, two receivers, five passwords.  Password No. 5 counts double in
both games."""
from __future__ import annotations

from dataclasses import dataclass, field

from firmware.games.core import Outcome, RuleError, applier
from firmware.games.options import Option

NAME, LABEL, HAS_TIMER = "password", "Password", False
OPTIONS = (
    Option("first_team", "1", "Which team's giver opens password A1.", ("1", "2"), menu="PW first team",
           form="First clue"),
)

DIAL_START = 10          # the dial's value before the first clue
CLUES_PER_PASSWORD = 10  # then nobody scores (5 per giver in the 4-player game)
WORDS_PER_LIST = 5
DOUBLE_WORD = 5          # password No. 5 counts double
FOUR_PLAYER_ORDER = tuple((lst, n) for n in range(1, WORDS_PER_LIST + 1) for lst in ("A", "B"))
TEAM_ROLES = {1: ("A1", "B1"), 2: ("A2", "B2")}


@dataclass
class State:
    players: int                        # 4 (two teams) or 3 (giver and two receivers)
    names: dict[str, str]               # role -> name; roles A1 B1 A2 B2, or G R1 R2
    first_team: int = 1                 # the team whose giver opens password A1
    password: int = 0                   # index of the password being played
    clues: int = 0                      # clues given and missed so far on this password
    form: str | None = None             # receiver role with one more try at the exact word
    cells: dict[str, list] = field(default_factory=dict)  # role -> points per word No. (None: no score)


def new_game(settings: dict) -> State:
    players = int(settings.get("players", 4))
    roles = ("A1", "B1", "A2", "B2") if players == 4 else ("G", "R1", "R2")
    names = {role: settings.get("names", {}).get(role, role) for role in roles}
    scoring = roles if players == 4 else ("R1", "R2")
    return State(players=players, names=names, first_team=int(settings.get("first_team", 1)),
                 cells={role: [None] * WORDS_PER_LIST for role in scoring})


def passwords(state: State) -> int:
    return len(FOUR_PLAYER_ORDER) if state.players == 4 else WORDS_PER_LIST


def is_over(state: State) -> bool:
    return state.password >= passwords(state)


def word(state: State) -> tuple[str, int]:
    """The list and number of the password being played: ("A", 3), or ("", 3) for 3 players."""
    if state.players == 3:
        return "", state.password + 1
    return FOUR_PLAYER_ORDER[state.password]


def dial(state: State) -> int:
    return DIAL_START - state.clues


def multiplier(state: State) -> int:
    return 2 if word(state)[1] == DOUBLE_WORD else 1


def value(state: State) -> int:
    """What the password is worth right now: the dial, doubled on No. 5."""
    return dial(state) * multiplier(state)


def giving_team(state: State) -> int:
    """The team whose giver gives the current clue (4 players)."""
    number, is_b_list = divmod(state.password, 2)
    opener = state.first_team if (number + is_b_list) % 2 == 0 else 3 - state.first_team
    return opener if state.clues % 2 == 0 else 3 - opener


def giver(state: State, team: int | None = None) -> str:
    if state.players == 3:
        return "G"
    lst = word(state)[0]
    return f"{lst}{team or giving_team(state)}"


def receiver(state: State, team: int | None = None) -> str:
    lst = word(state)[0]
    return f"{'B' if lst == 'A' else 'A'}{team or giving_team(state)}"


def _check_playing(state: State) -> None:
    if is_over(state):
        raise RuleError("The game is over.")


def _score(state: State, role: str) -> None:
    state.cells[role][word(state)[1] - 1] = value(state)


def _next_password(state: State) -> None:
    state.password += 1
    state.clues = 0
    state.form = None


def _missed(state: State, event: dict) -> None:
    """The clue was not guessed (or the extra try after a form of the word failed)."""
    _check_playing(state)
    if state.form is not None:
        return _next_password(state)  # the one extra try failed: nobody scores
    state.clues += 1
    if state.clues >= CLUES_PER_PASSWORD:
        _next_password(state)


def _guessed(state: State, event: dict) -> None:
    _check_playing(state)
    if state.players == 4:
        who = state.form or receiver(state)
        _score(state, who)
    else:
        who = event.get("who")
        if state.form is not None and who != state.form:
            raise RuleError("Only the receiver who gave the form of the word may try again.")
        if who not in ("R1", "R2", "both"):
            raise RuleError("Say who guessed: receiver 1, receiver 2 or both.")
        for role in (("R1", "R2") if who == "both" else (who,)):
            _score(state, role)
    _next_password(state)


def _form(state: State, event: dict) -> None:
    """A form of the word was given: that receiver gets one more try at the exact word."""
    _check_playing(state)
    if state.form is not None:
        raise RuleError("Already waiting for the exact word.")
    if state.players == 4:
        state.form = receiver(state)
    else:
        if event.get("who") not in ("R1", "R2"):
            raise RuleError("Say which receiver gave the form of the word.")
        state.form = event["who"]


def _challenge(state: State, event: dict) -> None:
    """The other team challenged the clue as two words or hyphenated.  The password's value
    goes to the team that was right, credited to its receiver, and the password is over."""
    _check_playing(state)
    if state.players != 4:
        raise RuleError("Challenges are for the 4-player game.")
    if state.form is not None:
        raise RuleError("Finish the try at the exact word first.")
    giver_team = giving_team(state)
    one_word = bool(event.get("one_word"))
    _score(state, receiver(state, giver_team if one_word else 3 - giver_team))
    _next_password(state)


HANDLERS = {"missed": _missed, "guessed": _guessed, "form": _form, "challenge": _challenge}

apply = applier(HANDLERS)


def player_total(state: State, role: str) -> int:
    return sum(v for v in state.cells[role] if v)


def team_total(state: State, team: int) -> int:
    return sum(player_total(state, role) for role in TEAM_ROLES[team])


def totals(state: State) -> dict[str, int]:
    """Running totals: per team in the 4-player game, per receiver in the 3-player one."""
    if state.players == 4:
        return {team_name(state, t): team_total(state, t) for t in (1, 2)}
    return {state.names[r]: player_total(state, r) for r in ("R1", "R2")}


def team_name(state: State, team: int) -> str:
    a, b = TEAM_ROLES[team]
    return f"{state.names[a]} & {state.names[b]}"


def outcome(state: State) -> Outcome | None:
    if not is_over(state):
        return None
    scores = totals(state)
    best = max(scores.values())
    winners = tuple(name for name, score in scores.items() if score == best)
    return Outcome(winners, "tie" if len(winners) > 1 else "higher score")


def summary(state: State) -> dict:
    result = outcome(state)
    return {
        "game": "password",
        "players": state.players,
        "phase": "over" if result else "playing",
        "password": None if result else "".join(map(str, word(state))),
        "dial": None if result else dial(state),
        "scores": {state.names[role]: player_total(state, role) for role in state.cells},
        "pad": {state.names[role]: cells for role, cells in state.cells.items()},
        "totals": totals(state),
        "winners": list(result.winners) if result else [],
    }
