"""The helpers checks share: the entities with a history of a kind, and the spells in
which a state holds."""

from __future__ import annotations

from datetime import datetime, timedelta

from custom_components.anomaly_monitor.core.statistics.timeline import spells_where

from .core_factories import entity, environment, home, steps

MORNING = datetime(2025, 3, 12, 8, 0)
DOOR = entity("binary_sensor.back_door", "off", device_class="door")
MOTION = entity("binary_sensor.hall_motion", "off", device_class="motion")
LAMP = entity("light.hall", "off")
THERMOSTAT = entity("climate.hall", "idle")


def _at(minutes: float) -> datetime:
    return MORNING + timedelta(minutes=minutes)


def test_history_of_keeps_the_windows_order_and_filters_domain_and_class() -> None:
    trace = steps(
        MORNING,
        [
            (0, LAMP.entity_id, "on"),
            (1, MOTION.entity_id, "on"),
            (2, DOOR.entity_id, "on"),
            (3, "binary_sensor.unknown_thing", "on"),  # no state: no device class known
        ],
    )
    view = home([DOOR, MOTION, LAMP], environment(_at(10)), trace)
    assert view.history_of("binary_sensor") == [
        MOTION.entity_id,
        DOOR.entity_id,
        "binary_sensor.unknown_thing",
    ]
    assert view.history_of("binary_sensor", "door", "window") == [DOOR.entity_id]
    assert view.history_of("light") == [LAMP.entity_id]
    assert view.history_of("lock") == []


def test_spells_where_closes_each_spell_and_ends_an_open_one_with_the_window() -> None:
    trace = steps(
        MORNING,
        [
            (0, THERMOSTAT.entity_id, "idle"),
            (5, THERMOSTAT.entity_id, "heating"),
            (6, THERMOSTAT.entity_id, "heating"),  # still the same spell
            (20, THERMOSTAT.entity_id, "idle"),
            (40, THERMOSTAT.entity_id, "heating"),
        ],
    )
    view = home([THERMOSTAT], environment(_at(60)), trace)
    spells = spells_where(view, THERMOSTAT.entity_id, lambda state: state == "heating")
    assert spells == [(_at(5), _at(20)), (_at(40), view.end)]
    assert spells_where(view, THERMOSTAT.entity_id, lambda state: state == "cooling") == []
