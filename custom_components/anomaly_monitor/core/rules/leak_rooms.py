"""A room with a leak: what draws power there is the leak's story, told by the leak alarm.

A washer's hose bursts while nobody is home: the leak sensor under it is told at once
(``hazard_detected``, a safety hazard), and the washer still drawing power in the same
room is no sign of somebody inside. Told as well (``appliance_active_while_away``), the
homeowner heard of one burst hose twice, the second time as if a person were in.
"""

from __future__ import annotations

from ..home import HomeView, is_on


def leaking_in(home: HomeView, area: str | None) -> bool:
    """Whether a water leak sensor in ``area`` reads wet now."""
    return area is not None and any(
        s.domain == "binary_sensor" and s.info.device_class == "moisture" and is_on(s)
        for s in home.in_area(area)
    )
