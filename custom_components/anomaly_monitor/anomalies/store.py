"""The tracker's file in HA's Store: its format, its migrations, and validation on load.

Store format (major version 1):
- minor 1: ``{"open": [...], "false_alarms": [signature, ...]}``.
- minor 2: also ``"false_alarm_marks": [{"signature", "magnitude", "rule", "evidence",
  "reasoning", "anomaly_type", "marked_at"}, ...]``, the marks with their degree.
- minor 3: an anomaly is identified by its rule and its subject (``signature`` is
  ``rule:subject``), no longer by every evidence entity. Open anomalies gain ``subject``,
  ``context`` (evidence that is context, not shown as evidence), ``missed`` and
  ``missing_since`` (hysteresis: analyses in a row without it, and since when),
  ``while_away`` (it ends as soon as someone is home);
  ``"dismissed": [...]`` holds hazards the homeowner called a false alarm, kept (same
  fields) only until the occurrence is over. Every mark has a ``marked_at``: marks expire.
- minor 4: an anomaly is an incident about its subject that several rules may tell
  (``open_anomaly``). Open and dismissed anomalies gain ``lead_rule`` (the member whose
  words lead now) and ``members``: one ``{"rule", "anomaly_type", "severity",
  "magnitude", "evidence", "context", "reasoning", "recommendation", "while_away",
  "active", "subject"}`` per rule (``subject``: its finding's, which is not the
  anomaly's when a finding a wider one covered joined it; absent in older files: the
  anomaly's). ``signature`` and ``rule`` stay the rule it opened with, so its
  notification and repair issue keep their ids. Marks gain ``incident``: the signature
  of the anomaly the homeowner marked, shared by the marks of its member rules.
  Later in minor 4, an anomaly may hold ``escalation``: why it was last told again
  (``graver``, ``hazard``, ``intrusion``, ``reopened``; ``core.escalation``), so its title
  still says what changed after a restart. Older versions ignore it; absent or unknown reads as "".
  Later still, ``"ended": [...]``: anomalies that are over, kept
  ``FEEDBACK_AFTER_END`` (a day) with their repair issue so that feedback read late
  still lands, each with ``ended`` (when); and every anomaly may hold ``readings``
  (entity -> state of its shown evidence when last found), ``dark_since`` and
  ``back_since`` (``evidence_hold``). Older versions ignore them.
  Later, every anomaly may hold ``headline``: the title it was told with, kept until it
  is told again (absent: the title is worded anew, as before).
  Later, ``"already_told": {"away_stay", "heat_spells", "acknowledged_hold"}``: the
  memories of situations already told (``already_told``); a damaged part loads empty.
  Later, ``"aftermaths"`` in it (``aftermath``: acknowledged problems over, and what
  their areas read then) and ``spans`` in each marked occurrence (``marked_occurrence``:
  absent, rebuilt from its readings). Older versions ignore them.
  Later, every anomaly may hold ``notice_dismissed``: the homeowner dismissed its
  notification, so a restart writes only its repair issue again (absent: false).
  Later, every anomaly may hold ``part_of``: the signature of the told incident whose
  notification and repair issue show it (absent: "", shown on its own).
  Later, ``"past": [...]``: ended anomalies past ``FEEDBACK_AFTER_END``, unanswered, kept
  (same fields) up to ``ANSWERABLE_FOR`` without a repair issue, so the actions still
  answer them by id. Older versions ignore it.
  Later, every anomaly may hold ``on_the_bus``: an ``anomaly_detected`` event was fired
  for it, so its end fires ``anomaly_cleared`` (absent: true unless it is a part).
  Later, ``"recalled_stays"`` in ``"already_told"`` (door -> when the stays told while
  away began, ISO: ``told_stay_recalled``; session 48 stored their minutes, dropped on
  reading). Older versions ignore it.
  Later, every anomaly may hold ``escalated_at`` (when it was last told again, ISO) and
  ``told_type`` (the type it was told with, kept as ``headline`` is). Older versions
  ignore them; absent, the title's escalation is said only while its sign holds and the
  type is the anomaly's.
  Later, every anomaly may hold ``told_rule`` (the rule whose words named it when told,
  kept as ``headline`` is). Older versions ignore it; absent, the title's escalation is
  left out only while a sign of somebody inside leads an incident not yet named.
  Later, every anomaly may hold ``intruded_at`` (when it was last told as somebody inside,
  ISO). Older versions ignore it; absent, an "Over" times the motion only when it was the
  last telling.

``false_alarms`` (the bare signatures) is still written, so an older version of the
integration keeps reading the file.

Migration to minor 3: an anomaly or mark with evidence takes its first evidence entity as
subject (the rules list the entity that is wrong first). A bare signature naming several
entities cannot say which one was the subject and is dropped. Marks on safety hazards are
dropped: they silenced every later fire, and a hazard's false alarm now dismisses only one
occurrence. Marks without a date count from the migration.

Migration to minor 4: nothing is rewritten; an anomaly without ``members`` has one, its
own rule with its own fields (``OpenAnomaly``), and an older version reading a minor 4 file
ignores the new keys.

Every stored field is validated on load: an entry of the wrong shape (a number where a
list belongs, ``anomaly_type: null``, an unknown severity, a date that is not one) is
dropped, with one warning per load; the monitor always starts.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any, NotRequired, TypedDict, cast

from homeassistant.helpers.storage import Store
from homeassistant.util import dt as dt_util

from ..const import LOGGER
from ..core.escalation import Escalation
from ..core.feedback import FalseAlarm, FalseAlarms, is_hazard
from ..core.models import Severity, identity

STORAGE_MINOR_VERSION = 4
_SEVERITIES = frozenset(s.value for s in Severity)
_ESCALATIONS = frozenset(e.value for e in Escalation)


class StoredData(TypedDict):
    """What the Store file holds."""

    open: list[dict[str, Any]]
    false_alarms: list[str]  # signatures only: what minor version 1 (and older code) reads
    false_alarm_marks: NotRequired[list[dict[str, Any]]]
    dismissed: NotRequired[list[dict[str, Any]]]
    ended: NotRequired[list[dict[str, Any]]]
    past: NotRequired[list[dict[str, Any]]]
    already_told: NotRequired[dict[str, Any]]


class TrackerStore(Store[StoredData]):
    """The tracker's Store, migrating files of older minor versions."""

    async def _async_migrate_func(
        self, old_major_version: int, old_minor_version: int, old_data: dict[str, Any]
    ) -> StoredData:
        if old_major_version != 1:
            raise NotImplementedError  # a newer major version: refuse rather than guess
        if not isinstance(old_data, Mapping):
            return cast(StoredData, old_data)  # damaged: validation on load reports it
        data = dict(old_data)
        if old_minor_version < 2:
            signatures = data.get("false_alarms")
            data["false_alarm_marks"] = [
                FalseAlarm(signature=s).as_dict()
                for s in (signatures if isinstance(signatures, list) else [])
                if isinstance(s, str) and s
            ]
        if old_minor_version < 3:
            data = _to_subjects(data, dt_util.utcnow().isoformat())
        # Minor 4 adds members; one without them is its own single member (on load).
        return cast(StoredData, data)


def _to_subjects(data: dict[str, Any], now: str) -> dict[str, Any]:
    """Minor 2 -> 3: re-key anomalies and marks by rule and subject."""
    stored = data.get("open")
    if isinstance(stored, list):  # damaged entries are left to validation, which warns
        data["open"] = [
            {**item, "subject": subject, "signature": identity(str(item.get("rule")), subject)}
            if isinstance(item, Mapping) and (subject := _first(item.get("evidence")))
            else item
            for item in stored
        ]
    stored = data.get("false_alarm_marks")
    if isinstance(stored, list):
        marks = []
        for item in stored:
            if (mark := FalseAlarm.from_stored(item)) is None:
                marks.append(item)
                continue
            rule, _, ids = mark.signature.partition(":")
            subject = (mark.evidence[:1] or ("" if "," in ids else ids,))[0]
            if not subject:
                continue  # several entities, none known to be the subject
            if is_hazard(mark.anomaly_type, None) or rule == "hazard_detected":
                continue  # a hazard mark silenced every later fire: not carried over
            marks.append(
                mark.as_dict()
                | {"signature": identity(rule, subject), "marked_at": mark.marked_at or now}
            )
        data["false_alarm_marks"] = marks
        data["false_alarms"] = [
            m["signature"] for m in marks if isinstance(m, Mapping) and "signature" in m
        ]
    return data


def _first(evidence: object) -> str:
    if isinstance(evidence, list) and evidence and isinstance(evidence[0], str):
        return evidence[0]
    return ""


def _text(item: Mapping[str, Any], key: str, required: bool) -> str:
    value = item.get(key)
    if isinstance(value, str) and (value or not required):
        return value
    if value is None and not required:
        return ""
    raise _Damaged(key)


def _texts(item: Mapping[str, Any], key: str) -> list[str]:
    value = item.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise _Damaged(key)
    return list(value)


def _time(item: Mapping[str, Any], key: str, required: bool) -> str | None:
    value = item.get(key)
    if value is None and not required:
        return None
    if isinstance(value, str) and dt_util.parse_datetime(value) is not None:
        return value
    raise _Damaged(key)


class _Damaged(ValueError):
    """A stored field of the wrong type or value."""


def parse_anomaly(item: object) -> dict[str, Any]:
    """The fields of one stored anomaly, validated; raises ``ValueError`` when damaged."""
    if not isinstance(item, Mapping):
        raise _Damaged("entry")
    rule = _text(item, "rule", required=True)
    subject = _text(item, "subject", required=True)
    severity = item.get("severity")
    if severity not in _SEVERITIES:
        raise _Damaged("severity")
    magnitude = _magnitude(item)
    missed = item.get("missed", 0)
    if isinstance(missed, bool) or not isinstance(missed, int) or missed < 0:
        raise _Damaged("missed")
    acknowledged = item.get("acknowledged", False)
    while_away = item.get("while_away", False)
    notice_dismissed = item.get("notice_dismissed", False)
    # Stored before it was kept: told on the bus unless it was a part (as its end was).
    on_the_bus = item.get("on_the_bus", not item.get("part_of"))
    if not all(
        isinstance(f, bool) for f in (acknowledged, while_away, notice_dismissed, on_the_bus)
    ):
        raise _Damaged("acknowledged")
    first_seen = _time(item, "first_seen", required=True)
    members = item.get("members", [])
    if not isinstance(members, list):
        raise _Damaged("members")
    signature = identity(rule, subject)
    # Shown in its own notification: one naming itself (a damaged or hand-edited file;
    # ``shown_in`` never sets it) would be a part of nothing and counted nowhere.
    part_of = _text(item, "part_of", required=False)
    return {
        "signature": signature,
        "rule": rule,
        "subject": subject,
        "evidence": _texts(item, "evidence"),
        "context": _texts(item, "context"),
        "reasoning": _text(item, "reasoning", required=False),
        "anomaly_type": _text(item, "anomaly_type", required=True),
        "severity": severity,
        "recommendation": _text(item, "recommendation", required=False),
        "first_seen": first_seen,
        "last_seen": _time(item, "last_seen", required=False) or first_seen,
        "acknowledged": acknowledged,
        "magnitude": magnitude,
        "missed": missed,
        "missing_since": _time(item, "missing_since", required=False),
        "while_away": while_away,
        "lead_rule": _text(item, "lead_rule", required=False) or rule,
        "members": [_member(m) for m in members],
        "escalation": _escalation(item),
        "escalated_at": _time(item, "escalated_at", required=False),
        "intruded_at": _time(item, "intruded_at", required=False),
        "ended": _time(item, "ended", required=False),
        "readings": _readings(item),
        "dark_since": _time(item, "dark_since", required=False),
        "back_since": _time(item, "back_since", required=False),
        "headline": _text(item, "headline", required=False),
        "told_type": _text(item, "told_type", required=False),
        "told_rule": _text(item, "told_rule", required=False),
        "notice_dismissed": notice_dismissed,
        "part_of": "" if part_of == signature else part_of,
        "on_the_bus": on_the_bus,
    }


def _readings(item: Mapping[str, Any]) -> dict[str, str]:
    value = item.get("readings", {})
    if not isinstance(value, Mapping) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in value.items()
    ):
        raise _Damaged("readings")
    return dict(value)


def _escalation(item: Mapping[str, Any]) -> str:
    """Why it was last told again; a kind this version does not know reads as none."""
    value = _text(item, "escalation", required=False)
    return value if value in _ESCALATIONS else ""


def _member(item: object) -> dict[str, Any]:
    """One member rule of a stored anomaly, validated."""
    if not isinstance(item, Mapping):
        raise _Damaged("member")
    severity = item.get("severity")
    if severity not in _SEVERITIES:
        raise _Damaged("member severity")
    flags = [item.get(k, d) for k, d in (("while_away", False), ("active", True))]
    if not all(isinstance(f, bool) for f in flags):
        raise _Damaged("member flag")
    return {
        "rule": _text(item, "rule", required=True),
        "anomaly_type": _text(item, "anomaly_type", required=True),
        "severity": severity,
        "magnitude": _magnitude(item),
        "evidence": _texts(item, "evidence"),
        "context": _texts(item, "context"),
        "reasoning": _text(item, "reasoning", required=False),
        "recommendation": _text(item, "recommendation", required=False),
        "while_away": flags[0],
        "active": flags[1],
        "subject": _text(item, "subject", required=False),
    }


def _magnitude(item: Mapping[str, Any]) -> float | None:
    magnitude = item.get("magnitude")
    if magnitude is None:
        return None
    if isinstance(magnitude, bool) or not isinstance(magnitude, int | float):
        raise _Damaged("magnitude")
    return float(magnitude)


def load_anomalies(data: Mapping[str, Any], key: str, warnings: list[str]) -> list[dict[str, Any]]:
    """The valid anomalies stored under ``key``; damaged ones are noted in ``warnings``."""
    stored = data.get(key, [])
    if not isinstance(stored, list):
        warnings.append(f"{key} is not a list")
        return []
    anomalies = []
    for item in stored:
        try:
            anomalies.append(parse_anomaly(item))
        except ValueError as err:
            warnings.append(f"{key} entry with a damaged {err}")
    return anomalies


def load_marks(data: Mapping[str, Any], warnings: list[str]) -> FalseAlarms:
    """The marks of a stored file; damaged entries are noted in ``warnings``.

    A signature in ``false_alarms`` without a mark (written by an older version after
    this one) becomes a mark without a magnitude: suppressed at any degree, as it asked.
    """
    marks = FalseAlarms()
    stored = data.get("false_alarm_marks", [])
    if not isinstance(stored, list):
        warnings.append("false_alarm_marks is not a list")
        stored = []
    for item in stored:
        if (mark := FalseAlarm.from_stored(item)) is None or _bad_date(mark.marked_at):
            warnings.append("a damaged false-alarm mark")
            continue
        marks.add(mark)
    signatures = data.get("false_alarms", [])
    if not isinstance(signatures, list):
        warnings.append("false_alarms is not a list")
        signatures = []
    for signature in signatures:
        if not isinstance(signature, str) or not signature:
            warnings.append("a damaged false-alarm signature")
        elif signature not in marks:
            marks.add(FalseAlarm(signature=signature, marked_at=dt_util.utcnow().isoformat()))
    return marks


def _bad_date(value: str | None) -> bool:
    return value is not None and dt_util.parse_datetime(value) is None


def warn_once(name: str, warnings: list[str]) -> None:
    """One warning for everything dropped from one file."""
    if warnings:
        LOGGER.warning(
            "Dropped %d damaged entries from the stored anomalies of %s: %s",
            len(warnings),
            name,
            "; ".join(sorted(set(warnings))),
        )


def parse_time(value: str | None) -> datetime | None:
    """A stored ISO time (validated on load)."""
    return dt_util.parse_datetime(value) if value else None
