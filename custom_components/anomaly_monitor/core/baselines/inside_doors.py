"""A way-in finding about a contact this home uses from inside is not told.

``entry_unsecured_while_away``, ``unaccompanied_opening`` and ``entry_at_an_unused_hour``
take a ``door`` contact as an entrance. One learned as used from inside
(``used_from_inside``: a fridge's or a microwave's door, opened briefly many times a day
with the kitchen's other contacts, seldom when anybody comes or goes) is no way in: a
fridge opened just after the trackers said everybody left shows somebody still inside.
A lock, a cover (garage, gate) or any other opening in the finding keeps it judged as
before; so does a finding with no contact learned so.
"""

from __future__ import annotations

from ..home import OPENING_DEVICE_CLASSES
from ..models import Finding
from .home_baselines import HomeBaselines
from .used_from_inside import UsedFromInside

WAY_IN_RULES = frozenset(
    {"entry_unsecured_while_away", "unaccompanied_opening", "entry_at_an_unused_hour"}
)


def only_used_from_inside(finding: Finding, baselines: HomeBaselines) -> bool:
    """Whether every way in ``finding`` names is a contact used from inside here."""
    if finding.rule not in WAY_IN_RULES:
        return False
    infos, inside = baselines.infos, baselines.inside
    ways = [
        e
        for e in finding.evidence
        if e.partition(".")[0] in ("lock", "cover")
        or (
            (info := infos.get(e)) is not None
            and info.domain == "binary_sensor"
            and info.device_class in OPENING_DEVICE_CLASSES
        )
    ]
    return bool(ways) and all(used_inside(inside, e) for e in ways)


def used_inside(inside: UsedFromInside, entity_id: str) -> bool:
    """A binary contact learned as used from inside (a lock or a cover never is)."""
    return entity_id.partition(".")[0] == "binary_sensor" and inside.used_from_inside(entity_id)
