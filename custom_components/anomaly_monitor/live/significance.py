"""Which change on the bus is worth an analysis now, not at the next periodic one.

A hazard sensor going on is judged at once (``hazard_began``). Others that cannot wait the
15 minutes: a lock, an alarm panel, a heating; an opening; a device going offline; motion
in an empty home; a light switched on in the small hours; a mat or a float going on; a
reading no home can produce or one entering a band the rules tell.
"""

from __future__ import annotations

from collections.abc import Callable

from homeassistant.core import State
from homeassistant.util import dt as dt_util

from ..core.baselines.brief_on_held import BRIEF_BY_CLASS
from ..core.home import (
    HAZARD_DEVICE_CLASSES,
    OCCUPANCY_DEVICE_CLASSES,
    OPENING_DEVICE_CLASSES,
    UNAVAILABLE_STATES,
)
from ..core.models import parse_number
from ..core.pets import HUMAN_STATES
from ..core.rules.fire_band_tops import FireBandTops
from ..core.rules.physical import PHYSICAL_RANGES
from ..core.rules.temperature_bands import crossed_band
from ..core.statistics.night import SMALL_HOURS_END, SMALL_HOURS_START
from ..core.unhealthy_air import unhealthy_level

_SIGNIFICANT_DOMAINS = frozenset({"lock", "alarm_control_panel", "climate", "water_heater"})
_SIGNIFICANT_BINARY_CLASSES = HAZARD_DEVICE_CLASSES | OPENING_DEVICE_CLASSES


def worth_analysing_now(
    new_state: State,
    previous: str | None,
    in_area: bool,
    tops: FireBandTops,
    *,
    pets: bool,
    empty: Callable[[], bool],
) -> bool:
    """Whether ``new_state`` (after ``previous``) is judged now. ``in_area``: the entity has
    an area; ``tops``: each thermometer's hottest fire-band reading (kept here);
    ``pets``: the profile names pets; ``empty()``: every person known is away."""
    domain, state, attributes = new_state.domain, new_state.state, new_state.attributes
    if state in UNAVAILABLE_STATES or domain in _SIGNIFICANT_DOMAINS:
        return True
    if domain == "light" and state == "on" and previous != "on" and _small_hours(new_state):
        # A light switched on in the small hours may be a fall's: an analysis now sets
        # the timer for its limit (``core.baselines.night_lights_due``).
        return True
    if pets and state in HUMAN_STATES.get(domain, ()) and empty():
        # With pets, motion alone while away is the pet: a light switched on (media
        # started) in the empty home is what tells a person from it, judged now while
        # the motion it goes with is on. (Without pets the motion itself is judged.)
        return True
    device_class = attributes.get("device_class")
    # A mat or a float going on: an analysis now sets the timer for its limit
    # (``core.baselines.brief_on_held``: a seizure cannot wait 15 min).
    brief = device_class is None or (
        isinstance(device_class, str) and device_class in BRIEF_BY_CLASS
    )
    if domain == "binary_sensor" and state == "on" and previous != "on" and brief:
        return True
    if not isinstance(device_class, str):  # untrusted: could be anything
        return False
    if domain == "binary_sensor":
        if device_class in _SIGNIFICANT_BINARY_CLASSES:
            return True
        # Motion in an empty home is judged now, not at the next periodic analysis;
        # motion while people are home (all day long) is not worth an early look.
        return device_class in OCCUPANCY_DEVICE_CLASSES and state == "on" and empty()
    if domain != "sensor":
        return False
    return _alarming(new_state, previous, in_area, tops)


def hazard_began(state: State, previous: str | None) -> bool:
    """A smoke, gas, CO, leak or heat sensor (any hazard class) has just turned on."""
    return (
        state.domain == "binary_sensor"
        and state.state == "on"
        and previous != "on"
        and state.attributes.get("device_class") in HAZARD_DEVICE_CLASSES
    )


def _small_hours(state: State) -> bool:
    return SMALL_HOURS_START <= dt_util.as_local(state.last_changed).hour < SMALL_HOURS_END


def _alarming(state: State, previous: str | None, in_area: bool, tops: FireBandTops) -> bool:
    """A reading no home can produce (a broken sensor), or a thermometer entering or leaving
    a band the rules tell (a possible fire, a room too hot or freezing: ``temperature_bands``)
    or hotter in the fire band than it read since watched (``fire_band_tops``), or air
    entering the band unhealthy to breathe (``air_quality``)."""
    attributes = state.attributes
    device_class = attributes.get("device_class")
    if (value := parse_number(state.state)) is None:
        return False
    if (unhealthy := unhealthy_level(device_class)) is not None:
        # Air entering the band unhealthy for everybody: analysed now, which sets the
        # timer for its hold (``air_unhealthy_due``; smoke cannot wait 15 min).
        before = parse_number(previous)
        return value >= unhealthy and (before is None or before < unhealthy)
    if device_class == "temperature":
        unit = attributes.get("unit_of_measurement")
        unit = unit if isinstance(unit, str) else None
        new_top = tops.new_top(state.entity_id, value, unit, in_area)  # kept even when crossed
        return crossed_band(value, parse_number(previous), unit, in_area) or new_top
    if not isinstance(device_class, str) or device_class not in PHYSICAL_RANGES:
        return False
    low, high = PHYSICAL_RANGES[device_class]
    return not low <= value <= high
