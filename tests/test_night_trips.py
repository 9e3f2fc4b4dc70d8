"""A night trip to the bathroom that never came back, judged by what the home learned.

Iris lives alone (a fortnight learned): in bed at 22:30 (the bedroom sees her), by day a
sensor sees her every 15 minutes, and at 03:00 she goes to the toilet: bedroom, hall,
bathroom and, on the way back, the bedroom again. After the bathroom this home is never
quiet for more than minutes, at any hour. The night she falls there (bedroom, hall,
bathroom, then nothing) is told 20 min after she left her bedroom (its night trips come
back within 7 min, ``room_trip``; the bathroom alone would say an hour), saying what it was
judged by. Before, nothing told it until morning: the night is the hours this home rests
at, and a quiet then was taken for sleep wherever she was last seen.

Not told: Rose (``test_daily_rhythm``), whose way back to bed is never seen (the home
learned hours of quiet after her bathroom at night: she rests after it); a trip only the
bathroom's own sensor saw (its way back would not be seen either); a night owl still up
who goes quiet after the bathroom at 03:40 (no trip out of a rest). A home whose
bathroom nights are not learned yet waits a prior two hours, and says so. And a quiet
that spans HA being down (a power cut) counts from when HA came back, for both stillness
rules (``no_movement_while_home`` told 5 h of stillness two seconds after HA returned from
a five-hour power cut).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.baselines.detectors import no_movement_while_home
from custom_components.anomaly_monitor.core.baselines.night_trips import PRIOR_LIMIT, night_trip
from custom_components.anomaly_monitor.core.baselines.still_where_last_seen import (
    still_where_last_seen,
    still_where_last_seen_due,
)
from custom_components.anomaly_monitor.core.home import HomeView
from custom_components.anomaly_monitor.core.models import Environment, Transition

from .core_factories import entity, window
from .test_daily_rhythm import AREAS, ATTRIBUTES, BATH, BED, DOOR, HALL, ROSE, ZONE, _info, _lived

TODAY = datetime(2026, 3, 2, tzinfo=ZoneInfo(ZONE))  # a Monday, local midnight
DAYS = 14


def _iris(*, trips: bool = True, up_until: float | None = None) -> HomeBaselines:
    """A fortnight of Iris's days before ``TODAY``; ``trips``: the 03:00 toilet trip, back
    to bed seen; ``up_until``: last night she stayed up, moving every 15 min until then
    (hours after yesterday's midnight)."""
    up_late = up_until is not None
    baselines = HomeBaselines(ZoneInfo(ZONE))
    baselines.describe(_info(e) for e in ATTRIBUTES)
    start = TODAY - timedelta(days=DAYS)
    baselines.watching(ATTRIBUTES, start)
    baselines.observe(start, ROSE, "home")
    events: list[tuple[datetime, str, str]] = []

    def at(moment: datetime, entity_id: str, state: str) -> None:
        events.append((moment, entity_id, state))

    for day in range(DAYS):
        midnight = start + timedelta(days=day)
        if trips:
            for minutes, entity_id, state in [
                (0, BED, "on"),
                (0.5, BED, "off"),
                (1, HALL, "on"),
                (2, BATH, "on"),
                (2.5, HALL, "off"),
                (6, BATH, "off"),
                (7, HALL, "on"),
                (7.5, HALL, "off"),
                (8, BED, "on"),
                (9, BED, "off"),
            ]:
                at(midnight + timedelta(hours=3, minutes=minutes), entity_id, state)
        moment, sensors = 7.0, (BED, HALL, BATH)
        last = up_until if up_until is not None and day == DAYS - 1 else 22.5
        while moment < last:
            sensor = sensors[int(moment * 4) % 3]
            at(midnight + timedelta(hours=moment), sensor, "on")
            at(midnight + timedelta(hours=moment + 0.02), sensor, "off")
            moment += 0.25
        if not (up_late and day == DAYS - 1):
            at(midnight + timedelta(hours=22.5), BED, "on")  # to bed, seen
            at(midnight + timedelta(hours=22.52), BED, "off")
    for when, entity_id, state in sorted(events):
        baselines.observe(when, entity_id, state, AREAS[entity_id])
    return baselines


def _to_the_bathroom(baselines: HomeBaselines, at: datetime) -> datetime:
    """Out of bed, through the hall, into the bathroom, nothing after: her last movement."""
    steps = [(0, BED, "on"), (0.5, BED, "off"), (1, HALL, "on"), (2, BATH, "on")]
    steps += [(2.5, HALL, "off"), (6, BATH, "off")]
    for minutes, entity_id, state in steps:
        baselines.observe(at + timedelta(minutes=minutes), entity_id, state, AREAS[entity_id])
    return at + timedelta(minutes=6)


def _view(now: datetime, transitions: list[Transition] | None = None) -> HomeView:
    states = [
        entity(e, "off", area=AREAS[e], device_class="door" if e == DOOR else "motion")
        for e in (BED, HALL, BATH, DOOR)
    ]
    states.append(entity(ROSE, "home"))
    env = Environment(local_time=now, persons_home=1, persons_total=1)
    return HomeView(window(states, env, transitions or []))


def test_a_fall_on_a_night_trip_is_told_by_her_trips_and_the_bathroom_says_an_hour() -> None:
    baselines = _iris()
    night = TODAY + timedelta(hours=3, minutes=5)
    still = _to_the_bathroom(baselines, night)  # 03:11
    # The bathroom alone (``night_trip``): a few minutes learned after it, the 1-h floor.
    trip = night_trip(_view(still + timedelta(minutes=5)), baselines, "Bathroom", still)
    assert trip is not None
    assert trip.learned_here
    assert trip.limit == timedelta(hours=1)
    # Her bedroom's own trips come back within 7 min (``room_trip``): sooner, 20 min after
    # she was first seen outside it (the hall at 03:06).
    out = night + timedelta(minutes=1)
    assert still_where_last_seen_due(_view(night + timedelta(minutes=10)), baselines) == (
        out + timedelta(minutes=20)
    )
    assert list(still_where_last_seen(_view(out + timedelta(minutes=19)), baselines)) == []
    (finding,) = still_where_last_seen(_view(out + timedelta(minutes=21)), baselines)
    assert finding.rule == "still_in_room_far_longer"
    assert finding.evidence == (BATH,)
    assert "last seen in Bathroom 16 min ago (at 03:11)" in finding.reasoning
    assert "the hours this home rests at" in finding.reasoning
    assert "somebody left Bedroom at 03:06 and has not been back in it since" in (finding.reasoning)
    assert "a prior" not in finding.reasoning
    # The same night fall with the bathroom's nights not learned: the prior, said so.
    young = _iris(trips=False)
    still = _to_the_bathroom(young, night)
    assert list(still_where_last_seen(_view(still + timedelta(minutes=61)), young)) == []
    assert (
        list(still_where_last_seen(_view(still + PRIOR_LIMIT - timedelta(minutes=1)), young)) == []
    )
    (finding,) = still_where_last_seen(_view(still + PRIOR_LIMIT + timedelta(minutes=1)), young)
    assert "its nights are not learned yet, so at least 2 h 00 min is waited (a prior)" in (
        finding.reasoning
    )


def test_a_bathroom_people_rest_after_and_a_night_owl_are_not_told() -> None:
    # Rose goes back to bed unseen: hours of quiet after her bathroom at night, learned.
    rose = _lived(TODAY, timedelta(hours=7))
    night = TODAY + timedelta(hours=3, minutes=5)
    still = _to_the_bathroom(rose, night)
    for hours in (1, 2, 3):
        assert list(still_where_last_seen(_view(still + timedelta(hours=hours)), rose)) == []
    # Only the bathroom's own sensor saw the trip: its way back would not be seen either.
    iris = _iris()
    iris.observe(night, BATH, "on", AREAS[BATH])
    iris.observe(night + timedelta(minutes=4), BATH, "off", AREAS[BATH])
    for hours in (1, 2, 3):
        quiet = _view(night + timedelta(minutes=4, hours=hours))
        assert list(still_where_last_seen(quiet, iris)) == []
    # Up all evening until the bathroom at 03:40 (moving until 03:30, or still at the desk
    # from 02:15): off to bed, not a trip out of the night's rest.
    for up_until in (27.6, 26.3):
        owl = _iris(up_until=up_until)
        late = TODAY + timedelta(hours=3, minutes=40)
        owl.observe(late, BATH, "on", AREAS[BATH])
        owl.observe(late + timedelta(minutes=4), BATH, "off", AREAS[BATH])
        for hours in (1, 2, 3):
            assert list(still_where_last_seen(_view(late + timedelta(hours=hours)), owl)) == []


def test_a_quiet_spanning_ha_being_down_counts_from_its_return() -> None:
    """Rose in bed since 22:30 and not up by noon is told; with HA down from 23:00 until
    11:55 (a power cut), not at noon: nobody knows what moved meanwhile."""
    rose = _lived(TODAY, timedelta(hours=7))
    noon = TODAY + timedelta(hours=12)
    rose.advance(noon - timedelta(minutes=5))
    assert len(list(no_movement_while_home(_view(noon), rose))) == 1
    rose.unwatched = (TODAY - timedelta(hours=1), noon - timedelta(minutes=5))
    assert list(no_movement_while_home(_view(noon), rose)) == []
    assert list(still_where_last_seen(_view(noon), rose)) == []
