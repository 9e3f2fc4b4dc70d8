"""Who goes out at night, learned per person; a door's night uses by somebody coming home.

Set 32: a teenager's phone leaving at 00:40 with the door locked behind her was taken for
"a tracked member off early with phone and key", and a grandmother out of the front door
at 04:57 was not told because her grandson had come home by it at 01:40 one Saturday.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from custom_components.anomaly_monitor.core.baselines.home_baselines import HomeBaselines
from custom_components.anomaly_monitor.core.baselines.night_presence import never_out_at_night
from custom_components.anomaly_monitor.core.baselines.usual_use import UsualUse
from custom_components.anomaly_monitor.core.models import EntityInfo

ZONE = ZoneInfo("Asia/Seoul")
TEEN = "person.seoyeon"
FATHER = "person.minjun"
DOOR = "binary_sensor.front_door"
START = datetime(2026, 9, 21, tzinfo=ZONE)


def _home(nights: int = 7) -> HomeBaselines:
    """A week watched: both at home every night, out by day (07:45 to 18:00)."""
    baselines = HomeBaselines(ZONE)
    baselines.describe([EntityInfo(DOOR, "Front door", area="Hall", device_class="door")])
    baselines.watching([DOOR, TEEN, FATHER], START)
    for person in (TEEN, FATHER):
        baselines.observe(START, person, "home")
    for day in range(nights):
        morning = START + timedelta(days=day, hours=7, minutes=45)
        for person in (TEEN, FATHER):
            baselines.observe(morning, DOOR, "on")
            baselines.observe(morning + timedelta(seconds=20), DOOR, "off")
            baselines.observe(morning + timedelta(minutes=3), person, "not_home")
            evening = morning + timedelta(hours=10)
            baselines.observe(evening, person, "home")
            baselines.observe(evening + timedelta(minutes=1), DOOR, "on")
            baselines.observe(evening + timedelta(minutes=1, seconds=20), DOOR, "off")
    return baselines


def _out_and_back(baselines: HomeBaselines, person: str, at: datetime) -> None:
    baselines.observe(at, DOOR, "on")
    baselines.observe(at + timedelta(seconds=20), DOOR, "off")
    baselines.observe(at + timedelta(minutes=4), person, "not_home")
    baselines.observe(at + timedelta(hours=1), person, "home")


def test_a_person_never_out_at_night_is_read_so() -> None:
    baselines = _home()
    tonight = START + timedelta(days=7, minutes=40)
    assert never_out_at_night(baselines, [TEEN, FATHER], tonight) == [TEEN, FATHER]


def test_a_person_who_went_out_at_night_before_is_not() -> None:
    """The father off at 04:45 one night (an early shift, an airport run): his going out
    at night is his own; the daughter's nights still say she never does."""
    baselines = _home()
    _out_and_back(baselines, FATHER, START + timedelta(days=3, hours=4, minutes=45))
    tonight = START + timedelta(days=7, minutes=40)
    assert never_out_at_night(baselines, [TEEN, FATHER], tonight) == [TEEN]


def test_nor_from_four_on_when_anybody_may_be_off_early() -> None:
    """04:50: a father off to meet the 05:00 train locks up behind him (``_locked_behind``);
    23:45: a father down to the pharmacy, a teenager out: the same to what a home learns."""
    baselines = _home()
    assert (
        never_out_at_night(baselines, [TEEN], START + timedelta(days=7, hours=4, minutes=50)) == []
    )
    before_midnight = START + timedelta(days=6, hours=23, minutes=45)
    assert never_out_at_night(baselines, [TEEN], before_midnight) == []
    assert never_out_at_night(baselines, [TEEN], before_midnight + timedelta(hours=1)) == [TEEN]


def test_not_before_the_nights_are_learned_nor_for_a_tracker() -> None:
    baselines = _home(nights=3)
    tonight = START + timedelta(days=3, minutes=40)
    assert never_out_at_night(baselines, [TEEN], tonight) == []
    phone = "device_tracker.galaxy_a35"
    assert never_out_at_night(_home(), [phone], START + timedelta(days=7, minutes=40)) == []


def test_a_departure_after_a_flicker_is_one_and_tonights_is_left_out() -> None:
    """Home, ``unknown`` a moment, away at 00:44: she left (the last known place was home).
    The night being judged is not counted against itself."""
    baselines = _home()
    tonight = START + timedelta(days=7, minutes=40)
    baselines.observe(tonight, TEEN, "unknown")
    baselines.observe(tonight + timedelta(minutes=4), TEEN, "not_home")
    usual = baselines.usual
    assert usual.nights_used(TEEN, going_out=True) == 1
    assert usual.nights_used(TEEN, skip=tonight, going_out=True) == 0


def test_a_door_used_at_night_only_by_somebody_coming_home() -> None:
    """Back at 01:40 (the phone home a minute before the door): the door was used at night,
    but nobody went out by it; at 04:55 with nobody arriving, that is a night out."""
    baselines = _home()
    baselines.observe(START + timedelta(days=5, hours=1, minutes=39), TEEN, "not_home")
    back = START + timedelta(days=5, hours=1, minutes=40)
    baselines.observe(back - timedelta(minutes=1), TEEN, "home")
    baselines.observe(back, DOOR, "on")
    baselines.observe(back + timedelta(seconds=30), DOOR, "off")
    usual = baselines.usual
    assert usual.nights_used(DOOR) == 1
    assert usual.nights_used(DOOR, going_out=True) == 0
    out = START + timedelta(days=6, hours=4, minutes=55)
    baselines.observe(out, DOOR, "on")
    baselines.observe(out + timedelta(seconds=30), DOOR, "off")
    assert usual.nights_used(DOOR) == 2
    assert usual.nights_used(DOOR, going_out=True) == 1


def test_nights_out_are_stored_and_older_forms_count_every_night_as_out() -> None:
    baselines = _home()
    _out_and_back(baselines, FATHER, START + timedelta(days=3, hours=4, minutes=45))
    stored = baselines.usual.as_dict()
    again = UsualUse.from_dict(stored, ZONE)
    assert again.nights_used(FATHER, going_out=True) == 1
    assert again.nights_used(DOOR, going_out=True) == 1
    older = {k: v for k, v in stored.items() if k != "out_nights"}
    before = UsualUse.from_dict(older, ZONE)
    assert before.nights_used(TEEN, going_out=True) == 0
    assert before.nights_used(DOOR, going_out=True) == before.nights_used(DOOR) == 1


def test_one_back_late_most_nights_is_out_at_night() -> None:
    """Home from the evening shift at 23:30: his going out at 00:40 (a festival night) is
    that of one who is out at night here."""
    baselines = _home()
    for day in (1, 2, 4):
        late = START + timedelta(days=day, hours=23, minutes=30)
        baselines.observe(late - timedelta(hours=5), FATHER, "not_home")
        baselines.observe(late, FATHER, "home")
    tonight = START + timedelta(days=7, minutes=40)
    assert never_out_at_night(baselines, [TEEN, FATHER], tonight) == [TEEN]
