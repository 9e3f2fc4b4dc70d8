"""An element drawing longer than any run it made here, while the household is still.

``cooker_left_on`` tells a hob or oven on far longer than a meal takes with nobody moving,
but only a cooker known as one (the homeowner, its name); a hob on a circuit clamp under
the integration's own name ("shellyem-c45bbe6a12f0 channel 1 power") has no role, and its
milk pan left on at bedtime was never told (issue 24/25: set 1 under real names). What it
draws and how long it runs say enough: a meter drawing a heating load (``HEATING_LOAD``,
an element) for longer than every one of the ``MIN_RUNS`` or more runs it made here, at
any time of day (never under ``FLOOR``), while no motion sensor has seen anybody for
``STILL`` (``household_still``, as the cooker checks ask) and someone is home or everybody
tracked is away, or while somebody tracked who went out after it was switched on is still
out (``left_while_on``: an iron left on by the one who ran for the carpool), is told
(energy, medium: nothing says it is a cooker). An empty home minds its element no better
than a sleeping one: a stove put on by the one without a phone who then lies down, a
heater left on over a weekend away. A water heater, an EV charger or a heater kept on
through the evening has made runs that long and is not; before ``MIN_RUNS`` runs nothing is
known and nothing is told. A cooker or a heater known as one is its own checks' (a space
heater kept on through a cold night, the household asleep, is how a heater is used: set
11). No word of an id is read.

One run learned says little of a load's length, but an element that has drawn its heating
load without a break since it was switched on (a heater, an iron face-up on the board: not
a wash heating its water for a quarter of an hour, nor a thermostat's bursts) is known by
that draw: past half as long again as its only run (``long_runs.ANY_HOUR_GROWTH``, "the
longest of a few is no ceiling"), never under ``FLOOR``, with nobody minding it, it is left
on (a heater switched on in the night by one who then went up to bed, whose only run was
an evening's hour: told in the night, not when the morning finds it). A load never seen to
run is not judged so: a pool pump or an air conditioner draws as steadily on its first day.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta

from ..device_roles import Role, has_role, severity_for
from ..finding_kind import FindingKind
from ..home import HomeView
from ..models import AnomalyType, Finding, Severity
from ..occupancy import Occupancy
from .clock import local
from .home_baselines import HomeBaselines
from .left_while_on import went_out_while_on
from .long_runs import ANY_HOUR_GROWTH, HEATING_LOAD, plug_switch
from .long_stays import at_most, duration_text, marked_normal
from .power import RUNNING, heating_key, watts
from .unattended_cookers import household_still, running_for

# Runs learned before the meter's longest says what it does here: two (the household
# still for an hour and an element on for an hour say the rest; its runs only say that
# running this long is not its habit, as a night-tariff heater's two nights would).
MIN_RUNS = 2
# Never told before it has drawn this long.
FLOOR = timedelta(hours=1)
# A steady element's heating spell began with its run when it began within this of it (one
# reading's lag between the plug's switch and its meter).
_SAME_START = timedelta(minutes=1)
# Nobody has moved for this long: nobody is minding it (``cooker_left_on``'s).
STILL = timedelta(hours=1)

# Roles whose own checks judge them: a cooker (``cooker_left_on``), a heater (kept on
# through the night on purpose: ``heat_appliance_left_on``), a compressor (no element).
_OWN_CHECKS = (Role.COOKING_APPLIANCE, Role.HEATING_APPLIANCE, Role.COLD_APPLIANCE)

# Energy, as the other meter checks that judge a meter by its own runs (one incident with
# them, led by the first told: a plug told drawing at unusual hours is not told again as a
# hazard); judged against its own runs, not held while the home is learned.
HEAT_LOAD_LEFT_ON_UNATTENDED = FindingKind(
    "heat_load_left_on_unattended", AnomalyType.ENERGY, Severity.MEDIUM
)


def _steady_element(baselines: HomeBaselines, entity_id: str, since: datetime) -> bool:
    """The meter has drawn a heating load without a break since its run began at
    ``since`` (its heating spell is the run)."""
    spell = baselines.durations.current.get(heating_key(entity_id))
    return spell is not None and spell[0] == RUNNING and spell[1] - since <= _SAME_START


def heat_load_left_on_unattended(home: HomeView, baselines: HomeBaselines) -> Iterator[Finding]:
    """A meter drawing a heating load longer than any run learned, nobody moving.

    Magnitude: minutes it has been running.
    """
    meters = [
        m
        for m in running_for(home, baselines, FLOOR)
        if m.number is not None and (watts(m.number, m.info.unit) or 0.0) >= HEATING_LOAD
    ]
    if not meters:
        return
    moved = household_still(home, baselines, STILL, empty_too=True)
    now, zone = home.end, home.env.zone
    away = " and nobody is home" if home.occupancy is Occupancy.EMPTY else ""
    for meter in meters:
        entity_id = meter.entity_id
        runs, longest = baselines.durations.whole_record(entity_id, RUNNING)
        since = baselines.durations.current[entity_id][1]
        if runs < MIN_RUNS:
            if runs == 0 or not _steady_element(baselines, entity_id, since):
                continue
            longest *= ANY_HOUR_GROWTH  # one run learned: an element's prior
        if now - since <= timedelta(minutes=longest):
            continue
        if moved is not None:
            unminded = f"nobody has moved for {duration_text(now - moved)}{away}"
        elif (went := went_out_while_on(baselines, since)) is not None:
            unminded = f"somebody went out at {local(went, zone):%H:%M}, after it was switched on"
        else:
            continue
        if has_role(home, entity_id, *_OWN_CHECKS):
            continue  # a cooker or a heater is told by its own checks
        switch = plug_switch(home, meter)
        if any(marked_normal(baselines, e) for e in (entity_id, switch) if e):
            continue  # the homeowner said this run is meant
        evidence = (entity_id,) if switch is None else (switch, entity_id)
        draw = watts(meter.number or 0.0, meter.info.unit) or 0.0
        yield HEAT_LOAD_LEFT_ON_UNATTENDED.finding(
            evidence=evidence,
            subject=switch or entity_id,
            reasoning=f"{meter.info.name or entity_id} has drawn {draw:,.0f} W for "
            f"{duration_text(now - since)}, since {local(since, zone):%H:%M}, longer than "
            f"any run it made here ({at_most(longest, runs, 'runs')}); {unminded}.",
            severity=severity_for(home, evidence, Severity.MEDIUM),
            recommendation="Check the appliance on this meter (a hob, an iron, a heater): "
            "it may have been left on.",
            magnitude=round((now - since).total_seconds() / 60, 1),
        )
