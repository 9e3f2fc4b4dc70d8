"""A motorised door that closes by itself every day and did not (core, no Home Assistant).

Set 10's hen-house door, a cover with HA's ``door`` class, is opened at sunrise (about
05:55) and closed after sunset (about 19:10) by its controller. On the fifth evening a
stone jams its track and it stays open all night. Judged as a plain door (three times its
longest stay, 40 h) it was never told. Its stays all last about as long: an hour past its
longest, its closing did not come. A blind kept the same way is no door: judged as before.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.baselines.long_stays import (
    long_stay_due,
    state_longer_than_usual,
)
from custom_components.anomaly_monitor.core.models import EntityInfo

from .core_factories import entity
from .test_baselines_long_stays import since, view

DAY0 = datetime(2026, 2, 2, tzinfo=UTC)
HEN_HOUSE = "cover.hen_house"
BLIND = "cover.living_blind"
OPENS = timedelta(hours=5, minutes=55)
# Sun-driven: each day's stay a little different (13 h 15 min give or take 6 min).
STAYS = (795, 789, 801, 792)


def learned(cover: str, device_class: str) -> HomeBaselines:
    baselines = HomeBaselines(UTC)
    baselines.describe([EntityInfo(cover, "", area="Yard", device_class=device_class)])
    for day, minutes in enumerate(STAYS):
        opened = DAY0 + timedelta(days=day) + OPENS
        baselines.observe(opened, cover, "open")
        baselines.observe(opened + timedelta(minutes=minutes), cover, "closed")
    return baselines


def test_a_door_that_closes_with_the_sun_and_did_not_is_told_an_hour_late() -> None:
    # Fails before: a cover of a door was on no timer, its limit 3 x 13 h 21 min.
    baselines = learned(HEN_HOUSE, "door")
    opened = DAY0 + timedelta(days=len(STAYS)) + OPENS
    baselines.observe(opened, HEN_HOUSE, "open")
    door = since(entity(HEN_HOUSE, "open", area="Yard", device_class="door"), opened)
    due = opened + timedelta(minutes=max(STAYS) + 60)
    assert long_stay_due(view(opened + timedelta(hours=13), door), baselines) == due
    assert list(state_longer_than_usual(view(due - timedelta(minutes=5), door), baselines)) == []
    [finding] = state_longer_than_usual(view(due + timedelta(minutes=1), door), baselines)
    assert finding.rule == "state_longer_than_usual"
    assert finding.evidence == (HEN_HOUSE,)
    assert "open for 14 h 22 min, since 05:55" in finding.reasoning
    assert "each about as long (a timer or a fixed routine)" in finding.reasoning


def test_a_blind_kept_the_same_way_is_judged_as_before() -> None:
    baselines = learned(BLIND, "blind")
    opened = DAY0 + timedelta(days=len(STAYS)) + OPENS
    baselines.observe(opened, BLIND, "open")
    blind = since(entity(BLIND, "open", area="Yard", device_class="blind"), opened)
    assert list(state_longer_than_usual(view(opened + timedelta(hours=20), blind), baselines)) == []
