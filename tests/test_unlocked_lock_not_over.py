"""An unlocked lock while nobody is home is not over until it is locked or somebody is
home (walk of session 19).

Everybody left with the front door's lock unlocked: "Front door lock unlocked while nobody
is home" was told. The household's door was used 90 s later (judged somebody who was
inside going out): the analysis no longer found the entry, and the incident was told
"Over" while the lock stayed unlocked and the home empty. An opening standing open already
held such an incident (``open_entry``); a lock standing unlocked is as open, whichever of
the entrance's devices leads it. A door closed behind whoever went out is not.
"""

from __future__ import annotations

from datetime import timedelta

from homeassistant.core import HomeAssistant
from homeassistant.util import dt as dt_util
import pytest

from custom_components.anomaly_monitor.anomalies.tracker import AnomalyTracker
from custom_components.anomaly_monitor.core.models import Finding, Severity

DOOR = "binary_sensor.front_door"
LOCK = "lock.front_door_lock"


def _entry(subject: str) -> Finding:
    return Finding(
        "entry_unsecured_while_away",
        (LOCK, DOOR),
        "Front door lock is unlocked while nobody is home.",
        "security",
        Severity.HIGH,
        recommendation="Lock it remotely or ask someone to check the door.",
        subject=subject,
        while_away=True,
    )


def _misses(
    tracker: AnomalyTracker, lock: str, door: str, *, home: bool = False, minutes: int = 30
) -> list[str]:
    """Analyses that no longer find the entry for ``minutes``: the ended signatures."""
    start = dt_util.utcnow()
    ended: list[str] = []
    for step in range(1, minutes + 1):
        states = {LOCK: lock, DOOR: door}
        changes = tracker.update([], start + timedelta(minutes=step), home, states=states)
        ended += [a.signature for a in changes.cleared]
    return ended


@pytest.mark.parametrize("subject", [LOCK, DOOR])
async def test_a_lock_still_unlocked_while_away_is_not_over(
    hass: HomeAssistant, subject: str
) -> None:
    tracker = AnomalyTracker(hass, "lock")
    (told,) = tracker.update([_entry(subject)], dt_util.utcnow(), states={LOCK: "unlocked"}).opened
    assert not _misses(tracker, "unlocked", "off")
    assert told.signature in tracker.open
    # Locked: over as any entry that closed.
    assert _misses(tracker, "locked", "off") == [told.signature]


async def test_a_lock_still_unlocked_is_over_when_somebody_comes_home(
    hass: HomeAssistant,
) -> None:
    tracker = AnomalyTracker(hass, "arrival")
    (told,) = tracker.update([_entry(DOOR)], dt_util.utcnow(), states={LOCK: "unlocked"}).opened
    assert _misses(tracker, "unlocked", "off", home=True, minutes=1) == [told.signature]
