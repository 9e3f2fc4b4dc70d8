"""Read HomeBench's homes and instructions (development split in ../shared/datasets)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
import json
from pathlib import Path
import random
import re
from typing import Any

DEFAULT_ROOT = Path("/work/shared/datasets/homebench/dataset")
HOMES_FILE = "home_status_method.jsonl"
TESTS_FILE = "test_data.jsonl"

TYPE_GROUPS = ("VS", "IS", "VM", "IM", "MM")


@dataclass(frozen=True, slots=True)
class HomeBenchHome:
    """One home: its rooms' devices and the methods they offer."""

    home_id: int
    status: Mapping[str, Any]
    methods: tuple[Mapping[str, Any], ...]


@dataclass(frozen=True, slots=True)
class HomeBenchCase:
    """One instruction with its expected calls."""

    case_id: str
    instruction: str
    expected: str
    home_id: int
    case_type: str

    @property
    def group(self) -> str:
        """VS / IS / VM / IM / MM."""
        return type_group(self.case_type)


def type_group(case_type: str) -> str:
    """Map HomeBench's ``type`` field to the paper's five groups."""
    if case_type == "normal":
        return "VS"
    if case_type in ("unexist_device", "unexist_attribute"):
        return "IS"
    if re.fullmatch(r"multi\d+_normal", case_type):
        return "VM"
    if re.fullmatch(r"multi\d+_unexist_\w+", case_type):
        return "IM"
    if re.fullmatch(r"multi\d+_mix", case_type):
        return "MM"
    raise ValueError(f"unknown HomeBench type {case_type!r}")


def _lines(path: Path) -> Iterator[dict[str, Any]]:
    with path.open(encoding="utf-8") as file:
        for number, line in enumerate(file, 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError as err:
                raise ValueError(f"{path}:{number}: not JSON ({err})") from err
            if not isinstance(row, dict):
                raise ValueError(f"{path}:{number}: expected an object")
            yield row


def load_homes(path: Path) -> dict[int, HomeBenchHome]:
    """Homes by id."""
    homes: dict[int, HomeBenchHome] = {}
    for row in _lines(path):
        try:
            home_id = int(row["home_id"])
            homes[home_id] = HomeBenchHome(home_id, row["home_status"], tuple(row["method"]))
        except (KeyError, TypeError, ValueError) as err:
            raise ValueError(f"{path}: malformed home ({err})") from err
    return homes


def load_cases(path: Path) -> list[HomeBenchCase]:
    """All instructions of a test file."""
    cases = []
    for row in _lines(path):
        try:
            cases.append(
                HomeBenchCase(
                    str(row["id"]),
                    str(row["input"]),
                    str(row["output"]),
                    int(row["home_id"]),
                    str(row["type"]),
                )
            )
        except (KeyError, TypeError, ValueError) as err:
            raise ValueError(f"{path}: malformed instruction ({err})") from err
    return cases


def stratified_sample(
    cases: list[HomeBenchCase], size: int, seed: int, keep_all: tuple[str, ...] = ("IM",)
) -> list[HomeBenchCase]:
    """A seeded sample: every case of the ``keep_all`` groups, the rest spread in proportion."""
    if size >= len(cases):
        return list(cases)
    rng = random.Random(seed)
    by_group: dict[str, list[HomeBenchCase]] = {}
    for case in cases:
        by_group.setdefault(case.group, []).append(case)
    chosen = [c for g in keep_all for c in by_group.get(g, [])]
    rest = [g for g in TYPE_GROUPS if g not in keep_all and g in by_group]
    budget = max(size - len(chosen), 0)
    total = sum(len(by_group[g]) for g in rest)
    for group in rest:
        pool = by_group[group]
        # At least a handful of every group so rare types (VM) are measured at all.
        share = max(min(len(pool), 30), round(budget * len(pool) / total)) if total else 0
        chosen.extend(rng.sample(pool, min(share, len(pool))))
    order = {c.case_id: i for i, c in enumerate(cases)}
    return sorted(chosen, key=lambda c: order[c.case_id])


def per_group_sample(cases: list[HomeBenchCase], per_group: int, seed: int) -> list[HomeBenchCase]:
    """A seeded sample of at most ``per_group`` cases of every type group (for slow planners)."""
    rng = random.Random(seed)
    chosen: list[HomeBenchCase] = []
    for group in TYPE_GROUPS:
        pool = [c for c in cases if c.group == group]
        chosen.extend(rng.sample(pool, min(per_group, len(pool))))
    order = {c.case_id: i for i, c in enumerate(cases)}
    return sorted(chosen, key=lambda c: order[c.case_id])
