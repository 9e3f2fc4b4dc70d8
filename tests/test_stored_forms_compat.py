"""Learned baselines stored before still load: every part of each stored form is read back
(and saved again unchanged), while a damaged entry is dropped alone (core, no HA)."""

from __future__ import annotations

from datetime import UTC
import json
from typing import Any

from custom_components.anomaly_monitor.core.baselines.away_normal import AwayNormal
from custom_components.anomaly_monitor.core.baselines.durations import StateDurations
from custom_components.anomaly_monitor.core.baselines.lonely_openings import LonelyOpenings
from custom_components.anomaly_monitor.core.baselines.quiet_spells import QuietSpells
from custom_components.anomaly_monitor.core.baselines.usual_drops import UsualDrops
from custom_components.anomaly_monitor.core.baselines.usual_use import UsualUse

DOOR = "binary_sensor.front_door"
HALL = "binary_sensor.hall_motion"
FRIDGE = "sensor.fridge_power"
WHEN = "2026-02-02T07:00:00+00:00"

# The forms as the baselines wrote them before their loading was shared (the key names
# and packing of each part); each part holds one entry so that losing it would show.
AWAY_NORMAL: dict[str, Any] = {
    "version": 1,
    "motion": {HALL: ["739650,739651", "", "739652", "", "", "739650"]},
    "away_days": ["739650", "", "", "", "", ""],
    "entries": {DOOR: "420,1080"},
    "taught_entries": {DOOR: "610"},
    "taught_motion": {HALL: "3"},
    "empty_since": WHEN,
}
USUAL_DROPS: dict[str, Any] = {
    "version": 1,
    "drops": {FRIDGE: ["739650,739651", "12.5,30"]},
    "down": {FRIDGE: WHEN},
    "last": {FRIDGE: 42.5},
}
USUAL_USE: dict[str, Any] = {
    "version": 1,
    "since": {DOOR: WHEN},
    "open": {DOOR: ["", "739650,2.5", "", ""]},
    "bursts": {HALL: ["739650,3", "", "", ""]},
    "nights": {DOOR: "3,5"},
    "taught": {DOOR: {"open": 90.0}},
    "away_open": {DOOR: "1,4"},
    "departed": WHEN,
    "departures": "9,12",
    "open_at_departure": [DOOR],
}
LONELY_OPENINGS: dict[str, Any] = {"version": 1, "openings": {DOOR: "739650,739651"}}
DURATIONS: dict[str, Any] = {
    "stays": {HALL: {"on": "0,0,0,112,112,1,126,126,1,56,56,1"}},
    "current": {HALL: ["on", WHEN]},
}
QUIET: dict[str, Any] = {
    "maxima": [[[739650, 60.0]]] + [[] for _ in range(23)],
    "quiet_since": WHEN,
    "accounted_to": WHEN,
    "presence": {"person.ann": True},
}


def _round_trip(cls: Any, stored: dict[str, Any], added: dict[str, Any] | None = None) -> Any:
    """Loaded whole, saved the same (with the parts ``added`` since, as loading fills them)."""
    loaded = cls.from_dict(json.loads(json.dumps(stored)), UTC)
    assert loaded.as_dict() == {**stored, **(added or {})}
    return loaded


def test_each_stored_form_loads_whole_and_saves_the_same() -> None:
    away = _round_trip(AwayNormal, AWAY_NORMAL)
    assert list(away.motion) == [HALL]
    assert list(away.entries) == list(away.taught_entries) == [DOOR]
    drops = _round_trip(UsualDrops, USUAL_DROPS)
    assert drops.last == {FRIDGE: 42.5}
    # Stored before the nights out were kept: every night of use is one out (``night_uses``).
    # and before the nights out alone: every night out is one alone (``nights_out_alone``);
    # and before each person's outings were kept: none yet (``day_returns``).
    use = _round_trip(
        UsualUse,
        USUAL_USE,
        {
            "out_nights": {DOOR: "3,5"},
            "alone_nights": {DOOR: "3,5"},
            "day_returns": {"outings": {}, "out_since": {}},
        },
    )
    assert list(use.since) == list(use.open_days) == list(use.nights) == [DOOR]
    assert list(use.burst_days) == [HALL]
    assert _round_trip(LonelyOpenings, LONELY_OPENINGS).openings == {DOOR: [739650, 739651]}
    assert list(_round_trip(StateDurations, DURATIONS).current) == [HALL]
    assert _round_trip(QuietSpells, QUIET).presence == {"person.ann": True}


def test_a_damaged_entry_is_dropped_and_the_rest_still_loads() -> None:
    stored = json.loads(json.dumps(USUAL_DROPS))
    stored["drops"]["x" * 300] = ["739650", "5"]  # no entity id is that long
    stored["down"]["sensor.kettle_power"] = "yesterday"  # not a time
    stored["last"]["sensor.kettle_power"] = float("inf")
    loaded = UsualDrops.from_dict(stored, UTC)
    assert loaded.as_dict() == USUAL_DROPS
    stored = json.loads(json.dumps(AWAY_NORMAL))
    stored["motion"] = "not a mapping"
    stored["entries"][""] = "420"  # an empty key is no entity id
    loaded_away = AwayNormal.from_dict(stored, UTC)
    assert loaded_away.motion == {}
    assert list(loaded_away.entries) == [DOOR]


def test_a_quiet_spell_is_never_negative_nor_endless() -> None:
    stored = json.loads(json.dumps(QUIET))
    stored["maxima"][0] += [[739651, -5.0], [739652, 2e6], [739653, True], [739654, 30]]
    loaded = QuietSpells.from_dict(stored, UTC)
    assert list(loaded.maxima[0]) == [(739650, 60.0), (739654, 30.0)]
