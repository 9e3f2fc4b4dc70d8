"""Plugs and relays gone at one moment while Home Assistant stays up: a power cut, told by
what it costs, not as devices offline.

Where Home Assistant, the router and the lights run on an inverter, a UPS or a battery,
a cut of the mains takes off only what is not on it: the plugs and relays of the water
heater, the pump, the fridge, all "unavailable" at the same second. Told as devices
"went offline together" at their half-hour grace, the homeowner hears of the cut they
are sitting in. What the cut may cost is an appliance that must not stay without power
for long: one the home learned cycling day and night (``cycles``: a fridge, a freezer).
Such an appliance is told by name once it has had no power for as long as its own rest
limit (the time after which ``cycle_stopped`` tells it idle: a fridge resting 30-45 min is
told after about two hours, not at the cut); the water heater and the pump, whose rests
last hours, are not told for the cut. Once the power is back, what came back wrong (a
plug back *off*) is the cycle checks' (``cycle_stopped``, ``plug_off``).

A cut is an outage finding (``device_unavailable``, one per moment: ``one_device``,
``health``) about two devices or more, every entity of it a switch or a meter of power,
energy, current or voltage (HA's domains and classes; no word of an id): a protective
device among them (a lock, a detector) keeps the outage rules' grace, and a Zigbee or
Wi-Fi failure that takes the motion sensors and contacts too is no power cut. Only with
somebody home (or not known away): a cut in an empty home is news to everybody, told as
its devices offline at their grace (``usual_judge``).
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta

from ..device_roles import own_meter, same_device
from ..home import HomeView, is_unavailable
from ..models import EntityState, Finding
from ..offline import is_safety_device, offline_since
from .clock import local
from .cycles import idle_limit
from .home_baselines import HomeBaselines
from .long_stays import duration_text

MIN_DEVICES = 2
_METERS = frozenset({"power", "energy", "current", "voltage"})


def _powered_load(state: EntityState) -> bool:
    """A switch, or a meter of what a load draws."""
    if is_safety_device(state.domain, state.info.device_class):
        return False
    return state.domain == "switch" or (
        state.domain == "sensor" and state.info.device_class in _METERS
    )


def cut_devices(finding: Finding, home: HomeView) -> list[EntityState] | None:
    """The entities of an outage finding that read as a power cut (see the module), or
    None."""
    states = [home.info(e) for e in finding.evidence if e not in finding.context]
    if not states or any(s is None or not _powered_load(s) for s in states):
        return None
    loads = [s for s in states if s is not None]
    devices: list[EntityState] = []
    for state in loads:
        if not any(same_device(state, other) for other in devices):
            devices.append(state)
    return loads if len(devices) >= MIN_DEVICES else None


def judged_cut(
    finding: Finding, loads: list[EntityState], baselines: HomeBaselines, home: HomeView
) -> Finding | None:
    """What a power cut costs: its appliances learned cycling day and night, without power
    past their own rest limit, told by name (None: nothing yet, or the cut is over)."""
    now = home.end
    for meter in loads:
        if meter.domain != "sensor" or not is_unavailable(meter):
            continue
        since = offline_since(home, meter) or meter.last_changed
        rest = idle_limit(baselines, meter.entity_id, since) if since is not None else None
        if rest is None or since is None:
            continue
        longest, limit = rest
        if now - since < limit:
            continue
        return _cost(finding, meter, loads, since, longest, home=home)
    return None


def _cost(
    finding: Finding,
    meter: EntityState,
    loads: list[EntityState],
    since: datetime,
    longest: float,
    *,
    home: HomeView,
) -> Finding:
    switches = [s for s in loads if s.domain == "switch" and own_meter(home, s, meter)]
    others: list[EntityState] = []
    for state in loads:
        if not same_device(state, meter) and not any(same_device(state, o) for o in others):
            others.append(state)  # one name per device
    said = ", ".join(sorted(s.info.name or s.entity_id for s in others))
    name = meter.info.name or meter.entity_id
    at = local(since, home.env.zone)
    return replace(
        finding,
        evidence=(*(s.entity_id for s in switches), meter.entity_id),
        context=(),
        subject=switches[0].entity_id if switches else meter.entity_id,
        reasoning=f"{name} has had no power since {at:%H:%M} ({duration_text(home.end - since)}), "
        f"gone at the same moment as {said}: a power cut (or their network), "
        f"while Home Assistant is still up. It cycled day and night and never rested longer "
        f"than {duration_text(timedelta(minutes=longest))}: what it keeps cold or running is "
        "without "
        "power.",
        recommendation="If the power is still off, keep the fridge or freezer shut; once it "
        "is back, check that the appliance's plug came back on.",
    )
