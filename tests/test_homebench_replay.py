"""HomeBench replay on a hand-written home in HomeBench's format (tests/fixtures/homebench)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
import shutil

from homeassistant.core import HomeAssistant
import pytest

from benchmark_replay.homebench.cli import main
from benchmark_replay.homebench.dataset import (
    HOMES_FILE,
    TESTS_FILE,
    HomeBenchCase,
    load_cases,
    load_homes,
    per_group_sample,
    stratified_sample,
    type_group,
)
from benchmark_replay.homebench.gold_checks import out_of_range_parts, refused_listed_parts
from benchmark_replay.homebench.runner import async_build_home, plan_to_output
from benchmark_replay.homebench.scoring import Scoreboard, TypeScore, calls
from custom_components.anomaly_monitor.core.instructions import (
    PlannerMode,
    async_plan_instruction,
)
from custom_components.anomaly_monitor.instructions.home import async_build_home_capabilities

# Hand-written files; named differently from the dataset's so they are never mistaken
# for copies of it. The ``fixture_data`` fixture lays them out as the loader expects.
FIXTURES = Path(__file__).parent / "fixtures" / "homebench"
HOMES_FIXTURE = FIXTURES / "homes.fixture.jsonl"
CASES_FIXTURE = FIXTURES / "instructions.fixture.jsonl"


@pytest.fixture
def fixture_data(tmp_path: Path) -> Path:
    """A data folder in HomeBench's layout holding the hand-written fixtures."""
    data = tmp_path / "homebench"
    data.mkdir()
    shutil.copy(HOMES_FIXTURE, data / HOMES_FILE)
    shutil.copy(CASES_FIXTURE, data / TESTS_FILE)
    return data


def test_calls_normalise_like_homebench() -> None:
    """Spaces, newlines and ''' go; empty entries are dropped; duplicates count."""
    assert calls("''' a.b.c(1), error_input,\n'''") == Counter({"a.b.c(1)": 1, "error_input": 1})
    assert calls("'''x(),x(),'''") == Counter({"x()": 2})


def test_multiset_success_and_pooled_f1() -> None:
    """Order does not matter, multiplicity does; P/R/F1 pool over cases."""
    score = TypeScore()
    assert score.add("'''b(),a(),'''", "'''a(),b(),'''", 0.1)
    assert not score.add("'''a(),'''", "'''a(),a(),'''", 0.1)
    assert (score.true_positives, score.predicted, score.expected) == (3, 3, 4)
    assert score.success == 0.5
    assert score.f1 == pytest.approx(2 * 1.0 * 0.75 / 1.75)
    board = Scoreboard()
    board.add("VS", "''' a()'''", "''' a()'''", 0.0)
    board.add("IS", "''' a()'''", "'''error_input'''", 0.0)
    assert [name for name, _ in board.rows(["VS", "IS", "MM"])] == ["VS", "IS", "ALL"]
    assert board.groups["ALL"].success == 0.5


def test_type_groups_and_sampling() -> None:
    """HomeBench types map to the paper's groups; samples are seeded and keep every IM."""
    assert [
        type_group(t)
        for t in (
            "normal",
            "unexist_attribute",
            "multi3_normal",
            "multi2_unexist_device",
            "multi10_mix",
        )
    ] == ["VS", "IS", "VM", "IM", "MM"]
    with pytest.raises(ValueError, match="unknown"):
        type_group("weird")
    cases = [
        HomeBenchCase(f"c{i}", "x", "''' error_input'''", 1, kind)
        for i, kind in enumerate(
            ["normal"] * 50 + ["unexist_device"] * 50 + ["multi2_unexist_device"] * 5
        )
    ]
    sample = stratified_sample(cases, 40, seed=3)
    assert sample == stratified_sample(cases, 40, seed=3)
    assert sum(c.group == "IM" for c in sample) == 5
    assert len(per_group_sample(cases, 2, seed=1)) == 6


def test_loading_rejects_malformed_lines(tmp_path: Path) -> None:
    """A broken line is reported with its file and line number."""
    bad = tmp_path / "test_data.jsonl"
    bad.write_text('{"id": "a"}\nnot json\n', encoding="utf-8")
    with pytest.raises(ValueError, match=r"test_data\.jsonl"):
        load_cases(bad)


async def test_fixture_home_replays_through_home_assistant(hass: HomeAssistant) -> None:
    """Every hand-written case of the fixture home comes out as expected."""
    (home,) = load_homes(HOMES_FIXTURE).values()
    built = await async_build_home(hass, home)
    # The HomeBench home is now real entities: areas, devices, supported features.
    assert hass.states.get("climate.living_room_air_conditioner").attributes["max_temp"] == 30
    assert hass.states.get("select.kitchen_fan_swing").attributes["options"][0] == "auto"
    # Room heating declared with the water heater's 30–100 °C is read as a room's range.
    garage_heating = hass.states.get("climate.garage_heating").attributes
    assert (garage_heating["min_temp"], garage_heating["max_temp"]) == (16, 30)
    capabilities = async_build_home_capabilities(hass)
    for case in load_cases(CASES_FIXTURE):
        plan = await async_plan_instruction(case.instruction, capabilities, mode=PlannerMode.PARSER)
        predicted = plan_to_output(plan, built)
        assert calls(predicted) == calls(case.expected), (case.instruction, predicted)


def test_gold_checks_flag_contradictions() -> None:
    """A gold value outside the declared range, and a gold refusal of a listed method."""
    (home,) = load_homes(HOMES_FIXTURE).values()
    assert out_of_range_parts("''' living_room.air_conditioner.set_temperature(40)'''", home) == 1
    assert out_of_range_parts("''' living_room.air_conditioner.set_temperature(20)'''", home) == 0
    assert out_of_range_parts("''' garage.heating.set_temperature(22)'''", home) == 0
    assert out_of_range_parts("''' garage.heating.set_temperature(45)'''", home) == 1
    assert refused_listed_parts("'''error_input'''", "''' kitchen.light.turn_on()'''", home) == 1
    assert refused_listed_parts("'''error_input'''", "''' kitchen.fan.set_mode(x)'''", home) == 0


def test_cli_scores_the_fixture(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, fixture_data: Path
) -> None:
    """The command prints per-type tables and writes per-case JSON."""
    out = tmp_path / "cases.json"
    assert main(["--data", str(fixture_data), "--all", "--quiet", "--json", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "| ALL | 20 | 1.000 |" in printed
    assert "| IM | 1 |" in printed
    assert out.read_text(encoding="utf-8").count('"success": true') == 20


def test_cli_reports_bad_arguments(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, fixture_data: Path
) -> None:
    """A missing dataset or a missing model gives a message and a non-zero status."""
    assert main(["--data", str(tmp_path), "--all", "--quiet"]) == 1
    assert "homebench:" in capsys.readouterr().err
    assert main(["--data", str(fixture_data), "--all", "--mode", "llm"]) == 2
