"""A few seconds of unknown between the same state (a restart) is no change (core, no HA)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.baselines.cycles import cycle_stopped
from custom_components.anomaly_monitor.core.baselines.long_stays import stay_since
from custom_components.anomaly_monitor.core.home import HomeView
from custom_components.anomaly_monitor.core.models import EntityInfo, Transition
from custom_components.anomaly_monitor.core.state_blips import (
    BLIP_LIMIT,
    BlipHold,
    is_no_state,
    without_blips,
)
from custom_components.anomaly_monitor.core.statistics.durations import entry_left_open
from custom_components.anomaly_monitor.core.statistics.health import device_went_offline
from custom_components.anomaly_monitor.core.statistics.timeline import intervals

from .core_factories import entity, environment, window
from .test_baselines_long_stays import DAY0, METER, habits, since, view

GARAGE = "binary_sensor.garage_door"
OPENED = datetime(2026, 12, 1, 6, 34)
RESTART = datetime(2026, 12, 1, 7, 19)


def _door(*events: tuple[datetime, str]) -> list[Transition]:
    return [Transition(when, GARAGE, state, "Garage") for when, state in events]


def _states(transitions: list[Transition]) -> list[str]:
    return [t.state for t in transitions]


def _garage_home(now: datetime, transitions: list[Transition]) -> HomeView:
    door = entity(GARAGE, transitions[-1].state, area="Garage", device_class="garage_door")
    return HomeView(window([door], environment(now), transitions))


def test_what_reads_as_no_state() -> None:
    for blank in ("unknown", "unavailable", "Unavailable", "none", "None", "", " ", None):
        assert is_no_state(blank)
    for real in ("on", "off", "0", "0.0", "idle", "not_home"):
        assert not is_no_state(real)


def test_a_second_of_unknown_between_the_same_state_is_no_change() -> None:
    record = _door((OPENED, "on"), (RESTART, "unknown"), (RESTART + timedelta(seconds=1), "on"))
    assert _states(without_blips(record)) == ["on", "on"]  # the report after it is kept
    # A run of no-states counts from its first: unknown, then unavailable, then back.
    record = _door(
        (OPENED, "on"),
        (RESTART, "unavailable"),
        (RESTART + timedelta(seconds=20), "unknown"),
        (RESTART + BLIP_LIMIT, "on"),
    )
    assert _states(without_blips(record)) == ["on", "on"]


def test_what_is_not_a_blip() -> None:
    back = RESTART + BLIP_LIMIT + timedelta(seconds=1)
    longer = _door((OPENED, "on"), (RESTART, "unavailable"), (back, "on"))
    assert _states(without_blips(longer)) == ["on", "unavailable", "on"]
    closed = _door((OPENED, "on"), (RESTART, "unknown"), (RESTART + timedelta(seconds=1), "off"))
    assert _states(without_blips(closed)) == ["on", "unknown", "off"]
    now = _door((OPENED, "on"), (RESTART, "unknown"))  # no state yet: nothing to compare
    assert _states(without_blips(now)) == ["on", "unknown"]
    first = _door((RESTART, "unknown"), (RESTART + timedelta(seconds=1), "on"))
    assert _states(without_blips(first)) == ["unknown", "on"]  # nothing before it


def test_a_missing_reading_between_two_readings_is_a_blip() -> None:
    """A meter's spells (idle, running) are judged on its readings: a no-state for
    seconds between two of them changes none."""
    record = [
        Transition(OPENED, METER, "0.8"),
        Transition(RESTART, METER, ""),
        Transition(RESTART + timedelta(seconds=2), METER, "0.7"),
    ]
    assert _states(without_blips(record)) == ["0.8", "0.7"]


def test_a_door_open_across_a_restart_is_one_spell_and_still_open() -> None:
    """Seen in a live hass: the garage door open since 06:34 was told after a restart as
    "stayed open for 23 min (from 06:34)", the spell before the restart."""
    record = _door((OPENED, "on"), (RESTART, "unknown"), (RESTART + timedelta(seconds=1), "on"))
    home = _garage_home(datetime(2026, 12, 1, 7, 44), record)
    (spell,) = intervals(home, GARAGE)
    assert (spell.start, spell.ongoing) == (OPENED, True)
    (finding,) = entry_left_open(home)
    assert "stayed open for 70 min (from 06:34), and still is" in finding.reasoning


def test_a_longer_drop_still_ends_the_spell() -> None:
    """Five minutes without a state end the spell: the door open again after it is a stay
    of its own (told as the stay going on, over the limit too), not 70 min from 06:34."""
    record = _door((OPENED, "on"), (RESTART, "unavailable"), (RESTART + timedelta(minutes=5), "on"))
    home = _garage_home(datetime(2026, 12, 1, 7, 44), record)
    last = intervals(home, GARAGE)[-1]
    assert (last.start, last.ongoing) == (RESTART + timedelta(minutes=5), True)
    (finding,) = entry_left_open(home)
    assert finding.reasoning.endswith("stayed open for 20 min (from 07:24), and still is.")


def test_device_health_still_sees_every_drop() -> None:
    """A device dropping off for seconds four times in a window is failing (or its radio
    is jammed): told, though no spell of its state is cut by any of the drops."""
    plug = "switch.plug_3"
    start = datetime(2026, 12, 1, 6, 0)
    record = [Transition(start, plug, "on", "Study")]
    for minutes in (10, 30, 50, 70):
        drop = start + timedelta(minutes=minutes)
        record += [
            Transition(drop, plug, "unavailable", "Study"),
            Transition(drop + timedelta(seconds=5), plug, "on", "Study"),
        ]
    home = HomeView(
        window([entity(plug, "on", area="Study")], environment(start + timedelta(hours=2)), record)
    )
    assert len(intervals(home, plug)) == 1
    (finding,) = device_went_offline(home)
    assert (finding.rule, "(4 times)" in finding.reasoning) == ("device_unavailable", True)
    # One such drop on its own is far within the offline grace: not told.
    now = environment(start + timedelta(hours=2))
    once = HomeView(window([entity(plug, "on", area="Study")], now, record[:3]))
    assert list(device_went_offline(once)) == []


def test_the_baselines_remember_a_stay_across_a_blip() -> None:
    baselines = HomeBaselines(UTC)
    baselines.describe([EntityInfo(GARAGE, "", area="Garage", device_class="garage_door")])
    opened = OPENED.replace(tzinfo=UTC)
    restart = RESTART.replace(tzinfo=UTC)
    baselines.observe(opened, GARAGE, "on")
    baselines.observe(restart, GARAGE, "unknown")
    baselines.observe(restart + timedelta(seconds=1), GARAGE, "on")
    assert baselines.durations.current[GARAGE] == ("on", opened)
    assert GARAGE not in baselines.durations.stays  # no stay ended
    door = since(
        entity(GARAGE, "on", area="Garage", device_class="garage_door"),
        restart + timedelta(seconds=1),  # HA's last_changed starts again at the restart
    )
    assert stay_since(view(restart + timedelta(hours=1), door), baselines, door) == opened
    # A no-state that lasts is learned at its own time once it proves longer than a blip.
    baselines.observe(restart + timedelta(minutes=10), GARAGE, "unavailable")
    baselines.advance(restart + timedelta(minutes=10, seconds=30))
    assert baselines.durations.current[GARAGE] == ("on", opened)  # may still be a blip
    baselines.advance(restart + timedelta(minutes=11, seconds=1))
    assert baselines.durations.current[GARAGE] == ("unavailable", restart + timedelta(minutes=10))
    baselines.observe(restart + timedelta(minutes=12), GARAGE, "on")
    assert baselines.durations.current[GARAGE] == ("on", restart + timedelta(minutes=12))


def test_a_blip_held_back_comes_out_in_order() -> None:
    hold = BlipHold()
    t0 = datetime(2026, 12, 1, 7, 0, tzinfo=UTC)
    assert hold.feed(t0, GARAGE, "unknown", None) == [(t0, "unknown")]  # nothing to go back to
    assert hold.feed(t0, GARAGE, "unknown", "on") == []
    assert hold.feed(t0 + timedelta(seconds=5), GARAGE, "unavailable", "on") == []
    later = t0 + timedelta(seconds=90)
    assert hold.feed(later, GARAGE, "on", "on") == [(t0, "unknown"), (later, "on")]
    assert len(hold) == 0


def test_a_plug_that_stopped_cycling_is_told_across_restarts() -> None:
    """Seen in a live hass: each restart began the stopped freezer's idle spell again, so
    ``cycle_stopped`` (3 x its 40-min rest) would have spoken hours late."""
    baselines = habits(5)
    day = DAY0 + timedelta(days=5)
    for hour in range(11):
        baselines.observe(day + timedelta(hours=hour), METER, "85.0")
        baselines.observe(day + timedelta(hours=hour, minutes=20), METER, "1.5")
    stopped = day + timedelta(hours=10, minutes=20)
    for restart in (timedelta(hours=11), timedelta(hours=11, minutes=40)):
        baselines.observe(day + restart, METER, "unknown")
        baselines.observe(day + restart + timedelta(seconds=1), METER, "1.5")
    meter = since(
        entity(METER, "1.5", device_class="power", unit="W"),
        day + timedelta(hours=11, minutes=40, seconds=1),
    )
    (finding,) = cycle_stopped(view(stopped + timedelta(hours=2, minutes=10), meter), baselines)
    assert "almost no power for 2 h 10 min" in finding.reasoning
