"""Safety and security rules on synthetic homes."""

from __future__ import annotations

from custom_components.anomaly_monitor.core.rules.safety import (
    hazard_detected,
    hazard_level_without_alarm,
    window_open_in_wet_weather,
)
from custom_components.anomaly_monitor.core.rules.security import (
    alarm_disarmed_while_away,
    alarm_triggered_without_cause,
    entry_unsecured_while_away,
    garage_open_while_protected,
    surveillance_off_while_away,
)

from .core_factories import entity, environment, home, quiet_house, replace

AWAY = environment(persons_home=0)


def test_smoke_cites_the_room_temperature_only_when_it_is_hot() -> None:
    states = replace(quiet_house(), "binary_sensor.kitchen_smoke", "on")
    (finding,) = hazard_detected(home(states))
    assert finding.evidence == ("binary_sensor.kitchen_smoke",)
    assert finding.severity == "critical"
    burning = replace(states, "sensor.kitchen_temperature", "58")
    (finding,) = hazard_detected(home(burning))
    assert finding.evidence == ("binary_sensor.kitchen_smoke", "sensor.kitchen_temperature")


def test_gas_with_people_and_lights_cites_ignition_risks() -> None:
    states = replace(quiet_house(), "binary_sensor.kitchen_gas", "on")
    states = replace(states, "binary_sensor.kitchen_motion", "on")
    states = replace(states, "light.kitchen", "on")
    (finding,) = hazard_detected(home(states))
    assert set(finding.evidence) == {
        "binary_sensor.kitchen_gas",
        "binary_sensor.kitchen_motion",
        "light.kitchen",
    }


def test_gas_level_high_but_detector_clear_in_empty_home() -> None:
    states = replace(quiet_house(), "sensor.kitchen_gas_level", "400")
    (finding,) = hazard_level_without_alarm(home(states, AWAY))
    assert finding.evidence[:2] == ("binary_sensor.kitchen_gas", "sensor.kitchen_gas_level")
    # The shut entrance tells who could respond: it is part of the story when away.
    assert "lock.front_door" in finding.evidence
    assert not list(hazard_level_without_alarm(home(quiet_house(), AWAY)))


def test_window_open_in_rain_only_matters_when_away() -> None:
    states = replace(quiet_house(), "binary_sensor.lounge_window", "on")
    rainy_away = environment(persons_home=0, weather="rainy")
    assert [f.rule for f in window_open_in_wet_weather(home(states, rainy_away))] == [
        "window_open_in_wet_weather"
    ]
    assert not list(window_open_in_wet_weather(home(states, environment(weather="rainy"))))
    assert not list(window_open_in_wet_weather(home(states, environment(persons_home=0))))


def test_unlocked_entrance_while_away() -> None:
    states = replace(quiet_house(), "lock.front_door", "unlocked")
    (finding,) = entry_unsecured_while_away(home(states, AWAY))
    assert finding.evidence[0] == "binary_sensor.front_door"
    assert "lock.front_door" in finding.evidence
    assert "alarm_control_panel.house" in finding.evidence
    assert not list(entry_unsecured_while_away(home(states)))  # people are home


def test_what_to_do_fits_the_door_and_its_lock() -> None:
    """Locking remotely does not shut an open door, and a locked lock needs no locking."""
    unlocked = replace(quiet_house(), "lock.front_door", "unlocked")
    opened = replace(quiet_house(), "binary_sensor.front_door", "on")
    both = replace(unlocked, "binary_sensor.front_door", "on")
    advice = {
        name: [f.recommendation for f in entry_unsecured_while_away(home(states, AWAY))]
        for name, states in (("unlocked", unlocked), ("opened", opened), ("both", both))
    }
    assert advice == {
        "unlocked": ["Lock it remotely or ask someone to check the door."],
        "opened": ["Ask someone to check the door and close it."],
        "both": ["Ask someone to close the door, then lock it remotely."],
    }


def test_door_ajar_by_angle_counts_as_open() -> None:
    states = replace(quiet_house(), "sensor.front_door_angle", "9")
    (finding,) = entry_unsecured_while_away(home(states, AWAY))
    assert "sensor.front_door_angle" in finding.evidence
    # the contact reads closed: the door is told ajar by its angle, not "open"
    assert " is open" not in finding.reasoning
    assert " is ajar (" in finding.reasoning
    assert "9" in finding.reasoning
    # Two degrees is within a closed door's slack.
    slack = replace(quiet_house(), "sensor.front_door_angle", "2")
    assert not list(entry_unsecured_while_away(home(slack, AWAY)))


def test_alarm_disarmed_and_camera_idle_while_away() -> None:
    states = replace(quiet_house(), "alarm_control_panel.house", "disarmed")
    states = replace(states, "camera.hallway", "idle")
    view = home(states, AWAY)
    assert [f.rule for f in alarm_disarmed_while_away(view)] == ["alarm_disarmed_while_away"]
    (camera,) = surveillance_off_while_away(view)
    assert camera.evidence == ("camera.hallway", "binary_sensor.front_door", "lock.front_door")
    assert not list(alarm_disarmed_while_away(home(states)))


def test_garage_open_while_alarm_armed() -> None:
    states = [
        *quiet_house(),
        entity("binary_sensor.garage_door", "on", area="Garage", device_class="garage_door"),
        entity("binary_sensor.garage_motion", "off", area="Garage", device_class="motion"),
    ]
    (finding,) = garage_open_while_protected(home(states))
    assert finding.evidence == (
        "alarm_control_panel.house",
        "binary_sensor.garage_door",
        "binary_sensor.garage_motion",
    )
    disarmed = replace(states, "alarm_control_panel.house", "disarmed")
    assert not list(garage_open_while_protected(home(disarmed)))


def test_alarm_triggered_with_everything_shut_is_a_false_alarm() -> None:
    states = replace(quiet_house(), "alarm_control_panel.house", "triggered")
    (finding,) = alarm_triggered_without_cause(home(states))
    assert finding.evidence[0] == "alarm_control_panel.house"
    opened = replace(states, "binary_sensor.front_door", "on")
    assert not list(alarm_triggered_without_cause(home(opened)))
    # A garage door opener (a cover, no contact) standing open is a visible cause too.
    opener = entity("cover.ratgdov25i_4b1c3a_door", "open", area="Garage", device_class="garage")
    assert not list(alarm_triggered_without_cause(home([*states, opener])))
    shut = entity("cover.ratgdov25i_4b1c3a_door", "closed", area="Garage", device_class="garage")
    assert list(alarm_triggered_without_cause(home([*states, shut])))


def test_a_roof_window_open_in_a_storm_is_told_while_nobody_is_in_its_room() -> None:
    """Set 9's attic Velux (a ``cover``) open in a thunderstorm while the family was
    downstairs was never told: only contacts were read, and only in an empty home."""
    roof = entity("cover.attic_window", "open", area="Attic", device_class="window")
    attic_motion = entity("binary_sensor.attic_motion", "off", area="Attic", device_class="motion")
    states = [*quiet_house(), roof, attic_motion]
    storm = environment(weather="lightning-rainy")
    (finding,) = window_open_in_wet_weather(home(states, storm))
    assert finding.evidence == ("cover.attic_window",)
    assert not finding.while_away
    assert "nobody is in Attic" in finding.reasoning
    # Rain, not a storm, with the family home: theirs to see.
    assert not list(window_open_in_wet_weather(home(states, environment(weather="rainy"))))
    # Somebody in the attic sees the storm coming in.
    seen = replace(states, "binary_sensor.attic_motion", "on")
    assert not list(window_open_in_wet_weather(home(seen, storm)))
    # Shut, it lets nothing in; in an empty home any rain counts, as for a contact.
    assert not list(
        window_open_in_wet_weather(home(replace(states, roof.entity_id, "closed"), storm))
    )
    rainy_away = environment(persons_home=0, weather="rainy")
    (away,) = window_open_in_wet_weather(home(states, rainy_away))
    assert away.evidence[0] == "cover.attic_window"
    assert away.while_away
