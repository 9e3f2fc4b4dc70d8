"""A family's comings and goings learned, and ``not_back_as_usual`` judged on them: the
set-up the child tests share (their days and outings are each test's own)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from datetime import datetime
from zoneinfo import ZoneInfo

from custom_components.anomaly_monitor.core.baselines.home_baselines import HomeBaselines
from custom_components.anomaly_monitor.core.baselines.not_back import not_back_as_usual
from custom_components.anomaly_monitor.core.home import HomeView
from custom_components.anomaly_monitor.core.models import (
    EntityInfo,
    EntityState,
    Finding,
    Transition,
)

from .core_factories import environment, observe_all, window


def learned_family(
    zone: ZoneInfo,
    names: Mapping[str, str],
    since: datetime,
    events: Iterable[tuple[datetime, str, str]],
) -> tuple[HomeBaselines, list[Transition]]:
    """Baselines watching ``names`` (entity -> name) from ``since``, everybody home then,
    fed ``events`` (when, person, state)."""
    baselines = HomeBaselines(zone)
    baselines.describe([EntityInfo(entity, name) for entity, name in names.items()])
    baselines.watching(list(names), since)
    first = [(since, entity, "home") for entity in names]
    return baselines, observe_all(baselines, [*first, *events])


def judged_not_back(
    baselines: HomeBaselines,
    now: datetime,
    states: list[EntityState],
    transitions: list[Transition],
    profile: str,
) -> list[Finding]:
    """``not_back_as_usual`` at ``now`` with the persons' ``states`` (those home counted)
    and the window's ``transitions``."""
    baselines.advance(now)
    home_count = sum(s.state == "home" for s in states)
    built = replace(
        window(states, environment(now, persons_home=home_count), transitions), profile=profile
    )
    return list(not_back_as_usual(HomeView(built), baselines))
