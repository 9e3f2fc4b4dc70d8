"""A household's everyday comings and goings are not alarms: leaving, pets, coming home."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta

from custom_components.anomaly_monitor.core.home import HomeView
from custom_components.anomaly_monitor.core.models import EntityState, Transition
from custom_components.anomaly_monitor.core.pets import has_pets
from custom_components.anomaly_monitor.core.rules.occupancy import motion_while_away
from custom_components.anomaly_monitor.core.statistics.occupancy import activity_while_away
from custom_components.anomaly_monitor.core.statistics.openings import unaccompanied_opening
from custom_components.anomaly_monitor.core.window import build_window

from .core_factories import entity, environment, home, steps, window

MORNING = datetime(2025, 3, 12, 8, 0)
PERSON = entity("person.alex", "not_home")
HALL = entity("binary_sensor.hall_motion", "on", area="Hall", device_class="motion")
LOUNGE = entity("binary_sensor.lounge_motion", "on", area="Lounge", device_class="motion")
LIGHT = entity("light.lounge", "off", area="Lounge")
DOOR = entity("binary_sensor.front_door", "off", area="Hall", device_class="door")


def _at(minutes: float) -> datetime:
    return MORNING + timedelta(minutes=minutes)


def _away(
    minutes: float, states: list[EntityState], trace: list[Transition], profile: str = ""
) -> HomeView:
    built = window(states, environment(_at(minutes), persons_home=0), trace)
    return HomeView(replace(built, profile=profile))


def test_the_hall_sensor_still_on_from_leaving_is_the_person_not_an_intruder() -> None:
    # Door at 10, the PIR holds "on"; the phone says not_home 3 minutes later.
    trace = steps(
        MORNING,
        [
            (0, PERSON.entity_id, "home"),
            (10, HALL.entity_id, "on"),
            (10, DOOR.entity_id, "on"),
            (10.5, DOOR.entity_id, "off"),
            (13, PERSON.entity_id, "not_home"),
        ],
    )
    assert not list(motion_while_away(_away(14, [PERSON, HALL, DOOR], trace)))
    # Motion that starts after they left (and the grace) is told.
    later = [*trace, *steps(MORNING, [(12, HALL.entity_id, "off"), (30, HALL.entity_id, "on")])]
    (finding,) = motion_while_away(_away(31, [PERSON, HALL, DOOR], later))
    assert HALL.entity_id in finding.evidence
    # A departure older than the window: any motion is after it (as before).
    assert list(motion_while_away(_away(31, [PERSON, HALL, DOOR], [])))


def test_pet_motion_alone_is_the_pet_a_light_switched_on_is_a_person() -> None:
    profile = "Family of four, two children and a dog; both parents commute."
    trace = steps(
        MORNING,
        [
            (0, PERSON.entity_id, "home"),
            (5, PERSON.entity_id, "not_home"),
            (20, LOUNGE.entity_id, "on"),
            (21, LOUNGE.entity_id, "off"),
            (40, LOUNGE.entity_id, "on"),
        ],
    )
    states = [PERSON, LOUNGE, LIGHT]
    assert list(motion_while_away(_away(41, states, trace)))  # no pet said: told
    assert list(activity_while_away(_away(41, states, trace)))
    assert not list(motion_while_away(_away(41, states, trace, profile)))
    assert not list(activity_while_away(_away(41, states, trace, profile)))
    lit = [*trace, *steps(MORNING, [(40.5, LIGHT.entity_id, "on")])]
    on = [PERSON, LOUNGE, entity("light.lounge", "on", area="Lounge")]
    assert list(motion_while_away(_away(41, on, lit, profile)))
    assert list(activity_while_away(_away(41, on, lit, profile)))


def test_a_pet_home_empty_since_before_the_window_a_light_switched_on_is_a_person() -> None:
    """Everybody left hours ago (the departure is older than the window)."""
    profile = "Family of four, two children and a dog; both parents commute."
    landing = entity("binary_sensor.landing_motion", "on", area="Kids room", device_class="motion")
    lamp = entity("light.kids_room", "off", area="Kids room")
    motion = [(0, landing.entity_id, "off"), (60, landing.entity_id, "on")]

    def view(states: list[EntityState], trace: list[Transition]) -> HomeView:
        built = build_window(states, environment(_at(63), persons_home=0), trace, start=_at(0))
        return HomeView(replace(built, profile=profile))

    # The dog on the landing: nothing a person does.
    assert not list(motion_while_away(view([PERSON, landing, lamp], steps(MORNING, motion))))
    # A light left on all day (no switching in the window) is no sign either.
    lit = replace(lamp, state="on")
    assert not list(motion_while_away(view([PERSON, landing, lit], steps(MORNING, motion))))
    # The light switched on two minutes after the motion began: a person.
    switched = steps(MORNING, [*motion, (62, lamp.entity_id, "on")])
    (finding,) = motion_while_away(view([PERSON, landing, lit], switched))
    assert finding.evidence[:2] == (landing.entity_id, lamp.entity_id)
    # Switched on (by an automation, or a person long gone) 40 minutes before the dog moved.
    earlier = steps(MORNING, [*motion, (20, lamp.entity_id, "on")])
    assert not list(motion_while_away(view([PERSON, landing, lit], earlier)))


def test_a_pet_after_a_departure_whose_home_before_the_window_does_not_show() -> None:
    """The monitor started while the family was in: the window has only their leaving."""
    profile = "Family of four, two children and a dog; both parents commute."
    morning = steps(
        MORNING,
        [
            (0, LIGHT.entity_id, "on"),  # breakfast
            (20, LIGHT.entity_id, "off"),
            (25, DOOR.entity_id, "on"),
            (25.5, DOOR.entity_id, "off"),
            (28, PERSON.entity_id, "not_home"),  # no "home" before it in the window
            (60, LOUNGE.entity_id, "on"),  # the dog
        ],
    )
    states = [PERSON, LOUNGE, LIGHT, DOOR]
    assert not list(motion_while_away(_away(61, states, morning, profile)))
    switched = [*morning, *steps(MORNING, [(60.5, LIGHT.entity_id, "on")])]
    on = [PERSON, LOUNGE, replace(LIGHT, state="on"), DOOR]
    assert list(motion_while_away(_away(61, on, switched, profile)))


def test_a_pet_moving_all_morning_then_the_owner_coming_home_is_not_activity() -> None:
    """The cat moves through the morning; at noon the owner opens the garage on the way in,
    a minute before the phone reports home. The opening shows a person, but only from then:
    the morning's motion stays the cat's (it was told as activity while away)."""
    profile = "Retired couple with an indoor cat."
    garage = entity("cover.garage", "closed", area="Garage", device_class="garage")
    trace = steps(
        MORNING,
        [
            (0, PERSON.entity_id, "home"),
            (5, PERSON.entity_id, "not_home"),
            (60, LOUNGE.entity_id, "on"),  # the cat
            (62, LOUNGE.entity_id, "off"),
            (120, LOUNGE.entity_id, "on"),
            (123, LOUNGE.entity_id, "off"),
            (227, garage.entity_id, "open"),  # the owner, home before the phone says so
        ],
    )
    states = [PERSON, LOUNGE, replace(garage, state="open")]
    assert not list(activity_while_away(_away(228, states, trace, profile)))
    # Without a pet said, the same motion is told.
    assert list(activity_while_away(_away(228, states, trace)))
    # Motion once the garage opened is whoever opened it: told.
    came_in = [*trace, *steps(MORNING, [(229, LOUNGE.entity_id, "on")])]
    (finding,) = activity_while_away(_away(230, states, came_in, profile))
    assert finding.magnitude == 1.0


def test_pet_words_in_a_profile() -> None:
    assert has_pets("two adults and a cat")
    assert has_pets("We have pets")
    assert not has_pets("no pets; a categorical dislike of dogmas")
    assert not has_pets("Pets: none")
    assert not has_pets("without a dog")


def test_pet_words_in_the_homeowner_s_language() -> None:
    assert has_pets("Famille de cinq : deux parents, trois enfants et un chat.")
    assert has_pets("Wir wohnen zu zweit mit unserem Hund")
    assert has_pets("Gezin met een kat")
    assert has_pets("猫が二匹います")
    # Polish names a she-cat or a kitten apart ("kotka", "kotek"), a little dog "piesek".
    assert has_pets("Kotka Kluska chodzi po całym mieszkaniu")
    assert has_pets("Mamy kotka i pieska")
    assert not has_pets("Mieszkamy we trójkę, bez psa")
    assert not has_pets("Wir haben keinen Hund")
    assert not has_pets("Pas de chien")
    # Words that are also English are not pets on their own.
    assert not has_pets("We chat in the evening; she walks with a cane; pies on Sundays")


def test_a_pet_named_by_its_breed_or_in_more_languages() -> None:
    """Homeowners name the dog by its breed or write in their own language; before, nine
    in every fourteen profiles of homes whose pet sets the motion sensors off said nothing
    the monitor read as a pet ("Huck is our yellow lab", "Kissa Muru", "la perra")."""
    for profile in (
        "Huck is our yellow lab, he has the run of the main floor",
        "Boudreaux is our pit mix, he goes out the back door",
        "Bella the Staffie has the run of downstairs",
        "Moose, our goldendoodle, stays home",
        "Tess the Jack Russell",
        "I live alone with my parrot Kiwi (African grey)",
        "Kissa Muru liikkuu eteisessä ja olohuoneessa.",
        "Canela, la perra, se queda en la sala y el patio.",
        "A Pipoca é a nossa vira-lata caramelo, fica na sala.",
        "Kucing kami Comel di ruang tamu.",
        "Blacky anjing kami di halaman.",
        "隻貓叫豆豆，成日喺客廳。",
        "La chatte Mimi reste au salon.",
        "Egyedül élek Bodzával, a vakvezető kutyámmal.",
        "Kötturinn Snúður er inni.",
        "Evdə pişik var.",
        "Ο σκύλος μας κοιμάται στην κουζίνα.",
        "Кошка Мурка живёт с нами.",
    ):
        assert has_pets(profile), profile
    for profile in (
        "She works at the lab in the hospital; he is a shepherd of souls at the church.",
        "Мы покупаем продукты, которые нам нужны.",  # "который" is no cat
        "Anneke werk in die kwaliteitslab by Namibia Breweries.",
        "Vivimos sin perra.",
    ):
        assert not has_pets(profile), profile


def _busy_morning() -> list[Transition]:
    """Motion sensors that clearly work, earlier in the window."""
    return steps(
        MORNING,
        [(m, LOUNGE.entity_id, s) for m in (2, 6, 10, 14, 18) for s in ("on",)]
        + [(m + 1, LOUNGE.entity_id, "off") for m in (2, 6, 10, 14, 18)],
    )


def test_an_opening_is_judged_once_the_minutes_after_it_are_seen() -> None:
    states = [PERSON, HALL, LOUNGE, DOOR]
    trace = [*_busy_morning(), *steps(MORNING, [(40, DOOR.entity_id, "on")])]
    trace += steps(MORNING, [(40.5, DOOR.entity_id, "off"), (30, HALL.entity_id, "off")])
    # Seconds after the door opened, the hall sensor has not seen the person yet.
    assert not list(unaccompanied_opening(home(states, environment(_at(41)), trace)))
    # It did, 30 s later: accompanied.
    seen = [*trace, *steps(MORNING, [(40.5, HALL.entity_id, "on")])]
    assert not list(unaccompanied_opening(home(states, environment(_at(50)), seen)))
    # Nobody, ten minutes on: told.
    (finding,) = unaccompanied_opening(home(states, environment(_at(50)), trace))
    assert finding.evidence[0] == DOOR.entity_id


def test_an_opening_by_someone_arriving_home_is_accompanied() -> None:
    states = [PERSON, HALL, LOUNGE, DOOR]
    trace = [*_busy_morning(), *steps(MORNING, [(40, DOOR.entity_id, "on")])]
    trace += steps(MORNING, [(40.5, DOOR.entity_id, "off"), (30, HALL.entity_id, "off")])
    trace += steps(MORNING, [(0, PERSON.entity_id, "not_home"), (42, PERSON.entity_id, "home")])
    assert not list(unaccompanied_opening(home(states, environment(_at(55)), trace)))


def test_an_opening_in_the_windows_first_minutes_is_not_judged() -> None:
    """The hall motion of the person who opened the door may lie just before the window."""
    states = [PERSON, HALL, LOUNGE, DOOR]
    later = [(m, LOUNGE.entity_id, "on") for m in (20, 24, 28, 32, 36)]
    later += [(m + 1, LOUNGE.entity_id, "off") for m in (20, 24, 28, 32, 36)]
    # The hall sensor watches the door, and works (the live watcher records changes only:
    # a first "off" in the window would say it read "on" before).
    later += [(29, HALL.entity_id, "on"), (30, HALL.entity_id, "off")]
    trace = steps(MORNING, [*later, (3, DOOR.entity_id, "on"), (3.5, DOOR.entity_id, "off")])

    def view(start: float) -> HomeView:
        return HomeView(build_window(states, environment(_at(60)), trace, start=_at(start)))

    # The window began at 1: whatever moved at 0 (the person at the door) is out of sight.
    assert not list(unaccompanied_opening(view(1)))
    # A window that began long before shows both sides of the door, and nobody: told.
    (finding,) = unaccompanied_opening(view(-30))
    assert finding.evidence[0] == DOOR.entity_id


def test_a_new_away_spell_does_not_carry_the_last_spells_motion() -> None:
    # Out at 5, motion at 20 (told then), home at 60, out again at 62.
    trace = steps(
        MORNING,
        [
            (0, PERSON.entity_id, "home"),
            (5, PERSON.entity_id, "not_home"),
            (20, HALL.entity_id, "on"),
            (21, HALL.entity_id, "off"),
            (60, PERSON.entity_id, "home"),
            (62, PERSON.entity_id, "not_home"),
        ],
    )
    states = [
        PERSON,
        entity("binary_sensor.hall_motion", "off", area="Hall", device_class="motion"),
    ]
    (during,) = activity_while_away(_away(30, states, trace[:4]))
    assert during.evidence[0] == HALL.entity_id
    # The new spell: nothing moved in it yet, so nothing is told of the earlier one.
    assert not list(activity_while_away(_away(70, states, trace)))
    # Motion in the new spell is told, and counted alone.
    later = [*trace, *steps(MORNING, [(75, HALL.entity_id, "on")])]
    (finding,) = activity_while_away(_away(76, [PERSON, HALL], later))
    assert finding.magnitude == 1.0
    # An unknown report (a phone's flicker) is no return: the spell goes on.
    flicker = [
        *trace[:4],
        *steps(MORNING, [(40, PERSON.entity_id, "unknown"), (42, PERSON.entity_id, "not_home")]),
    ]
    (kept,) = activity_while_away(_away(50, states, flicker))
    assert kept.magnitude == 1.0
