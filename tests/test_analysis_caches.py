"""What an analysis keeps to be cheaper gives what a fresh computation gives (core, no HA).

Each cache is checked against the computation it stands for, on the same input and on a
changed one: the window's sequence compressed when read, the per-entity split of a
window's transitions shared by every view of it, each entity's intervals made once per
view, parsed state strings, "no state" per text, and a role parsed without raising.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime, timedelta
import math
import random

from custom_components.anomaly_monitor.core import models, state_blips
from custom_components.anomaly_monitor.core.compression import compress
from custom_components.anomaly_monitor.core.device_roles import Role, parse_role
from custom_components.anomaly_monitor.core.home import HomeView
from custom_components.anomaly_monitor.core.models import (
    CompressedSequence,
    LazySequence,
    Transition,
    parse_number,
)
from custom_components.anomaly_monitor.core.state_blips import (
    NO_STATES,
    is_no_state,
    without_blips,
)
from custom_components.anomaly_monitor.core.statistics.timeline import Interval, intervals

from .core_factories import entity, environment, window

START = datetime(2026, 12, 1, 18, 0)
DOOR = "binary_sensor.front_door"
METER = "sensor.kettle_power"
MOTION = "binary_sensor.hall_motion"


def _busy(seed: int, count: int = 300) -> list[Transition]:
    """A random evening of a door, a meter and motion, blips (a second of unknown) in it."""
    rng = random.Random(seed)
    found: list[Transition] = []
    when = START
    for _ in range(count):
        when += timedelta(seconds=rng.randint(1, 90))
        entity_id = rng.choice((DOOR, METER, MOTION))
        if entity_id == METER:
            state = rng.choice(("0", "0.4", "1800", "1795.5", "unknown", "unavailable"))
        else:
            state = rng.choice(("on", "off", "off", "unknown"))
        found.append(Transition(when, entity_id, state, "Hall"))
    return found


def _states() -> list[models.EntityState]:
    return [
        entity(DOOR, "off", area="Hall", device_class="door"),
        entity(METER, "0", area="Hall", device_class="power", unit="W"),
        entity(MOTION, "off", area="Hall", device_class="motion"),
    ]


def _fresh_split(
    transitions: list[Transition],
) -> tuple[dict[str, list[Transition]], dict[str, list[Transition]]]:
    recorded: dict[str, list[Transition]] = defaultdict(list)
    for transition in sorted(transitions, key=lambda t: t.when):
        recorded[transition.entity_id].append(transition)
    return dict(recorded), {e: without_blips(kept) for e, kept in recorded.items()}


def test_the_sequence_is_compressed_when_read_and_equals_a_fresh_compression() -> None:
    transitions = _busy(1)
    built = window(_states(), environment(START + timedelta(hours=2)), transitions)
    assert isinstance(built.sequence, LazySequence)
    fresh = compress(built.transitions)
    assert built.sequence == fresh
    sequence = built.sequence
    assert (sequence.entries, sequence.raw_count, sequence.raw_tokens) == (
        fresh.entries,
        fresh.raw_count,
        fresh.raw_tokens,
    )
    assert (sequence.tokens, sequence.truncated, sequence.ratio) == (
        fresh.tokens,
        fresh.truncated,
        fresh.ratio,
    )
    # Another window (one more change) is its own sequence, never the first one's.
    longer = window(_states(), environment(START + timedelta(hours=2)), [*transitions, _late()])
    assert longer.sequence == compress(longer.transitions)
    assert longer.sequence != built.sequence


def _late() -> Transition:
    return Transition(START + timedelta(hours=3), DOOR, "on", "Hall")


def test_a_lazy_sequence_compresses_once_and_only_when_read() -> None:
    calls: list[int] = []
    made = CompressedSequence(entries=(), raw_count=0, raw_tokens=0, tokens=0)

    def compute() -> CompressedSequence:
        calls.append(1)
        return made

    lazy = LazySequence(compute)
    assert calls == []
    assert lazy.tokens == 0
    assert lazy.ratio == 1.0
    assert lazy == made
    assert calls == [1]


def test_views_of_one_window_share_its_split_and_a_changed_window_is_split_afresh() -> None:
    transitions = _busy(2)
    first = window(_states(), environment(START + timedelta(hours=2)), transitions)
    recorded, history = _fresh_split(transitions)
    one, other = HomeView(first), HomeView(first)
    assert one.recorded == recorded
    assert one.history == history
    assert other.history is one.history  # (the offline timer's view reads the analysis's)
    # A safety check's window in between (no transitions) splits nothing and keeps it.
    assert HomeView(window(_states(), environment(START))).history == {}
    assert HomeView(first).history is one.history
    # The next analysis: the oldest change expired, a new one came.
    moved = [*transitions[1:], _late()]
    second = window(_states(), environment(START + timedelta(hours=3)), moved)
    recorded, history = _fresh_split(moved)
    view = HomeView(second)
    assert view.recorded == recorded
    assert view.history == history
    assert view.history is not one.history
    # And back to the first window: still its own split.
    assert HomeView(first).history == _fresh_split(transitions)[1]


def _fresh_intervals(home: HomeView, entity_id: str) -> list[Interval]:
    changes = home.changes(entity_id)
    return [
        Interval(
            entity_id,
            change.state,
            change.when,
            max(home.end if i == len(changes) - 1 else changes[i + 1].when, change.when),
            i == len(changes) - 1,
        )
        for i, change in enumerate(changes)
    ]


def test_intervals_are_made_once_per_view_and_handed_out_as_fresh_lists() -> None:
    transitions = _busy(3)
    home = HomeView(window(_states(), environment(START + timedelta(hours=2)), transitions))
    for entity_id in (DOOR, METER, MOTION, "light.not_watched"):
        made = intervals(home, entity_id)
        assert made == _fresh_intervals(home, entity_id)
        made.clear()  # a caller's own list: the next caller gets them all
        assert intervals(home, entity_id) == _fresh_intervals(home, entity_id)
    # A later window's view ends later: its last interval is longer, not the kept one.
    later = HomeView(window(_states(), environment(START + timedelta(hours=5)), transitions))
    assert intervals(later, DOOR) == _fresh_intervals(later, DOOR)
    assert intervals(later, DOOR)[-1].end > intervals(home, DOOR)[-1].end


def _parsed(value: str) -> float | None:
    """``parse_number``'s contract, stated afresh."""
    for text in (value, value.strip()):
        try:
            number = float(text)
        except ValueError:
            continue
        return number if math.isfinite(number) else None
    return None


def test_parsed_state_strings_equal_a_fresh_parse_past_the_bound_too() -> None:
    texts = ["on", "off", " 21.5 ", "21.5", "nan", "inf", "-inf", "1e3", "\x1c7\x1f", "", "abc"]
    texts += [f"{n / 10:.1f}" for n in range(models._PARSED_KEPT + 50)]  # past the bound
    for _ in range(2):  # kept, then read from what was kept
        for text in texts:
            assert parse_number(text) == _parsed(text), text
    assert len(models._PARSED) <= models._PARSED_KEPT


def test_no_state_per_text_equals_the_rule_past_the_bound_too() -> None:
    texts = [" Unknown ", "unavailable", "None", "", "on", "0", "not_home"]
    texts += [f"state {n}" for n in range(state_blips._SAID_KEPT + 50)]
    for _ in range(2):
        for text in texts:
            assert is_no_state(text) is (text.strip().lower() in NO_STATES), text
    assert is_no_state(None)
    assert len(state_blips._SAID) <= state_blips._SAID_KEPT


def test_a_role_parses_as_the_enumeration_does() -> None:
    for role in Role:
        assert parse_role(role.value) is role
        assert parse_role(role) is role
    for bad in (None, "", "Exterior_Door", "door ", 3, ["window"]):
        assert parse_role(bad) is None
