"""What one analysis returns: the verdict and what the window looked like."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from homeassistant.util import dt as dt_util

from ..core.models import ContextWindow, Verdict


@dataclass(frozen=True, slots=True)
class AnalysisResult:
    """One analysis: the verdict and what the window looked like."""

    verdict: Verdict
    analysed_at: datetime
    entities: int
    transitions: int
    entries: int
    raw_tokens: int
    tokens: int
    compression_ratio: float
    start: datetime | None
    end: datetime | None

    @classmethod
    def of(cls, verdict: Verdict, window: ContextWindow, now: datetime) -> AnalysisResult:
        """Summarise ``window`` next to its verdict."""
        sequence = window.sequence
        return cls(
            verdict=verdict,
            analysed_at=now,
            entities=len(window.snapshot),
            transitions=sequence.raw_count,
            entries=len(sequence.entries),
            raw_tokens=sequence.raw_tokens,
            tokens=sequence.tokens,
            compression_ratio=round(sequence.ratio, 3),
            start=window.start,
            end=window.end,
        )

    def as_dict(self) -> dict[str, Any]:
        """The service response and diagnostics form."""
        return {
            "verdict": self.verdict.as_dict(),
            "analysed_at": self.analysed_at.isoformat(),
            "window": {
                "entities": self.entities,
                "transitions": self.transitions,
                "entries": self.entries,
                "raw_tokens": self.raw_tokens,
                "tokens": self.tokens,
                "compression_ratio": self.compression_ratio,
                # One time zone (the window ends on HA's local clock): UTC, as analysed_at.
                "start": dt_util.as_utc(self.start).isoformat() if self.start else None,
                "end": dt_util.as_utc(self.end).isoformat() if self.end else None,
            },
        }
