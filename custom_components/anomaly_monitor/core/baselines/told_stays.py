"""A stay told as trouble teaches no normal.

Each stay is learned as it ends (``StateDurations``): how long this door stands open, this
lock unlocked, this meter runs, at each quarter of the day. A stay the homeowner was told
of as trouble (a door open far longer than usual while everybody was out, an element drawing
far longer than any run it made) and did not call a false alarm says nothing of what is
usual: learned at its full length, the next stay as long is judged within the normal and
not told (walks of sessions 48 and 49: the front door open 16 min while everybody was out,
told; the next outing's door open as long was not told at 10 min, nor at 15). So the stay
under way of each device a told finding is about is damped as it ends, whatever the
bucket's count (``StateDurations.tell``); "false alarm" on it teaches the normal as it
always did (``false_alarm_teaching``), and the stay is learned as it is.

Only the rules whose finding is the stay of the devices it shows (a door left open, a
switch or a meter on far longer than usual or past its routine, an element left on), and
only a device's stay in a state other than the one it rests in (``resting_state``): a door
told as "stayed open" once it is shut is not its closed stay. No word of an id is read.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .draw_spells import spell_key
from .durations import StateDurations
from .power import heating_key
from .timed_stays import LEFT_ON_PAST_ITS_ROUTINE, resting_state

# Findings about the stay under way of the devices they show.
STAY_RULES = frozenset(
    {
        "entry_left_open",
        "state_longer_than_usual",
        "brief_sensor_held_on",
        "appliance_running_far_longer",
        LEFT_ON_PAST_ITS_ROUTINE.rule,
        "heat_load_left_on_unattended",
        "meter_drawing_at_unusual_hours",
        "heat_appliance_left_on",
    }
)


def _keys(entity_id: str) -> tuple[str, ...]:
    """The device and the parts of it learned apart (a meter's heating and its spells)."""
    return entity_id, heating_key(entity_id), spell_key(entity_id)


def tell_stays(durations: StateDurations, told: Iterable[tuple[str, Sequence[str]]]) -> None:
    """Each (rule, evidence) told as trouble: the stays under way it is about are damped
    as they end."""
    for rule, evidence in told:
        if rule not in STAY_RULES:
            continue
        for entity_id in evidence:
            for key in _keys(entity_id):
                current = durations.current.get(key)
                if current is not None and current[0] != resting_state(durations, key):
                    durations.tell(key)


def untell_stays(durations: StateDurations, evidence: Sequence[str]) -> None:
    """A false alarm: the stays of its devices are learned as they are."""
    for entity_id in evidence:
        for key in _keys(entity_id):
            durations.untell(key)
