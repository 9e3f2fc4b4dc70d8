"""A fall reads as a fall: its title says what a homeowner must do something about.

Issue 27 (walk 10): the bathroom light on for hours at night with nobody moving was told as
"Safety hazard: Bathroom light", the default "{type}: {subject}" — a homeowner reads a
faulty lamp. Every safety hazard and security rule has a headline of its own.
"""

from __future__ import annotations

from dataclasses import replace
import importlib
import json
from pathlib import Path
import pkgutil

from homeassistant.core import HomeAssistant
from homeassistant.util import dt as dt_util

from custom_components.anomaly_monitor import core
from custom_components.anomaly_monitor.anomalies.texts import async_anomaly_texts
from custom_components.anomaly_monitor.anomalies.tracker import AnomalyTracker
from custom_components.anomaly_monitor.core.baselines.getting_up import NOT_UP_WORDS
from custom_components.anomaly_monitor.core.finding_kind import FindingKind
from custom_components.anomaly_monitor.core.models import AnomalyType

from .helpers import in_area
from .test_stillness_incident import BATH_MOTION, LIGHT, LIGHT_ON_LONG, NO_MOVEMENT

_EN = Path(core.__file__).parent.parent / "translations" / "en.json"


async def test_a_fall_is_told_as_a_possible_fall_where_it_happened(hass: HomeAssistant) -> None:
    in_area(hass, LIGHT, "Bathroom")
    in_area(hass, BATH_MOTION, "Bathroom")
    hass.states.async_set(LIGHT, "on", {"friendly_name": "Bathroom light"})
    hass.states.async_set(BATH_MOTION, "off", {"device_class": "motion"})
    tracker = AnomalyTracker(hass, "fall-title")
    (light_first,) = tracker.update([LIGHT_ON_LONG], dt_util.utcnow()).opened
    texts = await async_anomaly_texts(hass, light_first)
    assert texts.headline == (
        "Possible fall in Bathroom: light on long past its usual time, nobody moving"
    )
    assert not texts.headline.startswith("Safety hazard")

    other = AnomalyTracker(hass, "fall-title-2")
    (still_first,) = other.update([NO_MOVEMENT], dt_util.utcnow()).opened
    texts = await async_anomaly_texts(hass, still_first)
    assert texts.headline.startswith("Possible fall:")


async def test_a_morning_nobody_got_up_is_told_as_not_up_yet(hass: HomeAssistant) -> None:
    """Walks of sessions 31 and 32: the text said nobody has got up since the night,
    the title "Possible fall"; the title now says what the text says."""
    hass.states.async_set(BATH_MOTION, "off", {"device_class": "motion"})
    not_up = replace(
        NO_MOVEMENT,
        reasoning="Someone is home, but no motion sensor has seen movement for 9 h, since "
        "22:30; on weekdays this household is usually up by 07:00 (learned from 9 days), "
        f"{NOT_UP_WORDS}.",
    )
    tracker = AnomalyTracker(hass, "not-up-title")
    (morning,) = tracker.update([not_up], dt_util.utcnow()).opened
    texts = await async_anomaly_texts(hass, morning)
    assert texts.headline.startswith("Nobody up yet:")
    assert "fall" not in texts.headline


def _kinds() -> dict[str, FindingKind]:
    kinds: dict[str, FindingKind] = {}
    for module in pkgutil.walk_packages(core.__path__, f"{core.__name__}."):
        for value in vars(importlib.import_module(module.name)).values():
            if isinstance(value, FindingKind):
                kinds[value.rule] = value
    return kinds


def test_every_safety_and_security_rule_has_a_headline_of_its_own() -> None:
    headlines = json.loads(_EN.read_text())["selector"]["anomaly_headline"]["options"]
    urgent = [
        rule
        for rule, kind in _kinds().items()
        if kind.anomaly_type in (AnomalyType.SAFETY_HAZARD, AnomalyType.SECURITY)
    ]
    assert len(urgent) > 20  # the scan found the rules
    without = [
        rule
        for rule in urgent
        if rule not in headlines and not any(k.startswith(f"{rule}_") for k in headlines)
    ]
    assert without == []


def test_every_rule_kind_has_a_headline_of_its_own() -> None:
    """Walk of session 17: a fan left on read "Unusual routine: Bathroom fan", the default
    "{type}: {subject}", which says neither what nor where; so did a fridge that stopped
    cycling or a sensor drifting. Every kind of finding the core declares is titled."""
    headlines = json.loads(_EN.read_text())["selector"]["anomaly_headline"]["options"]
    untitled = sorted(rule for rule in _kinds() if rule not in headlines)
    assert untitled == []
