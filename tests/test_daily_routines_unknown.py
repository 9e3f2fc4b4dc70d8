"""The quarters an entity kept by ``DailyRoutines`` read no state (off the radio), kept
whole however many days the spell lasts, and across a restart (core, no Home Assistant)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from custom_components.anomaly_monitor.core.baselines.daily_routines import (
    DailyRoutines,
    quarter_of,
)

DAY0 = datetime(2027, 3, 1, tzinfo=UTC)
BED = "binary_sensor.0x00158d0021_occupancy"


def _unknown_at(routines: DailyRoutines, when: datetime) -> bool:
    slot, day = quarter_of(when, UTC)
    return bool(routines.unknown.get(BED, [0] * 96)[slot] >> (routines.day - day) & 1)


def test_a_spell_off_the_radio_is_kept_whole_and_over_a_restart() -> None:
    """Lain on at 22:00, off the radio from 23:00 for 40 hours, a restart in between
    (stored and read back), back reading empty: every quarter of the spell is kept, the
    hour before it is not. Fails before: nothing of it was kept."""
    routines = DailyRoutines(UTC)
    routines.state(BED, True, DAY0 + timedelta(hours=22))
    routines.state(BED, None, DAY0 + timedelta(hours=23))
    routines.advance(DAY0 + timedelta(days=1))
    routines = DailyRoutines.from_dict(routines.as_dict(), UTC)
    routines.state(BED, False, DAY0 + timedelta(hours=63))
    assert _unknown_at(routines, DAY0 + timedelta(hours=23))
    assert _unknown_at(routines, DAY0 + timedelta(hours=40))  # the next day's afternoon
    assert _unknown_at(routines, DAY0 + timedelta(hours=62, minutes=50))
    assert not _unknown_at(routines, DAY0 + timedelta(hours=22, minutes=30))
    assert not _unknown_at(routines, DAY0 + timedelta(hours=64))


def test_stored_routines_without_the_spells_load_and_junk_is_dropped() -> None:
    """Data stored before the spells were kept loads with none; a malformed one is
    dropped, never raised, and one of an entity not kept is ignored."""
    routines = DailyRoutines(UTC)
    routines.state(BED, True, DAY0)
    routines.advance(DAY0 + timedelta(hours=1))
    data = routines.as_dict()
    old = {key: value for key, value in data.items() if not key.startswith("unknown")}
    assert DailyRoutines.from_dict(old, UTC).unknown == {}
    junk = {**data, "unknown": {BED: "not packed", "x.y": data["slots"][BED]}}
    junk["unknown_since"] = {BED: "not a time", "x.y": "2027-03-01T00:00:00+00:00"}
    read = DailyRoutines.from_dict(junk, UTC)
    assert read.unknown == {}
    assert read.unknown_since == {}
    assert read.slots == routines.slots
