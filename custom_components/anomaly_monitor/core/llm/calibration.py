"""Calibration of second opinions, per model and question family, and what it allows.

A raw P(yes) from a small model is neither a probability nor comparable across question
families. Per family, Platt scaling (a logistic fit on logit P(yes)) is fitted on a
held-in split of the development data, and a dismissal threshold is chosen there: the
largest one that dismisses no finding of an anomalous sample, kept only if it dismisses
at least ``MIN_DISMISSED`` findings of normal samples (it must measurably help). A family
without a threshold - or a model without a calibration - gives the model no say.

The fitted values are stored with the model's name (``second_opinion_calibration.json``
beside this file, written by ``scripts/bench_second_opinion.py``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
import json
import math
from pathlib import Path
from typing import Any

CALIBRATION_FILE = Path(__file__).with_name("second_opinion_calibration.json")
MIN_DISMISSED = 2  # negatives a threshold must dismiss on the held-in split to be kept
_EPSILON = 1e-4


@dataclass(frozen=True, slots=True)
class EvidencePolicy:
    """Raw P(yes) thresholds (per model, measured): ``None`` never acts on that role."""

    drop_below: float | None = None  # context under this P(yes) leaves the evidence
    add_from: float | None = None  # a candidate at or above this P(yes) joins it
    measured: str = ""

    @property
    def acts(self) -> bool:
        """Whether any answer can change evidence at all."""
        return self.drop_below is not None or self.add_from is not None

    def as_dict(self) -> dict[str, Any]:
        """JSON form, stored beside the model's second-opinion calibration."""
        return {"drop_below": self.drop_below, "add_from": self.add_from, "measured": self.measured}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> EvidencePolicy:
        """Back from ``as_dict``; raises ``ValueError``/``TypeError`` if broken."""
        drop, add = data.get("drop_below"), data.get("add_from")
        return cls(
            drop_below=None if drop is None else float(drop),
            add_from=None if add is None else float(add),
            measured=str(data.get("measured") or ""),
        )


def logit(p: float) -> float:
    """log(p / (1 - p)), with p kept inside (0, 1)."""
    p = min(1 - _EPSILON, max(_EPSILON, p))
    return math.log(p / (1 - p))


def sigmoid(x: float) -> float:
    """1 / (1 + e^-x), without overflow."""
    if x >= 0:
        return 1 / (1 + math.exp(-x))
    z = math.exp(x)
    return z / (1 + z)


def model_key(name: str) -> str:
    """The name a calibration is stored under: a GGUF file's name or a server's model name."""
    base = name.strip().replace("\\", "/").rsplit("/", 1)[-1].lower()
    return base.removesuffix(".gguf")


def fit_platt(
    p_yes: Sequence[float], labels: Sequence[bool], *, steps: int = 50
) -> tuple[float, float]:
    """(a, b) of P = sigmoid(a * logit(p_yes) + b), fitted by Newton's method.

    Platt's smoothed targets and a weak prior on ``a`` and ``b`` keep the fit finite when
    the classes separate (which a handful of findings easily do).
    """
    n_pos = sum(1 for label in labels if label)
    n_neg = len(labels) - n_pos
    hi, lo = (n_pos + 1) / (n_pos + 2), 1 / (n_neg + 2)
    xs = [logit(p) for p in p_yes]
    ts = [hi if label else lo for label in labels]
    a, b, prior = 1.0, 0.0, 1e-2
    for _ in range(steps):
        g_a = prior * (a - 1.0)
        g_b = prior * b
        h_aa, h_ab, h_bb = prior, 0.0, prior
        for x, t in zip(xs, ts, strict=True):
            p = sigmoid(a * x + b)
            d, w = p - t, max(p * (1 - p), 1e-9)
            g_a += d * x
            g_b += d
            h_aa += w * x * x
            h_ab += w * x
            h_bb += w
        det = h_aa * h_bb - h_ab * h_ab
        if det <= 1e-12:
            break
        step_a = (h_bb * g_a - h_ab * g_b) / det
        step_b = (h_aa * g_b - h_ab * g_a) / det
        a, b = a - step_a, b - step_b
        if abs(step_a) + abs(step_b) < 1e-9:
            break
    return a, b


def auroc(positives: Sequence[float], negatives: Sequence[float]) -> float | None:
    """Probability that a positive scores above a negative (ties count half)."""
    if not positives or not negatives:
        return None
    wins = 0.0
    for p in positives:
        for n in negatives:
            wins += 1.0 if p > n else 0.5 if p == n else 0.0
    return wins / (len(positives) * len(negatives))


def choose_threshold(
    scores: Sequence[float], labels: Sequence[bool], *, min_dismissed: int = MIN_DISMISSED
) -> float | None:
    """A threshold below which only negatives lie, or ``None`` if it would not help.

    Halfway between the lowest positive and the highest negative under it, so a positive
    on the held-in split is never dismissed.
    """
    positives = [s for s, label in zip(scores, labels, strict=True) if label]
    if not positives:
        return None
    lowest = min(positives)
    below = [s for s, label in zip(scores, labels, strict=True) if not label and s < lowest]
    if len(below) < min_dismissed:
        return None
    return (max(below) + lowest) / 2


@dataclass(frozen=True, slots=True)
class FamilyCalibration:
    """Platt parameters and the dismissal threshold of one question family."""

    a: float
    b: float
    threshold: float | None  # calibrated P below which a finding is dismissed; None: never
    n_pos: int = 0
    n_neg: int = 0
    auroc: float | None = None

    def probability(self, p_yes: float) -> float:
        """Calibrated P(the finding is worth telling)."""
        return sigmoid(self.a * logit(p_yes) + self.b)

    def as_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "a": round(self.a, 6),
            "b": round(self.b, 6),
            "threshold": None if self.threshold is None else round(self.threshold, 6),
            "n_pos": self.n_pos,
            "n_neg": self.n_neg,
            "auroc": None if self.auroc is None else round(self.auroc, 4),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> FamilyCalibration:
        """Back from ``as_dict``; raises ``ValueError``/``TypeError``/``KeyError`` if broken."""
        threshold = data.get("threshold")
        return cls(
            a=float(data["a"]),
            b=float(data["b"]),
            threshold=None if threshold is None else float(threshold),
            n_pos=int(data.get("n_pos") or 0),
            n_neg=int(data.get("n_neg") or 0),
            auroc=None if data.get("auroc") is None else float(data["auroc"]),
        )


def fit_family(
    p_yes: Sequence[float], labels: Sequence[bool], *, min_dismissed: int = MIN_DISMISSED
) -> FamilyCalibration:
    """Platt fit and threshold for one family's held-in (P(yes), anomalous sample) pairs."""
    a, b = fit_platt(p_yes, labels)
    calibrated = [sigmoid(a * logit(p) + b) for p in p_yes]
    threshold = choose_threshold(calibrated, labels, min_dismissed=min_dismissed) if a > 0 else None
    pos = [p for p, label in zip(p_yes, labels, strict=True) if label]
    neg = [p for p, label in zip(p_yes, labels, strict=True) if not label]
    return FamilyCalibration(a, b, threshold, len(pos), len(neg), auroc(pos, neg))


@dataclass(frozen=True, slots=True)
class ModelCalibration:
    """Everything calibrated for one model."""

    model: str
    families: Mapping[str, FamilyCalibration] = field(default_factory=dict)
    measured: str = ""  # how and on what it was fitted
    # Thresholds for evidence choice (``evidence_choice.py``); None: never asked.
    evidence: EvidencePolicy | None = None

    def acts_on(self, family: str) -> bool:
        """Whether this family's opinions may dismiss a finding."""
        calibration = self.families.get(family)
        return calibration is not None and calibration.threshold is not None

    def probability(self, family: str, p_yes: float) -> float | None:
        """Calibrated probability, or ``None`` for a family never calibrated."""
        calibration = self.families.get(family)
        return calibration.probability(p_yes) if calibration else None

    def dismisses(self, family: str, p_yes: float) -> bool:
        """Whether an opinion of ``p_yes`` dismisses a finding of ``family``."""
        calibration = self.families.get(family)
        if calibration is None or calibration.threshold is None:
            return False
        return calibration.probability(p_yes) < calibration.threshold

    def as_dict(self) -> dict[str, Any]:
        """JSON form (without the model name, which is the key it is stored under)."""
        data: dict[str, Any] = {
            "measured": self.measured,
            "families": {name: f.as_dict() for name, f in sorted(self.families.items())},
        }
        if self.evidence is not None:
            data["evidence"] = self.evidence.as_dict()
        return data


# Calibration files read ahead (``read_calibration_file``), by path: Home Assistant reads
# them in its executor before building a detector, so its event loop never opens one.
_READ: dict[Path, Any] = {}


def read_calibration_file(path: Path = CALIBRATION_FILE) -> None:
    """Read and keep ``path`` for ``load_calibration`` (blocking: call it in an executor)."""
    try:
        _READ[path] = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        _READ[path] = None  # no calibration, as when load_calibration reads it


def load_calibration(model: str, path: Path = CALIBRATION_FILE) -> ModelCalibration | None:
    """The stored calibration for ``model`` (see ``model_key``), or ``None``.

    A missing or broken file is no calibration: the model then has no say.
    """
    try:
        data = _READ[path] if path in _READ else json.loads(path.read_text(encoding="utf-8"))
        entry = data["models"][model_key(model)]
        families = {
            str(name): FamilyCalibration.from_dict(values)
            for name, values in entry["families"].items()
        }
        evidence = entry.get("evidence")
        policy = EvidencePolicy.from_dict(evidence) if evidence is not None else None
    except (OSError, ValueError, TypeError, KeyError, AttributeError):
        return None
    return ModelCalibration(model_key(model), families, str(entry.get("measured") or ""), policy)


def store_calibration(calibration: ModelCalibration, path: Path = CALIBRATION_FILE) -> None:
    """Add or replace ``calibration`` in the file, keeping the other models'."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        models = dict(data["models"])
    except (OSError, ValueError, TypeError, KeyError):
        models = {}
    models[calibration.model] = calibration.as_dict()
    text = json.dumps({"models": dict(sorted(models.items()))}, indent=2) + "\n"
    path.write_text(text, encoding="utf-8")
    _READ.pop(path, None)  # read again when next asked
