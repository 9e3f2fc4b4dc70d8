"""What an entry while nobody is home reads as it goes on (walk 56, real hass).

(1) The title the phone was pushed ("Now motion in Hall: …", "Opened again: …") stays in
the notification and the repair issue while the incident lasts, in the past once its
sign no longer holds ("Motion in Hall at 10:12: …", "Opened again at 10:11: …"): walk 56
read "Front door open …" 40 s after the "Now motion" push.
(3) The door shut while the incident stays open: its title says it opened, not that it
is open above "Front door: Closed", and the type stays the one it was told with (walk 56:
"Activity that does not fit who is home" under "Front door open …").
(4) The opening shown in place (not pushed) is written to the logbook, and a telling
again says in the logbook what happened.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict
from datetime import datetime
from typing import Any

from freezegun.api import FrozenDateTimeFactory
from homeassistant.const import EVENT_LOGBOOK_ENTRY
from homeassistant.core import Event, HomeAssistant
from homeassistant.helpers import issue_registry as ir
from homeassistant.util import dt as dt_util
from pytest_homeassistant_custom_component.common import async_capture_events

from custom_components.anomaly_monitor.anomalies.open_anomaly import OpenAnomaly
from custom_components.anomaly_monitor.anomalies.store import parse_anomaly
from custom_components.anomaly_monitor.const import DOMAIN, EVENT_ANOMALY_DETECTED
from custom_components.anomaly_monitor.core.escalation import Escalation
from custom_components.anomaly_monitor.core.models import Finding, Severity
from custom_components.anomaly_monitor.logbook import async_describe_events

from .test_one_break_in_told_once import _empty_home, _notes, _set

DOOR_OPEN = "Front door open while nobody is home"
DOOR_OPENED = "Front door opened while nobody is home"


def _now() -> str:
    return dt_util.as_local(dt_util.utcnow()).strftime("%H:%M")


def _issue_headline(hass: HomeAssistant) -> str:
    (issue,) = [i for (d, _), i in ir.async_get(hass).issues.items() if d == DOMAIN]
    assert issue.translation_placeholders is not None
    return issue.translation_placeholders["headline"]


def _read(hass: HomeAssistant) -> tuple[str, str]:
    """The notification's title (the repair issue's the same) and its kind line."""
    (note,) = _notes(hass)
    assert _issue_headline(hass) == note["title"]
    kind = next(p for p in note["message"].split("\n\n") if p.startswith("**"))
    return note["title"], kind


async def test_an_entry_reads_true_while_it_lasts(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    entry, pushes, detected = await _empty_home(hass, freezer, areas=True)
    logged = async_capture_events(hass, EVENT_LOGBOOK_ENTRY)
    await _set(hass, freezer, entry, 30, door="on")
    assert [c.data["title"] for c in pushes] == [DOOR_OPEN]
    assert _read(hass) == (DOOR_OPEN, f"**Security** (high) since {_now()}")

    # Shut and opened again a minute later: shown in place, not pushed; the logbook says so.
    await _set(hass, freezer, entry, 30, door="off")
    opened_again = _now()
    await _set(hass, freezer, entry, 30, door="on")
    assert len(pushes) == 1, [c.data["title"] for c in pushes]
    assert _read(hass)[0] == f"Opened again: {DOOR_OPEN}"
    assert [e.data["message"] for e in logged] == [
        f"opened again: {DOOR_OPEN} (shown in its notification; not pushed again so soon "
        "after its push)"
    ]

    # Motion in the hall: pushed as somebody inside.
    await _set(hass, freezer, entry, 30, motion="on")
    motion_at = dt_util.as_local(detected[-1].time_fired).strftime("%H:%M")
    assert [e.data["escalation"] for e in detected] == [None, "intrusion"]
    assert pushes[-1].data["title"] == f"Now motion in Hall: {DOOR_OPEN}"
    assert _read(hass)[0] == f"Now motion in Hall: {DOOR_OPEN}"

    # The door shut while the motion goes on: it opened, it is not open; the type and
    # severity it was told with, not the motion's.
    await _set(hass, freezer, entry, 30, door="off")
    title, kind = _read(hass)
    assert title == f"Now motion in Hall: {DOOR_OPENED}", title
    assert kind.startswith("**Security** (critical)"), kind

    # The motion over: the motion the phone heard of, in the past.
    await _set(hass, freezer, entry, 30, motion="off")
    title, kind = _read(hass)
    assert title == f"Motion in Hall at {motion_at}: {DOOR_OPENED}", title
    assert kind.startswith("**Security** (critical)"), kind
    assert opened_again <= motion_at
    assert len(pushes) == 2


async def test_opened_again_is_said_in_the_past_once_shut(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    """Opened again past its first telling's quarter of an hour: pushed "Opened again";
    shut since, the notification says when, not "Opened again" above "Closed"."""
    entry, pushes, detected = await _empty_home(hass, freezer, areas=True)
    await _set(hass, freezer, entry, 30, door="on")
    for _ in range(16):  # left open past the quarter of an hour
        await _set(hass, freezer, entry, 60)
    await _set(hass, freezer, entry, 30, door="off")
    await _set(hass, freezer, entry, 30, door="on")
    told_at = dt_util.as_local(detected[-1].time_fired).strftime("%H:%M")
    assert [e.data["escalation"] for e in detected] == [None, "reopened"]
    assert pushes[-1].data["title"] == f"Opened again: {DOOR_OPEN}"
    await _set(hass, freezer, entry, 20, door="off")
    title, kind = _read(hass)
    assert title == f"Opened again at {told_at}: {DOOR_OPENED}", title
    assert kind.startswith("**Security** (high)"), kind


async def test_shut_while_its_motion_keeps_it_open_keeps_the_type_told(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    """A learned home: the door and the hall's motion, one incident told as the door's.
    The door shut, the motion's statistic leads its words: the type it was told with
    stays (main: "Activity that does not fit who is home" under the door's title)."""
    entry, pushes, _detected = await _empty_home(hass, freezer, areas=True, learned=True)
    await _set(hass, freezer, entry, 30, door="on", motion="on")
    assert [c.data["title"] for c in pushes] == [DOOR_OPEN]
    await _set(hass, freezer, entry, 30, door="off")
    title, kind = _read(hass)
    assert title == DOOR_OPENED, title
    assert kind.startswith("**Security** (high)"), kind
    assert len(pushes) == 1


def _describer(hass: HomeAssistant) -> Callable[[Event], dict[str, str]]:
    described: dict[str, Callable[[Event], dict[str, str]]] = {}

    def register(domain: str, event_type: str, describe: Callable[[Event], Any]) -> None:
        described[event_type] = describe

    async_describe_events(hass, register)
    return described[EVENT_ANOMALY_DETECTED]


async def test_told_again_says_what_happened_in_the_logbook(hass: HomeAssistant) -> None:
    describe = _describer(hass)

    def line(escalation: str | None) -> str:
        data = {"title": DOOR_OPEN, "severity": "high", "escalation": escalation}
        return describe(Event(EVENT_ANOMALY_DETECTED, data))["message"]

    assert line(None) == f"told: {DOOR_OPEN} (high)"
    assert line("reopened") == f"opened again, told again: {DOOR_OPEN} (high)"
    assert line("intrusion") == f"motion inside, told again: {DOOR_OPEN} (high)"
    assert line("graver") == f"graver, told again: {DOOR_OPEN} (high)"
    # A kind this version does not know (a newer version's event in the database).
    assert line("{headline}_unknown") == f"told again: {DOOR_OPEN} (high)"


def test_when_told_again_and_the_type_told_survive_a_restart() -> None:
    """Stored and read back (a restart): the past title keeps its time, the type its kind."""
    now = datetime(2026, 12, 7, 10, 53, tzinfo=dt_util.UTC)
    door = Finding(
        rule="entry_unsecured_while_away",
        evidence=("binary_sensor.front_door",),
        reasoning="Front door is open while nobody is home.",
        anomaly_type="security",
        severity=Severity.HIGH,
        subject="binary_sensor.front_door",
    )
    anomaly = OpenAnomaly.from_findings([door], now)
    anomaly.told_type = "security"
    anomaly.told_again(Escalation.REOPENED, now)
    back = OpenAnomaly.from_stored(parse_anomaly(asdict(anomaly)))
    assert (back.escalation, back.escalated_at, back.told_type) == (
        "reopened",
        now.isoformat(),
        "security",
    )
    older = {k: v for k, v in asdict(anomaly).items() if k not in ("escalated_at", "told_type")}
    stored_before = OpenAnomaly.from_stored(parse_anomaly(older))  # an older file
    assert (stored_before.escalated_at, stored_before.told_type) == (None, "")
