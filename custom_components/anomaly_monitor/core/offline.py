"""How long a device has been offline, and how long it may be before it is told.

Zigbee and Wi-Fi devices drop off for a few minutes many times a week (a router reboot,
a microwave, a mesh rerouting): a blip is not an anomaly. An outage is told once it has
lasted its grace, shorter for the devices a home's safety relies on. A device whose drops
are learned is told only past its own usual drop (``baselines/drop_judge.py``): the grace
is the floor and the prior.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta

from .home import DEVICE_DOMAINS, HomeView, is_unavailable
from .models import EntityState

# Smoke/CO/gas/leak detectors, locks, alarm panels, cameras and sirens: a quarter of an
# hour offline already leaves the home unprotected, and is past nearly every radio blip.
# What to do about a device that is offline now, one wording wherever an outage is told
# (walk 56 read "power, battery and connection." and "... and its link to the hub." for one).
OFFLINE_ADVICE = "Check the device's power, battery and its link to the hub."
SAFETY_OFFLINE_GRACE = timedelta(minutes=15)
# Everything else (a thermometer, a light, a plug): half an hour.
OFFLINE_GRACE = timedelta(minutes=30)

SAFETY_DOMAINS = frozenset({"lock", "alarm_control_panel", "camera", "siren"})
SAFETY_DETECTOR_CLASSES = frozenset({"smoke", "gas", "carbon_monoxide", "moisture", "heat"})


def is_safety_device(domain: str, device_class: str | None) -> bool:
    """A device the home's safety or security relies on."""
    return domain in SAFETY_DOMAINS or (
        domain == "binary_sensor" and device_class in SAFETY_DETECTOR_CLASSES
    )


def offline_grace(domain: str, device_class: str | None) -> timedelta:
    """How long a device may be offline before it is told."""
    return SAFETY_OFFLINE_GRACE if is_safety_device(domain, device_class) else OFFLINE_GRACE


def offline_since(home: HomeView, state: EntityState) -> datetime | None:
    """When the current unavailable/unknown spell of ``state`` began, as far as the window saw.

    ``None`` when the window holds no transition into it (no sequence, or the spell began
    before the window): it has lasted at least the whole window, so it is long.
    """
    since: datetime | None = None
    for transition in reversed(home.recorded.get(state.entity_id, [])):
        if transition.state.lower() not in ("unavailable", "unknown"):
            break
        since = transition.when
    return since


def offline_long_enough(home: HomeView, state: EntityState) -> bool:
    """The device is offline now, and has been for at least its grace."""
    if not is_unavailable(state):
        return False
    since = offline_since(home, state)
    grace = offline_grace(state.domain, state.info.device_class)
    return since is None or home.end - since >= grace


def offline_due(
    home: HomeView, limit: Callable[[EntityState], timedelta] | None = None
) -> datetime | None:
    """When the first device offline now, and not yet for its grace, reaches it, or None.

    ``limit`` gives each device's own (its learned drops: ``baselines/drop_judge.py``);
    without it, the grace. An analysis must run then, or the outage waits for whichever
    runs next (the periodic one, up to the analysis interval later).
    """
    due = [
        since + (limit(state) if limit else offline_grace(state.domain, state.info.device_class))
        for state in home.window.snapshot
        if state.domain in DEVICE_DOMAINS
        and is_unavailable(state)
        and (since := offline_since(home, state)) is not None
    ]
    return min((when for when in due if when > home.end), default=None)
