"""The README's main job: the fixtures replay end to end through a real HA, with no server."""

from __future__ import annotations

import json
from pathlib import Path
import subprocess
import sys

from benchmark_replay.cli import score_predictions
from benchmark_replay.scoring import report
from benchmark_replay.smartbench_loader import Answer

FIXTURES = Path(__file__).parent / "fixtures" / "smartbench"
REPO = Path(__file__).parent.parent


def _run(out: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "benchmark_replay",
            "smartbench",
            "--data",
            str(FIXTURES),
            "--out",
            str(out),
            "--no-progress",
            *extra,
        ],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def test_demo_replays_scores_and_resumes(tmp_path: Path) -> None:
    """A score table, per-sample JSONL, plots; a second run takes everything from the cache."""
    first = _run(tmp_path)
    assert first.returncode == 0, first.stderr
    assert "| ci | 12 |" in first.stdout
    assert "| cd-tdcs | 4 |" in first.stdout
    assert "20 to run in ha mode" in first.stderr
    rows = [json.loads(line) for line in (tmp_path / "samples.jsonl").read_text().splitlines()]
    assert len(rows) == 20
    assert all(row["error"] is None for row in rows)
    assert {row["subset"] for row in rows} == {"ci", "cd-argus", "cd-tdcs"}
    smoke = next(row for row in rows if row["key"] == "ci/anomaly_fx01")
    assert smoke["truth_devices"] == ["Kitchen Smoke Detector"]
    assert smoke["verdict"]["label"] in ("anomaly", "normal")
    metrics = json.loads((tmp_path / "metrics.json").read_text())
    assert metrics["overall"]["n"] == 20
    assert (tmp_path / "f1_by_type.png").stat().st_size > 1000
    assert (tmp_path / "confusion.png").stat().st_size > 1000

    again = _run(tmp_path)
    assert again.returncode == 0, again.stderr
    assert "20 cached, 0 to run" in again.stderr
    assert json.loads((tmp_path / "metrics.json").read_text())["overall"] == metrics["overall"]


def test_limit_and_subset_select_a_stratified_sample(tmp_path: Path) -> None:
    """--subset cd --limit 4 runs four CD samples, two of each label."""
    result = _run(tmp_path, "--subset", "cd", "--limit", "4", "--mode", "direct", "--no-plots")
    assert result.returncode == 0, result.stderr
    rows = [json.loads(line) for line in (tmp_path / "samples.jsonl").read_text().splitlines()]
    assert len(rows) == 4
    assert sorted(row["label"] for row in rows) == ["anomaly", "anomaly", "normal", "normal"]
    assert all(row["subset"].startswith("cd-") for row in rows)


def test_bad_data_folder_fails_clearly(tmp_path: Path) -> None:
    """No samples: a clear error and a non-zero exit."""
    result = _run(tmp_path / "out", "--data", str(tmp_path))
    assert result.returncode == 2
    assert "no SmartBench samples" in result.stderr


def test_model_view_scores_the_hybrids_own_llm_verdicts() -> None:
    """The LLM-only view: the model's verdicts, its failures counted as misses."""

    def answer(key: str, anomaly: bool) -> Answer:
        devices = frozenset({"Kitchen Smoke Detector"} if anomaly else ())
        return Answer(key, "ci", anomaly, devices, "safety_hazard", "smoke", key, "")

    answers = {"a": answer("a", True), "b": answer("b", True), "n": answer("n", False)}
    hit = {"label": "anomaly", "evidence": ["binary_sensor.kitchen_smoke_detector"]}
    predictions = {
        "a": {
            "verdict": hit,
            "predicted_devices": ["Kitchen Smoke Detector"],
            "model_verdict": hit,
            "model_predicted_devices": ["Kitchen Smoke Detector"],
        },
        "b": {
            "verdict": hit,
            "predicted_devices": ["Kitchen Smoke Detector"],
            "model_error": "timed out",
        },
        "n": {"verdict": {"label": "normal"}, "model_verdict": {"label": "anomaly"}},
    }
    merged = report(score_predictions(answers, predictions)[0]).overall
    alone = report(score_predictions(answers, predictions, model=True)[0]).overall
    assert (merged.recall, merged.fpr, merged.al) == (1.0, 0.0, 1.0)
    assert (alone.recall, alone.fpr, alone.al) == (0.5, 1.0, 0.5)
    assert alone.errors == 1


def test_a_failed_sample_is_an_error_never_a_normal_verdict() -> None:
    """A replay that gave no verdict is left out of the metrics and counted as an error."""

    def answer(key: str, anomaly: bool) -> Answer:
        devices = frozenset({"Kitchen Smoke Detector"} if anomaly else ())
        return Answer(key, "ci", anomaly, devices, "safety_hazard", "smoke", key, "")

    answers = {"a": answer("a", True), "n": answer("n", False), "x": answer("x", False)}
    hit = {"label": "anomaly", "evidence": ["binary_sensor.kitchen_smoke_detector"]}
    predictions = {
        "a": {"verdict": hit, "predicted_devices": ["Kitchen Smoke Detector"]},
        "n": {"verdict": {"label": "normal"}},
        "x": {"error": "RemoteHAError: HTTP 500"},
    }
    scores, rows = score_predictions(answers, predictions)
    overall = report(scores).overall
    assert (overall.n, overall.tp, overall.tn, overall.fp, overall.fn) == (2, 1, 1, 0, 0)
    assert overall.errors == 1
    assert overall.accuracy == 1.0
    failed = next(row for row in rows if row["key"] == "x")
    assert failed["predicted"] is None
    assert failed["error"] == "RemoteHAError: HTTP 500"
