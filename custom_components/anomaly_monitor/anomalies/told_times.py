"""A time stored by the "already told" memories (``already_told``), checked on load."""

from __future__ import annotations

from datetime import datetime


def stored_time(value: object) -> datetime:
    """A stored ISO time with its zone; ``TypeError``/``ValueError`` for anything else."""
    if not isinstance(value, str):
        raise TypeError("time")
    when = datetime.fromisoformat(value)
    if when.tzinfo is None:
        raise ValueError("time without a zone")
    return when
