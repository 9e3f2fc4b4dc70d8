"""Out by a door to the yard by day, alone at home with the phone inside, and not back.

Piotr's flat (``test_door_trip_ways``): he is the only one tracked; every afternoon at
three he takes the bins out by the front door and is back through it in three minutes.
The afternoon he goes out at three, his phone still home, and nothing anywhere shows
anybody for an hour, he is out there and did not come back (a fall on the steps, the
washing line): told once the quiet passes the hours' floor (twice his longest trip back
through that door is far less). With somebody else tracked home, the door may have been
theirs (a visitor, a son leaving) while he sits still: not told, as before. The hours
are made to allow a long quiet (a siesta's: ``still_home.FACTOR`` raised), so that only
the door can tell it.
"""

from __future__ import annotations

from datetime import timedelta

import pytest

from custom_components.anomaly_monitor.core.baselines import still_home
from custom_components.anomaly_monitor.core.baselines.still_where_last_seen import (
    still_where_last_seen,
)

from .test_door_trip_ways import FRONT, _flat, _passage, _today, _view
from .test_door_trips import TODAY


def test_out_by_the_front_door_alone_and_not_back_is_told_after_the_floor(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(still_home, "FACTOR", 20.0)
    baselines = _flat()
    shut, events = _today(baselines, 14.98, _passage(TODAY + timedelta(hours=15), FRONT))
    learned = baselines.door_trips.learned(FRONT, shut)
    assert learned is not None
    assert learned.longest < timedelta(minutes=10)
    assert baselines.quiet.one_home_alone
    assert list(still_where_last_seen(_view(shut + timedelta(minutes=55), events), baselines)) == []
    (finding,) = still_where_last_seen(_view(shut + timedelta(minutes=65), events), baselines)
    assert finding.rule == "still_in_room_far_longer"
    assert f"Somebody went through {FRONT} and shut it" in finding.reasoning


def test_with_somebody_else_tracked_home_the_door_may_be_theirs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(still_home, "FACTOR", 20.0)
    baselines = _flat()
    shut, events = _today(baselines, 14.98, _passage(TODAY + timedelta(hours=15), FRONT))
    baselines.quiet.presence_changed("person.marek", True, shut - timedelta(hours=3))
    assert not baselines.quiet.one_home_alone
    assert list(still_where_last_seen(_view(shut + timedelta(minutes=65), events), baselines)) == []
