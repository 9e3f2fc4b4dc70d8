"""Deterministic check of each intent against what the home can do.

Every planned call names a real entity in the named area, a service that entity offers,
and a value inside the entity's own range or option list; everything else is refused with
a reason. Relative changes ("by 10") are resolved from the current value and clipped to
the range, as a person turning a knob would; absolute values outside the range are refused.
"""

from __future__ import annotations

from dataclasses import replace
import math
import re

from .capabilities import DeviceCapability, Feature, FeatureKind, HomeCapabilities
from .intents import (
    DECREASE,
    INCREASE,
    SET,
    SETTING_ACTIONS,
    Intent,
    PlannedOperation,
    PlanStep,
    RefusalCode,
    RefusedPart,
)
from .vocabulary import ACTION_FALLBACKS, ATTRIBUTE_TARGETS, OPTION_SYNONYMS, UNIT_HINTS, option_key


def kind_label(kind: str | None) -> str:
    """Readable device kind ("air_conditioner" → "air conditioner")."""
    return (kind or "device").replace("_", " ")


def validate_intents(intents: list[Intent], home: HomeCapabilities) -> list[PlanStep]:
    """Check every intent; one or more steps per intent, in order."""
    steps: list[PlanStep] = []
    for intent in intents:
        steps.extend(validate_intent(intent, home))
    if (
        len(steps) > 1
        and all(i.continues for i in intents[1:])
        and all(isinstance(s, RefusedPart) and s.code is RefusalCode.UNKNOWN_DEVICE for s in steps)
    ):
        # "Turn off the diffuser in the hall and lower its intensity" when the hall has no
        # diffuser: a request about one missing device gets one refusal.
        return steps[:1]
    return steps


def validate_intent(intent: Intent, home: HomeCapabilities) -> list[PlanStep]:
    """Plan the service calls for one intent, or refuse it with a reason."""
    if intent.action is None:
        return [_refuse(intent, RefusalCode.NOT_UNDERSTOOD, "no action could be understood")]
    if intent.unknown_area is not None and intent.area_id is None:
        return [
            _refuse(intent, RefusalCode.UNKNOWN_AREA, f"there is no area '{intent.unknown_area}'")
        ]
    if intent.area_id is not None and home.area(intent.area_id) is None:
        return [_refuse(intent, RefusalCode.UNKNOWN_AREA, f"there is no area '{intent.area_id}'")]

    devices, refusal = _resolve_devices(intent, home)
    if refusal is not None:
        return [refusal]
    return [_plan_for_device(intent, device, home) for device in devices]


def _resolve_devices(
    intent: Intent, home: HomeCapabilities
) -> tuple[list[DeviceCapability], RefusedPart | None]:
    where = f"in {home.area_name(intent.area_id)}" if intent.area_id else "in the home"
    if intent.device_kind is None:
        if intent.attribute is None:
            return [], _refuse(intent, RefusalCode.NOT_UNDERSTOOD, "no device could be identified")
        in_area = [
            d
            for d in home.devices
            if (intent.area_id is None or d.area_id == intent.area_id)
            and _setting_feature(d, intent, named=False) is not None
        ]
        if len(in_area) == 1:
            return in_area, None
        if not in_area:
            return [], _refuse(
                intent,
                RefusalCode.UNKNOWN_DEVICE,
                f"no device {where} has a {intent.attribute.replace('_', ' ')} setting",
            )
        return [], _refuse(
            intent,
            RefusalCode.AMBIGUOUS_DEVICE,
            f"several devices {where} have a {intent.attribute.replace('_', ' ')}; name one",
        )

    of_kind = [d for d in home.devices if intent.device_kind in d.kinds]
    if intent.area_id is None:
        if len(of_kind) == 1:
            return of_kind, None
        if not of_kind:
            return [], _refuse(
                intent,
                RefusalCode.UNKNOWN_DEVICE,
                f"there is no {kind_label(intent.device_kind)} in the home",
            )
        return [], _refuse(
            intent,
            RefusalCode.AMBIGUOUS_DEVICE,
            f"there are {len(of_kind)} devices of kind {kind_label(intent.device_kind)}; "
            "say which area",
        )
    here = [d for d in of_kind if d.area_id == intent.area_id]
    if here:
        return here, None
    return [], _refuse(
        intent,
        RefusalCode.UNKNOWN_DEVICE,
        f"there is no {kind_label(intent.device_kind)} {where}",
    )


def _plan_for_device(intent: Intent, device: DeviceCapability, home: HomeCapabilities) -> PlanStep:
    action = intent.action or ""
    if action not in SETTING_ACTIONS:
        for name in ACTION_FALLBACKS.get(action, (action,)):
            feature = next((f for f in device.actions() if name in f.names), None)
            if feature is not None:
                return PlannedOperation(
                    intent.text, feature.entity_id, feature.service, dict(feature.fixed_data)
                )
        return _refuse(
            intent,
            RefusalCode.UNSUPPORTED_ACTION,
            f"{device.name} cannot {action.replace('_', ' ')}",
        )

    feature = _setting_feature(device, intent)
    if feature is None:
        what = intent.attribute.replace("_", " ") if intent.attribute else "this setting"
        return _refuse(
            intent, RefusalCode.UNSUPPORTED_ATTRIBUTE, f"{device.name} has no {what} setting"
        )
    if feature.kind is FeatureKind.NUMBER:
        return _plan_number(intent, device, feature)
    if feature.kind is FeatureKind.OPTION:
        return _plan_option(intent, device, feature)
    if intent.value is None or intent.relative:
        return _refuse(intent, RefusalCode.MISSING_VALUE, f"no value given for {device.name}")
    return _operation(intent, feature, str(intent.value)[:255])


def _setting_feature(
    device: DeviceCapability, intent: Intent, *, named: bool = True
) -> Feature | None:
    settings = [f for f in device.features if f.kind is not FeatureKind.ACTION]
    if intent.attribute is not None:
        for target in ATTRIBUTE_TARGETS.get(intent.attribute, (intent.attribute,)):
            feature = next((f for f in settings if target in f.names), None)
            if feature is not None:
                return feature
        numbers = [f for f in settings if f.kind is FeatureKind.NUMBER]
        if (
            named
            and len(numbers) == 1
            and "position" in numbers[0].names
            and not _names_option(intent)
        ):
            # A named cover has one amount, its position: "the curtain's intensity to 70".
            return numbers[0]
        return None
    if isinstance(intent.value, str):
        matching = [
            f
            for f in settings
            if f.kind is FeatureKind.OPTION and resolve_option(intent.value, f.options)
        ]
        return matching[0] if matching else None
    numbers = [f for f in settings if f.kind is FeatureKind.NUMBER]
    if intent.steps:
        options = [f for f in settings if f.kind is FeatureKind.OPTION]
        # "move it down two levels": the setting whose options are directions.
        said = set(re.findall(r"\b(up|down)(?:wards?)?\b", intent.text.lower()))
        directional = [f for f in options if said & {option_key(o) for o in f.options}]
        numbers = directional or options or numbers
    for hint in UNIT_HINTS.get(intent.unit or "", ()):
        feature = next((f for f in numbers if hint in f.names), None)
        if feature is not None:
            return feature
    return numbers[0] if len(numbers) == 1 else None


def _names_option(intent: Intent) -> bool:
    return isinstance(intent.value, str) and intent.value not in ("max", "min")


def _plan_number(intent: Intent, device: DeviceCapability, feature: Feature) -> PlanStep:
    label = f"{device.name} {_feature_label(feature)}"
    value = intent.value
    relative = intent.relative or intent.steps
    if value is None and intent.action in (INCREASE, DECREASE):
        # "turn it up" without an amount: a tenth of the range, at least one step.
        span = _span(feature)
        if span is None:
            return _refuse(intent, RefusalCode.MISSING_VALUE, f"by how much should {label} change?")
        value, relative = max(feature.step, round(span / 10 / feature.step) * feature.step), True
        intent = replace(intent, steps=False)
    if value in ("max", "min"):
        limit = feature.maximum if value == "max" else feature.minimum
        if limit is None:
            return _refuse(intent, RefusalCode.MISSING_VALUE, f"{label} has no {value}imum")
        return _operation(intent, feature, _scaled(limit, feature.scale))
    if not isinstance(value, int | float) or not math.isfinite(value):
        return _refuse(intent, RefusalCode.MISSING_VALUE, f"no number given for {label}")
    low = feature.minimum if feature.minimum is not None else -math.inf
    high = feature.maximum if feature.maximum is not None else math.inf
    if relative:
        if not isinstance(feature.current, int | float):
            return _refuse(intent, RefusalCode.MISSING_VALUE, f"the current {label} is unknown")
        delta = value * (feature.step if intent.steps else 1.0)
        target = feature.current - delta if intent.action == DECREASE else feature.current + delta
        target = min(max(target, low), high)
    else:
        target = float(value)
        if not low <= target <= high:
            return _refuse(
                intent,
                RefusalCode.OUT_OF_RANGE,
                f"{_number_text(target)} is outside {label}'s range "
                f"{_number_text(low)}–{_number_text(high)}",
            )
    return _operation(intent, feature, _scaled(target, feature.scale))


def _plan_option(intent: Intent, device: DeviceCapability, feature: Feature) -> PlanStep:
    label = f"{device.name} {_feature_label(feature)}"
    choices = ", ".join(feature.options) or "none"
    if intent.action in (INCREASE, DECREASE) and (
        intent.steps or intent.relative or intent.value is None
    ):
        current = feature.current if isinstance(feature.current, str) else None
        if current is None or current not in feature.options:
            return _refuse(intent, RefusalCode.MISSING_VALUE, f"the current {label} is unknown")
        count = int(intent.value) if isinstance(intent.value, int | float) else 1
        shift = -count if intent.action == DECREASE else count
        index = min(max(feature.options.index(current) + shift, 0), len(feature.options) - 1)
        return _operation(intent, feature, feature.options[index])
    if not isinstance(intent.value, str):
        return _refuse(
            intent, RefusalCode.INVALID_OPTION, f"{label} takes one of: {choices}; none was given"
        )
    option = resolve_option(intent.value, feature.options)
    if option is None:
        return _refuse(
            intent,
            RefusalCode.INVALID_OPTION,
            f"'{intent.value[:60]}' is not an option of {label} ({choices})",
        )
    return _operation(intent, feature, option)


def resolve_option(value: str, options: tuple[str, ...]) -> str | None:
    """The device's option that a spoken word means, if any (exact match first)."""
    key = option_key(value)
    by_key = {option_key(o): o for o in options}
    if key in by_key:
        return by_key[key]
    for canonical, words in OPTION_SYNONYMS.items():
        group = {option_key(canonical), *(option_key(w) for w in words)}
        if key in group:
            for option_key_, option in by_key.items():
                if option_key_ in group:
                    return option
    return None


def _operation(intent: Intent, feature: Feature, value: float | int | str) -> PlannedOperation:
    data = dict(feature.fixed_data)
    if feature.data_key is not None:
        data[feature.data_key] = value
    return PlannedOperation(intent.text, feature.entity_id, feature.service, data)


def _scaled(value: float, scale: float) -> float | int:
    scaled = value * scale
    if scale == 1.0 and float(scaled).is_integer():
        return int(scaled)
    return round(scaled, 4)


def _span(feature: Feature) -> float | None:
    if feature.minimum is None or feature.maximum is None:
        return None
    return feature.maximum - feature.minimum


def _number_text(value: float) -> str:
    if math.isinf(value):
        return "∞" if value > 0 else "-∞"
    return str(int(value)) if float(value).is_integer() else str(value)


def _feature_label(feature: Feature) -> str:
    return sorted(feature.names)[0].replace("_", " ")


def _refuse(intent: Intent, code: RefusalCode, reason: str) -> RefusedPart:
    return RefusedPart(intent.text, code, reason)


__all__ = ["DECREASE", "INCREASE", "SET", "resolve_option", "validate_intent", "validate_intents"]
