"""The pet's motion after somebody's last sign: read as the pet's, not as the person.

A motion sensor that moves on most days at nearly every hour, the night's included
(``UntrackedLife.round_the_clock``, learned), keeps no person's hours: the dog has the
run of the living room day and night (whether or not the profile names it in words the
monitor reads: "Pipoca (cachorra)", "Peanut, the boxer mix"). After a person shut the
bathroom door behind them, the dog moving there says nothing of whether they came out:
the way out of the bathroom is its door, and it has not opened. So the motion that came
on such sensors *after* the last other sign (a door, a lock, another room's motion) is
left out when the trip through that door is read (``door_trip_out``), and the sensors
reading on for it are not somebody moving now.

Not left out: motion on those sensors that began within ``ENTER`` of the last other sign,
before or after it (somebody walking through that door into the pet's room: it may be
them), nor a sensor that keeps hours (a person's room: people sleep), nor anything in a
home where every motion sensor moves at all hours (the people move them too: the pet's
cannot be told from theirs).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import NamedTuple

from ..home import OCCUPANCY_DEVICE_CLASSES, HomeView
from .held_on import lain_on
from .home_baselines import HomeBaselines

# The pet's room moved this soon after the last other sign: maybe the person walking in.
ENTER = timedelta(minutes=2)

Sign = tuple[datetime, str, str]  # when, entity, state


class PetAfter(NamedTuple):
    """The signs without the pet's motion after the last other sign, and its sensors."""

    signs: list[Sign]
    sensors: frozenset[str]  # the sensors whose motion since was read as the pet's


def pet_sensors(home: HomeView, baselines: HomeBaselines) -> frozenset[str]:
    """The motion sensors that keep no person's hours (see the module)."""
    sensors = [
        s.entity_id
        for s in home.of("binary_sensor", *OCCUPANCY_DEVICE_CLASSES)
        if not lain_on(baselines, s.entity_id)  # a bed or a chair: no room people move in
    ]
    clock = baselines.untracked.round_the_clock
    pets = frozenset(s for s in sensors if clock(s, home.end) is not None)
    # Where every sensor moves at all hours, the people move them too: none is the pet's.
    return pets if len(pets) < len(sensors) else frozenset()


def without_pet_after(
    home: HomeView, baselines: HomeBaselines, signs: list[Sign]
) -> PetAfter | None:
    """``signs`` (in time order) without the trailing motion on the pet's sensors; None when
    there is none to leave out, or it began within ``ENTER`` of the last other sign."""
    if not signs or signs[-1][2] != "on":
        return None
    pets = pet_sensors(home, baselines)
    if not pets:
        return None
    kept = list(signs)
    while kept and kept[-1][1] in pets and kept[-1][2] == "on":
        kept.pop()
    if not kept or len(kept) == len(signs):
        return None
    if any(
        abs(when - kept[-1][0]) < ENTER
        for when, entity_id, state in signs
        if entity_id in pets and state == "on"
    ):
        return None  # the pet's room moved as they passed: it may be them walking in
    return PetAfter(kept, frozenset(sign[1] for sign in signs[len(kept) :]))
