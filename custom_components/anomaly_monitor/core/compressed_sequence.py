"""A window's recent changes as a model reads them: compressed (``compression.py``).

``SequenceEntry`` is one line (a state, or a run folded into one), ``CompressedSequence``
the list and how much it saved, ``LazySequence`` one compressed only when first read.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime


@dataclass(frozen=True, slots=True)
class SequenceEntry:
    """One line of a compressed sequence: a state, or a run of states folded into one."""

    start: datetime
    end: datetime
    entity_id: str
    area: str | None
    first: str
    last: str
    count: int = 1
    kind: str = "change"  # change | repeat | drift | toggle

    def describe(self) -> str:
        """Short human-readable form used in prompts and diagnostics."""
        if self.kind == "change":
            return self.first
        if self.kind == "repeat":
            return f"{self.first} (unchanged x{self.count})"
        if self.kind == "drift":
            return f"{self.first} -> {self.last} (gradual, {self.count} readings)"
        return f"toggled {self.first}/{self.last} x{self.count}, ended {self.last}"


@dataclass(frozen=True, slots=True)
class CompressedSequence:
    """A time-ordered, compressed list of transitions and how much it was compressed."""

    entries: tuple[SequenceEntry, ...]
    raw_count: int
    raw_tokens: int
    tokens: int
    truncated: int = 0  # entries dropped (oldest first) to meet the token budget

    @property
    def ratio(self) -> float:
        """Raw tokens per compressed token (1.0 means no gain)."""
        return self.raw_tokens / self.tokens if self.tokens else 1.0


class LazySequence:
    """A window's compressed sequence, compressed when first read: a model's prompt and the
    diagnostics read it, the checks never do (compressing every window was ~9 % of a
    history replay's CPU). Reads as the ``CompressedSequence`` it stands for."""

    __slots__ = ("_compute", "_value")

    def __init__(self, compute: Callable[[], CompressedSequence]) -> None:
        self._compute: Callable[[], CompressedSequence] | None = compute
        self._value: CompressedSequence | None = None

    @property
    def value(self) -> CompressedSequence:
        """The sequence (compressed now, the first time)."""
        if self._value is None:
            assert self._compute is not None
            self._value, self._compute = self._compute(), None  # its inputs are let go
        return self._value

    @property
    def entries(self) -> tuple[SequenceEntry, ...]:
        """The compressed entries, oldest first."""
        return self.value.entries

    @property
    def raw_count(self) -> int:
        """Transitions before compression."""
        return self.value.raw_count

    @property
    def raw_tokens(self) -> int:
        """Tokens of the transitions as they were."""
        return self.value.raw_tokens

    @property
    def tokens(self) -> int:
        """Tokens of the compressed entries."""
        return self.value.tokens

    @property
    def truncated(self) -> int:
        """Entries dropped (oldest first) to meet the token budget."""
        return self.value.truncated

    @property
    def ratio(self) -> float:
        """Raw tokens per compressed token (1.0 means no gain)."""
        return self.value.ratio

    def __eq__(self, other: object) -> bool:
        if isinstance(other, LazySequence):
            other = other.value
        return self.value == other

    def __hash__(self) -> int:
        return hash(self.value)

    def __repr__(self) -> str:
        return repr(self.value)
