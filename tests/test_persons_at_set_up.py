"""Where each person is at set-up is known from then on (``HomeBaselines.seed_reading``,
``recorder.followed.seed_current_readings``).

Installed at midnight with no history: three phones home. At 06:23 the first leaves for the
early shift; the other two leave at 08:05 and 08:20. The baselines learned a person's
place only from a change, so on the first day the home read empty at 06:23, with two
people still in it: the empty spell began hours early (who went out as the household left,
a door open since before the departure, read from the wrong hour). Seeded, it begins at
08:20, as the phones say.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from types import SimpleNamespace

from homeassistant.core import State

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.models import EntityInfo, Transition
from custom_components.anomaly_monitor.recorder.followed import seed_current_readings

SANNE, JORIS, FLEUR = "person.sanne", "person.joris", "person.fleur"
DOOR = "binary_sensor.front_door"
SET_UP = datetime(2027, 4, 19, 0, 0, tzinfo=UTC)


def _at(hours: float) -> datetime:
    return SET_UP + timedelta(hours=hours)


def _fresh() -> HomeBaselines:
    baselines = HomeBaselines(UTC)
    baselines.describe(
        [
            EntityInfo(DOOR, "Front door", area="Hall", device_class="door"),
            EntityInfo(SANNE, "Sanne"),
            EntityInfo(JORIS, "Joris"),
            EntityInfo(FLEUR, "Fleur"),
        ]
    )
    baselines.watching([DOOR, SANNE, JORIS, FLEUR], SET_UP)
    return baselines


def test_the_home_empties_when_the_last_phone_leaves_on_the_first_day() -> None:
    # Fails before: a phone never seen changing was nobody; the home read empty at 06:23.
    baselines = _fresh()
    for person in (SANNE, JORIS, FLEUR):
        baselines.seed_reading(person, "home", SET_UP)
    baselines.learn(Transition(_at(6 + 23 / 60), SANNE, "not_home"))
    assert baselines.away.empty_since is None
    baselines.learn(Transition(_at(8 + 5 / 60), FLEUR, "not_home"))
    baselines.learn(Transition(_at(8 + 20 / 60), JORIS, "not_home"))
    assert baselines.away.empty_since == _at(8 + 20 / 60)
    # Each outing is known from its start: who left when.
    assert set(baselines.usual.night.returns.out_since) == {SANNE, JORIS, FLEUR}


def test_a_place_already_learned_is_left_alone_and_unknown_says_nothing() -> None:
    baselines = _fresh()
    baselines.learn(Transition(_at(0.5), SANNE, "not_home"))  # the stream gave it
    baselines.seed_reading(SANNE, "home", SET_UP)  # stale: not a second change
    baselines.seed_reading(JORIS, "unknown", SET_UP)  # no place: nothing
    assert baselines.quiet.presence == {SANNE: False}


def test_set_up_seeds_the_persons_hass_can_locate() -> None:
    """A person without a tracker (onboarding's owner, ``unknown`` for ever) is left out."""
    baselines = _fresh()
    states = {
        SANNE: State(SANNE, "home", {"device_trackers": ["device_tracker.sanne"]}),
        JORIS: State(JORIS, "home", {"device_trackers": ["device_tracker.joris"]}),
        FLEUR: State(FLEUR, "unknown", {"device_trackers": []}),
        DOOR: State(DOOR, "off", {"device_class": "door"}),
    }
    hass = SimpleNamespace(
        states=SimpleNamespace(
            get=states.get,
            async_all=lambda domain: [s for e, s in states.items() if e.startswith(domain)],
        )
    )
    watcher = SimpleNamespace(entity_ids=[DOOR])
    seed_current_readings(hass, watcher, baselines)  # type: ignore[arg-type]
    assert baselines.quiet.presence == {SANNE: True, JORIS: True}
    baselines.learn(Transition(_at(6), SANNE, "not_home"))
    assert baselines.away.empty_since is None
