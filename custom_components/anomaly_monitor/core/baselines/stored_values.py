"""What a stored number, entity id or mapping may be: baselines read back from disk are
untrusted."""

from __future__ import annotations

from collections.abc import Callable, Mapping
import math
from typing import Any

# Longer than any entity id: a damaged or hostile file.
MAX_ENTITY_ID = 255

# The last day a date can be (``date.max`` as an ordinal).
MAX_DAY = 3_652_059

# Beyond this no reading, duration or mean of a home is real: a damaged or hostile file.
STORED_LIMIT = 1e9


def is_stored_number(value: object) -> bool:
    """A finite int or float (not a bool) within ``STORED_LIMIT``."""
    return (
        not isinstance(value, bool)
        and isinstance(value, int | float)
        and math.isfinite(value)
        and abs(value) < STORED_LIMIT
    )


def stored_entity_id(value: object) -> bool:
    """Whether a stored ``value`` can be an entity id (text of a sane length)."""
    return isinstance(value, str) and 0 < len(value) <= MAX_ENTITY_ID


def stored_items(data: object, most: int) -> list[tuple[Any, Any]]:
    """The first ``most`` entries of a stored mapping; none when ``data`` is not one (a
    damaged part is dropped, the rest still loads)."""
    return list(data.items())[:most] if isinstance(data, Mapping) else []


def stored_per_entity[T](data: object, most: int, parse: Callable[[Any], T | None]) -> dict[str, T]:
    """A stored ``{entity_id: value}`` mapping read back: of its first ``most`` entries,
    those whose key can be an entity id and whose value ``parse`` accepts (not None)."""
    return {
        entity: parsed
        for entity, value in stored_items(data, most)
        if stored_entity_id(entity) and (parsed := parse(value)) is not None
    }


def stored_day_value(item: object) -> tuple[int, float] | None:
    """A stored ``[day ordinal, number]`` pair, or None when it is not one."""
    if not isinstance(item, list | tuple) or len(item) != 2:
        return None
    day, value = item
    if isinstance(day, bool) or not isinstance(day, int) or not 1 <= day <= MAX_DAY:
        return None
    if not is_stored_number(value):
        return None
    return day, float(value)


def stored_day_longest_count(
    item: object, max_minutes: float, least_count: int
) -> tuple[int, float, int] | None:
    """A stored ``[day ordinal, longest minutes, count]`` (a quarter's day of stays, quiets
    or exits), or None when it is not one: the minutes within ``0..max_minutes``, the
    count within ``least_count..1_000_000``."""
    if not isinstance(item, list) or len(item) != 3:
        return None
    day, longest, count = item
    if isinstance(day, bool) or not isinstance(day, int) or not 1 <= day <= MAX_DAY:
        return None
    if isinstance(longest, bool) or not isinstance(longest, int | float):
        return None
    if not 0 <= longest <= max_minutes:
        return None
    if isinstance(count, bool) or not isinstance(count, int):
        return None
    if not least_count <= count <= 1_000_000:
        return None
    return day, float(longest), count
