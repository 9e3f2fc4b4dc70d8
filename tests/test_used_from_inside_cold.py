"""In its first days, a contact used in bursts from inside is no way in (core).

A home set up at midnight (core, no Home Assistant): Alice, the only one with a tracker,
goes out by the front door at 08:00; her mother, who carries no phone, stays home and
cooks. The kitchen cupboard is opened in bursts (three or four looks within minutes,
seconds each) at breakfast and while cooking, never when anybody comes or goes. Before
``used_from_inside`` has three days to learn from, its opening at noon with Alice out is
somebody inside cooking, not an entry into the empty home. The back door, opened to let
the dog out and opened again to let it in (each time a pair, never a burst), and the
front door, stay ways in: their opening then is told as before.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.combined_detector import CombinedDetector
from custom_components.anomaly_monitor.core.models import EntityInfo, Finding, Transition
from custom_components.anomaly_monitor.core.window import build_window

from .core_factories import entity, environment

DAY0 = datetime(2026, 3, 2, tzinfo=UTC)
ALICE = "person.alice"
FRONT = "binary_sensor.0x00158d0001a2b3c4_contact"
CUPBOARD = "binary_sensor.0x00158d000450a1c3_contact"
BACK = "binary_sensor.0x00158d000450a9d9_contact"
AREAS = {FRONT: "Hall", CUPBOARD: "Kitchen", BACK: "Utility"}


def at(hours: float) -> datetime:
    return DAY0 + timedelta(hours=hours)


def opened(when: datetime, contact: str, seconds: float = 20) -> list[Transition]:
    area = AREAS[contact]
    return [
        Transition(when, contact, "on", area),
        Transition(when + timedelta(seconds=seconds), contact, "off", area),
    ]


def burst(start: float, contact: str, looks: int, gap_minutes: float = 1.5) -> list[Transition]:
    events: list[Transition] = []
    for look in range(looks):
        events += opened(at(start) + timedelta(minutes=gap_minutes * look), contact)
    return events


def morning() -> list[Transition]:
    """Breakfast at 06:30 and 07:00, the dog out and in, Alice out at 08:00."""
    events = burst(6.5, CUPBOARD, 3) + burst(7.0, CUPBOARD, 4)
    for start in (6.0, 7.25):  # the dog let out, and in again four minutes later
        events += burst(start, BACK, 2, gap_minutes=4)
    events += opened(at(8) - timedelta(minutes=2), FRONT)
    events += [Transition(at(8), ALICE, "not_home")]
    return sorted(events)


def first_morning() -> HomeBaselines:
    baselines = HomeBaselines(UTC)
    infos = [EntityInfo(e, "", area=AREAS[e], device_class="door") for e in AREAS]
    baselines.describe([*infos, EntityInfo(ALICE, "Alice")])
    baselines.watching([*AREAS, ALICE], DAY0)
    baselines.learn(Transition(DAY0, ALICE, "home"))
    for contact in AREAS:
        baselines.seed_reading(contact, "off", DAY0)
    for transition in morning():
        baselines.learn(transition)
    return baselines


def entries_at_noon(contact: str, day: int = 0) -> list[str]:
    """The ``entry_unsecured_while_away`` findings' first entity just after ``contact``
    opens at 12:00 on ``day``, Alice out (nothing else happened since the first morning)."""
    baselines = first_morning()
    now = at(24 * day + 12) + timedelta(seconds=10)
    today = [*morning(), Transition(at(24 * day + 12), contact, "on", AREAS[contact])]
    baselines.learn(today[-1])
    start = now - timedelta(hours=5)
    shown = sorted(t for t in today if start <= t.when <= now)
    latest = {t.entity_id: t.state for t in shown}
    states = [entity(e, latest.get(e, "off"), area=AREAS[e], device_class="door") for e in AREAS]
    states.append(entity(ALICE, "not_home"))
    detector = CombinedDetector(baselines=lambda: baselines)
    window = build_window(states, environment(now, persons_home=0), shown, start=start)
    found: list[Finding] = detector.findings(window)
    return [f.evidence[0] for f in found if f.rule == "entry_unsecured_while_away"]


def test_the_cupboard_used_in_bursts_is_no_way_in_in_its_first_hours() -> None:
    assert entries_at_noon(CUPBOARD) == []


def test_the_back_door_opened_in_pairs_for_the_dog_is_still_a_way_in() -> None:
    assert entries_at_noon(BACK) == [BACK]


def test_the_front_door_is_still_a_way_in() -> None:
    assert entries_at_noon(FRONT) == [FRONT]


def test_after_its_first_days_only_what_was_learned_counts() -> None:
    """Three days on, a handful of first uses no longer reads it (not learned: told)."""
    assert entries_at_noon(CUPBOARD, day=3) == [CUPBOARD]
