"""The home awake (``home_awake.awake_until``): a party's door is not a night walk-out.

A household that rests at night (its usual longest still spell in the small hours is two
hours) holds a New Year's party: the living room's sensor sees people every eight
minutes, the front door opens as guests come and go, until the door opens at 02:45 for
guests leaving. That is the home awake; the same door after an hour of stillness, one
person pacing a room with no door used, a home whose nights always stir, or a window
too short to see the time before, is not.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from custom_components.anomaly_monitor.core.baselines.home_awake import awake_until
from custom_components.anomaly_monitor.core.baselines.home_baselines import HomeBaselines
from custom_components.anomaly_monitor.core.home import HomeView
from custom_components.anomaly_monitor.core.models import EntityInfo, EntityState, Transition
from custom_components.anomaly_monitor.core.window import build_window

from .core_factories import environment

OPENED = datetime(2027, 1, 1, 2, 45, tzinfo=UTC)
LIVING = "binary_sensor.movimiento_living"
DOOR = "binary_sensor.puerta_principal"
WINDOW = timedelta(hours=2)


def _baselines(usual_still_minutes: float) -> HomeBaselines:
    """A home learned over six nights whose longest still spell at every hour is given."""
    baselines = HomeBaselines(UTC)
    for hour in range(24):
        baselines.quiet.maxima[hour].extend((day, usual_still_minutes) for day in range(6))
    return baselines


def _home(
    *,
    every: timedelta = timedelta(minutes=8),
    still_from: datetime | None = None,
    door_every: timedelta | None = timedelta(minutes=20),
    window: timedelta = WINDOW,
) -> HomeView:
    """Motion every ``every`` (none from ``still_from`` until the way to the door), the
    front door opened every ``door_every`` before, and the front door opened at OPENED."""
    now = OPENED + timedelta(minutes=5)
    changes: list[Transition] = []
    moment = now - window
    while moment < OPENED - timedelta(minutes=1):
        if still_from is None or not still_from <= moment < OPENED - timedelta(minutes=3):
            changes.append(Transition(moment, LIVING, "on"))
            changes.append(Transition(moment + timedelta(minutes=2), LIVING, "off"))
        moment += every
    if door_every is not None:
        moment = now - window + door_every
        while moment < OPENED - timedelta(minutes=3):
            changes.append(Transition(moment, DOOR, "on"))
            changes.append(Transition(moment + timedelta(seconds=30), DOOR, "off"))
            moment += door_every
    changes.append(Transition(OPENED, DOOR, "on"))
    changes.append(Transition(OPENED + timedelta(seconds=30), DOOR, "off"))
    changes.sort(key=lambda change: change.when)
    states = [
        EntityState(EntityInfo(LIVING, "Movimiento living", "Living", "motion"), "off"),
        EntityState(EntityInfo(DOOR, "Puerta principal", "Entrada", "door"), "off"),
    ]
    return HomeView(build_window(states, environment(now), changes, start=now - window))


def test_a_party_until_the_door_opened_is_the_home_awake() -> None:
    assert awake_until(_home(), _baselines(120.0), OPENED)


def test_an_hour_of_stillness_before_the_door_is_a_household_asleep() -> None:
    home = _home(still_from=OPENED - timedelta(minutes=60))
    assert not awake_until(home, _baselines(120.0), OPENED)


def test_a_still_spell_longer_than_the_limit_within_the_span_is_not_awake() -> None:
    home = _home(every=timedelta(minutes=17), door_every=timedelta(minutes=40))
    assert not awake_until(home, _baselines(120.0), OPENED)


def test_one_person_pacing_a_room_with_no_door_used_is_not_a_party() -> None:
    # The one pacing at 1 am may be the one to walk out (a person with dementia).
    assert not awake_until(_home(door_every=None), _baselines(120.0), OPENED)


def test_a_home_whose_nights_always_stir_is_not_read() -> None:
    # Its usual longest still spell at night is ten minutes (a dog, a night shift).
    assert not awake_until(_home(), _baselines(10.0), OPENED)
    # Nor one whose nights are not learned yet.
    assert not awake_until(_home(), HomeBaselines(UTC), OPENED)


def test_a_window_too_short_to_see_the_time_before_says_nothing() -> None:
    home = _home(window=timedelta(minutes=50))
    assert not awake_until(home, _baselines(120.0), OPENED)
