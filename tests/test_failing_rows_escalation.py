"""``scripts/failing_rows.py`` tells a re-raise from an escalation: an incident told twice
where the second telling is the same anomaly graver is ESC (the scorer counts it apart), a
second telling of another anomaly is RR."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

_PATH = Path(__file__).parents[1] / "scripts" / "failing_rows.py"
_SPEC = importlib.util.spec_from_file_location("failing_rows", _PATH)
assert _SPEC is not None
assert _SPEC.loader is not None
failing_rows = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(failing_rows)


def _row(escalations: int | None) -> dict[str, Any]:
    told = {"time": "t", "rule": "r", "entities": [], "escalation": None, "told": "x"}
    row: dict[str, Any] = {
        "id": "door",
        "class": "intrusion",
        "start": "s",
        "end": "e",
        "expected_evidence": [],
        "notified": True,
        "on_time": True,
        "notifications": 2,
        "told": [told, told],
    }
    if escalations is not None:
        row["escalations"] = escalations
    return row


def test_an_escalation_is_not_shown_as_a_re_raise() -> None:
    assert failing_rows._incident_lines(_row(1))[0].startswith(" ESC door")
    assert failing_rows._incident_lines(_row(0))[0].startswith(" RR door")
    assert failing_rows._incident_lines(_row(None))[0].startswith(" RR door")  # older report
