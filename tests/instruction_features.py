"""Features of a hand-built home for the instruction check, one call each."""

from __future__ import annotations

from typing import Any

from custom_components.anomaly_monitor.core.instructions import Feature, FeatureKind


def action(name: str, entity_id: str, service: str) -> Feature:
    """An action (``turn_on``) the service does."""
    return Feature(frozenset({name}), FeatureKind.ACTION, entity_id, service)


def number(name: str, entity_id: str, service: str, key: str, *args: Any, **more: Any) -> Feature:
    """A number the service sets in ``key`` (minimum, maximum, and the rest as ``Feature``)."""
    return Feature(frozenset({name}), FeatureKind.NUMBER, entity_id, service, key, *args, **more)


def option(name: str, entity_id: str, service: str, key: str, **more: Any) -> Feature:
    """One of ``options`` the service sets in ``key``."""
    return Feature(frozenset({name}), FeatureKind.OPTION, entity_id, service, key, **more)


def text(name: str, entity_id: str, service: str, key: str) -> Feature:
    """A free text the service sets in ``key``."""
    return Feature(frozenset({name}), FeatureKind.TEXT, entity_id, service, key)
