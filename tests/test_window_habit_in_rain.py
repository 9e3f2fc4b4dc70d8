"""A window this home opens at this hour every day, open in a downpour with people home,
is the household's own doing; the same window open while nobody is home, or open at an
hour it never is, is told (core; set 13 Xinzhuang: the back-balcony window opened every
morning for the washing, told in the typhoon's rain at 11:03 with the family at home)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.baselines.usual_judge import judged_by_usual
from custom_components.anomaly_monitor.core.home import HomeView
from custom_components.anomaly_monitor.core.models import EntityInfo
from custom_components.anomaly_monitor.core.rules.safety import window_open_in_wet_weather

from .core_factories import entity, environment, window
from .test_baselines_long_stays import since

DAY0 = datetime(2026, 9, 7, tzinfo=UTC)
BALCONY = "binary_sensor.0x00158d000b2c3d4f_contact"


def _washing(days: int) -> HomeBaselines:
    """The window opened at 09:10 and shut at 18:30 on each of ``days`` days."""
    baselines = HomeBaselines(UTC)
    baselines.describe([EntityInfo(BALCONY, "", area="Balcony", device_class="window")])
    baselines.observe(DAY0, BALCONY, "off")
    for day in range(days):
        baselines.observe(DAY0 + timedelta(days=day, hours=9, minutes=10), BALCONY, "on")
        baselines.observe(DAY0 + timedelta(days=day, hours=18, minutes=30), BALCONY, "off")
    return baselines


def _judged(opened: float, now: float, *, away: bool) -> list[str]:
    days = 8
    baselines = _washing(days)
    start = DAY0 + timedelta(days=days)
    baselines.observe(start + timedelta(hours=opened), BALCONY, "on")
    state = since(
        entity(BALCONY, "on", area="Balcony", device_class="window"),
        start + timedelta(hours=opened),
    )
    env = environment(start + timedelta(hours=now), weather="pouring")
    if away:
        env = environment(start + timedelta(hours=now), weather="pouring", persons_home=0)
    home = HomeView(window([state], env))
    return [
        judged.rule
        for f in window_open_in_wet_weather(home)
        if (judged := judged_by_usual(f, baselines, home)) is not None
    ]


def test_the_washing_window_in_the_rain_with_the_family_home_is_not_told() -> None:
    assert _judged(9 + 10 / 60, 11, away=False) == []


def test_the_washing_window_in_the_rain_with_nobody_home_is_told() -> None:
    assert _judged(9 + 10 / 60, 11, away=True) == ["window_open_in_wet_weather"]


def test_the_window_open_at_an_hour_it_never_is_is_told() -> None:
    assert _judged(22, 23, away=False) == ["window_open_in_wet_weather"]
