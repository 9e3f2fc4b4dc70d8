"""The way out: an open door the household did not leave by.

A door without a lock reads open while nobody is home. If, after it opened, another door
was opened and shut again before everybody left, the household went out by that one (the
front door shut behind them) and this door stood open through the departure: an interior
door (a bathroom door left open after the shower), not the way out left open. The front
door left ajar on the way out is the last door opened before the departure: no other door
opened and shut after it. A garage door or a window is no way out on foot.
"""

from __future__ import annotations

from .home_baselines import HomeBaselines


def left_by_another_door(baselines: HomeBaselines, door: str) -> bool:
    """Whether ``door``, open at the last departure, was open before the household went
    out by another door it shut behind it."""
    usual = baselines.usual
    departed, since = usual.departed, usual.open_since(door)
    if departed is None or since is None or door not in usual.open_at_departure:
        return False
    return any(
        (info := baselines.infos.get(other)) is not None
        and info.domain == "binary_sensor"
        and info.device_class == "door"
        for other in usual.opened_and_shut(since, departed)
        if other != door
    )
