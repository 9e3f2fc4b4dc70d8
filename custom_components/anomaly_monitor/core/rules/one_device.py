"""The entities of one device that went offline together are one finding.

A combined smoke and CO detector shows as two entities, a smart plug as its switch and
its meter; when the device drops off its radio, every one of them reads "unavailable" at
once. Told per entity, the homeowner heard twice, at the same second, of one dead
detector. Findings about entities of one physical device (``device_roles.same_device``:
HA's device registry, or HA's naming of one device's entities) are folded into the
first: its rule and words, every entity as evidence, every name said.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import replace

from ..device_roles import same_device
from ..models import EntityState, Finding


def one_per_device(found: Iterable[tuple[EntityState, Finding]]) -> Iterator[Finding]:
    """``found`` (the entity each finding is about, the finding), one finding per device."""
    groups: list[list[tuple[EntityState, Finding]]] = []
    for state, finding in found:
        group = next((g for g in groups if same_device(g[0][0], state)), None)
        if group is None:
            groups.append([(state, finding)])
        else:
            group.append((state, finding))
    for group in groups:
        first = group[0][1]
        if len(group) == 1:
            yield first
            continue
        evidence = list(first.evidence)
        evidence += [e for _, f in group[1:] for e in f.evidence if e not in evidence]
        names = ", ".join(state.info.name for state, _ in group)
        yield replace(
            first,
            evidence=tuple(evidence),
            reasoning=f"{names} (one device) cannot be read right now.",
            severity=max((f.severity for _, f in group), key=lambda s: s.rank),
        )
