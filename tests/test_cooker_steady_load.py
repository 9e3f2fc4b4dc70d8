"""A meter named as a cooker that draws without a rest for a day and more (core, no HA).

An oil space heater on a plug the family calls "stove" draws 40-50 W day and night for
days: no meal cooks for a day, and a cooker left on is told in its first hours. The
cooker checks leave a run of a day and more alone; a cooker's run of a few hours, the
household still, is told as before.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.baselines.cooker_left_on import cooker_left_on
from custom_components.anomaly_monitor.core.models import EntityInfo

from .core_factories import entity
from .test_baselines_long_stays import since, view

DAY0 = datetime(2027, 2, 15, tzinfo=UTC)
STOVE = "sensor.kitchen_stove_power"  # "Kitchen Stove Power": a cooker by its name only
HALL = "binary_sensor.hall_motion"
INFOS = [
    EntityInfo(STOVE, "Kitchen Stove Power", area="Kitchen", device_class="power", unit="W"),
    EntityInfo(HALL, "Hall motion", area="Hall", device_class="motion"),
]


def _told_after(run: timedelta) -> list[str]:
    """The stove drawing 45 W for ``run`` up to now, somebody home, the hall's motion
    last seen two hours ago: what ``cooker_left_on`` tells."""
    now = DAY0 + timedelta(days=3, hours=3)
    began = now - run
    baselines = HomeBaselines(UTC)
    baselines.describe(INFOS)
    baselines.observe(began, STOVE, "45.0")
    baselines.observe(now - timedelta(hours=2, minutes=1), HALL, "on")
    baselines.observe(now - timedelta(hours=2), HALL, "off")
    stove = since(entity(STOVE, "45.0", area="Kitchen", device_class="power", unit="W"), began)
    hall = since(entity(HALL, "off", area="Hall", device_class="motion"), now - timedelta(hours=2))
    home = view(now, stove, hall)
    return [f.reasoning for f in cooker_left_on(home, baselines)]


def test_a_cooker_on_for_hours_with_nobody_moving_is_told() -> None:
    told = _told_after(timedelta(hours=3))
    assert len(told) == 1
    assert "longer than most meals take" in told[0]


def test_a_load_drawing_for_a_day_and_more_is_no_cooker_left_on() -> None:
    assert _told_after(timedelta(hours=23)) != []  # still a meal's cooker's run
    assert _told_after(timedelta(hours=25)) == []
    assert _told_after(timedelta(days=4)) == []
