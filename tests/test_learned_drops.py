"""How often and how long each device drops off, learned (core, no Home Assistant).

``UsualDrops`` learns each drop from the baselines' stream; ``drop_judge`` asks it before
an outage is told. Stored compactly and read back defensively.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.baselines.drop_judge import (
    SAFETY_CAP,
    drop_limit,
    home_drops_judge,
)
from custom_components.anomaly_monitor.core.baselines.false_alarm_teaching import teach_false_alarm
from custom_components.anomaly_monitor.core.baselines.usual_drops import (
    KEPT_DROPS,
    UsualDrops,
)
from custom_components.anomaly_monitor.core.models import EntityInfo, EntityState

DAY0 = datetime(2026, 3, 2, tzinfo=UTC)
PLUG = "switch.plug"
SMOKE = "binary_sensor.smoke"
HUB = "binary_sensor.hub_link"


def _baselines(drops: dict[str, list[float]]) -> HomeBaselines:
    """Baselines fed one drop a day per entry (its minutes), each back as it was."""
    baselines = HomeBaselines(UTC)
    baselines.describe(
        [
            EntityInfo(PLUG, "", device_class="outlet"),
            EntityInfo(SMOKE, "", device_class="smoke"),
            EntityInfo(HUB, "", device_class="connectivity", area="Hall"),
        ]
    )
    baselines.watching([PLUG, SMOKE, HUB], DAY0)
    for entity_id, lengths in drops.items():
        ok = "on" if entity_id != SMOKE else "off"
        away = "off" if entity_id == HUB else "unavailable"
        baselines.observe(DAY0, entity_id, ok)
        for day, minutes in enumerate(lengths):
            start = DAY0 + timedelta(days=day, hours=9)
            baselines.observe(start, entity_id, away)
            baselines.observe(start + timedelta(minutes=minutes), entity_id, ok)
    baselines.advance(DAY0 + timedelta(days=len(max(drops.values(), key=len)) + 1))
    return baselines


def test_a_drop_is_learned_from_the_stream_and_its_usual_is_an_upper_quantile() -> None:
    baselines = _baselines({PLUG: [5, 6, 8, 7, 120]})
    assert baselines.drops.usual(PLUG) == (8.0, 5)  # one long outage is not the usual
    assert baselines.drops.most_in_a_day(PLUG) == 1
    assert baselines.summary()["devices_with_learned_drops"] == 1


def test_a_connectivity_sensor_drops_when_it_reads_off() -> None:
    baselines = _baselines({HUB: [3, 4, 5]})
    assert baselines.drops.usual(HUB) == (5.0, 3)


def test_an_outage_far_past_the_usual_teaches_slowly() -> None:
    baselines = _baselines({PLUG: [10, 10, 10, 10, 10, 600]})
    assert max(m for _, m in baselines.drops.drops[PLUG]) == 30.0  # 3 x the usual 10 min
    assert baselines.drops.last[PLUG] == 600.0  # as it was, for "false alarm"


def test_limits_a_device_its_own_drops_a_protective_one_capped() -> None:
    baselines = _baselines({PLUG: [40] * 5, SMOKE: [2] * 5})
    assert drop_limit(baselines, PLUG, "switch", "outlet") == timedelta(minutes=80)
    # 1.5 x 2 min is within the 15 min grace: the grace stays
    assert drop_limit(baselines, SMOKE, "binary_sensor", "smoke") == timedelta(minutes=15)
    long_drops = _baselines({SMOKE: [90] * 5})
    assert drop_limit(long_drops, SMOKE, "binary_sensor", "smoke") == SAFETY_CAP


def test_a_device_that_never_dropped_keeps_its_grace_one_that_did_borrows_the_homes() -> None:
    baselines = _baselines({PLUG: [20] * 12, SMOKE: [25]})
    assert baselines.drops.normal(SMOKE) is None  # one device's drops are no pool
    pooled = _baselines({PLUG: [20] * 6, HUB: [20] * 6, SMOKE: [25]})
    assert pooled.drops.normal(SMOKE) == (20.0, 13, 3)
    # 1.25 x the longest the home came back from (its 25 min), past 1.5 x the usual 20.
    assert drop_limit(pooled, SMOKE, "binary_sensor", "smoke") == timedelta(minutes=31.25)
    never = _baselines({PLUG: [20] * 6, HUB: [20] * 6})
    assert never.drops.normal(SMOKE) is None
    assert drop_limit(never, SMOKE, "binary_sensor", "smoke") == timedelta(minutes=15)


def test_while_it_is_learned_a_device_that_never_dropped_is_judged_by_the_homes_drops() -> None:
    """Day one on a mesh that drops its devices for 20 min: the smoke alarm's first drop is
    that mesh (its own "never drops" is not known yet); once known, the grace again."""
    pool = {PLUG: [20] * 6, HUB: [20] * 6, "switch.lamp": [20] * 6}
    never = _baselines(pool)
    assert drop_limit(never, SMOKE, "binary_sensor", "smoke") == timedelta(minutes=15)
    learning = drop_limit(never, SMOKE, "binary_sensor", "smoke", learning=True)
    assert learning == timedelta(minutes=30)  # 1.5 x the home's 20 min
    assert learning <= SAFETY_CAP  # a dead detector is still told within the hour


def test_a_drop_no_longer_than_the_longest_it_came_back_from_is_within_its_limit() -> None:
    """A mesh whose drops last 1 to 45 minutes at random: its usual (an upper quantile) is
    well below the longest, and a drop as long as one it already made is not news; a
    protective device stays capped at the hour."""
    lengths = [3, 43, 8, 12, 44, 5, 20, 9, 15, 25]
    baselines = _baselines({SMOKE: lengths, PLUG: lengths})
    assert baselines.drops.usual(SMOKE) == (25.0, 10)
    # Past 1.5 x its usual 25 min: 1.25 x its longest, 44 min.
    assert drop_limit(baselines, SMOKE, "binary_sensor", "smoke") == timedelta(minutes=55)
    assert drop_limit(baselines, PLUG, "switch", "outlet") == timedelta(minutes=55)
    long_drops = _baselines({SMOKE: [30, 30, 30, 30, 85]})
    assert drop_limit(long_drops, SMOKE, "binary_sensor", "smoke") == SAFETY_CAP


def test_an_entity_is_judged_by_the_drops_of_its_own_device() -> None:
    """A plug's switch drops with its power meter (one radio): the meter's drops judge the
    switch's first one, not the grace."""
    baselines = _baselines({"sensor.plug_power": [25, 30, 35, 40]})
    assert baselines.drops.normal(PLUG) == (40.0, 4, 1)
    assert drop_limit(baselines, PLUG, "switch", "outlet") == timedelta(minutes=80)


def test_the_homes_drops_judge_a_device_the_homes_safety_does_not_rely_on() -> None:
    """Known devices that never dropped, on a mesh whose devices drop for 30-40 min: the
    garage door contact's first 35-minute drop is that mesh (the home's drops judge it);
    the smoke alarm's first drop is news (its 15 min grace)."""
    pool = {"switch.a": [30, 40, 35], "switch.b": [30, 40, 35], "switch.c": [30, 40, 35]}
    baselines = _baselines(pool)
    now = DAY0 + timedelta(days=10)
    contact = EntityState(EntityInfo("binary_sensor.garage", "", device_class="garage_door"), "off")
    smoke = EntityState(EntityInfo(SMOKE, "", device_class="smoke"), "off")
    assert home_drops_judge(baselines, contact, now)
    assert not home_drops_judge(baselines, smoke, now)
    assert drop_limit(baselines, contact.entity_id, "binary_sensor", "garage_door", True) == (
        timedelta(minutes=80)
    )
    assert drop_limit(baselines, SMOKE, "binary_sensor", "smoke") == timedelta(minutes=15)


def test_false_alarm_widens_the_drop_it_was_told_for() -> None:
    baselines = _baselines({PLUG: [10] * 5})
    now = DAY0 + timedelta(days=10)
    baselines.observe(now - timedelta(minutes=50), PLUG, "unavailable")
    baselines.advance(now)  # no blip: a drop under way
    assert teach_false_alarm(baselines, "device_unavailable", (PLUG,), None, now)
    assert baselines.usual.taught_value(PLUG, "drop") == 50.0
    assert drop_limit(baselines, PLUG, "switch", "outlet") == timedelta(minutes=75)


def test_stored_and_read_back_and_damage_is_dropped() -> None:
    baselines = _baselines({PLUG: [5.5] * (KEPT_DROPS + 3), HUB: [4]})
    baselines.observe(DAY0 + timedelta(days=40), SMOKE, "off")
    baselines.observe(DAY0 + timedelta(days=40, hours=1), SMOKE, "unavailable")
    baselines.advance(DAY0 + timedelta(days=40, hours=2))
    stored = baselines.as_dict()
    back = HomeBaselines.from_dict(stored, UTC)
    assert back.drops.drops == baselines.drops.drops
    assert len(back.drops.drops[PLUG]) == KEPT_DROPS
    assert back.drops.down_since(SMOKE) == DAY0 + timedelta(days=40, hours=1)
    assert back.drops.last == baselines.drops.last
    damaged = stored["usual_drops"] | {
        "drops": {PLUG: ["1,2", "3"], HUB: "x", "": ["1", "1"]},
        "down": {SMOKE: "yesterday"},
        "last": {PLUG: "long", HUB: 1e99},
    }
    read = UsualDrops.from_dict(damaged, UTC)
    assert read.drops == {}
    assert read.down == {}
    assert read.last == {}
    assert UsualDrops.from_dict({"version": 99}, UTC).drops == {}


def test_a_first_long_outage_is_capped_by_the_homes_drops() -> None:
    """A plug on a mesh whose drops last minutes: its first outage, 8 h 30 min (told, then
    acknowledged), is kept as three times the home's usual, so after two more short drops
    its own normal is minutes and its next night-long outage is told again (set 8's
    pillow-pad plug, missed on its second night). Before: kept as 510 min, its own usual."""
    mesh = {"switch.a": [5, 4, 6], "switch.b": [5, 3, 5], "switch.c": [4, 5, 6]}
    baselines = _baselines({**mesh, PLUG: [510, 4, 5]})
    kept = [m for _, m in baselines.drops.drops[PLUG]]
    assert max(kept) <= 3 * 6.0
    assert baselines.drops.last[PLUG] == 5.0
    assert drop_limit(baselines, PLUG, "switch", "outlet") == timedelta(minutes=36)  # 2 x 18


def test_a_device_with_few_drops_is_judged_by_the_mesh_too() -> None:
    """A mesh whose drops last 1 to 45 min at random: a smoke alarm with three drops of its
    own (at most 27 min) is not told for a 41-minute drop, one the mesh makes and comes
    back from; with many drops of its own, its own judge it. Before: 40.5 min, told."""
    mesh = [3, 43, 8, 12, 44, 5, 20, 9, 15, 25]
    few = _baselines({PLUG: mesh, HUB: mesh, "switch.lamp": mesh, SMOKE: [27, 10, 20]})
    assert few.drops.normal(SMOKE) == (27.0, 3, 1)
    assert drop_limit(few, SMOKE, "binary_sensor", "smoke") == timedelta(minutes=55)
    many = _baselines({PLUG: mesh, HUB: mesh, "switch.lamp": mesh, SMOKE: [2] * 12})
    assert drop_limit(many, SMOKE, "binary_sensor", "smoke") == timedelta(minutes=15)
