"""Score the instruction check on HA-Assist-style sentences, with HA's own Assist as the oracle.

Sentences are sampled from the ``home-assistant-intents`` templates of the device-control
intents, filled with the test home's names, aliases, areas and floors (seeded). What each
sentence should do comes from Home Assistant itself: the same sentence is sent to HA's
default conversation agent (with the satellite's device for "here") and the service calls its
intent handlers make are recorded with mock services. A sentence Assist answers with an error
(no such device in that area, several targets for one thermostat …) is expected to be refused.
A sentence is planned correctly when the check plans exactly those calls (same services,
entities and values), or plans nothing when Assist refuses.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
import itertools
import os
import random
import time
from typing import Any

from hassil import Intents, TextSlotList
from hassil.sample import sample_sentence
from home_assistant_intents import get_intents
from homeassistant.components import conversation
from homeassistant.core import Context, HomeAssistant, ServiceCall
from homeassistant.helpers import intent as ha_intent
from homeassistant.setup import async_setup_component

from custom_components.anomaly_monitor.core.instructions import (
    InstructionPlan,
    async_plan_instruction,
)
from custom_components.anomaly_monitor.instructions.assist import async_assist_reader
from custom_components.anomaly_monitor.instructions.home import async_build_home_capabilities

from .home import AREAS, ENTITIES, FLOORS, AssistHome, async_build_assist_home

INTENTS = (
    "HassTurnOn",
    "HassTurnOff",
    "HassLightSet",
    "HassClimateSetTemperature",
    "HassFanSetSpeed",
    "HassSetPosition",
    "HassVacuumStart",
    "HassVacuumReturnToBase",
    "HassMediaNext",
    "HassMediaPrevious",
    "HassMediaPause",
    "HassMediaUnpause",
    "HassSetVolume",
    "HassMediaPlayerMute",
    "HassMediaPlayerUnmute",
)
_MOCKED = {
    "homeassistant": ("turn_on", "turn_off", "toggle"),
    "light": ("turn_on", "turn_off", "toggle"),
    "switch": ("turn_on", "turn_off", "toggle"),
    "fan": ("turn_on", "turn_off", "set_percentage", "toggle"),
    "cover": ("open_cover", "close_cover", "set_cover_position", "stop_cover"),
    "lock": ("lock", "unlock", "open"),
    "climate": ("set_temperature", "turn_on", "turn_off", "set_hvac_mode"),
    "media_player": (
        "media_next_track",
        "media_previous_track",
        "media_pause",
        "media_play",
        "volume_set",
        "volume_mute",
        "turn_on",
        "turn_off",
    ),
    "vacuum": ("start", "return_to_base", "pause", "stop"),
}

Call = tuple[str, str, tuple[tuple[str, Any], ...]]  # service, entity, sorted data


@dataclass(frozen=True)
class Sentence:
    """A sampled sentence and the template's intent."""

    text: str
    intent: str
    here: bool  # the caller's area is given (the satellite's device)


@dataclass
class Outcome:
    """What Assist did and what the check planned."""

    sentence: Sentence
    expected: frozenset[Call] | None  # None: Assist refused
    planned: frozenset[Call]
    refused: int
    planner: str
    seconds: float
    cpu_seconds: float = 0.0  # this process's CPU time for the call (load-independent)

    @property
    def correct(self) -> bool:
        """Same calls as Assist, or nothing when Assist refuses."""
        if self.expected is None:
            return not self.planned and self.refused > 0
        return self.planned == self.expected


def _value(value: Any) -> Any:
    if isinstance(value, float):
        return round(value, 3)
    if isinstance(value, list | tuple):
        return tuple(_value(v) for v in value)
    return value


def _calls(service: str, data: dict[str, Any]) -> list[Call]:
    """One call per entity; an entity service ignores entities of other domains, as HA's does
    (HassLightSet names every entity of an area; ``light.turn_on`` acts on its lights)."""
    entities = data.get("entity_id")
    if isinstance(entities, str):
        entities = [entities]
    domain, _, name = service.partition(".")
    rest = tuple(sorted((k, _value(v)) for k, v in data.items() if k != "entity_id"))
    if domain == "homeassistant":  # homeassistant.turn_on calls <entity domain>.turn_on
        return [(f"{str(e).partition('.')[0]}.{name}", str(e), rest) for e in entities or ()]
    return [(service, str(e), rest) for e in entities or () if str(e).startswith(f"{domain}.")]


def _fits(context: dict[str, Any], required: dict[str, Any], excluded: dict[str, Any]) -> bool:
    """Whether a name's context satisfies a template block's requires/excludes_context."""
    for key, wanted in required.items():
        if key in ("domain", "device_class"):
            allowed = wanted if isinstance(wanted, list) else [wanted]
            if context.get(key) not in allowed:
                return False
    for key, unwanted in excluded.items():
        if key in ("domain", "device_class"):
            banned = unwanted if isinstance(unwanted, list) else [unwanted]
            if context.get(key) in banned:
                return False
    return True


def sample_sentences(seed: int = 7, per_template: int = 2) -> list[Sentence]:
    """Seeded sentences from the device-control templates, filled with the test home.

    A template that needs a name of some domain or device class ("lock the <name>") is filled
    only with names of that kind, as Assist's matching requires.
    """
    rng = random.Random(seed)
    data = get_intents("en")
    data["intents"] = {k: v for k, v in data["intents"].items() if k in INTENTS}
    intents = Intents.from_dict(data)
    names: list[tuple[str, dict[str, Any]]] = []
    for object_id, _area, name, aliases, _state, attributes in ENTITIES:
        context = {"domain": object_id.partition(".")[0]}
        if "device_class" in attributes:
            context["device_class"] = attributes["device_class"]
        names += [(n, context) for n in (name, *aliases)]
    base_lists = {
        **intents.slot_lists,
        "area": TextSlotList.from_tuples(
            [(n, n) for name, _f, aliases in AREAS.values() for n in (name, *aliases)],
            allow_template=False,
        ),
        "floor": TextSlotList.from_tuples(
            [(n, n) for name, aliases in FLOORS.values() for n in (name, *aliases)],
            allow_template=False,
        ),
    }
    out: list[Sentence] = []
    seen: set[str] = set()
    for intent_name, intent in sorted(intents.intents.items()):
        for block in intent.data:
            rules = {**intents.expansion_rules, **block.expansion_rules}
            fitting = [
                (n, n, c)
                for n, c in names
                if _fits(c, block.requires_context or {}, block.excludes_context or {})
            ]
            if not fitting:
                continue
            slot_lists = {
                **base_lists,
                "name": TextSlotList.from_tuples(fitting, allow_template=False),
            }
            for template in block.sentences:
                if any(n in block.wildcard_list_names for n in template.list_names(rules)):
                    continue
                texts = list(
                    itertools.islice(sample_sentence(template, slot_lists, rules, "en"), 400)
                )
                for raw in rng.sample(texts, min(per_template, len(texts))):
                    text = " ".join(raw.split())
                    if text.lower() not in seen:
                        seen.add(text.lower())
                        out.append(Sentence(text, intent_name, here=True))
                        if "area" in (block.requires_context or {}):
                            # the same words from a caller that does not say where it is
                            out.append(Sentence(text, intent_name, here=False))
    return out


def _service_refuses(hass: HomeAssistant, call: Call) -> bool:
    """Whether the real service would reject (or ignore) what the mock accepted.

    Climate services refuse a temperature outside min/max; a light ignores brightness or
    colour it does not support. The check refuses those, so they count as refusals.
    """
    service, entity_id, data = call
    state = hass.states.get(entity_id)
    if state is None:
        return True
    values = dict(data)
    if service == "climate.set_temperature":
        temperature = values.get("temperature")
        low, high = state.attributes.get("min_temp"), state.attributes.get("max_temp")
        return temperature is None or not low <= temperature <= high
    if service == "light.turn_on" and values:
        modes = set(state.attributes.get("supported_color_modes") or ())
        return modes <= {"onoff"} or (
            ("rgb_color" in values or "color_temp_kelvin" in values) and modes <= {"brightness"}
        )
    return False


async def async_setup_oracle(hass: HomeAssistant) -> list[tuple[str, dict[str, Any]]]:
    """Set up Assist with every control intent; services record their calls instead."""
    assert await async_setup_component(hass, "homeassistant", {})
    for domain in ("intent", "conversation", *sorted(set(_MOCKED) - {"homeassistant"})):
        assert await async_setup_component(hass, domain, {})
    await hass.async_block_till_done()
    recorded: list[tuple[str, dict[str, Any]]] = []

    async def _record(call: ServiceCall) -> None:
        recorded.append((f"{call.domain}.{call.service}", dict(call.data)))

    for domain, services in _MOCKED.items():
        for service in services:
            hass.services.async_register(domain, service, _record)
    return recorded


async def async_run(
    hass: HomeAssistant, sentences: Iterable[Sentence], *, assist: bool = True
) -> list[Outcome]:
    """Ask Assist, then the check, for every sentence."""
    recorded = await async_setup_oracle(hass)
    # Templates only: fuzzy matching guesses, and the sentences come from the templates.
    agent = conversation.async_get_agent(hass)
    if hasattr(agent, "fuzzy_matching"):
        agent.fuzzy_matching = False
    home: AssistHome = await async_build_assist_home(hass)
    capabilities = async_build_home_capabilities(hass)
    readers = {}
    for here in (True, False):
        area = home.areas["living_room"] if here else None
        readers[here] = (
            await async_assist_reader(hass, capabilities, language="en", area_id=area)
            if assist
            else None
        )
    outcomes = []
    for sentence in sentences:
        recorded.clear()
        result = await conversation.async_converse(
            hass,
            sentence.text,
            None,
            Context(),
            language="en",
            # Assist caches by text and satellite: the satellite (not only its device) tells
            # the two readings of a "here" sentence apart.
            device_id=home.satellite_device_id if sentence.here else None,
            satellite_id=home.satellite_entity_id if sentence.here else None,
        )
        ok = result.response.response_type is not ha_intent.IntentResponseType.ERROR
        effective = frozenset(c for s, d in recorded for c in _calls(s, d))
        effective = frozenset(c for c in effective if not _service_refuses(hass, c))
        expected = effective if ok and effective else None
        start, cpu = time.perf_counter(), time.process_time()
        plan: InstructionPlan = await async_plan_instruction(
            sentence.text, capabilities, assist=readers[sentence.here]
        )
        seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
        planned = frozenset(
            c
            for op in plan.operations
            for c in _calls(op.service, {"entity_id": op.entity_id, **op.data})
        )
        outcomes.append(
            Outcome(sentence, expected, planned, len(plan.refused), plan.planner, seconds, cpu)
        )
    return outcomes


def summarize(outcomes: list[Outcome]) -> str:
    """A table: share planned correctly per intent, and overall."""
    by: dict[str, Counter[str]] = {}
    for outcome in outcomes:
        for key in (outcome.sentence.intent, "ALL"):
            counter = by.setdefault(key, Counter())
            counter["n"] += 1
            counter["correct"] += outcome.correct
            counter["refused_expected"] += outcome.expected is None
    lines = ["| intent | n | Assist refuses | planned correctly |", "|---|---|---|---|"]
    for key in sorted(by, key=lambda k: (k == "ALL", k)):
        c = by[key]
        lines.append(
            f"| {key} | {c['n']} | {c['refused_expected']} | "
            f"{c['correct'] / c['n']:.3f} ({c['correct']}) |"
        )
    if outcomes:
        wall = percentiles([o.seconds for o in outcomes])
        cpu = percentiles([o.cpu_seconds for o in outcomes])
        load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
        lines.append(
            f"\nplanning time per sentence: median {wall[0]:.1f} ms, p95 {wall[1]:.1f} ms, "
            f"max {wall[2]:.1f} ms; CPU time median {cpu[0]:.1f} ms, p95 {cpu[1]:.1f} ms, "
            f"max {cpu[2]:.1f} ms (load average {load})"
        )
    return "\n".join(lines)


def percentiles(seconds: list[float]) -> tuple[float, float, float]:
    """Median, p95 and max in milliseconds."""
    ordered = sorted(seconds)
    return tuple(  # type: ignore[return-value]
        ordered[min(int(len(ordered) * q), len(ordered) - 1)] * 1000 for q in (0.5, 0.95, 1.0)
    )
