"""A meter's draw spells: its runs joined across idle gaps shorter than the run before.

A heater on its thermostat draws 35-70 minutes and rests 10-25 at standby, for hours: the
person left one long draw on, not twenty short ones (an oil radiator on all day in an
empty room, a radiator forgotten over a weekend). A duty cycle is told by its behaviour:
an idle gap no longer than the run before it (and at most ``MAX_GAP``) does not end the
spell. A fridge rests longer than it runs and a washer's or a dishwasher's programme is one
spell of its phases, as the homeowner sees it. No word of an id or a name is read.

An element *holding* a temperature rests longer than it runs: an iron stood on its heel
heats 1.5 min in 12, a fryer or a toaster oven left on its thermostat 3 min in 9, an oven
5 min in 25. Its restarts are the same element again: the same draw (``SAME_DRAW``), a
heating load's (``HEATING_WATTS``: no compressor, no pump), within ``MAX_GAP``. Such a
restart joins the spell whatever the rest's length (a fridge's compressor, a pump kicked
by the taps or two loads of a washer do not: under the element's draw, or another draw).

The spells are learned as the meter's states are (``StateDurations``, under
``spell_key``: how long this meter draws, spell by spell), and their hours too: a gap
inside a spell is an hour the meter drew (``MeterHours``), so the hours a heater cycles
through every evening are its usual hours. The gap under way is not stored: after a
restart the spell ends with the run before it.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from .durations import StateDurations
from .meter_hours import MeterHours
from .power import HEATING_WATTS, IDLE, RUNNING

# A rest longer than this ends the spell even after a long run (a TV on all evening and
# again at night is two spells).
MAX_GAP = timedelta(hours=1)
# Runs in a spell before it is judged as one draw: a thermostat repeats; two loads of a
# washer run back to back are two runs, judged each as a run.
CYCLED_RUNS = 3
# A restart drawing within this share of the run before's draw is the same element again.
SAME_DRAW = 0.1
# A rest under way this many times the spell's longest may still end in a restart.
REST_FACTOR = 1.5


def spell_key(entity_id: str) -> str:
    """Where ``StateDurations`` keeps a meter's draw spells, apart from its runs."""
    return f"{entity_id}#spell"


class DrawSpells:
    """Per meter, the run before the idle gap under way: (began, ended), the runs of the
    spell under way, and what its last run drew (watts)."""

    def __init__(self) -> None:
        self.last_run: dict[str, tuple[datetime, datetime]] = {}
        self.runs: dict[str, int] = {}
        self.drew: dict[str, float] = {}
        self.rests: dict[str, timedelta] = {}  # the longest rest of the spell under way
        self.bursts: dict[str, timedelta] = {}  # its longest run before the last rest

    def reading(
        self,
        durations: StateDurations,
        meters: MeterHours,
        entity_id: str,
        *,
        spell: str | None,
        when: datetime,
        before: tuple[str, datetime] | None,
        drawn: float | None = None,
    ) -> None:
        """The meter reads ``spell`` (running, idle, None: unreadable) at ``when``, drawing
        ``drawn`` watts; ``before`` is its state until now (``StateDurations.current``)."""
        key = spell_key(entity_id)
        was = before[0] if before is not None else None
        restart_draw = self.drew.get(entity_id)
        if spell == RUNNING and drawn is not None:
            self.drew[entity_id] = drawn  # what the run under way draws
        if spell == IDLE and was == RUNNING and before is not None:
            self.last_run[entity_id] = (before[1], when)  # the run just ended
            return
        if spell is None:
            run = self.last_run.pop(entity_id, None)
            drawing = durations.current.get(key)
            if drawing is not None and drawing[0] == RUNNING:
                end = run[1] if run is not None else when
                durations.state(key, IDLE, max(end, drawing[1]))
            return
        if spell != RUNNING or was == RUNNING:
            return
        run = self.last_run.pop(entity_id, None)
        drawing = durations.current.get(key, (IDLE, when))
        element = _same_element(restart_draw, drawn)
        if drawing[0] == RUNNING and run is not None and was == IDLE and joins(run, when, element):
            meters.drew(entity_id, run[1], when)  # the gap is part of the spell's hours
            self.runs[entity_id] = self.runs.get(entity_id, 1) + 1
            self.rests[entity_id] = max(self.rests.get(entity_id, timedelta(0)), when - run[1])
            self.bursts[entity_id] = max(self.bursts.get(entity_id, timedelta(0)), run[1] - run[0])
            return  # the spell goes on
        if drawing[0] == RUNNING:
            # It ended with the run before the gap (after a restart: as the meter rested).
            end = run[1] if run is not None else before[1] if before is not None else when
            durations.state(key, IDLE, max(end, drawing[1]))
        durations.state(key, RUNNING, when)
        self.runs[entity_id] = 1
        self.rests.pop(entity_id, None)
        self.bursts.pop(entity_id, None)

    def longest_burst(self, entity_id: str, since: datetime, now: datetime) -> timedelta:
        """The longest run of the spell under way: those before its rests, the last one
        (ended, or under way since ``since`` while the meter runs)."""
        last = self.last_run.get(entity_id)
        current = last[1] - last[0] if last is not None else now - since
        return max(self.bursts.get(entity_id, timedelta(0)), current)

    def gap_joins(self, entity_id: str, now: datetime) -> bool:
        """The meter rests now in a gap that may still join its spell."""
        return self.resting_since(entity_id, now) is not None

    def resting_since(self, entity_id: str, now: datetime) -> datetime | None:
        """Since when the meter rests in a gap that may still join its spell (None: it
        does not)."""
        run = self.last_run.get(entity_id)
        if run is None:
            return None
        if joins(run, now):
            return run[1]
        # An element that has cycled (a thermostat) rests about as long as it rested: a rest
        # well past its longest (``REST_FACTOR``) is the end (switched off at the wall).
        rest = self.rests.get(entity_id)
        cycled = self.runs.get(entity_id, 0) >= CYCLED_RUNS and _element(self.drew.get(entity_id))
        if cycled and rest is not None and now - run[1] <= min(REST_FACTOR * rest, MAX_GAP):
            return run[1]
        return None


def joins(run: tuple[datetime, datetime], restart: datetime, element: bool = False) -> bool:
    """A run (began, ended) and a restart at ``restart`` are one spell: the gap is no
    longer than the run, nor than ``MAX_GAP`` (an element restarting: only ``MAX_GAP``)."""
    gap = restart - run[1]
    return timedelta(0) <= gap <= (MAX_GAP if element else min(run[1] - run[0], MAX_GAP))


def _element(draw: float | None) -> bool:
    return draw is not None and draw >= HEATING_WATTS


def _same_element(before: float | None, now: float | None) -> bool:
    """A restart drawing what the run before drew, a heating element's load."""
    if before is None or now is None or not (_element(before) and _element(now)):
        return False
    return abs(now - before) <= SAME_DRAW * before


def spell_since(
    durations: StateDurations, draws: DrawSpells, entity_id: str, now: datetime
) -> datetime | None:
    """Since when the meter's draw spell under way began: None when it is not drawing (it
    rests past a gap that joins, or its spell is not learned), or the spell has fewer than
    ``CYCLED_RUNS`` runs so far (judged by its run)."""
    current = durations.current.get(spell_key(entity_id))
    if current is None or current[0] != RUNNING or draws.runs.get(entity_id, 0) < CYCLED_RUNS:
        return None
    meter = durations.current.get(entity_id)
    running = meter is not None and meter[0] == RUNNING
    return current[1] if running or draws.gap_joins(entity_id, now) else None
