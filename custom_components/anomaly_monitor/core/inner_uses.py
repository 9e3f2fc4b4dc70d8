"""Who is in, read from the home's own contacts: an inner door used in the "empty" home.

While every tracked phone is away, the household's untracked people (a grandmother, a
child, a maid) still open their room's door, the bathroom's, a drawer. Such a contact is
no way in: nobody comes in by it, whoever opens it was inside already. Which contacts are
so is learned from use, not from names: a ``door`` or ``opening`` contact with no lock in
its area, opened ``INNER_OPENS`` times and more and never near a tracked person's arrival
or departure (``UsedFromInside.never_a_way``). A window, a garage door, a door with a lock
or one the household ever came or went by stays a way in.

Read in the first days' gate (``first_days_passage``): once such a contact was used since
everybody tracked left, with somebody about before it and no entry nobody inside explains
before that, somebody was in all along, and the next use of an inner contact is theirs.
One opened with nobody seen before it is judged as any way in: use alone does not tell a
balcony door from a grandmother's (both are never used at a coming or going). A dog moves,
it opens no door: motion alone never reads so; an entry into a home nobody was seen in is
told as before.
"""

from __future__ import annotations

from .baselines.home_baselines import HomeBaselines

_INNER_CLASSES = frozenset({"door", "opening"})


def inner_contact(baselines: HomeBaselines, entity_id: str) -> bool:
    """``entity_id`` is an inner contact of this home (see the module)."""
    infos = baselines.infos
    info = infos.get(entity_id)
    if info is None or info.domain != "binary_sensor" or info.device_class not in _INNER_CLASSES:
        return False
    if info.area is not None and any(
        other.domain == "lock" and other.area == info.area for other in infos.values()
    ):
        return False
    return baselines.inside.never_a_way(entity_id)
