"""Replay homes printing, per analysis in a time range, each raw finding and what the learned
normal made of it: dropped (by which filter), reworded, kept; and the baselines' own findings.

Usage (from the repository, one home, in-process: ``--workers 1``):
    PROBE_FROM=2026-03-02T18:00:00+01:00 PROBE_TO=2026-03-02T20:00:00+01:00 \
    PROBE_RULES=entry_left_open,somebody_in \
    .venv/bin/python scripts/probe_findings.py home --scenario FILE.yaml --workers 1 \
        --out /tmp/probe

PROBE_RULES empty or unset: every rule. PROBE_STILL=1: also, per analysis, the quiet
``still_where_last_seen`` reads (since, room, limit, the hours' usual) or None. Times are
ISO with an offset; the window's end is compared. Tells at once whether a rule never fired
in that range or was judged usual, and which filter judged it (the lines go to stderr,
prefixed ``PROBE``).
"""

from __future__ import annotations

from datetime import datetime
import os
from pathlib import Path
import sys

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmark_replay.cli import main
from custom_components.anomaly_monitor.core import combined_detector as cd

_FROM = datetime.fromisoformat(os.environ.get("PROBE_FROM", "1970-01-01T00:00:00+00:00"))
_TO = datetime.fromisoformat(os.environ.get("PROBE_TO", "2999-01-01T00:00:00+00:00"))
_RULES = {r for r in os.environ.get("PROBE_RULES", "").split(",") if r}
_FILTERS = (
    "explained_by_baselines",
    "usual_extreme",
    "usual_outage",
    "judged_by_usual",
    "told_as_routine",
)
_now: list[datetime | None] = [None]


def _wanted(finding: cd.Finding) -> bool:
    return _now[0] is not None and (not _RULES or finding.rule in _RULES)


def _say(text: str) -> None:
    print(f"PROBE {_now[0].isoformat() if _now[0] else '-'} {text}", file=sys.stderr)


def _line(finding: cd.Finding) -> str:
    return (
        f"{finding.rule} {finding.severity.name} subject={finding.subject} "
        f"evidence={list(finding.evidence)} :: {finding.reasoning[:200]}"
    )


def _wrap_filter(name: str) -> None:
    real = getattr(cd, name)

    def probed(*args, **kwargs):  # type: ignore[no-untyped-def]
        result = real(*args, **kwargs)
        # The finding is not always the first argument (``usual_extreme(home, baselines, f)``).
        finding = next((a for a in args if isinstance(a, cd.Finding)), None)
        if finding is not None and _wanted(finding):
            if name in ("explained_by_baselines", "usual_extreme", "usual_outage") and result:
                _say(f"DROP by {name}: {_line(finding)}")
            elif name == "judged_by_usual" and result is None:
                _say(f"DROP by judged_by_usual: {_line(finding)}")
            elif name in ("judged_by_usual", "told_as_routine") and result is not finding:
                _say(f"RE-JUDGED by {name}: {_line(result)}")
        return result

    setattr(cd, name, probed)


def _install() -> None:
    for name in _FILTERS:
        _wrap_filter(name)
    real_baseline_findings = cd.baseline_findings

    def baseline_findings(home, *args, **kwargs):  # type: ignore[no-untyped-def]
        found = real_baseline_findings(home, *args, **kwargs)
        for finding in found:
            if _wanted(finding):
                _say(f"BASELINE {_line(finding)}")
        return found

    cd.baseline_findings = baseline_findings
    real_with = cd.CombinedDetector._with_baselines

    def with_baselines(self, found, home):  # type: ignore[no-untyped-def]
        end = home.window.end
        _now[0] = end if end is not None and _FROM <= end <= _TO else None
        for finding in found:
            if _wanted(finding):
                _say(f"RAW {_line(finding)}")
        kept = real_with(self, found, home)
        for finding in kept:
            if _wanted(finding):
                _say(f"KEPT {_line(finding)}")
        _now[0] = None
        return kept

    cd.CombinedDetector._with_baselines = with_baselines
    if os.environ.get("PROBE_STILL"):
        from custom_components.anomaly_monitor.core.baselines import still_where_last_seen as sw

        real_still = sw.still_home

        def still(home, baselines):  # type: ignore[no-untyped-def]
            found = real_still(home, baselines)
            end = home.window.end
            if end is not None and _FROM <= end <= _TO:
                text = (
                    "None"
                    if found is None
                    else (
                        f"since={found.since.isoformat()} area={found.area} limit={found.limit} "
                        f"usual={found.usual} room={found.room} trip={found.trip is not None} "
                        f"door={found.door is not None} bed={found.bed is not None} "
                        f"untracked={found.untracked} occ={home.occupancy}"
                    )
                )
                print(f"PROBE {end.isoformat()} STILL {text}", file=sys.stderr)
            return found

        sw.still_home = still


if __name__ == "__main__":
    _install()
    sys.exit(main())
