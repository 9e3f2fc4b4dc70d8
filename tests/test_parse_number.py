"""parse_number: a state as a finite float, whitespace around it ignored, else None."""

from __future__ import annotations

import pytest

from custom_components.anomaly_monitor.core.models import parse_number


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("21.5", 21.5),
        (" 21.5\n", 21.5),
        ("\u3000-3\u2029", -3.0),
        ("\x1c21.5\x1f", 21.5),  # str.strip() removes these; float() alone refuses them
        ("1_000", 1000.0),
        ("1e3", 1000.0),
        (7, 7.0),
        (2.5, 2.5),
    ],
)
def test_numbers_are_read(value: object, expected: float) -> None:
    assert parse_number(value) == expected


@pytest.mark.parametrize(
    "value",
    ["on", "", " ", "\x1c", "nan", "inf", "-Infinity", "1e400", "21.5 W", float("nan"), None, True],
)
def test_non_numbers_are_none(value: object) -> None:
    assert parse_number(value) is None
