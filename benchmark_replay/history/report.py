"""What the monitor would have told: every notification, per week, per entity, per day.

``report.json`` (everything), ``report.md`` (for the homeowner) and ``alarms_per_day.png``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from datetime import date, datetime, timedelta
import json
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from ..home.observer import Alarm, Notice, Observations
from .plot import write_plot
from .runner import HistoryRecord

PLOT_FILE = "alarms_per_day.png"


def _title(alarm: Alarm, notices: list[Notice]) -> str:
    """The persistent notification's title shown with this alarm (its id ends with the
    anomaly's id), the first one created at or after the alarm."""
    suffix = f"_{alarm.anomaly_id}"
    for notice in notices:
        if notice.notification_id.endswith(suffix) and notice.when >= alarm.when:
            return notice.title
    return ""


def alarm_rows(seen: Observations, zone: ZoneInfo) -> list[dict[str, Any]]:
    """One row per notification the monitor would have sent, in time order."""
    return [
        {
            "time": alarm.when.astimezone(zone).isoformat(timespec="seconds"),
            "title": _title(alarm, seen.notices),
            "rule": alarm.rule,
            "severity": alarm.severity,
            "type": alarm.anomaly_type,
            "evidence": list(alarm.evidence),
            "reasoning": alarm.reasoning,
            "recommendation": alarm.recommendation,
            "anomaly_id": alarm.anomaly_id,
        }
        for alarm in sorted(seen.alarms, key=lambda a: a.when)
    ]


def _days(first: date, last: date) -> list[date]:
    return [first + timedelta(days=i) for i in range((last - first).days + 1)]


def summarise(
    record: HistoryRecord, zone: ZoneInfo, header: Mapping[str, Any], read: Mapping[str, Any]
) -> dict[str, Any]:
    """The whole report as one document."""
    alarms = alarm_rows(record.seen, zone)
    per_day: Counter[str] = Counter(a["time"][:10] for a in alarms)
    per_week: Counter[str] = Counter()
    per_entity: Counter[str] = Counter()
    per_rule: Counter[str] = Counter()
    for alarm in alarms:
        year, week, _ = datetime.fromisoformat(alarm["time"]).isocalendar()
        per_week[f"{year}-W{week:02d}"] += 1
        per_entity.update(set(alarm["evidence"]))
        per_rule[alarm["rule"]] += 1
    days: list[str] = []
    if record.first and record.last:
        days = [
            d.isoformat()
            for d in _days(
                record.first.astimezone(zone).date(), record.last.astimezone(zone).date()
            )
        ]
    span_days = (
        (record.last - record.first).total_seconds() / 86400 if record.first and record.last else 0
    )
    return {
        "header": dict(header),
        "history": {
            "first": record.first.astimezone(zone).isoformat(timespec="seconds")
            if record.first
            else None,
            "last": record.last.astimezone(zone).isoformat(timespec="seconds")
            if record.last
            else None,
            "days": round(span_days, 2),
            "rows_replayed": record.rows,
            "rows_of_the_monitor_itself": record.skipped_own,
            "entities": len(record.entities),
            "restarts": [t.astimezone(zone).isoformat(timespec="seconds") for t in record.restarts],
            "read": dict(read),
        },
        "run": {
            "wall_s": round(record.wall_s, 1),
            "rows_per_s": round(record.rows / record.wall_s) if record.wall_s else None,
            "cpu_s": round(record.cpu_s, 1),
            "parts": record.parts,  # (``--jobs``: each part's rows, wall and CPU)
            "timer_steps": record.timer_steps,
            "error": record.error,
        },
        "notifications": len(alarms),
        "per_week": dict(sorted(per_week.items())),
        "per_day": {d: per_day.get(d, 0) for d in days},
        "per_entity": dict(per_entity.most_common()),
        "per_rule": dict(per_rule.most_common()),
        "alarms": alarms,
    }


def markdown(document: Mapping[str, Any], plot: str | None) -> str:
    """The homeowner's report."""
    history, run = document["history"], document["run"]
    lines = ["# What the monitor would have told", ""]
    lines += [f"- {key}: {value}" for key, value in document["header"].items()]
    lines += [
        f"- history: {history['first']} → {history['last']} ({history['days']} days), "
        f"{history['rows_replayed']} rows, {history['entities']} entities, "
        f"{len(history['restarts'])} restart(s)",
        f"- rows skipped as unreadable: {history['read'].get('bad_rows', 0)}"
        + (f" ({history['read'].get('bad_by_reason')})" if history["read"].get("bad_rows") else ""),
        f"- replay: {run['wall_s']} s ({run['rows_per_s']} rows/s), {run['cpu_s']} s of CPU",
    ]
    lines += [
        f"- part {i}: {part['rows']} rows, {part['wall_s']} s, {part['cpu_s']} s of CPU"
        for i, part in enumerate(run["parts"], 1)
    ]
    if run["error"]:
        lines.append(f"- **the replay stopped early**: `{run['error']}`")
    lines += ["", f"**{document['notifications']} notification(s).**", ""]
    lines.append(plot or "(no plot: see the message above)")
    lines += ["", "## Per week", "", "| week | notifications |", "|---|---|"]
    lines += [f"| {week} | {count} |" for week, count in document["per_week"].items()]
    lines += ["", "## Per entity (in the evidence)", "", "| entity | notifications |", "|---|---|"]
    lines += [f"| {entity} | {count} |" for entity, count in document["per_entity"].items()]
    lines += ["", "## Per rule", "", "| rule | notifications |", "|---|---|"]
    lines += [f"| {rule} | {count} |" for rule, count in document["per_rule"].items()]
    lines += ["", "## Every notification", "", "| time | title | rule | severity | evidence |"]
    lines.append("|---|---|---|---|---|")
    for alarm in document["alarms"]:
        title = alarm["title"].replace("|", "\\|")[:120]
        lines.append(
            f"| {alarm['time']} | {title} | {alarm['rule']} | {alarm['severity']} | "
            f"{', '.join(alarm['evidence'])} |"
        )
    return "\n".join(lines) + "\n"


def write(out: Path, document: dict[str, Any]) -> str:
    """Write the JSON, the plot and the Markdown; return the Markdown."""
    out.mkdir(parents=True, exist_ok=True)
    plot_note = write_plot(out / PLOT_FILE, document["per_day"])
    document["plot"] = plot_note
    (out / "report.json").write_text(json.dumps(document, indent=2, default=str), encoding="utf-8")
    shown = f"![alarms per day]({PLOT_FILE})" if plot_note.startswith("written") else plot_note
    text = markdown(document, shown)
    (out / "report.md").write_text(text, encoding="utf-8")
    return text
