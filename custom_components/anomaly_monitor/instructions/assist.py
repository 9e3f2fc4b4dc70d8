"""Read an instruction the way Home Assistant's Assist does, and check what it asks for.

Assist matches sentences with ``hassil`` against the ``home-assistant-intents`` templates,
with the home's entity names and aliases, areas and floors as slot lists and the speaker's
area as context; its intent handlers then find the targets with ``async_match_targets``.
This module does the same, but instead of calling services it proposes the calls HA's
handlers would make and checks each one against the capability model (the entity offers that
setting or action, the value is inside its range). Both packages are dependencies of HA's
conversation integration; when they are missing the planner falls back to its own parser.
"""

from __future__ import annotations

from functools import lru_cache
import logging
import re
from typing import Any

from homeassistant.core import HomeAssistant, callback
from homeassistant.helpers import (
    area_registry as ar,
    device_registry as dr,
    intent,
)

from ..actions.errors import InvalidActionInput
from ..core.instructions import (
    Feature,
    FeatureKind,
    HomeCapabilities,
    PlannedOperation,
    RefusalCode,
    RefusedPart,
)
from ..core.instructions.intents import PlanStep
from ..core.instructions.planner import AssistReader
from .assist_calls import Proposal, match_failure, no_service, proposal_for
from .slots import async_assist_slots, normalize_words

try:  # the conversation integration's own dependencies; optional for us
    from hassil import Intents, RecognizeResult, TextSlotList, recognize_best
    from home_assistant_intents import get_intents, get_languages  # type: ignore[import-untyped]
except ImportError:  # pragma: no cover - exercised only without the packages
    Intents = None  # type: ignore[assignment,misc]

_LOGGER = logging.getLogger(__name__)

# Stands in for the speaker's area when the call does not say where it comes from: a
# sentence that needs it ("…here", "turn on the lights") is then refused with a reason.
_NO_AREA = "\x00no-area"
# No template is longer (names included); longer sentences are several clauses, each read
# on its own, and skipping them keeps long instructions fast.
MAX_TEMPLATE_WORDS = 16
# Words that point at the speaker's area (the templates' <here> rule, and "in our space").
_HERE = re.compile(r"\b(?:here|this (?:room|area|space)|(?:the|our|my) space)\b", re.IGNORECASE)

# Intents that control devices, with the domains HA's handlers require (None: any).
_DOMAINS: dict[str, frozenset[str] | None] = {
    "HassTurnOn": None,
    "HassTurnOff": None,
    "HassLightSet": frozenset({"light"}),
    "HassClimateSetTemperature": frozenset({"climate"}),
    "HassFanSetSpeed": frozenset({"fan"}),
    "HassSetPosition": frozenset({"cover", "valve"}),
    "HassVacuumStart": frozenset({"vacuum"}),
    "HassVacuumReturnToBase": frozenset({"vacuum"}),
    "HassLawnMowerStartMowing": frozenset({"lawn_mower"}),
    "HassLawnMowerDock": frozenset({"lawn_mower"}),
    "HassMediaNext": frozenset({"media_player"}),
    "HassMediaPrevious": frozenset({"media_player"}),
    "HassMediaPause": frozenset({"media_player"}),
    "HassMediaUnpause": frozenset({"media_player"}),
    "HassSetVolume": frozenset({"media_player"}),
    "HassMediaPlayerMute": frozenset({"media_player"}),
    "HassMediaPlayerUnmute": frozenset({"media_player"}),
}
# Media intents act on what is playing, as HA's handlers do.
_PLAYING_ONLY = {"HassMediaNext", "HassMediaPrevious", "HassMediaPause"}
_SINGLE_TARGET = {"HassClimateSetTemperature"}
_NEEDS_CODE = {"lock.unlock", "lock.open"}


def assist_available() -> bool:
    """Whether hassil and the intents package could be imported."""
    return Intents is not None


def language_variant(language: str) -> str | None:
    """The templates' language for HA's language setting ("en-GB" → "en"), if any."""
    if Intents is None:
        return None
    supported = set(get_languages())
    for variant in (language, language.partition("-")[0]):
        if variant in supported:
            return variant
    return None


# Templates already loaded, by language: later calls skip the executor round trip (under
# load, waiting for a worker thread costs more than the planning itself).
_LOADED: dict[str, Any] = {}


@lru_cache(maxsize=4)
def load_intents(variant: str) -> Any:
    """HA's sentence templates for a language, or None. Blocking: run in an executor."""
    data = get_intents(variant) if Intents is not None else None
    if not data:
        return None
    # Only the device-control intents: questions, timers and lists are not instructions
    # (and leaving them out makes matching several times faster).
    data["intents"] = {k: v for k, v in data["intents"].items() if k in _DOMAINS}
    return Intents.from_dict(data)


async def async_assist_reader(
    hass: HomeAssistant,
    home: HomeCapabilities,
    *,
    language: str | None = None,
    area_id: str | None = None,
) -> AssistReader | None:
    """A reader for the planner, or None when the templates are missing for the language."""
    variant = language_variant(language or hass.config.language)
    if variant is None:
        return None
    if (intents := _LOADED.get(variant)) is None:
        intents = _LOADED[variant] = await hass.async_add_executor_job(load_intents, variant)
    if intents is None:
        return None
    return AssistPlanner(hass, home, intents, language=variant, area_id=area_id).async_plan


class AssistPlanner:
    """Plans one instruction (or clause) with HA's templates; ``None`` when none matches.

    Built per service call in the event loop, over the home's slot lists (kept between
    calls, see instruction_slots); ``recognize`` is pure CPU work on snapshots and may run
    in an executor.
    """

    def __init__(
        self,
        hass: HomeAssistant,
        home: HomeCapabilities,
        intents: Any,
        *,
        language: str = "en",
        area_id: str | None = None,
    ) -> None:
        """Snapshot the names, areas and floors the templates can refer to."""
        self._hass = hass
        self._intents = intents
        # A clause may be read again as a piece of the sentence: matched once per call.
        self._recognized: dict[str, Any] = {}
        self._language = language
        self._features: dict[str, list[Feature]] = {}
        for device in home.devices:
            for feature in device.features:
                self._features.setdefault(feature.entity_id, []).append(feature)
        self._slots = async_assist_slots(hass)
        self._area = area = ar.async_get(hass).async_get_area(area_id) if area_id else None
        self._context = {
            "area": {"value": area.name, "text": area.name}
            if area
            else {"value": _NO_AREA, "text": _NO_AREA}
        }

    def recognize(self, text: str) -> Any:
        """The best template match for ``text`` (blocking CPU work, no HA state)."""
        lowered = f" {normalize_words(text)} "
        slots = self._slots
        names = [value for norm, value in slots.names if norm in lowered]
        return recognize_best(
            text,
            self._intents,
            slot_lists={
                "name": TextSlotList.from_tuples(names, allow_template=False),
                "area": slots.areas,
                "floor": slots.floors,
            },
            intent_context=self._context,
            language=self._language,
            best_slot_name="name",
        )

    async def async_plan(self, text: str) -> list[PlanStep] | None:
        """Steps for ``text`` if it matches a device-control template, else ``None``."""
        if len(text.split()) > MAX_TEMPLATE_WORDS:
            return None
        if text in self._recognized:
            result = self._recognized[text]
        else:
            result = await self._hass.async_add_executor_job(self.recognize, text)
            self._recognized[text] = result
        if result is None or result.intent.name not in _DOMAINS:
            return None
        return self.plan_result(text, result)

    @callback
    def plan_result(self, text: str, result: RecognizeResult) -> list[PlanStep] | None:
        """Resolve the match's targets as HA's handlers do and check each call."""
        name = result.intent.name
        slots = {key: entity.value for key, entity in result.entities.items()}
        if _NO_AREA in (slots.get("area"), slots.get("preferred_area_id")):
            if not _HERE.search(text):
                # "turn on the lights", "mute": the templates assume the speaker's area;
                # without one, the parser may still find the home's only such device.
                return None
            return [
                RefusedPart(
                    text,
                    RefusalCode.NO_SPEAKER_AREA,
                    "the instruction refers to the speaker's area ('here', or no area at all)"
                    " but the call gives none: pass area_id or device_id, or name the area",
                )
            ]
        entity_name = slots.get("name")
        domains = _DOMAINS[name]
        if "domain" in slots:
            domains = frozenset(_as_list(slots["domain"]))
        named = any(slots.get(key) for key in ("name", "area", "floor")) and entity_name != "all"
        constraints = intent.MatchTargetsConstraints(
            name=None if entity_name == "all" else entity_name,
            area_name=slots.get("area"),
            floor_name=slots.get("floor"),
            domains=domains,
            device_classes=_as_list(slots["device_class"]) if "device_class" in slots else None,
            # "next track" alone means what is playing (as HA's handlers read it); a named
            # player is acted on whatever it does now.
            states={"playing"} if name in _PLAYING_ONLY and not named else None,
            single_target=name in _SINGLE_TARGET,
        )
        if not constraints.has_constraints:
            return [RefusedPart(text, RefusalCode.NOT_UNDERSTOOD, "no device, area or floor")]
        preferences = intent.MatchTargetsPreferences(area_id=self._area.id if self._area else None)
        match = intent.async_match_targets(self._hass, constraints, preferences)
        if not match.is_match:
            return [match_failure(text, match, constraints)]
        steps: list[PlanStep] = []
        for state in match.states:
            proposal = proposal_for(name, slots, state)
            steps.append(self._check(text, proposal) if proposal else no_service(text, name, state))
        return steps

    def _check(self, text: str, proposal: Proposal) -> PlanStep:
        """The proposal, if the entity offers that feature with that value."""
        state = proposal.state
        if state.entity_id not in self._features:
            return RefusedPart(
                text,
                RefusalCode.UNKNOWN_DEVICE,
                f"{state.name} is unavailable, disabled or hidden",
            )
        feature = next(
            (f for f in self._features.get(state.entity_id, ()) if proposal.feature in f.names),
            None,
        )
        if feature is None:
            return RefusedPart(
                text,
                RefusalCode.UNSUPPORTED_ACTION,
                f"{state.name} cannot {proposal.feature.replace('_', ' ')}",
            )
        if proposal.service in _NEEDS_CODE and state.attributes.get("code_format"):
            # Assist does not pass codes either: a lock that wants one is not opened by text.
            return RefusedPart(
                text,
                RefusalCode.UNSUPPORTED_ACTION,
                f"{state.name} needs a code to {proposal.feature}",
            )
        value = proposal.value
        if value is not None and feature.kind is FeatureKind.NUMBER:
            low, high = feature.minimum, feature.maximum
            if (low is not None and value < low) or (high is not None and value > high):
                return RefusedPart(
                    text,
                    RefusalCode.OUT_OF_RANGE,
                    f"{state.name} takes {proposal.feature.replace('_', ' ')} "
                    f"from {low:g} to {high:g}, not {value:g}",
                )
        return PlannedOperation(text, state.entity_id, proposal.service, dict(proposal.data))


def _as_list(value: Any) -> list[str]:
    return [str(v) for v in value] if isinstance(value, list | tuple | set) else [str(value)]


@callback
def async_speaker_area(
    hass: HomeAssistant, area_id: str | None, device_id: str | None
) -> str | None:
    """The area a request comes from: the given area, else the speaker device's area.

    Raises ``InvalidActionInput`` for an area or device the home does not have.
    """
    if area_id:
        if ar.async_get(hass).async_get_area(area_id) is None:
            raise InvalidActionInput("unknown_speaker_area", area_id=area_id[:64])
        return area_id
    if device_id:
        device = dr.async_get(hass).async_get(device_id)
        if device is None:
            raise InvalidActionInput("unknown_speaker_device", device_id=device_id[:64])
        return device.area_id
    return None
