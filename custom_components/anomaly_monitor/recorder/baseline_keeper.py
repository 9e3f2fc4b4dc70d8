"""Keep the home's baselines: learn the recorder's history on start, then the live stream.

Start-up is never held up: the stored baselines load (one small file), and the recorder's
history of the watched entities and the persons (``CONF_HISTORY_DAYS``, default 14 days,
only what the stored baselines have not seen yet; all of it again when the recorder
holds history they never learned: an entity watched since, or older days after the option
was raised) is read in the background, 6 hours at a time in the recorder's own executor,
and learned in HA's executor into a copy. Live changes are learned from the watcher's
buffer (no second bus listener, nothing on the per-event path): in batches, before the
detectors read the baselines and every 15 minutes; while the history loads they simply
stay in the buffer. A home with no recorder (or 0 days) learns from its first hours.
``history_done`` is set once the history is read (or will not be): the coordinator holds
its analyses for it, a little while (its safety checks are never held).
Stored with ``Store``, bounded by the baselines' own caps; diagnostics show counts only.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterable
from datetime import datetime, timedelta
from typing import Any

from homeassistant.config_entries import ConfigEntry
from homeassistant.const import EVENT_STATE_CHANGED
from homeassistant.core import (
    CALLBACK_TYPE,
    Event,
    EventStateChangedData,
    HomeAssistant,
    callback,
)
from homeassistant.helpers.event import async_track_time_interval
from homeassistant.helpers.start import async_at_started
from homeassistant.util import dt as dt_util

from ..anomalies.open_anomaly import OpenAnomaly
from ..const import (
    CONF_HISTORY_DAYS,
    CONF_WEATHER_ENTITY,
    DEFAULT_HISTORY_DAYS,
    DOMAIN,
    LOGGER,
)
from ..core.baselines import HomeBaselines
from ..core.baselines.away_teaching import forget_away_false_alarm, teach_away_false_alarm
from ..core.baselines.clock import parse_time
from ..core.baselines.false_alarm_teaching import forget_false_alarm, teach_false_alarm
from ..core.baselines.learned_days_kept import count_ahead
from ..core.baselines.watch_gaps import unwatched_gap
from ..core.feedback import FalseAlarm
from ..core.models import EntityInfo
from ..live.context_builder import can_be_located, outdoor_celsius, pick_weather
from ..live.watcher import StateWatcher
from .baseline_store import baseline_store, history_read, stored_form
from .followed import entity_info_now, followed_ids, followed_infos, unlocated_persons
from .history_learning import async_history_unlearned, async_learn_rows, async_written

# Learns the recorded days ``[start, end)`` of the entities (and the weather's
# temperature) into the baselines given: the recorder's path, or a replay's own.
type LearnHistory = Callable[
    [HomeBaselines, datetime, datetime, list[str], str | None], Awaitable[None]
]
# How often the watcher's new transitions are learned and the quiet time accounted (at
# most: twice per window length, before the buffer forgets them).
TICK = timedelta(minutes=15)
SAVE_DELAY = 600  # seconds


class BaselineKeeper:
    """Owns one entry's ``HomeBaselines``: loading, learning, storing."""

    def __init__(self, hass: HomeAssistant, entry: ConfigEntry) -> None:
        self.hass = hass
        self.entry = entry
        # What it learns from (the coordinator's watcher), and whom it tells once the
        # recorder's history is learned: given when it starts (``async_start``).
        self.watcher: StateWatcher
        self.on_learned: Callable[[], None] | None = None
        self._started = False
        self.days = int(entry.options.get(CONF_HISTORY_DAYS, DEFAULT_HISTORY_DAYS))
        self.zone = dt_util.get_default_time_zone()
        self.baselines = HomeBaselines(self.zone)
        self.store = baseline_store(hass, entry.entry_id)
        self.history_status = "not_started"
        self.history_done = asyncio.Event()  # read, failed, or nothing to read
        self.history_rows = 0
        self.history_seconds: float | None = None
        self._loading = False
        # How many of the watcher's transitions have been learned, and from when on.
        self._recorded = 0
        self._learn_after: datetime | None = None
        self._save_scheduled = False
        self._unsubs: list[CALLBACK_TYPE] = []
        # Whose history the stored baselines learned, from when (None: nothing stored, or
        # stored before this was kept).
        self._history_entities: set[str] | None = None
        self._history_from: datetime | None = None
        self.history_rebuilt = False

    def current(self) -> HomeBaselines | None:
        """The baselines the detectors read (the getter given to ``CombinedDetector``)."""
        self._catch_up()
        return self.baselines

    async def async_start(self, watcher: StateWatcher, on_learned: Callable[[], None]) -> None:
        """Learn from ``watcher`` (started: what it recorded so far is not learned again);
        load what was stored, follow the live stream; the history loads once HA runs, and
        ``on_learned`` is called then (the coordinator analyses again)."""
        self.watcher, self.on_learned = watcher, on_learned
        self._recorded = watcher.recorded
        self._started = True
        stored = await self.store.async_load()
        self.baselines = HomeBaselines.from_dict(stored, self.zone)
        # Learning resumes now: a tracker's blink at this start is no departure.
        self.baselines.resumed = dt_util.utcnow()
        # Learned until HA stopped: nothing was watched from then until now.
        self.baselines.unwatched = unwatched_gap(self.baselines.learned_until, dt_util.utcnow())
        # What the learned days say, counted before the analyses (in the event loop) ask.
        await self.hass.async_add_executor_job(count_ahead, self.baselines)
        self._history_entities, self._history_from = history_read(stored, self.baselines)
        self.baselines.describe(self._infos())
        # Watched from now on (or since the stored baselines first saw them).
        self.baselines.watching(self._followed_ids(), dt_util.utcnow())
        # Persons (rare changes) are followed whether watched or not: who is home.
        self._unsubs.append(
            self.hass.bus.async_listen(
                EVENT_STATE_CHANGED, self._async_on_person, event_filter=self._is_person
            )
        )
        # Learn before the watcher's window forgets: at least twice per window length.
        tick = max(timedelta(minutes=1), min(TICK, self.watcher.buffer.window / 2))
        self._unsubs.append(async_track_time_interval(self.hass, self._async_tick, tick))
        self._unsubs.append(async_at_started(self.hass, self._async_hass_started))

    async def async_stop(self) -> None:
        """Stop following and write what was learned."""
        while self._unsubs:
            self._unsubs.pop()()
        if not self._loading:
            self._catch_up()
            self.baselines.advance(dt_util.utcnow())
        await self.store.async_save(self._stored_form())

    def summary(self) -> dict[str, Any]:
        """For diagnostics: counts and status only (no entity, area or state)."""
        return {
            **self.baselines.summary(),
            "history_days": self.days,
            "history_status": self.history_status,
            "history_rows": self.history_rows,
            "history_seconds": self.history_seconds,
            "history_rebuilt": self.history_rebuilt,
        }

    # --- the live stream -----------------------------------------------------------------

    @callback
    def _is_person(self, event_data: EventStateChangedData) -> bool:
        return event_data["entity_id"].startswith("person.")

    @callback
    def _async_on_person(self, event: Event[EventStateChangedData]) -> None:
        new_state = event.data["new_state"]
        if new_state is None or self._loading:
            return
        if not can_be_located(new_state):
            # Onboarding's owner without a tracker, ``unknown`` for ever: counted, the
            # home never reads empty, nor when the last one left (the leaving grace).
            self.baselines.unlocated(new_state.entity_id)
            return
        self._catch_up()  # what happened before, in order
        self.baselines.observe(new_state.last_updated, new_state.entity_id, new_state.state)

    @callback
    def _catch_up(self) -> None:
        """Learn the watcher's transitions recorded since the last call (a batch, in order)."""
        if not self._started:
            return  # nothing recorded to learn yet
        recorded = self.watcher.recorded
        if self._loading or recorded == self._recorded:
            return
        fresh = self.watcher.buffer.newest(recorded - self._recorded)
        self._recorded = recorded
        after, baselines, infos = self._learn_after, self.baselines, self.baselines.infos
        hidden = unlocated_persons(self.hass)  # watched, still never followed
        for transition in fresh:
            if after is not None and transition.when <= after:
                continue  # the recorder's history already taught it
            if transition.entity_id in hidden:
                continue
            if transition.entity_id not in infos:
                baselines.describe_one(self._info_of(transition.entity_id))
                baselines.watching((transition.entity_id,), transition.when)
            baselines.learn(transition)
        self._schedule_save()

    @callback
    def _async_tick(self, now: datetime) -> None:
        if not self._loading:
            self._catch_up()
            self.baselines.outdoor(self._outdoor_temperature(), now)
            self.baselines.advance(now)
            self._schedule_save()

    @callback
    def _outdoor_temperature(self) -> float | None:
        """The weather entity's temperature: its hours are learned, so a room cooling with a
        cold snap is told from a fault."""
        chosen = self._weather_entity()
        weather = self.hass.states.get(chosen) if chosen else None
        if weather is None:
            return None
        return outdoor_celsius(weather.attributes, self.hass.config.units.temperature_unit)

    @callback
    def _weather_entity(self) -> str | None:
        """The option's weather entity, else the first weather entity."""
        chosen = self.entry.options.get(CONF_WEATHER_ENTITY)
        if isinstance(chosen, str) and chosen:
            return chosen
        first = pick_weather(self.hass.states, None)
        return first.entity_id if first else None

    @callback
    def async_taught(self, anomaly: OpenAnomaly) -> None:
        """ "False alarm" on ``anomaly``: each habit rule that told it widens its device's
        learned normal (``core.baselines.false_alarm_teaching.teach_false_alarm``)."""
        taught = [
            teach_false_alarm(
                self.baselines, m.rule, tuple(m.evidence), m.magnitude, dt_util.utcnow()
            )
            for m in anomaly.members
        ]
        if (began := parse_time(anomaly.first_seen)) is not None:  # when it happened
            taught += [
                teach_away_false_alarm(
                    self.baselines, m.rule, tuple(m.evidence), tuple(m.context), began
                )
                for m in anomaly.members
            ]
        if any(taught):
            self._schedule_save()

    @callback
    def async_untaught(self, marks: Iterable[FalseAlarm]) -> None:
        """Those false alarms were removed: what they taught is forgotten."""
        forgotten = [forget_false_alarm(self.baselines, m.rule, m.evidence) for m in marks]
        forgotten += [forget_away_false_alarm(self.baselines, m.rule, m.evidence) for m in marks]
        if any(forgotten):
            self._schedule_save()

    def _schedule_save(self) -> None:
        """Write within SAVE_DELAY; a busy home must not postpone the write for ever."""
        if not self._save_scheduled:
            self._save_scheduled = True
            self.store.async_delay_save(self._data_to_save, SAVE_DELAY)

    @callback
    def _data_to_save(self) -> dict[str, Any]:
        self._save_scheduled = False
        return self._stored_form()

    def _stored_form(self) -> dict[str, Any]:
        return stored_form(self.baselines, self._history_entities, self._history_from)

    @callback
    def _seed_current_readings(self) -> None:
        """A sensor that reports only on change may not change for days: its state now is
        its first reading (sensors the history or the stream already gave are left alone)."""
        for entity_id in self.watcher.entity_ids:
            state = self.hass.states.get(entity_id)
            if state is not None:
                self.baselines.seed_reading(entity_id, state.state, state.last_changed)

    # --- entity descriptions --------------------------------------------------------------

    def _info_of(self, entity_id: str) -> EntityInfo:
        return entity_info_now(self.hass, self.watcher, entity_id)

    def _followed_ids(self) -> list[str]:
        return followed_ids(self.hass, self.watcher)

    def _infos(self) -> list[EntityInfo]:
        return followed_infos(self.hass, self.watcher)

    # --- the recorder's history -------------------------------------------------------------

    @callback
    def _async_hass_started(self, _: HomeAssistant) -> None:
        for person in unlocated_persons(self.hass):  # stored before it was left out
            self.baselines.unlocated(person)
        if self.days <= 0 or "recorder" not in self.hass.config.components:
            self.history_status = "disabled" if self.days <= 0 else "no_recorder"
            if self._history_entities is None:  # learned live from now on
                self._history_entities = set(self._followed_ids())
                self._history_from = dt_util.utcnow()
            self._seed_current_readings()
            self.history_done.set()
            return
        self._loading = True
        self.history_status = "loading"
        self.entry.async_create_background_task(
            self.hass, self._async_learn_history(), f"{DOMAIN} learn the recorder's history"
        )

    async def async_learn_history_from(self, learn: LearnHistory) -> None:
        """Learn the days before now from ``learn`` instead of the recorder, as on start
        (a history replay's later part: its recorder is the recorded file, not HA's)."""
        self._loading = True
        self.history_status = "loading"
        await self._async_learn_history(learn)

    async def _async_learn_history(self, learn: LearnHistory | None = None) -> None:
        started = dt_util.utcnow()
        end = started
        start = end - timedelta(days=self.days)
        self.baselines.describe(self._infos())
        entity_ids = self._followed_ids()
        weather = self._weather_entity()  # its temperature: read with its attributes
        # A copy learns in the executor; the detectors keep reading the current one.
        fresh = HomeBaselines.from_dict(self.baselines.as_dict(), self.zone)
        fresh.describe(self.baselines.infos.values())
        fresh.resumed = self.baselines.resumed
        read_from: datetime | None = start
        rebuild = False
        try:
            if learn is None:
                fresh, start, read_from, rebuild = await self._async_read_recorder(
                    fresh, start, end, entity_ids, weather
                )
            else:  # nothing stored is spared: the whole span is read
                await learn(fresh, start, end, entity_ids, weather)
        except Exception:
            LOGGER.exception("Reading the recorder's history failed; learning from now on")
            self.history_status = "failed"
            fresh = self.baselines  # what was stored still stands
        else:
            self.history_status = "loaded"
            self.history_rebuilt = rebuild
            self._history_entities = set(entity_ids)
            self._history_from = read_from
        fresh.watching(entity_ids, started)  # no history: watched since set-up
        fresh.unwatched = self.baselines.unwatched
        self.baselines = fresh
        self._loading = False
        # Live changes since the query's end are still in the watcher's buffer.
        self._learn_after = end
        self._recorded = self.watcher.recorded - len(self.watcher.buffer)
        self._catch_up()
        self._seed_current_readings()
        self.baselines.advance(dt_util.utcnow())
        self.history_seconds = round((dt_util.utcnow() - started).total_seconds(), 2)
        self._schedule_save()
        self.history_done.set()
        if self.on_learned is not None and self.history_status == "loaded":
            self.on_learned()

    async def _async_read_recorder(
        self,
        fresh: HomeBaselines,
        start: datetime,
        end: datetime,
        entity_ids: list[str],
        weather: str | None,
    ) -> tuple[HomeBaselines, datetime, datetime | None, bool]:
        """Learn the recorder's rows the stored baselines have not seen into ``fresh``
        (a new copy when they must start over): what learned, from when, whether rebuilt."""
        # Imported only when the recorder runs: it pulls in SQLAlchemy.
        from homeassistant.helpers.recorder import get_instance

        recorder = get_instance(self.hass)
        if not await recorder.async_db_ready:
            raise RuntimeError("the recorder's database is not ready")
        await async_written(self.hass)  # up to ``end``: the live stream takes over there
        learned = self.baselines.learned_until
        read_from: datetime | None = start
        if rebuild := await async_history_unlearned(
            self.hass,
            self.baselines,
            start,
            entity_ids,
            known=self._history_entities,
            since=self._history_from,
        ):
            # Learning is in time order: older history is learned by starting over.
            fresh = HomeBaselines(self.zone)
            fresh.describe(self.baselines.infos.values())
            fresh.resumed = self.baselines.resumed
        elif learned is not None and start < learned <= end:
            start = learned  # stored baselines have seen the rest
            read_from = self._history_from
        await async_learn_rows(
            self.hass, fresh, start, end, entity_ids, weather=weather, counted=self._counted
        )
        return fresh, start, read_from, rebuild

    def _counted(self, rows: int) -> None:
        self.history_rows += rows
