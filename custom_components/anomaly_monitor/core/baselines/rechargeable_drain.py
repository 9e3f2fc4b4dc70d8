"""A rechargeable drained past its usual falls, said as one (not as a sensor's cell).

``battery_draining_fast`` tells a fixed sensor's battery losing tens of points in a day:
"a sensor battery lasts months". A home battery (an EcoFlow, an inverter's bank: seen
charged again after its falls, ``HomeBatteries.lowest``) is left alone while it falls as
far as its outages take it (``detectors._drained_as_before``) and told past that (set 13
d: an air conditioner left on overnight on the inverter). Walk of session 27: the
EcoFlow's supply out, its charge at 64 % where its outages stop at 70 %, read "a sensor
battery lasts months" and "Replace the battery soon". Such a finding says what holds
instead: below anything its use took it to, something draws on it or nothing charges it.
Text only: its rule, severity and degree stay.
"""

from __future__ import annotations

from dataclasses import replace

from ..home import HomeView
from ..models import Finding
from .home_baselines import HomeBaselines

_RULE = "battery_draining_fast"


def worded_as_rechargeable(finding: Finding, baselines: HomeBaselines, home: HomeView) -> Finding:
    """``finding`` about a battery this home has seen charged again, said as such."""
    if finding.rule != _RULE or len(finding.evidence) != 1:
        return finding
    (battery,) = finding.evidence
    lowest = baselines.batteries.lowest.get(battery)
    state = home.info(battery)
    if lowest is None or state is None or state.number is None:
        return finding
    return replace(
        finding,
        reasoning=f"{battery} reads {state.number:g} %, below the {lowest:g} % it always "
        "came back from here: it has been drained past anything its use took it to.",
        recommendation="Check what draws on the battery (something left on) and whether "
        "its charger or supply still charges it.",
    )
