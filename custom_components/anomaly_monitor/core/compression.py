"""Compress a time-ordered list of transitions into a short sequence for a detector.

Per entity, consecutive equal states are merged (``repeat``), alternating runs between
two states are collapsed with a count (``toggle``) and gradual numeric changes keep
only their first and last reading (``drift``). Entries are then ordered by start time
and, if the rendering exceeds the token budget, the oldest are dropped.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from datetime import datetime
from functools import lru_cache

from .models import CompressedSequence, SequenceEntry, Transition, clip, parse_number
from .tokens import estimate_length_tokens

# An alternating run needs this many state changes before it reads as a toggle storm.
MIN_TOGGLE_RUN = 4
# A numeric run needs this many readings before it is folded into first/last.
MIN_DRIFT_RUN = 3
# A step counts as gradual when it is within this fraction of the value (or the floor).
DRIFT_RELATIVE_STEP = 0.05
DRIFT_ABSOLUTE_STEP = 0.5
DEFAULT_TOKEN_BUDGET = 1500


def render_entry(entry: SequenceEntry) -> str:
    """One prompt line for an entry; states are clipped untrusted text."""
    when = entry.start.strftime("%Y-%m-%d %H:%M:%S")
    if entry.end != entry.start:
        when += entry.end.strftime(" to %H:%M:%S")
    area = f" [{clip(entry.area, 40)}]" if entry.area else ""
    return f"{when} {entry.entity_id}{area}: {clip(entry.describe(), 120)}"


def render_transition(transition: Transition) -> str:
    """One line for an uncompressed transition, used to measure the raw size."""
    area = f" [{clip(transition.area, 40)}]" if transition.area else ""
    when = transition.when.strftime("%Y-%m-%d %H:%M:%S")
    return f"{when} {transition.entity_id}{area}: {clip(transition.state, 120)}"


# The length of ``%Y-%m-%d %H:%M:%S`` and of `` to %H:%M:%S`` (years 1000-9999).
_STAMP, _UNTIL = 19, 12


def _stamp_length(when: datetime) -> int:
    return _STAMP if when.year >= 1000 else len(when.strftime("%Y-%m-%d %H:%M:%S"))


def _clipped_length(text: str, limit: int) -> int:
    return min(len(text), limit)  # ``clip`` keeps the length up to its limit


def transition_cost(transition: Transition) -> int:
    """Tokens of ``render_transition(transition)`` and its line break, counted without
    rendering it: an analysis measures every transition of its window, and a window is
    thousands of them (formatting their times was a tenth of a replay's time)."""
    area = transition.area
    length = (
        _stamp_length(transition.when)
        + 1
        + len(transition.entity_id)
        + (_clipped_length(str(area), 40) + 3 if area else 0)
        + 2
        + _clipped_length(str(transition.state), 120)
    )
    return estimate_length_tokens(length) + 1


def entry_cost(entry: SequenceEntry) -> int:
    """Tokens of ``render_entry(entry)`` and its line break, counted without rendering it."""
    area = entry.area
    length = (
        _stamp_length(entry.start)
        + (_UNTIL if entry.end != entry.start else 0)
        + 1
        + len(entry.entity_id)
        + (_clipped_length(str(area), 40) + 3 if area else 0)
        + 2
        + _clipped_length(entry.describe(), 120)
    )
    return estimate_length_tokens(length) + 1


def compress(
    transitions: Sequence[Transition], token_budget: int = DEFAULT_TOKEN_BUDGET
) -> CompressedSequence:
    """Compress ``transitions`` (oldest first) to fit ``token_budget`` tokens."""
    per_entity: dict[str, list[Transition]] = defaultdict(list)
    for transition in transitions:
        per_entity[transition.entity_id].append(transition)

    raw_tokens = 0
    costed: list[_Costed] = []
    for items in per_entity.values():
        part, raw = _entity_part(_Identical(tuple(items)))
        costed.extend(part)
        raw_tokens += raw
    costed.sort()  # by start, then entity id (an entity's own in their order)
    entries = [c[3] for c in costed]
    costs = [c[4] for c in costed]
    total = sum(costs)
    first_kept = 0
    while total > token_budget and first_kept < len(entries):
        total -= costs[first_kept]
        first_kept += 1
    return CompressedSequence(
        entries=tuple(entries[first_kept:]),
        raw_count=len(transitions),
        raw_tokens=raw_tokens,
        tokens=total,
        truncated=first_kept,
    )


class _Identical:
    """One entity's transitions as a cache key: equal only to the very same objects (the
    buffer's, from one analysis to the next), never to equal values from elsewhere."""

    __slots__ = ("_hash", "items")

    def __init__(self, items: tuple[Transition, ...]) -> None:
        self.items = items
        self._hash = hash(tuple(map(id, items)))

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, _Identical)
            and len(other.items) == len(self.items)
            and all(a is b for a, b in zip(self.items, other.items, strict=True))
        )


# An entry with its order in the sequence and its token cost: (start, entity id, its
# index among the entity's entries, entry, cost); compared as tuples, never past the index.
type _Costed = tuple[datetime, str, int, SequenceEntry, int]


# An analysis compresses every entity's part of its window again; most entities did not
# change since the last one (the cache holds the transitions: their ids stay theirs).
@lru_cache(maxsize=4096)
def _entity_part(key: _Identical) -> tuple[tuple[_Costed, ...], int]:
    """One entity's entries with their order and token costs, and its transitions' raw
    cost."""
    part = tuple(
        (entry.start, entry.entity_id, index, entry, entry_cost(entry))
        for index, entry in enumerate(_compress_entity(list(key.items)))
    )
    return part, sum(transition_cost(t) for t in key.items)


def _compress_entity(items: list[Transition]) -> Iterable[SequenceEntry]:
    """Fold one entity's transitions into entries."""
    # Merge exact repeats first: (start, end, state, count).
    runs: list[tuple[datetime, datetime, str, int]] = []
    for item in items:
        if runs and runs[-1][2] == item.state:
            start, _, state, count = runs[-1]
            runs[-1] = (start, item.when, state, count + 1)
        else:
            runs.append((item.when, item.when, item.state, 1))

    entity_id, area = items[0].entity_id, items[0].area

    def merged(segment: list[tuple[datetime, datetime, str, int]], kind: str) -> SequenceEntry:
        return SequenceEntry(
            start=segment[0][0],
            end=segment[-1][1],
            entity_id=entity_id,
            area=area,
            first=segment[0][2],
            last=segment[-1][2],
            count=sum(run[3] for run in segment),
            kind=kind,
        )

    index = 0
    while index < len(runs):
        toggle_end = _toggle_run_end(runs, index)
        if toggle_end - index >= MIN_TOGGLE_RUN:
            yield merged(runs[index:toggle_end], "toggle")
            index = toggle_end
            continue
        drift_end = _drift_run_end(runs, index)
        if drift_end - index >= MIN_DRIFT_RUN:
            yield merged(runs[index:drift_end], "drift")
            index = drift_end
            continue
        yield merged(runs[index : index + 1], "repeat" if runs[index][3] > 1 else "change")
        index += 1


def _toggle_run_end(runs: list[tuple[datetime, datetime, str, int]], start: int) -> int:
    """End (exclusive) of the alternating A/B/A/B run that begins at ``start``."""
    end = start + 1
    while end < len(runs) and (end - start < 2 or runs[end][2] == runs[end - 2][2]):
        end += 1
    return end


def _drift_run_end(runs: list[tuple[datetime, datetime, str, int]], start: int) -> int:
    """End (exclusive) of the run of gradual numeric steps that begins at ``start``."""
    previous = parse_number(runs[start][2])
    if previous is None:
        return start + 1
    end = start + 1
    while end < len(runs):
        current = parse_number(runs[end][2])
        if current is None:
            break
        if abs(current - previous) > max(DRIFT_ABSOLUTE_STEP, DRIFT_RELATIVE_STEP * abs(previous)):
            break
        previous = current
        end += 1
    return end
