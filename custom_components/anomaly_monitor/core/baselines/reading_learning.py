"""What a numeric reading teaches: its range, its hours, its spells and falls, and a
power meter's running and idle spells (its cycle, its starts, its runs).

``HomeBaselines`` hands every reading of a ``sensor``/``number``/``input_number`` here
(``learn_reading``), and an unreadable one (``unreadable``): its hours pause, and no run
or spell is learned across it. Known by domain, device class and unit; no word of an id
is read.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from ..models import EntityInfo
from .home_batteries import GONE_WATTS, battery_reading
from .hour_profiles import PROFILED_CLASSES
from .level_falls import is_level
from .level_spells import room_like
from .power import HEATING_WATTS, IDLE, RUNNING, heating_key, power_state, running_key, watts
from .rest_reading import meter_state, rest_key

if TYPE_CHECKING:
    from .home_baselines import HomeBaselines


def learn_reading(
    baselines: HomeBaselines,
    entity_id: str,
    when: datetime,
    number: float,
    *,
    domain: str,
    info: EntityInfo | None,
) -> None:
    """``entity_id`` read ``number`` at ``when``."""
    baselines.ranges.reading(entity_id, number, when)
    if domain == "sensor":
        baselines.holds.reading(entity_id, number, when)
    if domain == "sensor" and info is not None:
        baselines.follow_ups.observe(when, info, number)
    if domain == "sensor" and info is not None and info.device_class in PROFILED_CLASSES:
        baselines.profiles.reading(entity_id, number, when)
        thermometer = info.device_class == "temperature"
        if thermometer and room_like(baselines.ranges.stats.get(entity_id), info.unit):
            baselines.spells.forget(entity_id)  # a room: never judged by its spells
        elif thermometer:
            baselines.spells.reading(entity_id, number, when)
    elif info is not None and is_level(domain, info.device_class, info.unit):
        baselines.falls.reading(entity_id, number, when)
    if domain == "sensor" and info is not None and info.device_class == "voltage":
        baselines.supply_reading(entity_id, number, when)  # its outages (``usual_outages``)
    if domain == "sensor" and info is not None and info.device_class == "battery":
        battery_reading(baselines, info, number, when)
    if (
        domain == "sensor"
        and info is not None
        and info.device_class == "power"
        # Running as this meter shows it (a short-run pump's few watts past its rest).
        and (
            spell := meter_state(
                baselines.durations, baselines.ranges, entity_id, number, unit=info.unit, when=when
            )
        )
        is not None
    ):
        gate = power_state(number, info.unit)
        before = baselines.durations.current.get(entity_id)
        if spell == RUNNING and before is not None and before[0] == IDLE:
            baselines.recent.started(entity_id, when)
        baselines.durations.state(entity_id, spell, when)  # the appliance's cycle
        drawn = watts(number, info.unit) or 0.0
        baselines.draws.reading(
            baselines.durations,
            baselines.meters,
            entity_id,
            spell=spell,
            when=when,
            before=before,
            drawn=drawn,
        )
        if baselines.batteries.is_input(entity_id):  # a home battery's supply input
            baselines.supply_reading(entity_id, 1.0 if drawn > GONE_WATTS else 0.0, when)
            baselines.batteries.input_read(entity_id, drawing=drawn > GONE_WATTS)
        if gate == RUNNING:  # what it draws while it runs (``running_draw``)
            baselines.ranges.reading(running_key(entity_id), drawn, when)
        else:  # what it reads at rest (``rest_reading``)
            baselines.ranges.reading(rest_key(entity_id), drawn, when)
        heating = drawn >= HEATING_WATTS
        baselines.durations.state(heating_key(entity_id), RUNNING if heating else IDLE, when)
        baselines.meters.power(entity_id, spell == RUNNING, when)
        baselines.runs.reading(entity_id, spell == RUNNING, when)
    # Watched since its first reading: a meter or thermometer with weeks of
    # recorder history is not still being learned (``learning_until``).
    baselines.usual.seen(entity_id, when)


def unreadable(baselines: HomeBaselines, entity_id: str, when: datetime) -> None:
    """A numeric entity reads no number from ``when`` on."""
    baselines.profiles.reading(entity_id, None, when)  # unreadable: its hours pause
    baselines.meters.power(entity_id, False, when)  # nor is it known to run
    before = baselines.durations.current.get(entity_id)
    draws = baselines.draws
    draws.reading(
        baselines.durations, baselines.meters, entity_id, spell=None, when=when, before=before
    )
    baselines.runs.reading(entity_id, None, when)  # nor a run under way learned
    baselines.spells.reading(entity_id, None, when)  # nor a spell at a level
    baselines.falls.reading(entity_id, None, when)
    baselines.holds.reading(entity_id, None, when)  # a drop: no change, unless long
    baselines.supply.reading(entity_id, None, when)  # nor an outage
    if (key := heating_key(entity_id)) in baselines.durations.current:
        baselines.durations.state(key, "unavailable", when)  # a drop, bridged if short
