"""What the homeowner reads about an anomaly, in their language.

A headline that says what and where ("Smoke in Kitchen", "Front door unlocked while
nobody is home"), the plain name of the anomaly's type ("impossible sensor reading"), and
the evidence as friendly name, area and current state, only the entities that show the
problem (context such as the entrance while away is left out).

The templates are translations (``selector.anomaly_headline`` per rule,
``selector.anomaly_type`` and ``selector.anomaly_text`` in ``translations/*.json``); the
states come from Home Assistant's own translations of each domain and device class.
Names, areas and states are untrusted text: single-line and clipped here; escaped for
Markdown by the caller wherever Markdown is rendered.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
import re
from typing import Protocol

from homeassistant.core import HomeAssistant, State
from homeassistant.helpers import (
    translation,
)
from homeassistant.util import dt as dt_util

from ..const import DOMAIN
from ..core.baselines.getting_up import NOT_UP_WORDS
from ..core.home import ENTRY_DEVICE_CLASSES, OCCUPANCY_DEVICE_CLASSES
from ..core.models import HOME_SUBJECT, AnomalyType, clip, subject_area
from ..core.offline import OFFLINE_ADVICE
from ..core.phoneless_residents import PHONES_AWAY
from ..core.statistics.health import BACK_WORDS
from .entered_again import is_open
from .escalated_title import escalated_title
from .evidence_lines import NAME_LIMIT, EntityLine, entity_line, evidence_lines, is_calm
from .lasted_words import as_lasted
from .store import parse_time
from .tracker import OpenAnomaly

_PREFIX = f"component.{DOMAIN}.selector."
# Lock states that leave an entrance open to anyone.
_UNLOCKED = frozenset({"unlocked", "open", "opening", "unlocking"})
# An entity id in a reasoning ("binary_sensor.front_door stayed open for 16 min").
_ENTITY_ID = re.compile(r"\b[a-z_][a-z0-9_]*\.[a-z0-9_]+\b")


@dataclass(frozen=True, slots=True)
class AnomalyTexts:
    """Everything shown about one anomaly, before Markdown escaping."""

    headline: str
    type_name: str
    severity: str
    evidence: tuple[EntityLine, ...]
    templates: dict[str, str]
    # The reasoning with each entity id the home knows told by its friendly name.
    reasoning: str = ""
    # The title without what changed since it was told ("Now motion in Hall: "): the
    # incident's name, kept while it lasts (``OpenAnomaly.headline``).
    title: str = ""
    # The advice, its entity ids told by name as the reasoning's ("Check the door for
    # forced entry and lock.front_door_lock's state reports." read in an "Over" notice).
    recommendation: str = ""

    def text(self, key: str, **values: str) -> str:
        """A ``selector.anomaly_text`` template filled with ``values``."""
        return _fill(self.templates.get(f"{_PREFIX}anomaly_text.options.{key}", key), values)


def _fill(template: str, values: dict[str, str]) -> str:
    try:
        return template.format(**values)
    except (KeyError, IndexError, ValueError):  # a translation with a stray brace
        return template


async def _state_words(hass: HomeAssistant, domains: set[str]) -> dict[str, str]:
    return await translation.async_get_translations(
        hass, hass.config.language, "entity_component", domains
    )


def over_text(hass: HomeAssistant, text: str) -> str:
    """``text`` (a reasoning found while it lasted: "the door is open") said to be over
    ("Over: the door is open"), in HA's language when its translations are loaded."""
    templates = translation.async_get_cached_translations(
        hass, hass.config.language, "selector", DOMAIN
    )
    template = templates.get(f"{_PREFIX}anomaly_text.options.ended_headline", "Over: {headline}")
    return _fill(template, {"headline": text})


def named(hass: HomeAssistant, text: str) -> str:
    """``text`` with the entity ids of this home replaced by their friendly names.

    Rules and statistics reason in entity ids (stable, for events and automations); the
    homeowner reads names. Unknown ids and other dotted words are left as they are.
    """
    return named_in(hass.states, text)


class StatesByID(Protocol):
    """HA's state machine, or the dev replay's own states."""

    def get(self, entity_id: str) -> State | None:
        """The state of ``entity_id``, if there is one."""


def named_in(states: StatesByID, text: str) -> str:
    """``text`` with the entity ids of ``states`` replaced by their friendly names."""

    def name(match: re.Match[str]) -> str:
        state = states.get(match.group(0))
        return clip(state.name, NAME_LIMIT) if state is not None else match.group(0)

    return _ENTITY_ID.sub(name, text)


def back_to_normal(hass: HomeAssistant, anomaly: OpenAnomaly, ended: datetime) -> datetime:
    """When an ended anomaly was over for the homeowner: the latest time one of its shown
    evidence entities came back to a calm state after it was last found (the detector
    read "Clear"), else ``ended`` (the first analysis without it). One that held while
    nobody was home was over when somebody came home: ``ended``."""
    last_seen = parse_time(anomaly.last_seen)
    if anomaly.while_away or last_seen is None:
        return ended
    times = []
    for entity_id in anomaly.shown_evidence or anomaly.evidence:
        state = hass.states.get(entity_id)
        if state is None or not is_calm(
            state.domain, state.attributes.get("device_class") or "_", state.state
        ):
            continue
        if last_seen <= state.last_changed <= ended:
            times.append(state.last_changed)
    return max(times, default=ended)


def _unlocked_lock(hass: HomeAssistant, anomaly: OpenAnomaly) -> str | None:
    """The evidence lock that is unlocked, if any."""
    for entity_id in anomaly.evidence:
        state = hass.states.get(entity_id) if entity_id.startswith("lock.") else None
        if state is not None and state.state in _UNLOCKED:
            return entity_id
    return None


def _open_door(hass: HomeAssistant, anomaly: OpenAnomaly) -> str | None:
    """The evidence entry door that reads open, if any."""
    for entity_id in anomaly.evidence:
        state = hass.states.get(entity_id) if entity_id.startswith("binary_sensor.") else None
        if (
            state is not None
            and state.state == "on"
            and state.attributes.get("device_class") in ENTRY_DEVICE_CLASSES
        ):
            return entity_id
    return None


def _reads(hass: HomeAssistant, entity_id: str, value: str) -> bool:
    return (state := hass.states.get(entity_id)) is not None and state.state == value


def _device_class(hass: HomeAssistant, entity_id: str) -> str | None:
    state = hass.states.get(entity_id)
    return None if state is None else state.attributes.get("device_class")


# The headline of an outage the window saw end (``BACK_WORDS``): said in the past.
_BACK = "_back"
_AGAIN = "It is offline again since {time}."
# Rules about the home's power supply gone (typed energy, shown as what they are).
_SUPPLY_RULES = frozenset({"supply_lost", "supply_off_far_longer_than_usual"})


def _named(anomaly: OpenAnomaly) -> str:
    """What the headline names: the subject, or the lead's own when a graver hazard joined
    it (the smoke alarm that went off once the bedroom's air was told is "Smoke in
    Kitchen", not the PM2.5 sensor "reports danger": walk 35)."""
    lead = next((m for m in anomaly.members if m.rule == anomaly.lead_rule), None)
    if lead is not None and lead.hazard and lead.subject and "." in lead.subject:
        return lead.subject
    return anomaly.subject


def _headline_key(
    hass: HomeAssistant, anomaly: OpenAnomaly, templates: dict[str, str], again: bool
) -> str:
    rule = anomaly.lead_rule
    key = rule
    if rule == "hazard_detected" and (state := hass.states.get(_named(anomaly))) is not None:
        key = f"{rule}_{state.attributes.get('device_class')}"
    elif rule == "entry_unsecured_while_away":
        key = f"{rule}_{'unlocked' if _unlocked_lock(hass, anomaly) else 'open'}"
        if key.endswith("_unlocked") and _open_door(hass, anomaly) is not None:
            key += "_open"  # one entrance, both wrong: "Front door unlocked and open"
    elif rule == "supply_off_far_longer_than_usual" and any(
        _device_class(hass, e) == "battery" for e in anomaly.evidence
    ):
        key = f"{rule}_battery"  # told as the battery runs down, not only past its longest
    elif rule == "reading_far_beyond_its_range" and anomaly.magnitude is not None:
        key = f"{rule}_{'below' if anomaly.magnitude < 0 else 'above'}"  # a tank run dry: low
    elif rule == "cycle_stopped" and anomaly.subject.startswith("switch."):
        key = f"{rule}_switch"  # the plug that stopped it, off past its habit: no cycle of its own
    elif (
        rule == "device_unavailable"
        and BACK_WORDS in anomaly.reasoning
        and not again  # offline again (``_offline_again``): "is offline"
    ):
        key = f"{rule}{_BACK}"  # its outage seen ending: "was offline", not "is offline"
    elif rule == "no_movement_while_home" and NOT_UP_WORDS in anomaly.reasoning:
        key = f"{rule}_not_up"  # still in bed past getting up: "not up yet", not a fall
    elif rule in ("routine_missed", "state_longer_than_usual"):  # not locked; on, open
        key = f"{rule}_{anomaly.subject.partition('.')[0]}"
        if key.endswith("_binary_sensor") and _device_class(hass, anomaly.subject) in (
            OCCUPANCY_DEVICE_CLASSES
        ):  # a bed still lain on past its morning (``first_use_bed``), or left late since
            key += "_lain_on" if _reads(hass, anomaly.subject, "on") else "_left_late"
        elif key.endswith("_binary_sensor") and _reads(hass, anomaly.subject, "off"):
            key += "_shut"  # a door that rests open, shut (``shut_behind``): not "open"
    # Somebody lives here without a phone: the reasoning says only the phones are away, and
    # so does the title (walk 52: "… while nobody is home" above "while every tracked phone
    # is away", with the grandmother at home).
    phones = ("_phones_away", "") if PHONES_AWAY in anomaly.reasoning else ("",)
    for candidate in (key, rule):
        for said in phones:
            if f"{_PREFIX}anomaly_headline.options.{candidate}{said}" in templates:
                return candidate + said
    return "_default"


def _offline_again(hass: HomeAssistant, anomaly: OpenAnomaly) -> datetime | None:
    """Since when an outage told as seen ending (``BACK_WORDS``) reads offline again; its
    words wait for the outage rule to find it anew (its grace), so they are the state's
    now (walk 55: "It answers again" above "Unavailable" for 15 min)."""
    if anomaly.lead_rule != "device_unavailable" or anomaly.ended:
        return None
    if BACK_WORDS not in anomaly.reasoning:
        return None
    state = hass.states.get(anomaly.subject)
    if state is None or state.state != "unavailable":
        return None
    return parse_time(anomaly.dark_since) or state.last_changed


_OPEN_TITLE = "entry_unsecured_while_away_open"
_SHUT_TITLE = "entry_unsecured_while_away_shut"


def _shut_since(hass: HomeAssistant, anomaly: OpenAnomaly) -> bool:
    """Its subject, an entry door, reads shut now."""
    state = hass.states.get(anomaly.subject)
    return (
        state is not None
        and state.state == "off"
        and state.attributes.get("device_class") in ENTRY_DEVICE_CLASSES
    )


def _shut_title(
    headline: str, subject: str, where: str, type_name: str, option: Callable[[str, str, str], str]
) -> str:
    """A title told as the door open ("Front door open while nobody is home") said as
    what is true with the door shut: it opened then ("Front door opened while ..."; walk
    56 read "Front door open" above "Front door: Closed" while the motion kept it open)."""
    values = {"subject": subject, "area": where, "type": type_name}
    for said in ("_phones_away", ""):
        told = option("anomaly_headline", f"{_OPEN_TITLE}{said}", "")
        if told and clip(_fill(told, values), 120) == headline:
            shut = option("anomaly_headline", f"{_SHUT_TITLE}{said}", "")
            return clip(_fill(shut, values), 120) if shut else headline
    return headline


def _secured(hass: HomeAssistant, anomaly: OpenAnomaly) -> bool:
    """A security incident (no hazard) whose every device reads shut and locked now: its
    advice ("Lock it remotely") is done, and an "Over" gives none (walk of session 48)."""
    if anomaly.hazard or anomaly.anomaly_type != AnomalyType.SECURITY.value:
        return False
    states = [hass.states.get(e) for e in anomaly.shown_evidence or anomaly.evidence]
    read = [s.state for s in states if s is not None]
    return bool(read) and not any(is_open(state) for state in read)


async def async_anomaly_texts(hass: HomeAssistant, anomaly: OpenAnomaly) -> AnomalyTexts:
    """The headline, type name and evidence lines of ``anomaly``."""
    templates = await translation.async_get_translations(
        hass, hass.config.language, "selector", {DOMAIN}
    )
    shown = anomaly.shown_evidence or anomaly.evidence
    words = await _state_words(hass, {e.partition(".")[0] for e in shown} - {""})
    lines = evidence_lines(hass, anomaly, words)

    def option(group: str, key: str, default: str) -> str:
        return templates.get(f"{_PREFIX}{group}.options.{key}", default)

    # A supply gone is no "Wasted energy" (walk27: a home battery's outage read so); else
    # the type it was told with (kept as its title is: ``OpenAnomaly.told_type``).
    told = anomaly.told_type or anomaly.anomaly_type
    kind = "power_supply" if anomaly.lead_rule in _SUPPLY_RULES else told
    type_name = option("anomaly_type", kind, anomaly.anomaly_type.replace("_", " "))
    home = option("anomaly_text", "the_home", "the home")
    if (area := subject_area(anomaly.subject)) is not None:
        subject, where = clip(area, NAME_LIMIT), clip(area, NAME_LIMIT)
    elif anomaly.subject == HOME_SUBJECT or not anomaly.subject:
        subject = home
        where = next((line.area for line in lines if line.area), None) or home
    else:
        line = entity_line(hass, _named(anomaly), words)
        subject, where = line.name, line.area or home
    again = _offline_again(hass, anomaly)
    key = _headline_key(hass, anomaly, templates, again is not None)
    # The name it was told with, whatever its devices read now; an outage seen ending is
    # the same name in the past ("… was offline": walk 53 read "is offline" above "Clear").
    if anomaly.headline and not key.endswith(_BACK) and again is None:
        headline = anomaly.headline
    else:
        if key.endswith("_unlocked") and (lock := _unlocked_lock(hass, anomaly)) is not None:
            # What is unlocked is the lock: "Front door lock unlocked", not "Front door
            # contact unlocked" (the door contact is the incident's subject).
            subject = entity_line(hass, lock, words).name
        elif key.endswith("_unlocked_open") and (door := _open_door(hass, anomaly)) is not None:
            subject = entity_line(hass, door, words).name  # the entrance, by its door
        headline = clip(
            _fill(
                option("anomaly_headline", key, "{type}: {subject}"),
                {"subject": subject, "area": where, "type": type_name},
            ),
            120,
        )
    title = headline
    if _shut_since(hass, anomaly):
        # Told as open; shut now while its incident lasts (its motion), or once it is
        # over ("Over: Front door opened while ..."): it opened then.
        headline = _shut_title(headline, subject, where, type_name, option)

    def say(key: str, default: str, values: dict[str, str]) -> str:
        return _fill(option("anomaly_text", key, default), values)

    # Told again (somebody inside, opened again): the title says so, as it is now (or,
    # over, what happened after it).
    headline = escalated_title(hass, anomaly, headline, home=home, say=say, clock=clock)
    severity = option("anomaly_text", f"severity_{anomaly.severity}", anomaly.severity)
    reasoning = named(hass, anomaly.reasoning)
    if anomaly.ended:  # "While it lasted:" in an "Over" notice
        reasoning = as_lasted(reasoning)
    advice = named(hass, anomaly.recommendation)
    if again is not None:  # "was back at …", and offline again: said, and what to do now
        since = {"time": clock(again)}
        reasoning += " " + _fill(option("anomaly_text", "offline_again", _AGAIN), since)
        advice = OFFLINE_ADVICE
    if anomaly.ended and _secured(hass, anomaly):
        advice = ""  # "Lock it remotely" under a lock that reads Locked: nothing left to do
    return AnomalyTexts(
        clip(headline, 120), type_name, severity, lines, templates, reasoning, title, advice
    )


def clock(when: datetime) -> str:
    """A local time as the homeowner reads it: "16:13" today, "02 Dec 16:13" before."""
    local = dt_util.as_local(when)
    if local.date() == dt_util.now().date():
        return local.strftime("%H:%M")
    return local.strftime("%d %b %H:%M")
