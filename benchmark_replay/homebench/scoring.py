"""HomeBench's scoring: normalise call lists, compare as multisets, pool P/R/F1 per type."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field


def calls(output: str) -> Counter[str]:
    """Strip spaces, newlines and ''' ; split on commas; drop empties."""
    text = output.replace("'''", "").replace(" ", "").replace("\n", "")
    return Counter(part for part in text.split(",") if part)


@dataclass(slots=True)
class TypeScore:
    """Pooled counts for one instruction type."""

    cases: int = 0
    successes: int = 0
    true_positives: int = 0
    predicted: int = 0
    expected: int = 0
    seconds: float = 0.0

    def add(self, predicted: str, expected: str, seconds: float) -> bool:
        """Score one case; return whether it is a success."""
        pred, gold = calls(predicted), calls(expected)
        self.cases += 1
        ok = pred == gold
        self.successes += ok
        self.true_positives += sum((pred & gold).values())
        self.predicted += sum(pred.values())
        self.expected += sum(gold.values())
        self.seconds += seconds
        return ok

    @property
    def success(self) -> float:
        """Share of cases whose calls match exactly."""
        return self.successes / self.cases if self.cases else 0.0

    @property
    def precision(self) -> float:
        """Pooled precision."""
        return self.true_positives / self.predicted if self.predicted else 0.0

    @property
    def recall(self) -> float:
        """Pooled recall."""
        return self.true_positives / self.expected if self.expected else 0.0

    @property
    def f1(self) -> float:
        """Pooled F1."""
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0


@dataclass(slots=True)
class Scoreboard:
    """Scores per type group plus ALL."""

    groups: dict[str, TypeScore] = field(default_factory=dict)

    def add(self, group: str, predicted: str, expected: str, seconds: float) -> bool:
        """Score one case into its group and ALL."""
        self.groups.setdefault("ALL", TypeScore()).add(predicted, expected, seconds)
        return self.groups.setdefault(group, TypeScore()).add(predicted, expected, seconds)

    def rows(self, order: Iterable[str]) -> list[tuple[str, TypeScore]]:
        """Rows in the given order (missing groups skipped), ALL last."""
        names = [g for g in order if g in self.groups]
        return [(g, self.groups[g]) for g in [*names, "ALL"] if g in self.groups]
