"""A load left on by somebody who then went out (core, no Home Assistant): somebody else is
home and awake, but who put it on is gone. The ids say nothing of what they power."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.baselines.heat_load_unattended import (
    heat_load_left_on_unattended,
)
from custom_components.anomaly_monitor.core.baselines.meter_habits import (
    meter_drawing_at_unusual_hours,
)
from custom_components.anomaly_monitor.core.home import HomeView

from .core_factories import entity, environment, window
from .test_baselines_long_stays import view
from .test_meter_habits import DAY0, HOB, PERSON, fed, hob

MORNING = DAY0 + timedelta(days=10)  # the hob cooks 12:00-12:30 and 18:00-18:40 only
OTHER = "person.b"


def _on_at_seven(*, went_out: bool) -> HomeBaselines:
    """Ten days learned; the hob on at 07:00 today, both at home; A goes out at 07:20 (when
    ``went_out``), B stays."""
    baselines = fed(10, until=MORNING + timedelta(hours=6))
    baselines.observe(MORNING + timedelta(hours=6), PERSON, "home")
    baselines.observe(MORNING + timedelta(hours=6), OTHER, "home")
    baselines.observe(MORNING + timedelta(hours=7), HOB, "1400")
    if went_out:
        baselines.observe(MORNING + timedelta(hours=7, minutes=20), PERSON, "not_home")
    moment = MORNING + timedelta(hours=6)
    while moment <= MORNING + timedelta(hours=8, minutes=15):
        baselines.advance(moment)
        moment += timedelta(minutes=15)
    return baselines


def test_a_load_left_on_at_new_hours_by_who_went_out_is_told_at_half_an_hour() -> None:
    """At 07:45 it has drawn 45 min at hours it never drew at, longer than any run it made
    (40 min): told, though B is home and up. Nobody gone out: watched, three hours wait."""
    now = MORNING + timedelta(hours=7, minutes=45)
    on = hob("1400", MORNING + timedelta(hours=7))
    [finding] = meter_drawing_at_unusual_hours(view(now, on), _on_at_seven(went_out=True))
    assert finding.evidence == (HOB,)
    assert list(meter_drawing_at_unusual_hours(view(now, on), _on_at_seven(went_out=False))) == []


def test_an_element_longer_than_any_run_left_on_by_who_went_out_is_told() -> None:
    """At 08:05 the hob has drawn 1 h 05 min, longer than any run (40 min), and A, who went
    out after it was switched on, is still out: told, though B moves about in the hall."""
    now = MORNING + timedelta(hours=8, minutes=5)
    on = hob("1400", MORNING + timedelta(hours=7))
    hall = replace(
        entity("binary_sensor.hall_motion", "on", area="Hall", device_class="motion"),
        last_changed=now - timedelta(minutes=2),
    )
    home = HomeView(window([on, hall], environment(now, persons_home=1)))
    [finding] = heat_load_left_on_unattended(home, _on_at_seven(went_out=True))
    assert "somebody went out at 07:20, after it was switched on" in finding.reasoning
    assert list(heat_load_left_on_unattended(home, _on_at_seven(went_out=False))) == []
