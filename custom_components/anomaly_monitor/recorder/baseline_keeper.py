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
Stored with ``Store``, bounded by the baselines' own caps; diagnostics show counts only.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from datetime import datetime, timedelta
from typing import Any

from homeassistant.config_entries import ConfigEntry
from homeassistant.const import EVENT_STATE_CHANGED
from homeassistant.core import (
    CALLBACK_TYPE,
    Event,
    EventStateChangedData,
    HomeAssistant,
    State,
    callback,
)
from homeassistant.helpers.event import async_track_time_interval
from homeassistant.helpers.start import async_at_started
from homeassistant.helpers.storage import Store
from homeassistant.util import dt as dt_util

from ..anomalies.open_anomaly import OpenAnomaly
from ..const import (
    CONF_HISTORY_DAYS,
    CONF_WEATHER_ENTITY,
    DEFAULT_HISTORY_DAYS,
    DOMAIN,
    LOGGER,
    STORAGE_VERSION,
)
from ..core.baselines import HomeBaselines
from ..core.baselines.clock import format_time, parse_time
from ..core.baselines.learned_days_kept import count_ahead
from ..core.baselines.usual_judge import forget_false_alarm, teach_false_alarm
from ..core.feedback import FalseAlarm
from ..core.models import EntityInfo
from ..live.context_builder import outdoor_celsius
from ..live.watcher import StateWatcher
from .rows import history_rows, learn_rows, row_time, weather_rows

# How often the watcher's new transitions are learned and the quiet time accounted (at
# most: twice per window length, before the buffer forgets them).
TICK = timedelta(minutes=15)
SAVE_DELAY = 600  # seconds
# The keeper's key in the stored baselines: whose history they learned, and from when.
HISTORY_READ = "history_read"
# One recorder query covers this much: bounds the rows held in memory at once (a busy
# home of 200 entities writes ~140,000 rows a day; 6 hours of them are ~10 MB).
CHUNK = timedelta(hours=6)
# History this much older than what was read is worth starting over for.
SLACK = timedelta(hours=1)


def baseline_store(hass: HomeAssistant, entry_id: str) -> Store[dict[str, Any]]:
    """The Store file of one entry's baselines."""
    return Store(hass, STORAGE_VERSION, f"{DOMAIN}.{entry_id}.baselines")


async def async_forget_baselines(hass: HomeAssistant, entry_id: str) -> None:
    """Delete what an entry learned (the entry is removed, or a replay starts a new home)."""
    await baseline_store(hass, entry_id).async_remove()


class BaselineKeeper:
    """Owns one entry's ``HomeBaselines``: loading, learning, storing."""

    def __init__(self, hass: HomeAssistant, entry: ConfigEntry, watcher: StateWatcher) -> None:
        self.hass = hass
        self.entry = entry
        self.watcher = watcher
        self.days = int(entry.options.get(CONF_HISTORY_DAYS, DEFAULT_HISTORY_DAYS))
        self.zone = dt_util.get_default_time_zone()
        self.baselines = HomeBaselines(self.zone)
        self.store = baseline_store(hass, entry.entry_id)
        self.history_status = "not_started"
        self.history_rows = 0
        self.history_seconds: float | None = None
        self._loading = False
        # How many of the watcher's transitions have been learned, and from when on.
        self._recorded = watcher.recorded
        self._learn_after: datetime | None = None
        self._save_scheduled = False
        self._unsubs: list[CALLBACK_TYPE] = []
        # Whose history the stored baselines learned, from when (None: nothing stored, or
        # stored before this was kept).
        self._history_entities: set[str] | None = None
        self._history_from: datetime | None = None
        self.history_rebuilt = False
        # Called once the recorder's history is learned (the coordinator analyses again).
        self.on_learned: Callable[[], None] | None = None

    def current(self) -> HomeBaselines | None:
        """The baselines the detectors read (the getter given to ``CombinedDetector``)."""
        self._catch_up()
        return self.baselines

    async def async_start(self) -> None:
        """Load what was stored, follow the live stream; the history loads once HA runs."""
        stored = await self.store.async_load()
        self.baselines = HomeBaselines.from_dict(stored, self.zone)
        # What the learned days say, counted before the analyses (in the event loop) ask.
        await self.hass.async_add_executor_job(count_ahead, self.baselines)
        read = stored.get(HISTORY_READ) if isinstance(stored, Mapping) else None
        if isinstance(read, Mapping) and self.baselines.learned_until is not None:
            if isinstance(ids := read.get("entities"), list):
                self._history_entities = {i for i in ids if isinstance(i, str)}
            self._history_from = parse_time(read.get("from"))
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
        self._catch_up()  # what happened before, in order
        self.baselines.observe(new_state.last_updated, new_state.entity_id, new_state.state)

    @callback
    def _catch_up(self) -> None:
        """Learn the watcher's transitions recorded since the last call (a batch, in order)."""
        recorded = self.watcher.recorded
        if self._loading or recorded == self._recorded:
            return
        fresh = self.watcher.buffer.newest(recorded - self._recorded)
        self._recorded = recorded
        after, baselines, infos = self._learn_after, self.baselines, self.baselines.infos
        for transition in fresh:
            if after is not None and transition.when <= after:
                continue  # the recorder's history already taught it
            if transition.entity_id not in infos:
                infos[transition.entity_id] = self._info_of(transition.entity_id)
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
        first = min(self.hass.states.async_all("weather"), key=_entity_id, default=None)
        return first.entity_id if first else None

    @callback
    @callback
    def async_taught(self, anomaly: OpenAnomaly) -> None:
        """ "False alarm" on ``anomaly``: each habit rule that told it widens its device's
        learned normal (``core.baselines.usual_judge.teach_false_alarm``)."""
        taught = [
            teach_false_alarm(
                self.baselines, m.rule, tuple(m.evidence), m.magnitude, dt_util.utcnow()
            )
            for m in anomaly.members
        ]
        if any(taught):
            self._schedule_save()

    @callback
    def async_untaught(self, marks: Iterable[FalseAlarm]) -> None:
        """Those false alarms were removed: what they taught is forgotten."""
        forgotten = [forget_false_alarm(self.baselines, m.rule, m.evidence) for m in marks]
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
        stored = self.baselines.as_dict()
        if self._history_entities is not None:
            stored[HISTORY_READ] = {
                "entities": sorted(self._history_entities),
                "from": format_time(self._history_from),
            }
        return stored

    @callback
    def _seed_current_readings(self) -> None:
        """A sensor that reports only on change may not change for days: its state now is
        its first reading (sensors the history or the stream already gave are left alone)."""
        for entity_id in self.watcher.entity_ids:
            state = self.hass.states.get(entity_id)
            if state is not None:
                self.baselines.seed_reading(entity_id, state.state, state.last_changed)

    # --- entity descriptions --------------------------------------------------------------

    def _info(self, entity_id: str, attributes: Mapping[str, Any]) -> EntityInfo:
        device_class = attributes.get("device_class")
        unit = attributes.get("unit_of_measurement")  # a power meter's W or kW
        return EntityInfo(
            entity_id=entity_id,
            name="",  # names are not needed to learn, and never stored
            area=self.watcher.areas.get(entity_id),
            device_class=device_class if isinstance(device_class, str) else None,
            unit=unit if isinstance(unit, str) else None,
            # HA's device: a floodlight's motion sensor and lamp are one (learned relations)
            device=self.watcher.devices.get(entity_id),
        )

    def _info_of(self, entity_id: str) -> EntityInfo:
        state = self.hass.states.get(entity_id)
        return self._info(entity_id, state.attributes if state else {})

    def _followed_ids(self) -> list[str]:
        persons = self.hass.states.async_entity_ids("person")
        return sorted(set(self.watcher.entity_ids) | set(persons))

    def _infos(self) -> list[EntityInfo]:
        """What each followed entity is, for those that have a state now.

        An entity without a state yet (its integration sets up after the monitor, or it is
        created later) is described when its first change is learned (``_catch_up``):
        described now, it would stay without its device class for good, and a room sensor
        or a power meter would never be profiled (seen in a live walk: 0 hour profiles).
        """
        infos = []
        for entity_id in self._followed_ids():
            state = self.hass.states.get(entity_id)
            if state is not None:
                infos.append(self._info(entity_id, state.attributes))
        return infos

    # --- the recorder's history -------------------------------------------------------------

    @callback
    def _async_hass_started(self, _: HomeAssistant) -> None:
        if self.days <= 0 or "recorder" not in self.hass.config.components:
            self.history_status = "disabled" if self.days <= 0 else "no_recorder"
            if self._history_entities is None:  # learned live from now on
                self._history_entities = set(self._followed_ids())
                self._history_from = dt_util.utcnow()
            self._seed_current_readings()
            return
        self._loading = True
        self.history_status = "loading"
        self.entry.async_create_background_task(
            self.hass, self._async_learn_history(), f"{DOMAIN} learn the recorder's history"
        )

    async def _async_learn_history(self) -> None:
        # Imported only when the recorder runs: it pulls in SQLAlchemy.
        from homeassistant.helpers.recorder import get_instance

        started = dt_util.utcnow()
        end = started
        start = end - timedelta(days=self.days)
        self.baselines.describe(self._infos())
        entity_ids = self._followed_ids()
        weather = self._weather_entity()  # its temperature: read with its attributes
        # A copy learns in the executor; the detectors keep reading the current one.
        fresh = HomeBaselines.from_dict(self.baselines.as_dict(), self.zone)
        fresh.infos = dict(self.baselines.infos)
        recorder = get_instance(self.hass)
        try:
            if not await recorder.async_db_ready:
                raise RuntimeError("the recorder's database is not ready")
            learned = self.baselines.learned_until
            read_from: datetime | None = start
            if rebuild := await self._async_history_unlearned(start, entity_ids):
                # Learning is in time order: older history is learned by starting over.
                fresh = HomeBaselines(self.zone)
                fresh.infos = dict(self.baselines.infos)
            elif learned is not None and start < learned <= end:
                start = learned  # stored baselines have seen the rest
                read_from = self._history_from
            chunk_start = start
            while chunk_start < end and entity_ids:
                chunk_end = min(end, chunk_start + CHUNK)
                rows = await recorder.async_add_executor_job(
                    history_rows, self.hass, chunk_start, chunk_end, entity_ids
                )
                if weather is not None:
                    rows += await recorder.async_add_executor_job(
                        weather_rows, self.hass, chunk_start, chunk_end, weather
                    )
                    rows.sort(key=row_time)
                self.history_rows += len(rows)
                await self.hass.async_add_executor_job(learn_rows, fresh, rows)
                chunk_start = chunk_end
            await self.hass.async_add_executor_job(count_ahead, fresh)
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
        if self.on_learned is not None and self.history_status == "loaded":
            self.on_learned()

    async def _async_history_unlearned(self, start: datetime, entity_ids: list[str]) -> bool:
        """Whether the recorder holds history of the window that the stored baselines never
        learned: an entity watched since (the homeowner added a plug) that has history
        before they stopped reading, or days further back than they began (the option
        raised). A new device without a past changes nothing."""
        learned, known, since = (
            self.baselines.learned_until,
            self._history_entities,
            self._history_from,
        )
        if learned is None or learned <= start:
            return False  # nothing stored of the window: it is read whole anyway
        if since is not None and await self._async_has_rows(start, since - SLACK, entity_ids):
            return True
        # Stored before this was kept: every entity is new, learned over once.
        new = [e for e in entity_ids if known is None or e not in known]
        return bool(new) and await self._async_has_rows(start, learned, new)

    async def _async_has_rows(self, start: datetime, end: datetime, entity_ids: list[str]) -> bool:
        """Whether the recorder has a change of ``entity_ids`` in ``[start, end)``: read a
        chunk at a time from the newest, so a busy home answers after one small query."""
        from homeassistant.helpers.recorder import get_instance

        recorder = get_instance(self.hass)
        while end > start:
            chunk_start = max(start, end - CHUNK)
            if await recorder.async_add_executor_job(
                history_rows, self.hass, chunk_start, end, entity_ids
            ):
                return True
            end = chunk_start
        return False


def _entity_id(state: State) -> str:
    return state.entity_id
