"""The baselines' stored form: compact in HA's indented file, the older form still read,
hostile text refused (core, no Home Assistant)."""

from __future__ import annotations

from datetime import UTC
import json

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.baselines.packed import (
    pack,
    pack_tenths,
    unpack,
    unpack_tenths,
)
from custom_components.anomaly_monitor.core.baselines.relations import Relations

from .test_baselines_core import routine


def test_numbers_pack_into_one_line_and_back() -> None:
    assert pack([1.0, 2.25, 0.0, -0.04, 1234.5], 1) == "1,2.2,0,0,1234.5"
    assert unpack("1,2.2,0,0,1234.5", 5, -1, 1e4) == [1.0, 2.2, 0.0, 0.0, 1234.5]
    series = [19.5, 19.6, None, 19.4, 25.0]
    assert pack_tenths(series) == "195,1,,-2,56"
    assert unpack_tenths("195,1,,-2,56", 10, 1e7) == series


def test_hostile_text_is_refused_never_raised() -> None:
    for text in (None, 5, ["1"], "1,2", "1,2,x", "1,nan,3", "1,inf,3", "1," + "9" * 40 + ",3"):
        assert unpack(text, 3, 0, 1e9) is None
    assert unpack("1,2,3", 3, 0, 2) is None  # beyond the bound
    assert unpack("1,2,3" * 10_000, 3, 0, 1e9) is None  # too long to even split
    for text in ("1.5", "--2", "1\u00b2", "+", "1e3", "9" * 20, "1," * 100):
        assert unpack_tenths(text, 10, 1e7) is None
    assert unpack_tenths("100000001", 10, 1e7) is None  # beyond the bound
    assert unpack_tenths("", 10, 1e7) == []


def test_version_1_is_read_and_saved_in_the_new_form() -> None:
    """The form stored before (lists everywhere, version 1) gives the same baselines."""
    baselines = routine(7)
    new = baselines.as_dict()
    assert isinstance(next(iter(new["activity"]["counts"].values())), str)
    stays = new["durations"]["stays"]
    assert all(isinstance(text, str) for per in stays.values() for text in per.values())
    old = json.loads(json.dumps(new))
    old["version"] = 1
    counts = new["activity"]["counts"]
    old["activity"]["counts"] = {
        area: [float(v) for v in text.split(",")] for area, text in counts.items()
    }
    old["activity"]["observed"] = [float(v) for v in new["activity"]["observed"].split(",")]
    old["durations"]["stays"] = {
        entity: {
            state: [[float(v) for v in text.split(",")[i : i + 3]] for i in range(0, 12, 3)]
            for state, text in per.items()
        }
        for entity, per in new["durations"]["stays"].items()
    }
    migrated = HomeBaselines.from_dict(old, UTC)
    assert migrated.as_dict() == new
    assert migrated.events == baselines.events > 0


def test_hostile_packed_parts_are_dropped() -> None:
    baselines = routine(7)
    stored = json.loads(json.dumps(baselines.as_dict()))
    area = next(iter(stored["activity"]["counts"]))
    stored["activity"]["counts"][area] = "1,2,3"  # 3 slots, not 168
    stored["activity"]["observed"] = ",".join(["nan"] * 168)
    entity = next(iter(stored["durations"]["stays"]))
    state = next(iter(stored["durations"]["stays"][entity]))
    stored["durations"]["stays"][entity][state] = ",".join(["-1"] * 12)  # negative stays
    again = HomeBaselines.from_dict(stored, UTC)
    assert area not in again.activity.counts
    assert again.activity.observed == [0.0] * 168
    assert state not in again.durations.stays.get(entity, {})


def test_relation_delays_are_packed_and_the_list_form_still_read() -> None:
    """A pair's delays are one line of text; the list form stored before is read, and a
    hostile text (beyond the relation's reach, too many, not numbers) drops the pair."""
    pair = ["binary_sensor.hall_door", "binary_sensor.hall_motion", "opening_motion", 12, 11]
    stored = {"version": 1, "pairs": [[*pair, [4.0, 6.5, 12.0]]]}
    relations = Relations.from_dict(stored)
    packed = relations.as_dict()["pairs"][0]
    assert packed[5] == "4,6.5,12"
    again = Relations.from_dict(json.loads(json.dumps(relations.as_dict())))
    key = (pair[0], pair[1])
    assert list(again.pairs[key].delays or ()) == [4.0, 6.5, 12.0]
    for hostile in ("4,x", "4,500", ",".join(["1"] * 40), "1e400", 5):
        assert Relations.from_dict({"version": 1, "pairs": [[*pair, hostile]]}).pairs == {}
    assert Relations.from_dict({"version": 1, "pairs": [[*pair, ""]]}).pairs[key].delays is None
