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

from .models import CompressedSequence, SequenceEntry, Transition, clip, parse_number
from .tokens import estimate_tokens

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


def compress(
    transitions: Sequence[Transition], token_budget: int = DEFAULT_TOKEN_BUDGET
) -> CompressedSequence:
    """Compress ``transitions`` (oldest first) to fit ``token_budget`` tokens."""
    raw_tokens = sum(estimate_tokens(render_transition(t)) + 1 for t in transitions)
    per_entity: dict[str, list[Transition]] = defaultdict(list)
    for transition in transitions:
        per_entity[transition.entity_id].append(transition)

    entries: list[SequenceEntry] = []
    for items in per_entity.values():
        entries.extend(_compress_entity(items))
    entries.sort(key=lambda e: (e.start, e.entity_id))

    costs = [estimate_tokens(render_entry(e)) + 1 for e in entries]
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
