"""``report.json`` and ``report.md``: scores, targets, every incident and false alarm."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
import json
from pathlib import Path
from typing import Any

COLUMNS = (
    ("incidents", "incidents"),
    ("notified", "notified"),
    ("recall", "recall"),
    ("safety_recall", "safety ≤ 2 min"),
    ("safety_recall_from_shown", "≤ 2 min of its sensor"),
    ("evidence_jaccard", "evidence J"),
    ("latency_p50_s", "p50 s"),
    ("latency_p95_s", "p95 s"),
    ("notifications_per_incident", "notif./incident"),
    ("re_raises", "re-raises"),
    ("escalations", "told graver"),
    ("false_alarms", "false alarms"),
    ("false_alarms_per_week", "FA/week"),
    ("feedback_honoured", "feedback"),
    ("lost_on_restart", "lost on restart"),
    ("wall_s", "wall s"),
    ("cpu_s", "CPU s"),
)


def targets(total: Mapping[str, Any]) -> list[tuple[str, bool | None, str]]:
    """The issue's targets against the pooled scores: (target, met, figure)."""

    def at_least(key: str, floor: float) -> bool | None:
        value = total.get(key)
        return None if value is None else value >= floor

    def at_most(key: str, ceiling: float) -> bool | None:
        value = total.get(key)
        return None if value is None else value <= ceiling

    return [
        (
            "safety incidents notified within 2 min: 100 %",
            at_least("safety_recall", 1.0),
            str(total.get("safety_recall")),
        ),
        (
            "safety incidents notified within 2 min of the home's sensors showing them: 100 %",
            at_least("safety_recall_from_shown", 1.0),
            str(total.get("safety_recall_from_shown")),
        ),
        ("incidents notified: ≥ 95 %", at_least("recall", 0.95), str(total.get("recall"))),
        ("re-raises: 0", at_most("re_raises", 0), str(total.get("re_raises"))),
        (
            "false alarms per home-week: ≤ 1",
            at_most("false_alarms_per_week", 1.0),
            str(total.get("false_alarms_per_week")),
        ),
        (
            "feedback honoured: 100 %",
            at_least("feedback_honoured", 1.0),
            f"{total.get('feedback_honoured')} ({total.get('feedback_not_told', 0)} on "
            "incidents never told, not judged)",
        ),
        (
            "lost across restarts: 0",
            at_most("lost_on_restart", 0),
            str(total.get("lost_on_restart")),
        ),
        (
            "all scenarios together: ≤ 300 s elapsed (2 workers)",
            at_most("elapsed_s", 300),
            f"{total.get('elapsed_s')} s elapsed, {total.get('cpu_s')} s CPU",
        ),
    ]


def _cell(value: Any) -> str:
    return "–" if value is None else str(value)


def markdown(
    scores: Sequence[Mapping[str, Any]], total: Mapping[str, Any], header: Mapping[str, str]
) -> str:
    """The human report."""
    lines = ["# Lived-in home benchmark", ""]
    lines += [f"- {key}: {value}" for key, value in header.items()]
    lines += ["", "| scenario | " + " | ".join(label for _, label in COLUMNS) + " |"]
    lines.append("|---" * (len(COLUMNS) + 1) + "|")
    for score in scores:
        name = score["name"] + (" (ERROR)" if score.get("error") else "")
        lines.append(f"| {name} | " + " | ".join(_cell(score.get(k)) for k, _ in COLUMNS) + " |")
    lines.append("| **overall** | " + " | ".join(_cell(total.get(k)) for k, _ in COLUMNS) + " |")
    lines += ["", "## Targets", ""]
    for target, met, figure in targets(total):
        mark = "n/a" if met is None else ("met" if met else "**missed**")
        lines.append(f"- {target}: {figure} — {mark}")
    for score in scores:
        lines += ["", f"## {score['name']}", ""]
        if score.get("error"):
            lines += [f"Run failed: `{score['error']}`", ""]
        lines.append("| incident | class | notified | latency s | J | notif. | told |")
        lines.append("|---|---|---|---|---|---|---|")
        for row in score["incident_rows"]:
            told = row.get("told") or []
            what = "; ".join(
                f"{t['rule']} ({t['severity']}): {', '.join(t['entities'])}" for t in told
            )
            lines.append(
                f"| {row['id']} | {row['class']} | {'yes' if row['notified'] else '**no**'} | "
                f"{_cell(row.get('latency_s'))} | {_cell(row.get('evidence_jaccard'))} | "
                f"{row['notifications']} | {what[:160] or '–'} |"
            )
        if score.get("either_events"):
            lines += [
                "",
                f"'Either' events: {score['either_events']}, "
                f"{score['either_alarmed']} raised something (neither counts).",
            ]
        if score["false_alarm_rows"]:
            lines += ["", "False alarms:", ""]
            for row in score["false_alarm_rows"]:
                quiet = (
                    f" during quiet event {row['during_quiet_event']}"
                    if row["during_quiet_event"]
                    else ""
                )
                lines.append(
                    f"- {row['time']}{quiet}: {row['rule']} ({row['severity']}) on "
                    f"{', '.join(row['entities'])}"
                )
        if score["feedback_rows"]:
            lines += ["", "Feedback:", ""]
            for row in score["feedback_rows"]:
                verdict = (
                    "not judged (never told: a detection miss, see its row)"
                    if row["status"] == "not_told"
                    else "honoured"
                    if row["honoured"]
                    else f"**not honoured** ({row['why_not']})"
                )
                lines.append(f"- {row['time']} {row['action']} on {row['incident']}: {verdict}")
        for row in score["restart_rows"]:
            lines.append(
                f"- restart at {row['when']}: notifications {row['notifications_before']} → "
                f"{row['notifications_after']}, repair issues {row['issues_before']} → "
                f"{row['issues_after']}, lost {row['lost']}, cleared after it "
                f"{len(row.get('cleared_after_restart', []))}, over past their day while down "
                f"{len(row.get('expired_while_down', []))}"
            )
    return "\n".join(lines) + "\n"


def write(
    out: Path,
    scores: Sequence[Mapping[str, Any]],
    total: Mapping[str, Any],
    header: Mapping[str, str],
) -> str:
    """Write both files; return the Markdown."""
    out.mkdir(parents=True, exist_ok=True)
    document = {"header": dict(header), "overall": dict(total), "scenarios": list(scores)}
    (out / "report.json").write_text(json.dumps(document, indent=2, default=str), encoding="utf-8")
    text = markdown(scores, total, header)
    (out / "report.md").write_text(text, encoding="utf-8")
    return text
