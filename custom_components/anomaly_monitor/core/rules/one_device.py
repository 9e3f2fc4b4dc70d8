"""The entities of one device that went offline together are one finding.

A combined smoke and CO detector shows as two entities, a smart plug as its switch and
its meter; when the device drops off its radio, every one of them reads "unavailable" at
once. Told per entity, the homeowner heard twice, at the same second, of one dead
detector. Findings about entities of one physical device (``device_roles.same_device``:
HA's device registry, or HA's naming of one device's entities) are folded into the
first: its rule and words, every entity as evidence, every name said.

Devices that went offline at the same moment (within ``TOGETHER``, as the window saw it)
are one outage too: a Zigbee stick or a hub that restarts takes its devices off at once
(and two entities of one device without a registry that says so, a Z-Wave detector's
smoke and CO, drop at the same second). One finding names them all; the start of a
drop that began before the window is the state's last change (else the detector told
as one would split into two anomalies, each told again, once the window passes it).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import replace
from datetime import datetime, timedelta

from ..device_roles import same_device
from ..models import EntityState, Finding

# Drops that began this close together are one outage (a hub, a stick, one device).
TOGETHER = timedelta(seconds=10)


def one_per_device(
    found: Iterable[tuple[EntityState, Finding]],
    since: Mapping[str, datetime | None] | None = None,
) -> Iterator[Finding]:
    """``found`` (the entity each finding is about, the finding), one finding per device
    or per outage (``since``: entity -> when its drop began, as far as the window saw)."""
    groups: list[list[tuple[EntityState, Finding]]] = []
    since = since or {}

    def together(one: EntityState, other: EntityState) -> bool:
        a, b = since.get(one.entity_id), since.get(other.entity_id)
        return a is not None and b is not None and abs(a - b) <= TOGETHER

    for state, finding in found:
        group = next(
            (g for g in groups if any(same_device(s, state) or together(s, state) for s, _ in g)),
            None,
        )
        if group is None:
            groups.append([(state, finding)])
        else:
            group.append((state, finding))
    for group in groups:
        if len(group) == 1:
            yield group[0][1]
            continue
        # The most severe leads (a smoke detector before the thermometer beside it).
        group.sort(key=lambda item: item[1].severity.rank, reverse=True)
        first = group[0][1]
        evidence = list(first.evidence)
        evidence += [e for _, f in group[1:] for e in f.evidence if e not in evidence]
        names = ", ".join(state.info.name for state, _ in group)
        one = all(same_device(group[0][0], state) for state, _ in group[1:])
        how = "(one device) cannot" if one else "went offline together and cannot"
        yield replace(
            first,
            evidence=tuple(evidence),
            reasoning=f"{names} {how} be read right now.",
            severity=first.severity,
        )
