"""What every history reader yields: time-ordered state rows, and what it could not read."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol

# Examples of bad rows kept for the report (the count is exact, the examples are few).
MAX_BAD_EXAMPLES = 10


class HistoryError(Exception):
    """The history cannot be read at all (a clear message for the homeowner)."""


@dataclass(frozen=True, slots=True)
class Record:
    """One recorded state: ``when`` is when HA wrote it (UTC)."""

    when: datetime
    entity_id: str
    state: str
    attributes: Mapping[str, Any] | None = None  # None: the reader has none (CSV)


@dataclass(slots=True)
class ReadStats:
    """Rows read and rows skipped, by reason."""

    rows: int = 0
    bad: Counter[str] = field(default_factory=Counter)
    examples: list[str] = field(default_factory=list)

    def skip(self, reason: str, example: str) -> None:
        """Count a bad row (never fatal) and keep a few examples."""
        self.bad[reason] += 1
        if len(self.examples) < MAX_BAD_EXAMPLES:
            self.examples.append(f"{reason}: {example[:160]}")

    def as_dict(self) -> dict[str, Any]:
        """The report's form."""
        return {
            "rows": self.rows,
            "bad_rows": sum(self.bad.values()),
            "bad_by_reason": dict(self.bad),
            "examples": list(self.examples),
        }


class HistorySource(Protocol):
    """A recorded history: its rows in time order, and when HA (re)started."""

    stats: ReadStats

    def records(self, start: datetime | None, end: datetime | None) -> Iterator[Record]:
        """Rows with ``start <= when < end`` in time order, streamed."""
        ...

    def restarts(self, start: datetime | None, end: datetime | None) -> list[datetime]:
        """Moments HA started again within the range (not the first start)."""
        ...

    def count(self, start: datetime | None, end: datetime | None) -> int | None:
        """How many rows the range holds (for the progress bar), if cheap to know."""
        ...

    def entity_attributes(self) -> dict[str, dict[str, Any]]:
        """The newest recorded name, class and unit of each entity (registry context)."""
        ...


VALID_DOMAIN_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789_")


def valid_entity_id(entity_id: str) -> bool:
    """``domain.object_id`` in HA's character set (cheap; HA checks again on write)."""
    domain, dot, object_id = entity_id.partition(".")
    return (
        bool(dot and domain and object_id)
        and set(domain) <= VALID_DOMAIN_CHARS
        and set(object_id) <= VALID_DOMAIN_CHARS
        and not domain.startswith("_")
        and not object_id.startswith("_")
        and not domain.endswith("_")
        and not object_id.endswith("_")
    )
