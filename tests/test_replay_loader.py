"""The SmartBench loader hands out only model-visible fields."""

from __future__ import annotations

from dataclasses import fields
import json
from pathlib import Path

import pytest

from benchmark_replay.replay import select
from benchmark_replay.smartbench_loader import (
    CDSample,
    CISample,
    SmartBenchError,
    load_smartbench,
    load_visible,
)

FIXTURES = Path(__file__).parent / "fixtures" / "smartbench"
# Text only the answers contain; none of it may appear in what a detector gets.
LEAKS = ("reasoning", "evidence_devices", "anomaly_info", "scenario", "description", "metadata")


def test_fixtures_load_with_answers_apart() -> None:
    """Every fixture loads; samples carry visible keys only, answers the rest."""
    result = load_smartbench(FIXTURES)
    assert result.errors == []
    assert len(result.records) == 20
    subsets = {r.sample.subset for r in result.records}
    assert subsets == {"ci", "cd-argus", "cd-tdcs"}
    for record in result.records:
        sample = record.sample
        names = {f.name for f in fields(sample)}
        assert names <= {"key", "environment", "device_states", "subset", "context", "events"}
        raw = json.loads(record.path.read_text())
        if isinstance(sample, CISample):
            assert dict(sample.device_states) == raw["device_states"]
        else:
            assert isinstance(sample, CDSample)
            assert len(sample.events) == len(raw["events"])
        text = repr(sample)
        assert raw.get("reasoning", "") not in text or not raw.get("reasoning")
        assert record.answer.is_anomaly == (raw["label"] == "anomaly")
        assert record.answer.evidence == frozenset(raw["evidence_devices"])


def test_description_never_leaves_the_loader() -> None:
    """tdcs descriptions name the fault: they must not be in the visible sample."""
    for path in (FIXTURES / "context-dependent" / "tdcs_rbe").rglob("*.json"):
        raw = json.loads(path.read_text())
        sample = load_visible(path, "cd-tdcs")
        assert raw["description"] not in repr(sample)
        for leak in LEAKS:
            assert leak not in dict(sample.context)  # type: ignore[union-attr]


def test_normals_take_their_twin_type() -> None:
    """A CD normal is scored under its anomalous twin's type."""
    answers = {r.answer.key: r.answer for r in load_smartbench(FIXTURES, ["cd-tdcs"]).records}
    assert answers["cd-tdcs/TDCS_FX_LEAK_normal"].anomaly_type == "water_leak"
    assert not answers["cd-tdcs/TDCS_FX_LEAK_normal"].is_anomaly


def test_bad_file_is_reported_and_others_still_load(tmp_path: Path) -> None:
    """A broken file gets a clear message naming it; nothing else is lost."""
    target = tmp_path / "context-dependent" / "argus_prime" / "normal"
    target.mkdir(parents=True)
    source = FIXTURES / "context-dependent" / "argus_prime" / "normal" / "ARGUS_PRIME_fx01n.json"
    (target / "good.json").write_text(source.read_text())
    (target / "broken.json").write_text("{not json")
    (target / "no_events.json").write_text(json.dumps({"id": "x", "label": "normal"}))
    result = load_smartbench(tmp_path, ["cd-argus"])
    assert len(result.records) == 1
    assert len(result.errors) == 2
    assert any("broken.json" in e and "JSON" in e for e in result.errors)
    assert any("no_events.json" in e for e in result.errors)


def test_missing_folder_is_a_clear_error(tmp_path: Path) -> None:
    """No samples at all is an error, not an empty score."""
    with pytest.raises(SmartBenchError, match="no SmartBench samples"):
        load_smartbench(tmp_path)
    with pytest.raises(SmartBenchError, match="unknown subset"):
        load_smartbench(FIXTURES, ["cd-other"])


def test_stratified_selection_is_seeded_and_proportional() -> None:
    """Same seed, same pick; every subset/label stratum keeps its share."""
    records = load_smartbench(FIXTURES).records
    first = [r.answer.key for r in select(records, 10, seed=3)]
    assert first == [r.answer.key for r in select(records, 10, seed=3)]
    assert len(first) == 10
    picked = select(records, 10, seed=3)
    assert sum(r.answer.is_anomaly for r in picked) == 5
    assert sum(r.answer.subset == "ci" for r in picked) == 6
    assert [r.answer.key for r in select(records, None, seed=0)] == [r.answer.key for r in records]
