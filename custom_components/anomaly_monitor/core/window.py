"""Assemble a context window from a snapshot, the environment and recent transitions."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import date, datetime
from functools import partial

from .compression import DEFAULT_TOKEN_BUDGET, compress
from .current_as_power import read_as_power
from .models import ContextWindow, EntityState, Environment, LazySequence, Transition


def season_of(day: date, southern_hemisphere: bool = False) -> str:
    """Meteorological season for ``day``."""
    seasons = ("winter", "spring", "summer", "autumn")
    index = (day.month % 12) // 3
    if southern_hemisphere:
        index = (index + 2) % 4
    return seasons[index]


def build_window(
    snapshot: Iterable[EntityState],
    environment: Environment,
    transitions: Sequence[Transition],
    *,
    profile: str = "",
    start: datetime | None = None,
    token_budget: int = DEFAULT_TOKEN_BUDGET,
    phoneless_residents: int | None = None,
) -> ContextWindow:
    """A window ending at the environment's local time (a current-only meter read as the
    power meter it is: ``current_as_power``). ``phoneless_residents``: the homeowner's
    count of people living here without a tracked phone (None: not set)."""
    snapshot, transitions = read_as_power(list(snapshot), transitions, environment.temperature_unit)
    states = tuple(sorted(snapshot, key=lambda s: (s.info.area or "", s.entity_id)))
    held = tuple(transitions)
    return ContextWindow(
        snapshot=states,
        environment=environment,
        sequence=LazySequence(partial(compress, held, token_budget)),  # when read
        transitions=held,
        profile=profile,
        start=start if start is not None else (transitions[0].when if transitions else None),
        end=environment.local_time,
        phoneless_residents=phoneless_residents,
    )
