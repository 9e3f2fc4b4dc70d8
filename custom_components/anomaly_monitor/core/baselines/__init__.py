"""What is normal for this home, learned from its own history (no Home Assistant import).

``HomeBaselines`` learns incrementally from transitions (recorder history on start, then
the live stream); ``detectors`` flags departures from it. See docs/detection.md.
"""

from __future__ import annotations

from .detectors import BASELINE_CHECKS, baseline_findings
from .home_baselines import BASELINE_VERSION, HomeBaselines

__all__ = ["BASELINE_CHECKS", "BASELINE_VERSION", "HomeBaselines", "baseline_findings"]
