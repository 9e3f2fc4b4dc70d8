"""The home benchmark's feedback on an incident the homeowner was never told about.

Set 13 (Grímsey): the shed door open all night was never told (a detection miss); the
homeowner's "false alarm" on it was not judged, but "remove the mark" a week later was
sent as a call naming no mark, refused by the action ("required key not provided"), and
scored as feedback not honoured. Nothing was told, so nothing was marked: there is no mark
to remove, and the step is a detection miss, not judged, like the "false alarm" before it.
"""

from __future__ import annotations

from datetime import timedelta
from types import SimpleNamespace

from homeassistant.core import HomeAssistant
from homeassistant.util import dt as dt_util

from benchmark_replay.home.runner import HomeRun
from benchmark_replay.home.timeline import Feedback, IncidentSpan

from .helpers import setup_monitor

SHED = "binary_sensor.shed_door_contact"


async def test_remove_mark_on_an_incident_never_told_is_not_judged(hass: HomeAssistant) -> None:
    await setup_monitor(hass, learned=True, include_entities=[SHED])
    now = dt_util.utcnow()
    span = IncidentSpan(
        "shed_open_all_night", now - timedelta(days=6), now - timedelta(days=5),
        frozenset({SHED}), {"class": "door_left_open", "expect": "notify"},
    )  # fmt: skip
    run = SimpleNamespace(
        plan=SimpleNamespace(incidents=[span]),
        record=SimpleNamespace(seen=SimpleNamespace(alarms=[]), feedback=[]),
        clock=SimpleNamespace(now=now),
    )
    await HomeRun._feedback(run, hass, Feedback(now, "remove_mark", span.id))  # type: ignore[arg-type]
    (result,) = run.record.feedback
    assert not result.told
    assert "not been told" in result.detail
