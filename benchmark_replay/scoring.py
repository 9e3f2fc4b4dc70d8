"""SmartBench metrics, exactly as the dataset README defines them.

Anomaly is the positive class. Accuracy, precision, recall and F1 as usual;
FPR = FP / (FP + TN) over normal samples; AL = |truth ∩ predicted| / |truth ∪ predicted|
averaged over anomalous samples, 0 when the anomaly is missed (predicted normal).
Predicted devices are the dataset names the evidence entity ids map back to; an id
that stands for no device stays in the predicted set (and so counts against AL).
A sample whose replay failed (no verdict at all) is left out of the detection metrics
(``n`` counts the scored samples) and reported in ``errors``; it is never scored as normal.

Ratios with an empty denominator are 0 (e.g. precision with no positive prediction),
except FPR and AL, which are ``None`` when the group has no normal / anomalous sample.

AC (optional, ``benchmark_replay.ac_judge``): an LLM judge's 1–5 rating of the detector's
explanation against the reference reasoning, over anomalous samples; a missed anomaly
scores ``AC_MISSED`` (1); a sample the judge could not rate has no AC and is counted in
``ac_errors``. ``ac_valid`` is the share rated ``AC_VALID`` (4) or more, the README's
"valid attribution". AC figures are ``None`` when nothing was judged.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
import statistics
from typing import Any

AC_MISSED = 1.0  # a missed anomaly has no attribution: the lowest rating
AC_VALID = 4.0  # a rating of at least this is a valid attribution (dataset README)


@dataclass(frozen=True, slots=True)
class SampleScore:
    """One scored sample: the truth, what was predicted and what it cost."""

    key: str
    subset: str
    anomaly_type: str
    is_anomaly: bool
    predicted_anomaly: bool
    truth_devices: frozenset[str]
    predicted_devices: frozenset[str]
    raw_tokens: int = 0
    tokens: int = 0
    seconds: float = 0.0
    error: str | None = None
    failed: bool = False  # the replay gave no verdict: not scored, only counted in errors
    ac: float | None = None  # judge's rating (AC_MISSED if missed); None: not judged
    ac_error: str | None = None  # why a flagged anomaly has no rating

    @property
    def al(self) -> float | None:
        """Jaccard of truth and predicted devices; 0 if missed; None for normal samples."""
        if not self.is_anomaly:
            return None
        if not self.predicted_anomaly:
            return 0.0
        union = self.truth_devices | self.predicted_devices
        if not union:
            return 0.0
        return len(self.truth_devices & self.predicted_devices) / len(union)

    def as_dict(self) -> dict[str, Any]:
        """JSON form for the per-sample file."""
        return {
            "key": self.key,
            "subset": self.subset,
            "anomaly_type": self.anomaly_type,
            "label": "anomaly" if self.is_anomaly else "normal",
            "predicted": None
            if self.failed
            else ("anomaly" if self.predicted_anomaly else "normal"),
            "truth_devices": sorted(self.truth_devices),
            "predicted_devices": sorted(self.predicted_devices),
            "al": self.al,
            "raw_tokens": self.raw_tokens,
            "tokens": self.tokens,
            "seconds": round(self.seconds, 6),
            "error": self.error,
            "ac": self.ac,
            "ac_error": self.ac_error,
        }


@dataclass(frozen=True, slots=True)
class Metrics:
    """Metrics of one group of samples."""

    n: int
    tp: int
    fp: int
    fn: int
    tn: int
    al: float | None
    errors: int = 0
    raw_tokens: float = 0.0  # mean per sample
    tokens: float = 0.0
    seconds: float = 0.0  # mean per sample
    seconds_p95: float = 0.0
    ac: float | None = None  # mean rating over rated anomalous samples (misses = 1)
    ac_valid: float | None = None  # share of those rated >= AC_VALID
    ac_detected: float | None = None  # mean rating of the flagged anomalies only
    ac_n: int = 0  # anomalous samples with a rating
    ac_errors: int = 0  # flagged anomalies the judge could not rate

    @property
    def accuracy(self) -> float:
        """(TP + TN) / n."""
        return (self.tp + self.tn) / self.n if self.n else 0.0

    @property
    def precision(self) -> float:
        """TP / (TP + FP)."""
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else 0.0

    @property
    def recall(self) -> float:
        """TP / (TP + FN)."""
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else 0.0

    @property
    def f1(self) -> float:
        """Harmonic mean of precision and recall."""
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0

    @property
    def fpr(self) -> float | None:
        """FP / (FP + TN), over normal samples."""
        return self.fp / (self.fp + self.tn) if self.fp + self.tn else None

    @property
    def compression_ratio(self) -> float:
        """Raw tokens per compressed token."""
        return self.raw_tokens / self.tokens if self.tokens else 1.0

    def as_dict(self) -> dict[str, Any]:
        """Every figure, for JSON output."""
        return {
            "n": self.n,
            "tp": self.tp,
            "fp": self.fp,
            "fn": self.fn,
            "tn": self.tn,
            "accuracy": self.accuracy,
            "precision": self.precision,
            "recall": self.recall,
            "f1": self.f1,
            "fpr": self.fpr,
            "al": self.al,
            "errors": self.errors,
            "raw_tokens": self.raw_tokens,
            "tokens": self.tokens,
            "compression_ratio": self.compression_ratio,
            "seconds": self.seconds,
            "seconds_p95": self.seconds_p95,
            "ac": self.ac,
            "ac_valid": self.ac_valid,
            "ac_detected": self.ac_detected,
            "ac_n": self.ac_n,
            "ac_errors": self.ac_errors,
        }


def metrics(scores: Iterable[SampleScore]) -> Metrics:
    """Metrics of a group of scored samples."""
    everything = list(scores)
    items = [s for s in everything if not s.failed]
    tp = sum(1 for s in items if s.is_anomaly and s.predicted_anomaly)
    fp = sum(1 for s in items if not s.is_anomaly and s.predicted_anomaly)
    fn = sum(1 for s in items if s.is_anomaly and not s.predicted_anomaly)
    tn = sum(1 for s in items if not s.is_anomaly and not s.predicted_anomaly)
    als = [al for s in items if (al := s.al) is not None]
    seconds = sorted(s.seconds for s in items)
    rated = [ac for s in items if (ac := s.ac) is not None]
    rated_flagged = [ac for s in items if (ac := s.ac) is not None and s.predicted_anomaly]
    return Metrics(
        n=len(items),
        tp=tp,
        fp=fp,
        fn=fn,
        tn=tn,
        al=sum(als) / len(als) if als else None,
        errors=sum(1 for s in everything if s.error),
        raw_tokens=statistics.fmean(s.raw_tokens for s in items) if items else 0.0,
        tokens=statistics.fmean(s.tokens for s in items) if items else 0.0,
        seconds=statistics.fmean(seconds) if seconds else 0.0,
        seconds_p95=seconds[min(len(seconds) - 1, int(0.95 * len(seconds)))] if seconds else 0.0,
        ac=statistics.fmean(rated) if rated else None,
        ac_valid=sum(1 for ac in rated if ac >= AC_VALID) / len(rated) if rated else None,
        ac_detected=statistics.fmean(rated_flagged) if rated_flagged else None,
        ac_n=len(rated),
        ac_errors=sum(1 for s in items if s.ac_error),
    )


# Subsets reported together as the paper reports them.
SUBSET_GROUPS: Mapping[str, tuple[str, ...]] = {
    "ci": ("ci",),
    "cd": ("cd-argus", "cd-tdcs"),
    "cd-argus": ("cd-argus",),
    "cd-tdcs": ("cd-tdcs",),
}


@dataclass(slots=True)
class Report:
    """Metrics overall, per subset (and CD as a whole) and per subset and anomaly type."""

    overall: Metrics
    subsets: dict[str, Metrics] = field(default_factory=dict)
    types: dict[tuple[str, str], Metrics] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "overall": self.overall.as_dict(),
            "subsets": {name: m.as_dict() for name, m in self.subsets.items()},
            "types": {f"{s}/{t}": m.as_dict() for (s, t), m in self.types.items()},
        }


def report(scores: Sequence[SampleScore]) -> Report:
    """Group and score."""
    result = Report(overall=metrics(scores))
    present = {s.subset for s in scores}
    for name, members in SUBSET_GROUPS.items():
        if present & set(members) and not (len(members) > 1 and len(present & set(members)) < 2):
            result.subsets[name] = metrics(s for s in scores if s.subset in members)
    for subset, kind in sorted({(s.subset, s.anomaly_type) for s in scores}):
        result.types[(subset, kind)] = metrics(
            s for s in scores if s.subset == subset and s.anomaly_type == kind
        )
    return result
