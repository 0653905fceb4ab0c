"""The word and cube commands (`tablemate words`, `tablemate read`)."""
from __future__ import annotations


def add_word_commands(sub) -> None:
    """Registered here so the main parser stays short; each command imports its work lazily."""
