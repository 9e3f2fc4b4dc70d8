"""What a change's entity id and state text say, worked out once per distinct text.

Learning a fortnight from the recorder feeds about two million changes through
``HomeBaselines``, nearly all of them numeric readings, and each change asked the same
questions of the same few hundred entity ids and state texts again: its domain (a split),
whether the text is a no-state (``core/state_blips.py``: a strip and a lower-case copy),
whether it is a device's away state (``usual_drops.away_state``: two more copies) and its
number (a parse). A home's sensors repeat their texts ("21.3"), so each answer is kept per
text; the answers are those of the same functions, only not recomputed. Kept for at most
``MAX_KEPT`` texts (then started afresh: a meter counting up brings new texts forever).
"""

from __future__ import annotations

from typing import NamedTuple

from ..models import parse_number
from ..state_blips import is_no_state
from .usual_drops import away_state

# Distinct entity ids and state texts remembered (each a few dozen bytes).
MAX_KEPT = 2_048


class StateFacts(NamedTuple):
    """What one state text says."""

    no_state: bool  # ``is_no_state``
    away: bool  # ``away_state`` of any device
    away_if_connectivity: bool  # ``away_state`` of a connectivity sensor
    number: float | None  # ``parse_number``


class ChangeFacts:
    """The domain of each entity id and the facts of each state text, kept once asked."""

    def __init__(self) -> None:
        self._domains: dict[str, str] = {}
        self._states: dict[str, StateFacts] = {}

    def domain(self, entity_id: str) -> str:
        """``entity_id``'s domain (the part before the dot)."""
        domain = self._domains.get(entity_id)
        if domain is None:
            domain = entity_id.partition(".")[0]
            if len(self._domains) >= MAX_KEPT:
                self._domains.clear()
            self._domains[entity_id] = domain
        return domain

    def state(self, state: str) -> StateFacts:
        """The facts of the state text ``state``."""
        facts = self._states.get(state)
        if facts is None:
            facts = StateFacts(
                is_no_state(state),
                away_state(state, None),
                away_state(state, "connectivity"),
                parse_number(state),
            )
            if len(self._states) >= MAX_KEPT:
                self._states.clear()
            self._states[state] = facts
        return facts

    def away(self, state: str, device_class: str | None) -> bool:
        """``usual_drops.away_state(state, device_class)``."""
        facts = self._states.get(state) or self.state(state)
        return facts.away_if_connectivity if device_class == "connectivity" else facts.away
