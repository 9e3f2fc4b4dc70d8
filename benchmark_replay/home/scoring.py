"""Scores of a run, the way the homeowner lives them.

An alarm (an ``anomaly_detected`` event, which comes with a persistent notification) is
attributed to an incident when it names one of the incident's entities between the
incident's onset and ``GRACE`` after its end. Alarms attributed to a ``quiet`` event,
or to nothing, are false alarms; those about an ``either`` event are counted apart.

Every alarm of an incident after its first is a re-raise, except an *escalation*: the
same anomaly (one notification, updated in place) told again because it became graver,
its event saying why (``escalation``) and its severity above every earlier alarm of that
anomaly (a door open while away, high, then somebody inside, critical). Escalations are
counted apart, never hidden: a second push at the same severity stays a re-raise.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, tzinfo
import math
from typing import Any

from .effects import Change
from .feedback import FeedbackResult
from .observer import Alarm
from .runner import RunRecord
from .scenario import within_minutes
from .scenario_schema import SAFETY_CLASSES
from .timeline import GRACE, IncidentSpan, Plan

WEEK_DAYS = 7.0


def attribute(alarm: Alarm, spans: Sequence[IncidentSpan]) -> IncidentSpan | None:
    """The incident (or quiet event) an alarm is about, if any."""
    told = set(alarm.evidence)
    matches = [s for s in spans if s.start <= alarm.when <= s.end + GRACE and s.entities & told]
    if not matches:
        return None
    return max(matches, key=lambda s: (len(s.entities & told), s.start))


_SEVERITY_RANK = {"low": 0, "medium": 1, "high": 2, "critical": 3}


def escalations(alarms: Sequence[Alarm]) -> int:
    """The alarms that told an anomaly again because it became graver (see above)."""
    count = 0
    worst: dict[str, int] = {}
    for alarm in alarms:
        severity = _SEVERITY_RANK.get(alarm.severity, 0)
        before = worst.get(alarm.anomaly_id)
        if before is not None and alarm.escalation and severity > before:
            count += 1
        worst[alarm.anomaly_id] = max(severity, -1 if before is None else before)
    return count


def _percentile(values: Sequence[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    rank = max(0, math.ceil(q / 100 * len(ordered)) - 1)
    return round(ordered[rank], 1)


def _jaccard(expected: set[str], told: set[str]) -> float:
    union = expected | told
    return len(expected & told) / len(union) if union else 1.0


def _alarm_row(alarm: Alarm, tz: tzinfo) -> dict[str, Any]:
    return {
        "time": alarm.when.astimezone(tz).isoformat(timespec="seconds"),
        "entities": alarm.evidence,
        "rule": alarm.rule,
        "anomaly_type": alarm.anomaly_type,
        "severity": alarm.severity,
        "told": alarm.reasoning,
        "recommendation": alarm.recommendation,
        "escalation": alarm.escalation or None,
        "anomaly_id": alarm.anomaly_id,
    }


def _first_shown(plan: Plan) -> dict[str, datetime]:
    """Per incident, when the home first showed it: its first own change of one of its
    evidence entities (its start when it changes none)."""
    evidence = {span.id: span.spec.get("evidence", ()) for span in plan.incidents}
    shown: dict[str, datetime] = {}
    for step in plan.steps:
        if not isinstance(step, Change) or ":" not in step.source:
            continue
        incident = step.source.split(":", 1)[1]
        if incident not in shown and step.entity_id in evidence.get(incident, ()):
            shown[incident] = step.when
    return shown


def score_run(record: RunRecord) -> dict[str, Any]:
    """Per-scenario scores with one row per incident, false alarm and feedback."""
    plan, seen = record.plan, record.seen
    tz = record.scenario.tz
    spans = plan.incidents
    by_incident: dict[str, list[Alarm]] = {s.id: [] for s in spans}
    false_rows: list[dict[str, Any]] = []
    for alarm in seen.alarms:
        span = attribute(alarm, spans)
        if span is not None and span.spec["expect"] in ("notify", "either"):
            by_incident[span.id].append(alarm)  # either: neither false nor required
        else:
            false_rows.append(
                _alarm_row(alarm, tz)
                | {"during_quiet_event": span.id if span is not None else None}
            )
    incident_rows, latencies, jaccards = [], [], []
    notified = safety = safety_on_time = safety_on_time_shown = re_raises = escalated = 0
    counts: list[int] = []
    shown = _first_shown(plan)
    for span in spans:
        spec = span.spec
        if spec["expect"] != "notify":
            continue
        alarms = by_incident[span.id]
        row: dict[str, Any] = {
            "id": span.id,
            "class": spec["class"],
            "start": span.start.astimezone(tz).isoformat(timespec="seconds"),
            "end": span.end.astimezone(tz).isoformat(timespec="seconds"),
            "expected_evidence": sorted(spec["evidence"]),
            "notified": bool(alarms),
            "notifications": len(alarms),
        }
        is_safety = spec["class"] in SAFETY_CLASSES
        safety += is_safety
        if alarms:
            first = alarms[0]
            latency = (first.when - span.start).total_seconds()
            jaccard = _jaccard(set(spec["evidence"]), set(first.evidence))
            on_time = latency <= within_minutes(spec) * 60
            notified += 1
            latencies.append(latency)
            jaccards.append(jaccard)
            counts.append(len(alarms))
            graver = escalations(alarms)
            escalated += graver
            re_raises += len(alarms) - 1 - graver
            safety_on_time += is_safety and on_time
            # From the first moment the home's sensors showed it (a smoke alarm written
            # minutes after the act that caused it cannot be told before it goes on).
            since_shown = (first.when - shown.get(span.id, span.start)).total_seconds()
            on_time_shown = since_shown <= within_minutes(spec) * 60
            safety_on_time_shown += is_safety and on_time_shown
            row |= {
                "latency_s": round(latency, 1),
                "on_time": on_time,
                "latency_from_shown_s": round(since_shown, 1),
                "on_time_from_shown": on_time_shown,
                "evidence_jaccard": round(jaccard, 3),
                "escalations": graver,
                "told": [_alarm_row(a, tz) for a in alarms],
            }
        incident_rows.append(row)
    incidents = len(incident_rows)
    weeks = (plan.end - record.scenario.start).total_seconds() / 86400 / WEEK_DAYS
    feedback_rows = score_feedback(record, by_incident)
    judged = [r for r in feedback_rows if r["status"] != "not_told"]
    honoured = sum(r["honoured"] for r in judged)
    either = [s for s in spans if s.spec["expect"] == "either"]
    lost = sum(r["lost"] for r in seen.restarts)
    return {
        "name": record.scenario.name,
        "file": str(record.scenario.path),
        "days": round(weeks * WEEK_DAYS, 2),
        "error": record.error,
        "incidents": incidents,
        "notified": notified,
        "recall": round(notified / incidents, 3) if incidents else None,
        "safety_incidents": safety,
        "safety_recall": round(safety_on_time / safety, 3) if safety else None,
        "safety_recall_from_shown": round(safety_on_time_shown / safety, 3) if safety else None,
        "evidence_jaccard": round(sum(jaccards) / len(jaccards), 3) if jaccards else None,
        "latency_p50_s": _percentile(latencies, 50),
        "latency_p95_s": _percentile(latencies, 95),
        "notifications_per_incident": round(sum(counts) / len(counts), 2) if counts else None,
        "re_raises": re_raises,
        "escalations": escalated,
        "false_alarms": len(false_rows),
        "false_alarms_per_week": round(len(false_rows) / weeks, 2) if weeks else None,
        "quiet_events": sum(s.spec["expect"] == "quiet" for s in spans),
        "quiet_events_alarmed": len(
            {r["during_quiet_event"] for r in false_rows if r["during_quiet_event"]}
        ),
        "either_events": len(either),
        "either_alarmed": sum(bool(by_incident[s.id]) for s in either),
        "feedback": len(feedback_rows),
        "feedback_honoured": round(honoured / len(judged), 3) if judged else None,
        "feedback_not_possible": sum(r["status"] == "not_possible" for r in feedback_rows),
        "feedback_not_told": len(feedback_rows) - len(judged),
        "restarts": len(seen.restarts),
        "lost_on_restart": lost,
        "temperature_unit": record.temperature_unit,
        "alarms": len(seen.alarms),
        "notifications_created": len(seen.notices),
        "cleared_events": len(seen.cleared),
        "wall_s": round(record.wall_s, 1),
        "state_changes": plan.stats.get("changes", 0),
        "timer_steps": record.timer_steps,
        "incident_rows": incident_rows,
        "false_alarm_rows": false_rows,
        "feedback_rows": feedback_rows,
        "restart_rows": seen.restarts,
    }


def score_feedback(record: RunRecord, by_incident: dict[str, list[Alarm]]) -> list[dict[str, Any]]:
    """Was each homeowner action honoured?

    - acknowledge / false_alarm: the flow finished and the incident was not notified again;
    - false_alarm on a safety hazard: a later hazard on the same entities still notified;
    - remove_mark: the action succeeded and later incidents on those entities notified.
    """
    spans = {s.id: s for s in record.plan.incidents}
    rows = []
    for result in record.feedback:
        span = spans[result.incident]
        after = [a for a in by_incident.get(span.id, []) if a.when > result.when]
        later = [
            s
            for s in record.plan.incidents
            if s.start > result.when and s.spec["expect"] == "notify" and s.entities & span.entities
        ]
        reasons = [] if result.done else [result.detail]
        if not result.told:  # nothing to act on: a detection miss, not a feedback failure
            rows.append(_feedback_row(record, result, "not_told", False, reasons))
            continue
        if result.action in ("acknowledge", "false_alarm") and after:
            reasons.append(f"notified again {len(after)} time(s) after the {result.action}")
        must_notify = result.action == "remove_mark" or (
            result.action == "false_alarm" and span.spec["class"] in SAFETY_CLASSES
        )
        if must_notify:
            missed = [s.id for s in later if not by_incident.get(s.id)]
            if missed:
                reasons.append(
                    f"later incident(s) on these entities not notified: {', '.join(missed)} "
                    "(the mark, or a detection miss: see the incident's row)"
                )
        status = "done" if result.done else ("failed" if result.possible else "not_possible")
        rows.append(_feedback_row(record, result, status, not reasons, reasons))
    return rows


def _feedback_row(
    record: RunRecord, result: FeedbackResult, status: str, honoured: bool, reasons: list[str]
) -> dict[str, Any]:
    return {
        "time": result.when.astimezone(record.scenario.tz).isoformat(timespec="seconds"),
        "action": result.action,
        "incident": result.incident,
        "done": result.done,
        "status": status,
        "detail": result.detail,
        "honoured": honoured,
        "why_not": "; ".join(reasons),
    }


def overall(scores: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Pooled over every scenario (false alarms per home-week)."""
    rows = [r for s in scores for r in s["incident_rows"]]
    told = [r for r in rows if r["notified"]]
    safety = [r for r in rows if r["class"] in SAFETY_CLASSES]
    latencies = [r["latency_s"] for r in told]
    weeks = sum(s["days"] for s in scores) / WEEK_DAYS
    false_alarms = sum(s["false_alarms"] for s in scores)
    feedback = [f for s in scores for f in s["feedback_rows"]]
    judged = [f for f in feedback if f["status"] != "not_told"]
    return {
        "scenarios": len(scores),
        "errors": sum(1 for s in scores if s["error"]),
        "incidents": len(rows),
        "notified": len(told),
        "recall": round(len(told) / len(rows), 3) if rows else None,
        "safety_incidents": len(safety),
        "safety_recall": round(sum(1 for r in safety if r.get("on_time")) / len(safety), 3)
        if safety
        else None,
        "safety_recall_from_shown": round(
            sum(1 for r in safety if r.get("on_time_from_shown")) / len(safety), 3
        )
        if safety
        else None,
        "evidence_jaccard": round(sum(r["evidence_jaccard"] for r in told) / len(told), 3)
        if told
        else None,
        "latency_p50_s": _percentile(latencies, 50),
        "latency_p95_s": _percentile(latencies, 95),
        "notifications_per_incident": round(sum(r["notifications"] for r in told) / len(told), 2)
        if told
        else None,
        "re_raises": sum(s["re_raises"] for s in scores),
        "escalations": sum(s.get("escalations", 0) for s in scores),
        "false_alarms": false_alarms,
        "false_alarms_per_week": round(false_alarms / weeks, 2) if weeks else None,
        "quiet_events": sum(s["quiet_events"] for s in scores),
        "quiet_events_alarmed": sum(s["quiet_events_alarmed"] for s in scores),
        "either_events": sum(s["either_events"] for s in scores),
        "either_alarmed": sum(s["either_alarmed"] for s in scores),
        "feedback": len(feedback),
        "feedback_not_possible": sum(f["status"] == "not_possible" for f in feedback),
        "feedback_not_told": len(feedback) - len(judged),
        "feedback_honoured": round(sum(f["honoured"] for f in judged) / len(judged), 3)
        if judged
        else None,
        "restarts": sum(s["restarts"] for s in scores),
        "lost_on_restart": sum(s["lost_on_restart"] for s in scores),
        "wall_s": round(sum(s["wall_s"] for s in scores), 1),
        "cpu_s": round(sum(s.get("cpu_s", 0.0) for s in scores), 1),
    }
