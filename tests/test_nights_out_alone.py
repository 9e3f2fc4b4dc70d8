"""A person's nights out alone, not with the household (``nights_out_alone``).

Set 34 b: the family went out to the fair together at 23:00 and came back at 02:30, all
three phones within a minute; four nights later the 15-year-old slipped out alone at
01:20 while the others slept, and was not told: her one night out with her parents made
her "one who goes out at night here".
"""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from custom_components.anomaly_monitor.core.baselines.home_baselines import HomeBaselines
from custom_components.anomaly_monitor.core.baselines.night_presence import never_out_at_night
from custom_components.anomaly_monitor.core.baselines.nights_out_alone import (
    TOGETHER,
    NightsOutAlone,
)
from custom_components.anomaly_monitor.core.models import EntityInfo

from .core_factories import observe_all

ZONE = ZoneInfo("Europe/Madrid")
TEEN = "person.lucia"
MOTHER = "person.rocio"
FATHER = "person.manolo"
DOOR = "binary_sensor.front_door"
START = datetime(2027, 4, 5, tzinfo=ZONE)


def _week(nights_out: list[tuple[int, list[str], float]]) -> HomeBaselines:
    """A week watched, everybody home every night; on each ``(day, persons, hour)`` those
    persons leave at ``hour`` (23 and over: that evening) together and are back three
    hours later, their phones a minute apart."""
    baselines = HomeBaselines(ZONE)
    baselines.describe([EntityInfo(DOOR, "Front door", area="Hall", device_class="door")])
    people = [TEEN, MOTHER, FATHER]
    baselines.watching([DOOR, *people], START)
    for person in people:
        baselines.observe(START, person, "home")
    events: list[tuple[datetime, str, str]] = []
    for day, persons, hour in nights_out:
        out = START + timedelta(days=day, hours=hour)
        for index, person in enumerate(persons):
            events.append((out + timedelta(minutes=index), person, "not_home"))
            events.append((out + timedelta(hours=3, minutes=index), person, "home"))
    observe_all(baselines, events)
    return baselines


def test_a_night_out_with_the_family_is_no_night_out_alone() -> None:
    """All three off to the fair at 23:00 and back at 02:00: the daughter has been out at
    night only with her parents, and her going out alone at 01:20 is still news."""
    baselines = _week([(2, [TEEN, MOTHER, FATHER], 23)])
    tonight = START + timedelta(days=8, hours=1, minutes=20)
    assert never_out_at_night(baselines, [TEEN], tonight) == [TEEN]


def test_a_night_out_alone_is_one() -> None:
    """The same night, but she went alone: she goes out at night here."""
    baselines = _week([(2, [TEEN], 23)])
    tonight = START + timedelta(days=8, hours=1, minutes=20)
    assert never_out_at_night(baselines, [TEEN], tonight) == []


def test_a_father_back_alone_from_his_shift_has_nights_out() -> None:
    """Home alone at 23:30 on three nights (his evening shift): his nights out are his
    own, whether the next person moved hours later or nobody has moved since."""
    baselines = _week([(1, [FATHER], 20.5), (3, [FATHER], 20.5), (5, [FATHER], 20.5)])
    tonight = START + timedelta(days=8, minutes=40)
    assert never_out_at_night(baselines, [FATHER, TEEN], tonight) == [TEEN]


def test_together_is_known_only_when_the_other_moved_within_together() -> None:
    night = START + timedelta(days=1, hours=1)
    alone = NightsOutAlone(lambda when: when.toordinal())
    alone.moved(TEEN, night, left=True, at_night=True)
    assert alone.count(TEEN) == 1  # nobody moved with her (yet): read as alone
    alone.moved(MOTHER, night + TOGETHER / 2, left=True, at_night=True)
    assert alone.count(TEEN) == alone.count(MOTHER) == 0
    later = night + timedelta(hours=1)
    alone.moved(FATHER, later, left=False, at_night=True)  # back: not the same way
    alone.moved(TEEN, later + TOGETHER * 2, left=False, at_night=True)
    alone.moved(MOTHER, later + TOGETHER * 5, left=False, at_night=True)
    assert alone.count(FATHER) == alone.count(TEEN) == alone.count(MOTHER) == 1
    assert alone.count(TEEN, skip=later) == 0
