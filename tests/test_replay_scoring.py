"""SmartBench metrics against figures worked out by hand."""

from __future__ import annotations

import pytest

from benchmark_replay.scoring import SampleScore, metrics, report


def _score(  # noqa: PLR0917 - terse table rows
    key: str,
    truth: bool,
    predicted: bool,
    t: set[str],
    p: set[str],
    subset: str = "ci",
    kind: str = "safety_hazard",
) -> SampleScore:
    return SampleScore(key, subset, kind, truth, predicted, frozenset(t), frozenset(p))


SCORES = [
    # anomalies: hit with evidence {A,B} vs truth {A,C} -> 1/3; exact hit -> 1; missed -> 0;
    # hit with no evidence -> 0
    _score("a1", True, True, {"A", "C"}, {"A", "B"}),
    _score("a2", True, True, {"D"}, {"D"}),
    _score("a3", True, False, {"E"}, set()),
    _score("a4", True, True, {"F"}, set()),
    # normals: one false alarm, two correct
    _score("n1", False, True, set(), {"A"}),
    _score("n2", False, False, set(), set()),
    _score("n3", False, False, set(), set()),
]


def test_metrics_match_hand_computation() -> None:
    """TP=3 FP=1 FN=1 TN=2: acc 5/7, P 3/4, R 3/4, F1 3/4, FPR 1/3, AL (1/3+1+0+0)/4."""
    m = metrics(SCORES)
    assert (m.tp, m.fp, m.fn, m.tn) == (3, 1, 1, 2)
    assert m.accuracy == pytest.approx(5 / 7)
    assert m.precision == pytest.approx(0.75)
    assert m.recall == pytest.approx(0.75)
    assert m.f1 == pytest.approx(0.75)
    assert m.fpr == pytest.approx(1 / 3)
    assert m.al == pytest.approx((1 / 3 + 1 + 0 + 0) / 4)


def test_empty_denominators() -> None:
    """No normal sample: FPR undefined; no positive prediction: precision 0."""
    only_missed = metrics([_score("a", True, False, {"X"}, set())])
    assert only_missed.fpr is None
    assert only_missed.precision == 0.0
    assert only_missed.f1 == 0.0
    assert only_missed.al == 0.0
    assert metrics([_score("n", False, False, set(), set())]).al is None


def test_report_groups_subsets_and_types() -> None:
    """CD is argus and tdcs together; types are per subset."""
    scores = [
        *SCORES,
        _score("c1", True, True, {"door"}, {"door"}, "cd-argus", "away_but_motion"),
        _score("c2", False, True, set(), {"door"}, "cd-tdcs", "water_leak"),
    ]
    result = report(scores)
    assert set(result.subsets) == {"ci", "cd", "cd-argus", "cd-tdcs"}
    assert result.subsets["cd"].n == 2
    assert result.subsets["cd"].fpr == 1.0
    assert result.types[("cd-argus", "away_but_motion")].al == 1.0
    assert result.overall.n == 9
