"""Device health over time: devices dropping offline, stuck or spiking readings."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta

from ..finding_kind import FindingKind
from ..home import DEVICE_DOMAINS, HomeView, is_unavailable
from ..models import AnomalyType, Finding, Severity, Transition
from ..offline import OFFLINE_ADVICE, offline_grace
from ..temperatures import share_of_level
from .timeline import median_absolute_deviation, numeric_series

# A single reading this many robust deviations away from both neighbours is a spike...
SPIKE_DEVIATIONS = 8.0
# Smallest span (fraction of the level) a steady sensor is granted.
SPIKE_FLOOR = 0.1
# Quantities that change smoothly, so a one-reading jump is a fault or a real event.
# (Illuminance and signal strength legitimately jump when a light or a radio switches.)
SMOOTH_DEVICE_CLASSES = frozenset(
    {"power", "temperature", "humidity", "carbon_dioxide", "moisture", "pressure", "voltage"}
)
# A reading this many spans beyond the rest is a spike even between unequal neighbours.
EXTREME_SPANS = 2.0
# A device that drops off this often in one window is failing or its radio link is jammed,
# however short each drop: a healthy device in a flaky mesh blips a few times a day.
FLAPPING_SPELLS = 4
# Readings a sensor needs in the window before its spread means anything.
MIN_READINGS = 8
# Other sensors of the same class that jumped the same way this close to a spike, by at
# least this share of its jump, moved with it: several rooms' thermometers leaping
# together is one event (a shared cause, a gateway replaying readings), told as one.
TOGETHER = timedelta(minutes=5)
TOGETHER_SHARE = 0.5
# An outage the window saw end says so: the title reads it in the past (walk 53: "Kitchen
# smoke detector is offline" for two hours above "was back at 09:01" and "Clear").
BACK_WORDS = ", and was back at "


def device_went_offline(home: HomeView) -> Iterator[Finding]:
    """A device dropped off (unavailable, or its connectivity sensor went off) for long.

    A spell shorter than the device's grace (``core/offline.py``) is a blip and ignored,
    unless the device dropped off ``FLAPPING_SPELLS`` times or more in the window. Drops
    are read as recorded (``HomeView.recorded``): a few seconds ``unavailable`` is no
    change to a spell (``core/state_blips.py``) but still a drop here.
    A device unavailable right now is the ``device_unavailable`` rule's; once it is back,
    its past outage is reported under the same identity (rule name and evidence), so one
    outage is one anomaly, told once.
    """
    drops: list[tuple[datetime, str]] | None = None  # indexed only once a device is told
    for entity_id, transitions in home.recorded.items():
        domain = home.domain(entity_id)
        if domain not in DEVICE_DOMAINS:
            continue
        device_class = home.device_class(entity_id)
        if domain == "binary_sensor" and device_class == "connectivity":
            if home.area(entity_id) is None:
                continue  # a portable device (a phone) leaves the network all the time
            lost_state = "off"
        else:
            current = home.info(entity_id)
            if current is not None and is_unavailable(current):
                continue  # offline now: the device_unavailable rule reports it
            lost_state = "unavailable"
        grace = offline_grace(domain, device_class)
        spells = list(_spells(home, transitions, lost_state))
        long_spells = [(start, length) for start, length in spells if length >= grace]
        if len(spells) >= FLAPPING_SPELLS:
            long_spells = spells  # a failing device or a jammed radio
        if not long_spells:
            continue
        lost = [start for start, _ in long_spells]
        if drops is None:
            drops = _drops(home)
        together = _dropped_with(drops, entity_id, lost[0])
        shared = f", with {_listed(together)} (a shared hub, integration or network)"
        # Back now: said, above evidence that reads "Clear" (walk 52 read "went offline at
        # 2026-12-07 08:45. Offline 16 min" and "What to do" under a detector back since).
        start, length = spells[-1]
        back = f"{BACK_WORDS}{_clock(start + length, home.end)}"
        # Dropped again since, however briefly: how often, and the drop it was back from
        # (walk 56 read "went offline at 14:09, and was back at 14:27" of 14:26-14:27).
        times = sum(1 for at, _ in spells if at >= lost[0])
        last = f", the last at {_clock(start, home.end)}" if times > 1 else ""
        advice = "It answers again; if it drops off again, check its power, battery and its"
        advice += " link to the hub."
        if start + length >= home.end:  # a connectivity sensor still off
            back, advice = "", OFFLINE_ADVICE
        yield Finding(
            rule="device_unavailable" if lost_state == "unavailable" else "device_went_offline",
            evidence=(entity_id, *together),
            reasoning=f"{entity_id} went offline at {_clock(lost[0], home.end)}"
            f"{f' ({times} times)' if times > 1 else ''}"
            f"{shared if together else ''}{last}{back}.",
            anomaly_type=AnomalyType.DEVICE_MALFUNCTION,
            severity=Severity.MEDIUM,
            recommendation=advice,
        )


# Devices that dropped off within this long of each other went down together: a shared
# hub, integration or network, which the homeowner checks once rather than device by device.
DROPPED_TOGETHER = timedelta(minutes=1)


def _drops(home: HomeView) -> list[tuple[datetime, str]]:
    """When each device dropped off (unavailable, or connectivity off), however briefly."""
    drops: list[tuple[datetime, str]] = []
    start = home.window.start
    for entity_id, transitions in home.recorded.items():
        domain = home.domain(entity_id)
        if domain not in DEVICE_DOMAINS:
            continue
        connectivity = domain == "binary_sensor" and home.device_class(entity_id) == "connectivity"
        lost_state = "off" if connectivity else "unavailable"
        for when, _ in _spells(home, transitions, lost_state):
            if start is None or when > start:  # the window's first record is no drop
                drops.append((when, entity_id))
    return drops


def _dropped_with(drops: list[tuple[datetime, str]], entity_id: str, when: datetime) -> list[str]:
    """The other devices that dropped off within ``DROPPED_TOGETHER`` of this one (a phone's
    connectivity too: what matters is that it fell with the others)."""
    return sorted(
        {other for at, other in drops if other != entity_id and abs(at - when) <= DROPPED_TOGETHER}
    )


def _listed(entity_ids: list[str]) -> str:
    return ", ".join(entity_ids)


def _clock(when: datetime, now: datetime) -> str:
    """ "08:45" on ``now``'s day, "06 Dec 23:10" before: as the homeowner reads a time."""
    return f"{when:%H:%M}" if when.date() == now.date() else f"{when:%d %b %H:%M}"


def _spells(
    home: HomeView, transitions: list[Transition], lost_state: str
) -> Iterator[tuple[datetime, timedelta]]:
    """Each spell in ``lost_state``: when it began and how long it lasted (until the end)."""
    start: datetime | None = None
    size = len(lost_state)  # (no other length lowers to it: most states skip the lower())
    for transition in transitions:
        state = transition.state
        lost = len(state) == size and state.lower() == lost_state
        if lost and start is None:
            start = transition.when
        elif not lost and start is not None:
            yield start, transition.when - start
            start = None
    if start is not None:
        yield start, home.end - start


READING_SPIKE = FindingKind("reading_spike", AnomalyType.DEVICE_MALFUNCTION, Severity.MEDIUM)


def reading_spike(home: HomeView) -> Iterator[Finding]:
    """A numeric sensor jumps for one reading and comes straight back.

    Other sensors of its class that jumped the same way at that moment are named with it,
    in one finding (one event, told once).

    Magnitude: the jump from the neighbours' mean, in the sensor's unit (negative for a dip).
    """
    told: set[str] = set()
    for entity_id in home.history_of("sensor", *SMOOTH_DEVICE_CLASSES):
        if entity_id in told:
            continue
        series = numeric_series(home, entity_id)
        if len(series) < MIN_READINGS:
            continue
        unit = state.info.unit if (state := home.info(entity_id)) else None
        values = [v for _, v in series]
        spread: float | None = None  # (asked only of a candidate past the cheap tests)
        lowest, highest = two_lowest_and_highest(values)
        # Every other reading lies within the others' range, which the "unprecedented"
        # test below always skips: only the lowest and the highest can be a spike.
        candidates = sorted({lowest[0], highest[1]})
        for index in (i for i in candidates if 0 < i < len(series) - 1):
            before, value, after = values[index - 1], values[index], values[index + 1]
            # Range of every other reading, in O(1) from the two extremes at each end.
            low = values[lowest[1] if lowest[0] == index else lowest[0]]
            high = values[highest[0] if highest[1] == index else highest[1]]
            floor = max(share_of_level(SPIKE_FLOOR, v, unit) for v in (low, high))
            span = max(high - low, floor, 1e-6)
            extreme = value > high + EXTREME_SPANS * span or value < low - EXTREME_SPANS * span
            if abs(before - after) > span / 2 and not extreme:
                continue  # neighbours disagree: a level change, not a spike
            # Unprecedented: a full span beyond anything else the window saw.
            if low - span <= value <= high + span:
                continue
            jump = abs(value - (before + after) / 2)
            if spread is None:
                spread = median_absolute_deviation(values)
            if jump < SPIKE_DEVIATIONS * max(spread, 1e-6) and not extreme:
                continue
            when = series[index][0]
            jump = value - (before + after) / 2
            companions = _jumped_together(home, entity_id, when, jump)
            told.update(companions)
            yield READING_SPIKE.finding(
                evidence=(entity_id, *companions),
                reasoning=f"{entity_id} jumped to {value:g} at {when:%H:%M} between "
                f"readings of {before:g} and {after:g}"
                + (f"; {', '.join(companions)} jumped with it." if companions else "."),
                recommendation="Check the sensor, or what drew that much for a moment.",
                magnitude=jump,
            )
            break


def two_lowest_and_highest(values: list[float]) -> tuple[list[int], list[int]]:
    """The indices ``sorted(range(len(values)), key=values.__getitem__)`` has first two and
    last two (ties in index order), found without sorting (``values``: two or more finite
    numbers; every sensor of a busy window asks, each analysis)."""
    low = min(values)
    first = values.index(low)
    try:
        second = values.index(low, first + 1)  # a tie with the lowest comes next
    except ValueError:
        rest = min(values[:first] + values[first + 1 :])
        second = values.index(rest)
    high = max(values)
    count = len(values)
    backwards = values[::-1]
    last = count - 1 - backwards.index(high)
    try:
        before = count - 1 - backwards.index(high, count - last)  # a tie with the highest
    except ValueError:
        rest = max(values[:last] + values[last + 1 :])
        before = count - 1 - backwards.index(rest)
    return [first, second], [before, last]


def _jumped_together(home: HomeView, spiking: str, when: datetime, jump: float) -> list[str]:
    """Sensors of the spiking one's class and unit that jumped the same way at that moment.

    Each has a reading within ``TOGETHER`` of the spike standing at least
    ``TOGETHER_SHARE`` of its jump away from the mean of its own neighbours, same side.
    """
    device_class = home.device_class(spiking)
    state = home.info(spiking)
    unit = state.info.unit if state else None
    found: list[str] = []
    for other in home.history:
        if other == spiking or home.domain(other) != "sensor":
            continue
        if home.device_class(other) != device_class:
            continue
        other_state = home.info(other)
        if (other_state.info.unit if other_state else None) != unit:
            continue
        series = numeric_series(home, other)
        for index in range(1, len(series) - 1):
            moment, value = series[index]
            if abs(moment - when) > TOGETHER:
                continue
            own = value - (series[index - 1][1] + series[index + 1][1]) / 2
            if own * jump > 0 and abs(own) >= TOGETHER_SHARE * abs(jump):
                found.append(other)
                break
    return found
