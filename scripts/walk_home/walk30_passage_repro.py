"""walk30: the first days' gate on the walk's own transitions, in the core (no hass).

    PYTHONPATH=. .venv/bin/python scripts/walk_home/walk30_passage_repro.py

Run 1: the front door open as both phones leave: the entry findings wait. Run 2: the back
door used a minute before, then the front lock unlocked and the door opened, the phones
leave: the entry findings wait, but ``door_opened_before_unlock`` (the back door's opening
paired with the front lock's unlock) is pushed at once (docs/walks.md, session 30, 1c).
"""

from datetime import UTC, datetime

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.first_days_passage import household_passage
from custom_components.anomaly_monitor.core.learning_gate import held_while_learning
from custom_components.anomaly_monitor.core.models import EntityInfo, Transition
from custom_components.anomaly_monitor.core.rules.security import ENTRY_UNSECURED_WHILE_AWAY
from custom_components.anomaly_monitor.core.statistics.locks import DOOR_OPENED_BEFORE_UNLOCK

D, B, L, H, A, BOB = (
    "binary_sensor.front_door",
    "binary_sensor.back_door",
    "lock.front_door_lock",
    "binary_sensor.hall_motion",
    "person.alice",
    "person.bob",
)
T0 = datetime(2026, 12, 4, 8, 44, 18, tzinfo=UTC)
b = HomeBaselines(UTC)
b.describe(
    [
        EntityInfo(D, "Front door", area="Hall", device_class="door"),
        EntityInfo(B, "Back door", area="Hall", device_class="door"),
        EntityInfo(L, "Front door lock", area="Hall"),
        EntityInfo(H, "Hall motion", area="Hall", device_class="motion"),
        EntityInfo(A, "Alice"),
        EntityInfo(BOB, "Bob"),
    ]
)
b.watching([D, B, L, H, A, BOB], T0)
for e, s in ((A, "home"), (BOB, "home"), (D, "off"), (B, "off"), (L, "locked"), (H, "off")):
    b.learn(Transition(T0, e, s))


def at(h, m, s=0):
    return datetime(2026, 12, 4, h, m, s, tzinfo=UTC)


def f(ev):
    return ENTRY_UNSECURED_WHILE_AWAY.finding(
        evidence=ev, subject=ev[0], context=(H,), while_away=True, reasoning="x"
    )


seq1 = [
    (at(8, 45, 0), H, "on"),
    (at(8, 45, 6), H, "off"),
    (at(8, 45, 7), L, "unlocked"),
    (at(8, 45, 10), D, "on"),
    (at(8, 45, 31), D, "off"),
    (at(8, 45, 35), L, "locked"),
    (at(8, 45, 45), L, "unlocked"),
    (at(8, 45, 45), D, "on"),
    (at(8, 46, 36), A, "not_home"),
    (at(8, 46, 36), BOB, "not_home"),
]
for w, e, s in seq1:
    b.learn(Transition(w, e, s))
now = at(8, 46, 37)
print(
    "run1 empty_since",
    b.away.empty_since,
    [held_while_learning(f(ev), b, now, False) for ev in ((B, L, H), (D, H))],
)
seq2 = [
    (at(8, 47, 17), D, "off"),
    (at(8, 47, 23), L, "locked"),
    (at(8, 51, 18), L, "unlocked"),
    (at(8, 51, 21), D, "on"),
    (at(8, 51, 47), D, "off"),
    (at(8, 51, 48), L, "locked"),
    (at(8, 52, 9), A, "home"),
    (at(8, 52, 9), BOB, "home"),
    (at(8, 59, 10), B, "on"),
    (at(8, 59, 19), B, "off"),
    (at(8, 59, 40), L, "unlocked"),
    (at(8, 59, 40), D, "on"),
    (at(9, 0, 26), A, "not_home"),
    (at(9, 0, 27), BOB, "not_home"),
]
for w, e, s in seq2:
    b.learn(Transition(w, e, s))
now = at(9, 0, 36)
print(
    "run2 empty_since",
    b.away.empty_since,
    [
        (held_while_learning(f(ev), b, now, False), household_passage(f(ev), b, now))
        for ev in ((B, L, H), (D, H))
    ],
)

g = DOOR_OPENED_BEFORE_UNLOCK.finding(evidence=(L,), reasoning="x", recommendation="y")
print(
    "door_opened_before_unlock held?",
    held_while_learning(g, b, now, False),
    "(home then:",
    held_while_learning(g, b, now, True),
    ")",
)
