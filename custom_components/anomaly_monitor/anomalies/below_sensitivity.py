"""Open anomalies the sensitivity no longer shows: withdrawn, not told over.

Walk of session 26: a boiler's routine flag, told low at sensitivity high, was open when
the homeowner set the sensitivity back to medium; two minutes later it read "Over since
20:21" (``anomaly_cleared``, ``resolved``) while the sensor still read "Problem". Nothing
was over: the homeowner asked not to be shown such findings. An options change reloads
the monitor, so when it starts, an open anomaly below the lowest severity the sensitivity
shows (``core.checks.SENSITIVITY_THRESHOLDS``) is withdrawn: its notification and repair
issue go, and if it was told on the bus an ``anomaly_cleared`` event says ``withdrawn``.
Only an anomaly whose every member the rules and statistics found: they honour the
sensitivity, so one of theirs below it was opened at a higher one; a model's finding does
not (an LLM-only monitor may tell a low one at any sensitivity). Ended anomalies stay:
their "Over: ..." notices still take feedback.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..core.checks import SENSITIVITY_THRESHOLDS
from ..core.llm.parsing import LLM_RULE
from ..core.models import Severity
from .open_anomaly import OpenAnomaly, rank

# ``anomaly_cleared``'s ``reason`` for an anomaly withdrawn so.
WITHDRAWN = "withdrawn"


def below_sensitivity(open_now: Mapping[str, OpenAnomaly], sensitivity: str) -> list[OpenAnomaly]:
    """The open anomalies the rules found below what ``sensitivity`` shows."""
    lowest = SENSITIVITY_THRESHOLDS.get(sensitivity, Severity.MEDIUM)
    return [
        anomaly
        for anomaly in open_now.values()
        if rank(anomaly.severity) < lowest.rank
        and LLM_RULE not in anomaly.rules
        and anomaly.rule != LLM_RULE
    ]
