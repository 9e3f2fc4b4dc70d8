"""What one analysis returns: the verdict and what the window looked like."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from homeassistant.util import dt as dt_util

from ..anomalies.texts import StatesByID, named_in
from ..core.models import CompressedSequence, ContextWindow, LazySequence, Verdict


@dataclass(frozen=True, slots=True)
class AnalysisResult:
    """One analysis: the verdict and what the window looked like."""

    verdict: Verdict
    analysed_at: datetime
    entities: int
    transitions: int
    start: datetime | None
    end: datetime | None
    # The window's compressed sequence: compressed only when its figures are read (the
    # diagnostics, the disabled-by-default compression sensor), not at every analysis.
    sequence: CompressedSequence | LazySequence

    @classmethod
    def of(cls, verdict: Verdict, window: ContextWindow, now: datetime) -> AnalysisResult:
        """Summarise ``window`` next to its verdict."""
        return cls(
            verdict=verdict,
            analysed_at=now,
            entities=len(window.snapshot),
            transitions=len(window.transitions),
            start=window.start,
            end=window.end,
            sequence=window.sequence,
        )

    @property
    def entries(self) -> int:
        """Entries of the compressed sequence."""
        return len(self.sequence.entries)

    @property
    def raw_tokens(self) -> int:
        """Tokens of the window's transitions as they were."""
        return self.sequence.raw_tokens

    @property
    def tokens(self) -> int:
        """Tokens of the compressed sequence."""
        return self.sequence.tokens

    @property
    def compression_ratio(self) -> float:
        """Raw tokens per compressed token, rounded."""
        return round(self.sequence.ratio, 3)

    def as_dict(self, states: StatesByID | None = None) -> dict[str, Any]:
        """The service response and diagnostics form; with ``states``, its reasonings name
        devices as the notices do (walk 38: "binary_sensor.fridge_door stayed open…" beside
        "Fridge temperature reads…"), the evidence keeping the ids automations match on."""
        verdict = self.verdict.as_dict()
        if states is not None:
            verdict["reasoning"] = named_in(states, verdict["reasoning"])
            for finding in verdict["findings"]:
                finding["reasoning"] = named_in(states, finding["reasoning"])
        return {
            "verdict": verdict,
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
