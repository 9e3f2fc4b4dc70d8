"""HA's restart is no busy evening (``busy_room.busy_until``; walk 43).

A motion sensor whose first change in the window is ``off`` read ``on`` until then (its
stay began before the window). One whose first change is ``unknown`` — HA writing every
entity so as it restarts — read nothing anybody knows: walk 43's back door, entered from
outside at 02:31, 18 min after a restart at 02:13, was held as guests leaving a busy room
(every motion sensor "on" from the window's start to the restart), and not told.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from custom_components.anomaly_monitor.core.baselines.busy_room import busy_until
from custom_components.anomaly_monitor.core.baselines.home_baselines import HomeBaselines
from custom_components.anomaly_monitor.core.home import HomeView
from custom_components.anomaly_monitor.core.models import EntityInfo, EntityState, Transition
from custom_components.anomaly_monitor.core.window import build_window

from .core_factories import environment

NOW = datetime(2026, 12, 5, 22, 33, tzinfo=UTC)
STARTED = NOW - timedelta(minutes=20)
OPENED = NOW - timedelta(minutes=2)
KITCHEN = "binary_sensor.kitchen_motion"
WINDOW = timedelta(hours=2)


def _busy(first: str) -> list[str]:
    info = EntityInfo(KITCHEN, "Kitchen motion", "Kitchen", "motion")
    changes = [Transition(STARTED, KITCHEN, first)]
    if first != "off":
        changes.append(Transition(STARTED, KITCHEN, "off"))
    changes.append(Transition(OPENED + timedelta(seconds=20), KITCHEN, "on"))
    state = EntityState(info, "on", last_changed=OPENED + timedelta(seconds=20))
    # The live window starts two hours back (``live_window``), not at its first change.
    home = HomeView(build_window([state], environment(NOW), changes, start=NOW - WINDOW))
    return busy_until(home, HomeBaselines(UTC), OPENED)


def test_a_sensor_read_off_first_was_on_before_it() -> None:
    """Held on from before the window until 18 min before the door: a busy room."""
    assert _busy("off") == [KITCHEN]


def test_a_sensor_read_unknown_first_as_ha_restarted_was_not_busy() -> None:
    # Failed before 1c7727ba (a first change to unavailable or unknown read as "on until then").
    assert _busy("unknown") == []
    assert _busy("unavailable") == []
