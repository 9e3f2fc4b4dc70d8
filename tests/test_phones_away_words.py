"""An away finding in a home where somebody lives without a tracked phone says only that
the phones are away, not "nobody is home" (``phoneless_residents.nobody_home_words``)."""

from __future__ import annotations

import dataclasses

from custom_components.anomaly_monitor.anomalies.lasted_words import as_lasted
from custom_components.anomaly_monitor.core.home import HomeView
from custom_components.anomaly_monitor.core.rules.occupancy import motion_while_away
from custom_components.anomaly_monitor.core.rules.security import entry_unsecured_while_away

from .core_factories import environment, quiet_house, replace, window

AWAY = environment(persons_home=0)
GRANDMOTHER = "Vive con nosotros mamá (82) y Tobías (10). Ellos no tienen celular."


def _home(states: list, profile: str = "", count: int | None = None) -> HomeView:
    shown = dataclasses.replace(window(states, AWAY), profile=profile, phoneless_residents=count)
    return HomeView(shown)


def test_an_open_door_says_the_phones_are_away_where_somebody_has_none() -> None:
    states = replace(quiet_house(), "lock.front_door", "unlocked")
    (finding,) = entry_unsecured_while_away(_home(states, GRANDMOTHER))
    assert "while every tracked phone is away." in finding.reasoning
    assert "nobody is home" not in finding.reasoning
    (plain,) = entry_unsecured_while_away(_home(states))
    assert "while nobody is home." in plain.reasoning
    # The homeowner's count wins over the profile: 0 says everybody carries one.
    (counted,) = entry_unsecured_while_away(_home(states, GRANDMOTHER, count=0))
    assert "while nobody is home." in counted.reasoning


def test_motion_says_the_phones_are_away_where_somebody_has_none() -> None:
    states = replace(quiet_house(), "binary_sensor.hallway_motion", "on")
    (finding,) = motion_while_away(_home(states, "Hiro (22) はアプリなし。"))
    assert finding.reasoning.endswith("while every tracked phone is away.")


def test_over_the_phones_away_are_said_in_the_past() -> None:
    assert as_lasted("Puerta del baño is open while every tracked phone is away.") == (
        "Puerta del baño was open while every tracked phone was away."
    )
