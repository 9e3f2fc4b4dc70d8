"""The homeowner sees what the monitor takes each watched device for, and corrects it.

The options flow's ``roles`` step lists the watched doors, windows, switches, power
meters, valves and motion sensors with the role ``core/device_roles.py`` gives them (and
what says it); a role the homeowner picks is stored in the entry's options
(``CONF_ROLES``, only where it differs from the monitor's own reading) and detection uses
it. Diagnostics show the same table (entity ids and roles only, no names).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from homeassistant.helpers import selector, translation
import voluptuous as vol

from ..const import CONF_REVIEW_ROLES, DOMAIN
from ..core.baselines.cycles import cycles_day_and_night
from ..core.device_roles import (
    DOOR_ROLES,
    MOTION_ROLES,
    SWITCHABLE_ROLES,
    Role,
    Source,
    parse_role,
    roles,
)
from ..core.home import OCCUPANCY_DEVICE_CLASSES, OPENING_DEVICE_CLASSES, HomeView
from ..core.models import ContextWindow, EntityState
from ..markdown_text import escape_markdown

if TYPE_CHECKING:
    from homeassistant.core import HomeAssistant

    from ..runtime import AnomalyMonitorRuntimeData

# The options form's tick box that opens the roles step.
REVIEW_ROLES_SCHEMA = {vol.Optional(CONF_REVIEW_ROLES, default=False): selector.BooleanSelector()}
# A form with more rows than this is not read; the rest keep the monitor's reading.
MAX_ROWS = 40
ROLE_SELECTOR_KEY = "device_role"


@dataclass(frozen=True, slots=True)
class RoleRow:
    """One watched device: what the monitor takes it for, and what the homeowner said."""

    entity_id: str
    name: str
    taken: Role  # the monitor's own reading (OTHER when nothing says one)
    source: str  # what says it: class, device, behaviour, name, or none
    homeowner: Role | None
    choices: tuple[Role, ...]

    @property
    def role(self) -> Role:
        """The role in effect."""
        return self.homeowner or self.taken


def _choices(state: EntityState) -> tuple[Role, ...] | None:
    domain, device_class = state.domain, state.info.device_class
    if domain == "binary_sensor" and device_class in OPENING_DEVICE_CLASSES:
        return DOOR_ROLES
    if domain == "binary_sensor" and device_class in OCCUPANCY_DEVICE_CLASSES:
        return MOTION_ROLES
    if domain in ("switch", "valve") or (domain == "sensor" and device_class == "power"):
        return SWITCHABLE_ROLES
    return None


def with_review_box(schema: vol.Schema, sections: Mapping[str, Any]) -> vol.Schema:
    """The options form with the roles tick box after the fields, before the sections."""
    fields = list(schema.schema.items())
    first = next((i for i, (key, _) in enumerate(fields) if str(key) in sections), len(fields))
    return vol.Schema(dict(fields[:first] + list(REVIEW_ROLES_SCHEMA.items()) + fields[first:]))


def review_rows(window: ContextWindow, baselines: Any = None) -> list[RoleRow]:
    """The devices whose role matters, as the monitor reads them without the homeowner."""
    own = {s.entity_id: parse_role(s.info.role) for s in window.snapshot}
    blind = replace(
        window, snapshot=tuple(replace(s, info=replace(s.info, role=None)) for s in window.snapshot)
    )
    taken = roles(HomeView(blind))
    rows: list[RoleRow] = []
    for state in sorted(blind.snapshot, key=lambda s: s.entity_id):
        choices = _choices(state)
        if choices is None:
            continue
        guess = taken.get(state.entity_id)
        role, source = (guess.role, guess.source.name.lower()) if guess else (Role.OTHER, "none")
        if (
            guess is None
            and baselines is not None
            and cycles_day_and_night(baselines, state.entity_id)
        ):
            role, source = Role.COLD_APPLIANCE, Source.BEHAVIOUR.name.lower()
        rows.append(
            RoleRow(
                state.entity_id, state.info.name, role, source, own.get(state.entity_id), choices
            )
        )
    return rows[:MAX_ROWS]


def rows_of(runtime: AnomalyMonitorRuntimeData) -> list[RoleRow]:
    """The review rows of a loaded entry (its current window and learned baselines)."""
    keeper = runtime.baselines
    learned = keeper.baselines if keeper is not None else None
    return review_rows(runtime.coordinator.build_window(), learned)


def roles_schema(rows: list[RoleRow]) -> vol.Schema:
    """One role choice per device, keyed by its entity id, set to the role in effect."""
    return vol.Schema(
        {
            vol.Required(row.entity_id, default=row.role.value): selector.SelectSelector(
                selector.SelectSelectorConfig(
                    options=[r.value for r in row.choices]
                    + ([row.role.value] if row.role not in row.choices else []),
                    translation_key=ROLE_SELECTOR_KEY,
                    mode=selector.SelectSelectorMode.DROPDOWN,
                )
            )
            for row in rows
        }
    )


# What says a role, in the words of the form's description.
_SOURCE_WORDS = {
    "class": "from its device class",
    "device": "from its device",
    # A meter is taken for a fridge or freezer by its cycle alone (a pump cycles too):
    # the homeowner reads what was seen, to correct it.
    "behaviour": "from what it does: it starts and stops over and over, as a fridge does",
    "name": "from its name",
    "none": "nothing says otherwise yet",
}
_LABELS = f"component.{DOMAIN}.selector.{ROLE_SELECTOR_KEY}.options."


def _label(role: Role) -> str:
    """A role without a translation: ``exterior_door`` → "Exterior door"."""
    return role.value.replace("_", " ").capitalize()


async def async_role_labels(hass: HomeAssistant) -> dict[Role, str]:
    """Each role in the words of the form's own choices (walk 59: the list said "Cold
    appliance" and "Other" above choices reading "Fridge or freezer" and "None of these")."""
    words = await translation.async_get_translations(
        hass, hass.config.language, "selector", {DOMAIN}
    )
    return {
        role: words[f"{_LABELS}{role.value}"] for role in Role if f"{_LABELS}{role.value}" in words
    }


def rows_text(rows: list[RoleRow], labels: Mapping[Role, str] | None = None) -> str:
    """The list the form's description shows: name, id, the role in effect, and what says
    it (the homeowner's correction, or what the monitor read it from), each role in the
    words of the choices (``labels``)."""

    def label(role: Role) -> str:
        return (labels or {}).get(role) or _label(role)

    lines = []
    for row in rows:
        if row.homeowner is not None and row.homeowner is not row.taken:
            why = f"your correction; the monitor read {label(row.taken).lower()}"
        else:
            why = _SOURCE_WORDS.get(row.source, f"from {row.source}")
        name = escape_markdown(row.name)
        lines.append(f"- {name} (`{row.entity_id}`): {label(row.role)} ({why})")
    return "\n".join(lines) or "-"


def corrected_roles(
    rows: list[RoleRow], answer: Mapping[str, Any], stored: Mapping[str, Any] | None
) -> dict[str, str]:
    """The roles to store: the homeowner's where they differ from the monitor's reading.

    Roles stored for devices the form did not show (no longer watched, past ``MAX_ROWS``)
    are kept.
    """
    shown = {row.entity_id: row for row in rows}
    kept = {k: v for k, v in (stored or {}).items() if k not in shown and parse_role(v)}
    for entity_id, value in answer.items():
        row, role = shown.get(entity_id), parse_role(value)
        if row is not None and role is not None and role != row.taken:
            kept[entity_id] = role.value
    return dict(sorted(kept.items()))


def diagnostics_rows(rows: list[RoleRow]) -> list[dict[str, str]]:
    """The roles for diagnostics: ids and roles only (names are the homeowner's text)."""
    return [
        {
            "entity_id": row.entity_id,
            "role": row.role.value,
            "monitor": row.taken.value,
            "from": "homeowner" if row.homeowner else row.source,
        }
        for row in rows
    ]
