"""An analysis when an offline device's grace ends, not at the next periodic one.

A device is told offline only once its spell has lasted its grace (``core/offline.py``: 15
minutes for a smoke detector or a lock), by whichever analysis runs next. A change within
the grace (the front door, a person) is analysed and moves the periodic analysis a whole
interval on: the outage then waited up to the analysis interval (15 min by default, up to
a day) past its grace. A device whose drops are learned is due at its own limit
(``core/baselines/drop_judge.py``), read from the baselines the analysis used. The same
timer serves a door opened in the small hours, judged once nobody moved inside for
minutes after it (``night_opening_due``), and a light switched on in the small hours
that passes its limit (a fall, ``night_light_due``), a meter that fell idle part-way
through the run it makes at this time of day, once it has been idle long enough to tell
(``run_cut_short_due``), an appliance that cycles day and night (a freezer) once it
has rested or run past its learned limit (``cycle_stopped_due``), a panel or lock not
armed or locked by its learned daily time (``routine_missed_due``), a switch left on or
a meter drawing a heating load once its stay passes its learned limit (``long_stay_due``,
``running_far_longer_due``), a sensor whose every on lasts seconds held on
(``brief_sensor_held_on_due``), and an entrance the household used in the empty home in
its first days once it has stood open long enough to tell (``passage_due``), a door
opened in the small hours in its first days once it can be found left open
(``night_door_due``), unhealthy air once it has held long enough to tell
(``air_unhealthy_due``), and an entrance left open or unlocked as the last one out left,
once the leaving grace has passed (``leaving_grace_due``), and who is home once a start's
blink has passed (``context_builder.start_blink_ends``).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta

from homeassistant.core import CALLBACK_TYPE, HomeAssistant, callback
from homeassistant.helpers.event import async_track_point_in_utc_time

from ..core.baselines import HomeBaselines
from ..core.baselines.air_quality import air_unhealthy_due
from ..core.baselines.brief_on_held import brief_sensor_held_on_due
from ..core.baselines.cycles import cycle_stopped_due
from ..core.baselines.drop_judge import offline_limit
from ..core.baselines.held_past import held_past_due
from ..core.baselines.leaving_grace import leaving_grace_due
from ..core.baselines.long_runs import running_far_longer_due
from ..core.baselines.long_stays import long_stay_due
from ..core.baselines.night_lights_due import night_light_due
from ..core.baselines.night_outings import night_opening_due
from ..core.baselines.off_hours_runs import off_hours_run_due
from ..core.baselines.routine_missed import routine_missed_due
from ..core.baselines.run_cut_short import run_cut_short_due
from ..core.baselines.still_in_room import still_in_room_due
from ..core.baselines.still_where_last_seen import still_where_last_seen_due
from ..core.cold_start_openings import night_door_due
from ..core.first_days_passage import passage_due
from ..core.home import HomeView
from ..core.models import ContextWindow
from ..core.offline import offline_due
from .context_builder import start_blink_ends

# Past the grace, so the analysis finds the spell long enough.
_AFTER_GRACE = timedelta(seconds=1)


class OfflineCheck:
    """One timer: the earliest end of a grace among the devices offline now."""

    def __init__(self, hass: HomeAssistant, analyse: Callable[[], None]) -> None:
        self._hass = hass
        self._analyse = analyse
        self._unsub: CALLBACK_TYPE | None = None
        self.due: datetime | None = None

    @callback
    def async_follow(self, window: ContextWindow, baselines: HomeBaselines | None = None) -> None:
        """After an analysis of ``window``: the timer for what it saw offline (each
        device's limit from its learned drops, when ``baselines`` are kept), or for a door
        opened in the small hours, or a night light passing its limit."""
        home = HomeView(window)
        zone = window.environment.zone
        offline = offline_due(home, offline_limit(baselines, home.end))
        pending = (
            offline,
            night_opening_due(home, zone),
            night_light_due(home, baselines),
            run_cut_short_due(home, baselines),
            cycle_stopped_due(home, baselines),
            routine_missed_due(home, baselines),
            long_stay_due(home, baselines),
            brief_sensor_held_on_due(home, baselines),
            running_far_longer_due(home, baselines),
            off_hours_run_due(home, baselines),
            still_in_room_due(home, baselines),
            held_past_due(home, baselines),
            still_where_last_seen_due(home, baselines),
            passage_due(baselines, home.end),
            night_door_due(baselines, home.end),
            air_unhealthy_due(home, baselines),
            leaving_grace_due(home, baselines),
            start_blink_ends(self._hass, window.environment.ha_started, home.end),
        )
        due = min((when for when in pending if when is not None), default=None)
        if due == self.due:
            return
        self.async_cancel()
        if due is None:
            return
        self.due = due

        @callback
        def _fire(_: datetime) -> None:
            self._unsub, self.due = None, None
            self._analyse()

        self._unsub = async_track_point_in_utc_time(self._hass, _fire, due + _AFTER_GRACE)

    @callback
    def async_cancel(self) -> None:
        """No timer (the monitor stops, or nothing is waiting)."""
        if self._unsub is not None:
            self._unsub()
        self._unsub, self.due = None, None
