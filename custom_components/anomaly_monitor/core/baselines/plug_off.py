"""A switch that stopped a cycling appliance, off far longer than it has ever been off.

A fridge or freezer that stops as the switch of its area turns off was stopped by the
person (``cycles._switched_off``): cleaning it, moving it, defrosting it. That excuse
holds while the switch stays off as long as it has been off before, not for ever: a
child presses the freezer plug's button, the plug stays off after a power cut, and the
freezer's food warms for a night while the excuse holds. A switch off longer than
its longest learned off stay, and at least ``OFF_PRIOR``, is told, gently: the person may
well know. A switch never seen off in the days learned is told at once: what feeds a
fridge day and night and was never switched off is not switched off on purpose unnoticed
(a plug back *off* after a power cut, its power-on default; a child's finger on the
button), and every minute it waits the food warms (sets 20-23: told at 1-2 h, after the
cycle's own limit).

A thermostat turned off is not judged here: its pump stops with the heating, and a
heating season ends for months.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from ..home import HomeView
from ..models import EntityState
from .home_baselines import HomeBaselines
from .long_stays import duration_text, stay_since

# How long a switch seen off only briefly may be off before the stopped appliance on it is
# told (one never seen off: at once).
OFF_PRIOR = timedelta(hours=1)


@dataclass(frozen=True, slots=True)
class OffTooLong:
    """A switch off since ``since``, past ``limit``; ``longest`` its longest learned off
    stay in minutes and ``stays`` how many it was learned from (0: never seen off)."""

    switch: str
    since: datetime
    limit: timedelta
    longest: float
    stays: int

    def words(self) -> str:
        """How its habit is said: "it was off 6 times before, never longer than 25 min",
        or "it was never switched off before in the days learned"."""
        if self.stays == 0:
            return "it was never switched off before in the days learned"
        times = "once" if self.stays == 1 else f"{self.stays} times"
        longest = duration_text(timedelta(minutes=self.longest))
        return f"it was off {times} before, never longer than {longest}"


def off_limit(home: HomeView, baselines: HomeBaselines, state: EntityState) -> OffTooLong | None:
    """The off stay of ``state`` and the moment it passes its limit: for a switch, None
    for anything else (a thermostat) or a switch not off."""
    if state.domain != "switch" or state.state != "off":
        return None
    since = stay_since(home, baselines, state)
    if since is None:
        return None
    stays, longest = baselines.durations.whole_record(state.entity_id, "off")
    limit = max(OFF_PRIOR, timedelta(minutes=longest)) if stays else timedelta(0)
    return OffTooLong(state.entity_id, since, limit, longest, stays)


def off_too_long(home: HomeView, baselines: HomeBaselines, state: EntityState) -> OffTooLong | None:
    """``off_limit`` when the switch has now been off past it, else None."""
    off = off_limit(home, baselines, state)
    return off if off is not None and home.end - off.since >= off.limit else None


def first_off(home: HomeView, baselines: HomeBaselines, state: EntityState) -> bool:
    """``state`` is a switch off now that was never seen off in the days learned (a switch
    still being learned has no such days: walk30's lamp channel, watched for minutes)."""
    off = off_limit(home, baselines, state)
    return off is not None and off.stays == 0 and not baselines.learning(state.entity_id, home.end)
