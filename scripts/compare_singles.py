#!/usr/bin/env python3
"""compare_singles.py BASE SINGLES [BASE_SINGLES]: each home replayed alone
(SINGLES/SET/HOME/report.json, from `python -m benchmark_replay home --scenario
benchmark_replay/home/SET/HOME.yaml --out SINGLES/SET/HOME`) against the same home in a
whole-set measurement (BASE/SET/report.json, as `scripts/measure_sets.sh` writes it), or
against the same home replayed alone on the base (BASE_SINGLES/SET/HOME/report.json) when
given and present. Per home: the figures, every incident told at another time or another
number of times, every false alarm gone or new; then the totals."""

import json
import pathlib
import sys

base, new = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
base_singles = pathlib.Path(sys.argv[3]) if len(sys.argv) > 3 else None
totals = {"told": 0, "lost": 0, "fa_gone": 0, "fa_new": 0}


def base_report(set_name: str, home: str) -> dict | None:
    if base_singles and (base_singles / set_name / home / "report.json").exists():
        return json.loads((base_singles / set_name / home / "report.json").read_text())
    if (base / set_name / "report.json").exists():
        return json.loads((base / set_name / "report.json").read_text())
    return None


def first_told(row: dict) -> str | None:
    return row.get("told", [{}])[0].get("time") if row.get("notified") else None


def incident_lines(old: dict, now: dict) -> list[str]:
    lines = []
    before = {r["id"]: r for r in old["incident_rows"]}
    for row in now["incident_rows"]:
        was = before.get(row["id"], {})
        t_was, t_now = first_told(was), first_told(row)
        n_was, n_now = was.get("notifications"), row.get("notifications")
        if t_was != t_now or n_was != n_now:
            what = f"{row['id'][:44]:44} {t_was} x{n_was} -> {t_now} x{n_now}"
            lines.append(f"    {what} ({row.get('class')})")
            totals["lost"] += bool(was.get("notified") and not row.get("notified"))
            totals["told"] += bool(row.get("notified") and not was.get("notified"))
    return lines


def false_alarm_lines(old: dict, now: dict) -> list[str]:
    was = {(f["time"], f["rule"]) for f in old["false_alarm_rows"]}
    is_ = {(f["time"], f["rule"]) for f in now["false_alarm_rows"]}
    totals["fa_gone"] += len(was - is_)
    totals["fa_new"] += len(is_ - was)
    gone = [f"    FA gone {t} {rule}" for t, rule in sorted(was - is_)]
    return gone + [f"    FA NEW  {t} {rule}" for t, rule in sorted(is_ - was)]


for path in sorted(new.glob("*/*/report.json")):
    set_name, home = path.parent.parent.name, path.parent.name
    old_report = base_report(set_name, home)
    if old_report is None:
        print(f"{set_name}/{home}: no base")
        continue
    by_name = {s["name"]: s for s in old_report["scenarios"]}
    for now in json.loads(path.read_text())["scenarios"]:
        old = by_name.get(now["name"])
        if old is None:
            print(f"{set_name}/{home}: base lacks {now['name']}")
            continue
        lines = incident_lines(old, now) + false_alarm_lines(old, now)
        figures = "  ".join(
            f"{key} {old[key]}->{now[key]}"
            for key in ("recall", "false_alarms", "re_raises", "feedback_honoured")
        )
        print(f"{set_name}/{home[:40]}: {figures}" + ("" if lines else "  (same)"))
        for line in lines:
            print(line)
print("TOTAL", totals)
