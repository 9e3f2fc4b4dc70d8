"""One situation told once, though it shows itself again and again (``anomalies/away_stay``,
``anomalies/heat_spells``).

Guests of a holiday let with a keypad code and no trackers move about all weekend: told
once that somebody is in while nobody is home, the homeowner must not hear it again at
every walk through the hall. A boiler that locked out is one failure, whether the
thermostat "heats without warming" or the room "is colder than it is kept". What ends
the situation (everybody quiet for hours, somebody tracked home), a window opened while
away, anything graver or a safety hazard is told as before.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta

from homeassistant.core import HomeAssistant
from homeassistant.util import dt as dt_util

from custom_components.anomaly_monitor.anomalies.away_stay import STAY_GAP, STAY_NIGHT
from custom_components.anomaly_monitor.anomalies.heat_spells import HEAT_GAP
from custom_components.anomaly_monitor.anomalies.tracker import AnomalyTracker
from custom_components.anomaly_monitor.core.models import (
    HOME_SUBJECT,
    AnomalyType,
    EntityInfo,
    EntityState,
    Finding,
    Severity,
)

HALL = "binary_sensor.hall_motion"
LOUNGE = "binary_sensor.lounge_motion"
LOCK = "lock.front_door"
WINDOW = "binary_sensor.lounge_window"
CLIMATE = "climate.hallway"
ROOM = "sensor.hallway_temperature"


def _away(rule: str, entity_id: str, kind: AnomalyType, subject: str = "") -> Finding:
    """A finding about the empty home."""
    return Finding(
        rule,
        (entity_id,),
        f"{rule}: {entity_id}.",
        kind,
        Severity.HIGH,
        subject=subject or entity_id,
        while_away=True,
    )


def _motion(sensor: str) -> Finding:
    return _away("motion_while_away", sensor, AnomalyType.OCCUPANCY_MISMATCH, HOME_SUBJECT)


def _unlocked() -> Finding:
    return _away("entry_unsecured_while_away", LOCK, AnomalyType.SECURITY)


def _window() -> Finding:
    return _away("window_opened_while_away", WINDOW, AnomalyType.SECURITY)


def _over(tracker: AnomalyTracker, start: datetime, **kwargs: bool) -> datetime:
    """Analyses without any finding until nothing is open; the time then."""
    now = start
    for _ in range(3):
        now += timedelta(minutes=2)
        tracker.update([], now, **kwargs)
    assert tracker.open == {}
    return now


async def test_further_signs_of_a_stay_already_told_are_shown_not_told(
    hass: HomeAssistant,
) -> None:
    tracker = AnomalyTracker(hass, "home")
    now = dt_util.utcnow()
    # The guests come in with the keypad code, and walk in.
    (told,) = tracker.update([_unlocked()], now).opened
    tracker.acknowledge(told.key)
    now = _over(tracker, now)
    # Somebody inside after the door: told once (``core.escalation``'s intrusion).
    walked = tracker.update([_motion(HALL)], now + timedelta(minutes=20))
    assert len(walked.opened) == 1
    now = _over(tracker, now + timedelta(minutes=20))

    # An hour later, in the lounge; then the door unlocked as they go out.
    later = tracker.update([_motion(LOUNGE)], now + timedelta(hours=1))
    assert later.opened == []
    assert len(later.reopened) == 1
    assert later.reopened[0].acknowledged  # as the homeowner left the stay
    now = _over(tracker, now + timedelta(hours=1))
    out = tracker.update([_unlocked()], now + timedelta(hours=2))
    assert out.opened == []
    assert len(out.reopened) == 1

    # A window opened while away is how somebody gets in: told, whoever is inside.
    forced = tracker.update([_unlocked(), _window()], now + timedelta(hours=2, minutes=5))
    (told_now,) = forced.opened  # the door's anomaly, the window joined it: now told
    assert "window_opened_while_away" in told_now.rules


async def test_a_stay_ends_when_the_home_is_quiet_or_somebody_comes_home(
    hass: HomeAssistant,
) -> None:
    tracker = AnomalyTracker(hass, "home")
    now = dt_util.utcnow()
    tracker.update([_motion(HALL)], now)
    now = _over(tracker, now)
    # Quiet for longer than STAY_GAP: an entry (a break-in that night) is told; motion
    # alone is whoever was moving inside, until the home was quiet for STAY_NIGHT.
    night = tracker.update([_unlocked()], now + STAY_GAP + timedelta(minutes=10))
    assert len(night.opened) == 1
    now = _over(tracker, now + STAY_GAP + timedelta(minutes=10))
    tracker.update([_motion(HALL)], now)
    now = _over(tracker, now)
    days_later = tracker.update([_motion(HALL)], now + STAY_NIGHT + timedelta(minutes=10))
    assert len(days_later.opened) == 1

    now = _over(tracker, now + STAY_NIGHT + timedelta(minutes=10))
    tracker.update([], now + timedelta(minutes=5), someone_home=True)  # somebody came home
    again = tracker.update([_motion(HALL)], now + timedelta(minutes=30))
    assert len(again.opened) == 1


def _heating(rule: str, subject: str, severity: Severity = Severity.MEDIUM) -> Finding:
    kind = AnomalyType.SAFETY_HAZARD if rule == "room_too_cold" else AnomalyType.DEVICE_MALFUNCTION
    evidence = (subject, ROOM if subject == CLIMATE else CLIMATE)
    return Finding(rule, evidence, f"{rule} in the hallway.", kind, severity, subject=subject)


async def test_one_heating_failure_seen_by_several_rules_is_told_once(
    hass: HomeAssistant,
) -> None:
    tracker = AnomalyTracker(hass, "home")
    now = dt_util.utcnow()
    (told,) = tracker.update([_heating("heating_not_warming", CLIMATE)], now).opened
    now = _over(tracker, now + timedelta(hours=1))

    colder = tracker.update([_heating("room_colder_than_kept", ROOM)], now + timedelta(hours=2))
    assert colder.opened == []
    assert [a.rule for a in colder.reopened] == ["room_colder_than_kept"]
    now = _over(tracker, now + timedelta(hours=2))
    again = tracker.update([_heating("heating_not_warming", CLIMATE)], now + timedelta(hours=1))
    assert again.opened == []
    assert [a.key for a in again.reopened] == [told.key]

    # Falling towards freezing is a safety hazard: always told (the heating's incident,
    # now a hazard: ``graver_of_told``, pushed at once with the cold leading it).
    freezing = tracker.update(
        [
            _heating("heating_not_warming", CLIMATE),
            _heating("room_too_cold", ROOM, Severity.HIGH),
        ],
        now + timedelta(hours=1, minutes=5),
    )
    assert [a.lead_rule for a in freezing.opened] == ["room_too_cold"]
    assert [a.escalation for a in freezing.opened] == ["hazard"]


def _cold(rule: str, sensor: str, severity: Severity = Severity.MEDIUM) -> Finding:
    """A cold sign about another room's thermometer (the basement, the cellar)."""
    kind = AnomalyType.SAFETY_HAZARD if rule == "room_too_cold" else AnomalyType.DEVICE_MALFUNCTION
    return Finding(rule, (sensor,), f"{rule}: {sensor}.", kind, severity, subject=sensor)


async def test_the_cold_a_heating_failure_leaves_elsewhere_is_its_sign(
    hass: HomeAssistant,
) -> None:
    """Sets 2, 3, 5: the boiler fails, told once; the basement close to freezing half an
    hour later and the cellar below its hours that evening are the same failure, shown
    not told. The basement below freezing, or cold long after the failure, is told."""
    basement, cellar = "sensor.basement_temperature", "sensor.cellar_temperature"
    tracker = AnomalyTracker(hass, "home")
    now = dt_util.utcnow()
    failure = _heating("room_colder_than_kept", ROOM)
    assert len(tracker.update([failure], now).opened) == 1
    now += timedelta(minutes=30)
    cold = tracker.update([failure, _cold("room_too_cold", basement)], now)
    assert cold.opened == []
    assert [a.rule for a in cold.reopened] == ["room_too_cold"]
    for _ in range(8):  # analysed as the evening goes on
        now += timedelta(hours=1)
        tracker.update([failure], now)
    off = tracker.update([failure, _cold("reading_off_its_hours", cellar)], now)
    assert off.opened == []

    now += timedelta(minutes=10)
    freezing = tracker.update([failure, _cold("room_too_cold", "sensor.shed", Severity.HIGH)], now)
    assert [a.rule for a in freezing.opened] == ["room_too_cold"]

    fresh = AnomalyTracker(hass, "fresh")
    assert len(fresh.update([_cold("room_too_cold", basement)], now).opened) == 1


async def test_a_thermometer_below_its_band_with_the_failure_is_its_sign(
    hass: HomeAssistant,
) -> None:
    """Set 15 (on e0e0738): the steam boiler ran out of water; the living room "well below
    the lowest it is kept" and the basement "below its own band" pushed in the same
    second. Found with the failure, below its band, it is the failure's sign; above it,
    or a reading that is no temperature, is told."""
    basement = "sensor.basement_temperature"
    humidity = "sensor.basement_humidity"

    def reading(entity_id: str, cls: str, unit: str) -> EntityState:
        return EntityState(EntityInfo(entity_id, entity_id, "Basement", cls, unit), "12.8")

    entities = {
        basement: reading(basement, "temperature", "°C"),
        humidity: reading(humidity, "humidity", "%"),
    }

    def band(sensor: str, magnitude: float) -> Finding:
        return replace(_cold("reading_beyond_its_steady_band", sensor), magnitude=magnitude)

    failure = _heating("room_colder_than_kept", ROOM)
    for found, told in (
        (band(basement, -3.2), []),
        (band(basement, 2.5), ["reading_beyond_its_steady_band"]),
        (band(humidity, -9.0), ["reading_beyond_its_steady_band"]),
    ):
        tracker = AnomalyTracker(hass, f"band{found.magnitude}{found.subject}")
        changes = tracker.update([failure, found], dt_util.utcnow(), entities=entities)
        assert [a.rule for a in changes.opened] == ["room_colder_than_kept", *told]


async def test_another_room_whose_heating_fails_too_is_the_same_failure(
    hass: HomeAssistant,
) -> None:
    """Set 10: the boiler stops; the bedroom's thermostat "is set to heat but idles",
    then the living room's two hours later. One boiler: the second is shown, not told.
    Heating that overshoots elsewhere is another matter (told), and so is another room
    failing long after."""
    bedroom, living = "climate.bedroom", "climate.living_room"

    def idles(climate: str, rule: str = "hvac_not_responding") -> Finding:
        return Finding(
            rule,
            (climate, f"sensor.{climate.split('.')[1]}_temperature"),
            f"{climate} is set to heat but idles.",
            AnomalyType.DEVICE_MALFUNCTION,
            Severity.MEDIUM,
            subject=climate,
        )

    tracker = AnomalyTracker(hass, "home")
    now = dt_util.utcnow()
    assert len(tracker.update([idles(bedroom)], now).opened) == 1
    now += timedelta(hours=2)
    both = tracker.update([idles(bedroom), idles(living)], now)
    assert both.opened == []
    assert [a.subject for a in both.reopened] == [living]

    hotter = tracker.update(
        [idles(bedroom), idles(living), idles("climate.study", "hvac_overshooting_target")],
        now + timedelta(minutes=5),
    )
    assert [a.subject for a in hotter.opened] == ["climate.study"]

    fresh = AnomalyTracker(hass, "fresh")
    fresh.update([idles(bedroom)], now)
    now = _over(fresh, now)
    later = fresh.update([idles(living)], now + HEAT_GAP + timedelta(minutes=10))
    assert len(later.opened) == 1


async def test_a_heating_failure_long_after_the_last_is_told(hass: HomeAssistant) -> None:
    tracker = AnomalyTracker(hass, "home")
    now = dt_util.utcnow()
    tracker.update([_heating("heating_not_warming", CLIMATE)], now)
    now = _over(tracker, now)
    later = tracker.update(
        [_heating("room_colder_than_kept", ROOM)], now + HEAT_GAP + timedelta(minutes=10)
    )
    assert len(later.opened) == 1


async def test_an_entry_after_a_stay_told_only_as_motion_is_told(hass: HomeAssistant) -> None:
    """Motion alone may be a pet: a door opened after it is news (``core.episodes``)."""
    tracker = AnomalyTracker(hass, "home")
    now = dt_util.utcnow()
    tracker.update([_motion(HALL)], now)
    now = _over(tracker, now)
    door = tracker.update([_unlocked()], now + timedelta(minutes=30))
    assert len(door.opened) == 1


async def test_an_appliance_running_during_a_stay_is_a_sign_of_it(hass: HomeAssistant) -> None:
    """The guests shower: the well pump draws power while nobody tracked is home."""
    tracker = AnomalyTracker(hass, "home")
    now = dt_util.utcnow()
    tracker.update([_unlocked()], now)
    tracker.update([_unlocked(), _motion(HALL)], now + timedelta(minutes=2))
    now = _over(tracker, now + timedelta(minutes=2))
    pump = Finding(
        "appliance_active_while_away",
        ("sensor.well_pump_power",),
        "Appliances in Cellar draw power while nobody is home.",
        AnomalyType.OCCUPANCY_MISMATCH,
        Severity.MEDIUM,
        subject=HOME_SUBJECT,
        while_away=True,
    )
    shower = tracker.update([pump], now + timedelta(hours=1))
    assert shower.opened == []
    assert len(shower.reopened) == 1


async def test_motion_hours_after_a_door_told_unlocked_is_told(hass: HomeAssistant) -> None:
    """The door left unlocked while away, told; hours later motion inside: somebody came
    in, told (the stay had shown nobody moving yet)."""
    tracker = AnomalyTracker(hass, "home")
    now = dt_util.utcnow()
    states = {LOCK: "unlocked"}
    tracker.update([_unlocked()], now, states=states)
    inside = tracker.update([_unlocked(), _motion(HALL)], now + timedelta(hours=3), states=states)
    (told,) = inside.opened  # the door's, now with somebody inside
    assert "motion_while_away" in told.rules


async def test_a_forced_window_lasts_while_it_stands_open(hass: HomeAssistant) -> None:
    """Its statistic no longer sees the opening (aged out of the window) while the window
    still stands open: the entry lasts, and the heating found beside it joins it."""
    tracker = AnomalyTracker(hass, "home")
    now = dt_util.utcnow()
    (forced,) = tracker.update([_window()], now, states={WINDOW: "on"}).opened
    later = now
    for _ in range(4):
        later += timedelta(minutes=40)
        tracker.update([], later, states={WINDOW: "on"})
    assert list(tracker.open) == [forced.signature]
    heating = Finding(
        "hvac_with_opening_open",
        (CLIMATE, WINDOW),
        "Hallway is heating with Lounge window open.",
        AnomalyType.ENVIRONMENTAL_CONFLICT,
        Severity.MEDIUM,
        subject=CLIMATE,
    )
    joined = tracker.update([heating], later + timedelta(minutes=5), states={WINDOW: "on"})
    assert joined.opened == []
    assert "hvac_with_opening_open" in forced.rules
    # The heating's words may lead now: the entry still lasts while the window is open.
    for _ in range(4):
        later += timedelta(minutes=40)
        tracker.update([], later + timedelta(minutes=5), states={WINDOW: "on"})
    assert list(tracker.open) == [forced.signature]
    # Closed: over as usual.
    for _ in range(3):
        later += timedelta(minutes=10)
        tracker.update([], later + timedelta(minutes=5), states={WINDOW: "off"})
    assert tracker.open == {}


def _door_opened() -> Finding:
    """The front door opened (its contact, with the lock) while nobody tracked is home."""
    finding = _away("entry_unsecured_while_away", "binary_sensor.front_door", AnomalyType.SECURITY)
    return replace(finding, evidence=("binary_sensor.front_door", LOCK))


async def test_guests_who_came_in_by_the_door_and_slept_are_one_stay(
    hass: HomeAssistant,
) -> None:
    """Guests of a holiday let open the door (told), walk in, sleep nine hours and move
    about in the morning: one stay. They leave by the door; motion the next night, long
    after, is told."""
    tracker = AnomalyTracker(hass, "home")
    now = dt_util.utcnow()
    assert len(tracker.update([_door_opened()], now).opened) == 1
    now = _over(tracker, now)
    walked = tracker.update([_motion(HALL)], now + timedelta(minutes=30))
    assert walked.opened == []  # whoever opened the door came in: the same stay
    now = _over(tracker, now + timedelta(minutes=30))
    morning = tracker.update([_motion(LOUNGE)], now + timedelta(hours=9))
    assert morning.opened == []  # nobody came in overnight: who moves is who slept there
    now = _over(tracker, now + timedelta(hours=9))
    out = tracker.update([_door_opened()], now + timedelta(hours=1))
    assert out.opened == []  # leaving by the same door, within the stay
    now = _over(tracker, now + timedelta(hours=1))
    night = tracker.update([_motion(HALL)], now + STAY_GAP + timedelta(hours=1))
    assert len(night.opened) == 1  # the last sign was the door: they left


async def test_an_appliance_after_a_quiet_night_is_judged_by_the_gap(hass: HomeAssistant) -> None:
    """Motion in the evening, then nine quiet hours: a water heater switching on at dawn
    may be its timer, not who slept there: told, as after any 4 h of quiet."""
    tracker = AnomalyTracker(hass, "home")
    now = dt_util.utcnow()
    tracker.update([_motion(HALL)], now)
    now = _over(tracker, now)
    heater = Finding(
        "appliance_active_while_away",
        ("switch.water_heater",),
        "Appliances in Bathroom draw power while nobody is home.",
        AnomalyType.OCCUPANCY_MISMATCH,
        Severity.MEDIUM,
        subject=HOME_SUBJECT,
        while_away=True,
    )
    assert len(tracker.update([heater], now + timedelta(hours=9)).opened) == 1


async def test_an_acknowledged_stay_holds_a_milder_finding_on_its_entry(
    hass: HomeAssistant,
) -> None:
    """Set 3: a break-in told (the back door, then motion); the homeowner acknowledged the
    motion after it had ended, then was told "the back door opened with nobody seen"
    about the same door. A milder finding about the acknowledged stay's entry is shown."""
    door = "binary_sensor.back_door"
    tracker = AnomalyTracker(hass, "home")
    now = dt_util.utcnow()
    entry = _away("entry_unsecured_while_away", door, AnomalyType.SECURITY)
    tracker.update([entry], now)
    (walked,) = tracker.update([entry, _motion(HALL)], now + timedelta(minutes=1)).opened
    now = _over(tracker, now + timedelta(minutes=1))
    (ended,) = [a for a in tracker.ended.values() if a.signature == walked.signature]
    tracker.acknowledge(ended.key)  # read later: the anomaly had ended
    lonely = Finding(
        "unaccompanied_opening", (door,), "The back door opened with nobody seen.",
        AnomalyType.SECURITY, Severity.MEDIUM, subject=door,
    )  # fmt: skip
    later = tracker.update([lonely], now + timedelta(minutes=10))
    assert later.opened == []
    (shown,) = later.reopened
    assert shown.acknowledged
    now = _over(tracker, now + timedelta(minutes=10))
    # Another door, or the same stay not acknowledged, is told.
    other = Finding(
        "unaccompanied_opening", (WINDOW,), "The lounge window opened with nobody seen.",
        AnomalyType.SECURITY, Severity.MEDIUM, subject=WINDOW,
    )  # fmt: skip
    assert len(tracker.update([other], now + timedelta(minutes=5)).opened) == 1

    fresh = AnomalyTracker(hass, "fresh")
    start = dt_util.utcnow()
    fresh.update([entry], start)
    start = _over(fresh, start)
    assert len(fresh.update([lonely], start + timedelta(minutes=5)).opened) == 1


async def test_an_appliance_left_on_holds_no_break_in(hass: HomeAssistant) -> None:
    """A neighbour feeds the dog (told) while the air conditioner runs, left on all
    weekend (told, acknowledged). Motion inside eight hours after the neighbour left is
    somebody in the empty home, told: an appliance running is no sign that anybody is in,
    and keeps no stay of people going (main held the break-in as a further, acknowledged,
    sign of the stay the air conditioner kept open)."""
    tracker = AnomalyTracker(hass, "home")
    now = dt_util.utcnow()
    cooling = Finding(
        "appliance_active_while_away",
        ("sensor.lounge_compressor_power",),
        "Appliances in Lounge draw power while nobody is home.",
        AnomalyType.OCCUPANCY_MISMATCH,
        Severity.HIGH,
        subject=HOME_SUBJECT,
        while_away=True,
    )
    (told,) = tracker.update([cooling], now).opened
    tracker.acknowledge(told.key)
    neighbour = tracker.update([cooling, _door_opened()], now + timedelta(hours=7))
    assert len(neighbour.opened) == 1
    now += timedelta(hours=7)
    for _ in range(12):  # six hours, the air conditioner still running
        now += timedelta(minutes=30)
        tracker.update([cooling], now)
    now = _over(tracker, now)  # another rule tells it now (its hours): this one is over
    night = tracker.update([_motion(LOUNGE)], now + timedelta(hours=2))
    assert len(night.opened) == 1
