"""Numbers stored as text: one line each in Home Assistant's indented ``Store`` file.

HA writes a ``Store`` file as JSON indented by two spaces, every list element on its own
line: a number costs its indentation (12-16 spaces deep in the baselines), its digits, a
comma and a newline. The baselines' long series of numbers (a sensor's hourly means, an
area's 168 hourly counts, a state's stays per quarter of the day) are therefore stored as
one string each, numbers separated by commas: ~4x smaller on disk. Stored data is
untrusted: unpacking bounds the text, each number's length and value, and returns None
for anything malformed (never raises).
"""

from __future__ import annotations

from collections.abc import Sequence
import math
import re

# Longest text of one number accepted when unpacking ("-123456789.12" and the like).
_MAX_TOKEN = 16
_INTEGER = re.compile(r"-?[0-9]{1,15}")
# Texts packed lately, by the numbers and decimals they were packed from. A save (in HA's
# event loop) packs ~1,000 series of which few changed since the last save: the text of
# equal numbers is the same, so those are looked up instead of formatted number by number
# (27 -> 9 ms a save in the bench home, serialisation included). Cleared when full: the
# next save packs afresh. ~480 bytes an entry in the bench home (836 after a save): ~1 MB
# at most.
_PACKED: dict[tuple[tuple[float, ...], int], str] = {}
_MAX_PACKED = 2048


def pack(values: Sequence[float], decimals: int) -> str:
    """``values`` rounded to ``decimals``, comma-separated, without trailing zeros."""
    key = (tuple(values), decimals)
    text = _PACKED.get(key)
    if text is None:
        text = ",".join(_number_text(value, decimals) for value in key[0])
        if len(_PACKED) >= _MAX_PACKED:
            _PACKED.clear()
        _PACKED[key] = text
    return text


def unpack(text: object, count: int, low: float, high: float) -> list[float] | None:
    """Exactly ``count`` numbers within ``[low, high]``, or None."""
    numbers = _tokens(text, count)
    if numbers is None or len(numbers) != count:
        return None
    result: list[float] = []
    for token in numbers:
        value = _parse(token)
        if value is None or not low <= value <= high:
            return None
        result.append(value)
    return result


def pack_tenths(values: Sequence[float | None]) -> str:
    """A series in tenths, each the difference from the previous value present ('' for a
    missing one): a sensor's hour over a fortnight moves little, so most take 1-2 digits."""
    parts: list[str] = []
    previous = 0
    for value in values:
        if value is None:
            parts.append("")
            continue
        tenths = round(value * 10)
        parts.append(str(tenths - previous))
        previous = tenths
    return ",".join(parts)


def unpack_tenths(text: object, limit: int, bound: float) -> list[float | None] | None:
    """The series ``pack_tenths`` wrote (at most ``limit`` values, each within ±``bound``)."""
    tokens = _tokens(text, limit)
    if tokens is None:
        return None
    result: list[float | None] = []
    previous = 0
    for token in tokens:
        if token == "":
            result.append(None)
            continue
        if _INTEGER.fullmatch(token) is None:
            return None
        previous += int(token)
        if abs(previous) > bound * 10:
            return None
        result.append(previous / 10)
    return result


def _tokens(text: object, limit: int) -> list[str] | None:
    if not isinstance(text, str) or len(text) > limit * (_MAX_TOKEN + 1):
        return None
    tokens = text.split(",") if text else []
    if len(tokens) > limit or any(len(token) > _MAX_TOKEN for token in tokens):
        return None
    return tokens


def _parse(token: str) -> float | None:
    try:
        value = float(token)
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def _number_text(value: float, decimals: int) -> str:
    text = f"{value:.{decimals}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return "0" if text == "-0" else text
