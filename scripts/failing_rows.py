"""Print the failing rows of home replay reports, one line each, to class them across sets.

Usage: python3 scripts/failing_rows.py OUT/SET/report.json ...
MISS never told, LATE told after its window, RR told more than once (a re-raise), ESC told again
only as escalations (the same anomaly graver: the scorer counts those apart), FA a false
alarm, FB feedback not honoured.
"""

import json
from pathlib import Path
import sys


def _incident_lines(row: dict) -> list[str]:
    tag = "MISS" if not row["notified"] else ("LATE" if not row["on_time"] else "")
    extra = row.get("notifications", 1) - 1
    if extra > 0:
        # An escalation (the same anomaly told again graver) is no re-raise: shown as ESC.
        again = "ESC" if extra == row.get("escalations", 0) else "RR"
        tag = f"{tag}+{again}" if tag else again
    if not tag:
        return []
    lines = [
        f" {tag} {row['id']} {row['class']} {row['start']} {row['end']} "
        f"{row['expected_evidence']} lat {row.get('latency_s')} n={row.get('notifications')}"
    ]
    lines += [
        f"     told {t['time']} {t['rule']} {t['entities']} esc={t.get('escalation')} "
        f"{t['told'][:220]}"
        for t in row.get("told", [])
    ]
    return lines


def main(paths: list[str]) -> None:
    """Print every failing row of each report."""
    for path in paths:
        report = json.loads(Path(path).read_text(encoding="utf-8"))
        for home in report["scenarios"]:
            print(
                f"=== {home['file'].split('/')[-1]}  recall {home['recall']} "
                f"FA {home['false_alarms']} rr {home['re_raises']} "
                f"fb {home['feedback_honoured']} safety {home['safety_recall']}"
            )
            for row in home["incident_rows"]:
                for line in _incident_lines(row):
                    print(line)
            for fa in home["false_alarm_rows"]:
                print(
                    f" FA {fa['time']} {fa['rule']} {fa['entities']} "
                    f"q={fa.get('during_quiet_event')} {fa['told'][:260]}"
                )
            for fb in home["feedback_rows"]:
                if not fb["honoured"]:
                    why = fb.get("why_not", "")[:200]
                    print(f" FB {fb['time']} {fb['action']} {fb['incident']} {why}")


if __name__ == "__main__":
    main(sys.argv[1:])
