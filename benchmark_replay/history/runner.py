"""Run a recorded history through a real, in-process Home Assistant with the monitor.

The lived-in home benchmark's machinery (``home/``): each HA instance lives on a
:class:`SimLoop` with the wall clocks frozen and moved by :class:`SimClock`; the monitor's
timers fire at their own simulated moment between two recorded rows. Where HA restarted
(the recorder's runs, or the context's ``restarts``) the instance stops cleanly and a new
one starts on the same config folder, so the monitor keeps what it learned and what it
had open, as it would have. What the homeowner would have seen is recorded by the home
benchmark's :class:`Observer` (notifications, events, repair issues).

The rows are streamed: nothing but the newest state of each entity is kept.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
import logging
from pathlib import Path
import random
import shutil
import tempfile
import time
from typing import Any

from homeassistant.core import HomeAssistant
from homeassistant.helpers import area_registry as ar, entity_registry as er
from homeassistant.helpers.storage import Store

from custom_components.anomaly_monitor.const import (
    CONF_HISTORY_DAYS,
    DEFAULT_HISTORY_DAYS,
    DOMAIN,
)

from ..ha_runner import RAM_DIR, async_create_hass
from ..home.observer import Observations, Observer
from ..home.sim_clock import SimClock, SimLoop, advance_to, idle, settle
from ..monitor_entry import async_start_monitor
from ..progress import Progress
from ..wall_clock import wall_clock
from .home_context import HomeContext
from .plain_datetimes import plain_datetimes
from .records import HistorySource, Record
from .seeding import RecordedLearning, StatesAt, learning_start, states_before

PLATFORM = "history_replay"  # registry platform of the replayed entities
# Quiet after the last row, so a debounced analysis or a confirmation still runs.
TAIL = timedelta(minutes=1)
# The exposure a homeowner set in Assist: copied into the replay's config folder.
EXPOSURE_STORE = "homeassistant.exposed_entities"
# The replay's monitor: its entities (sensor.history_replay_...) never clash with the
# recorded home's own monitor entities, which are replayed as plain states.
ENTRY_TITLE = "History replay"
REPLAY_SEED = 26
# A delayed Store write waits this long in a replay: HA's final write at each stop saves
# what the monitor keeps (nothing reads the files in between), so the hundreds of writes
# a day (the tracker's 5 s after each change, the baselines' every 10 min) cost nothing.
HELD_WRITE = 10 * 365 * 86400.0


@dataclass(slots=True)
class HistoryRecord:
    """What a replay produced."""

    seen: Observations = field(default_factory=Observations)
    first: datetime | None = None
    last: datetime | None = None
    rows: int = 0
    skipped_own: int = 0  # rows of the monitor's own entities (the replay makes its own)
    entities: set[str] = field(default_factory=set)
    restarts: list[datetime] = field(default_factory=list)
    wall_s: float = 0.0
    cpu_s: float = 0.0  # this process's CPU while it replayed
    timer_steps: int = 0
    # Per part of a parallel replay (``--jobs``): rows, wall and CPU seconds, in time order.
    parts: list[dict[str, float]] = field(default_factory=list)
    error: str | None = None


class HistoryRun:
    """One replay of one history; not re-entrant."""

    def __init__(
        self,
        source: HistorySource,
        context: HomeContext,
        options: Mapping[str, Any],
        *,
        start: datetime | None = None,
        end: datetime | None = None,
        config_dir: Path | None = None,
        progress: bool = True,
        seeded: bool = False,
    ) -> None:
        """``seeded``: a monitor set up at ``start``, the states and learned days of the
        rows before it as HA and its recorder would have had them (a later part of a
        parallel replay), rather than one set up at the first row."""
        self.source = source
        self.context = context
        self.options = dict(options)
        self.start, self.end = start, end
        self.config_dir = config_dir
        self.record = HistoryRecord()
        self.current: dict[str, tuple[str, Mapping[str, Any]]] = {}
        self._registered: set[str] = set()
        self._own: set[str] = set()
        self._area_ids: dict[str, str] = {}
        self._progress = Progress(source.count(start, end) or 0, enabled=progress)
        self._rows: Iterator[Record] | None = None
        self._pending: Record | None = None
        self._restarts: list[datetime] = []
        self.clock: SimClock | None = None
        self.seeded = seeded and start is not None
        self._seed: StatesAt | None = None

    def run(self) -> HistoryRecord:
        """Replay everything (blocking); an error ends the run and is recorded."""
        started, cpu = wall_clock(), time.process_time()
        # HA staggers each coordinator's refreshes by a random fraction of a second: seeded,
        # the same history gives the same analysis moments, hence the same report, each run.
        random.seed(REPLAY_SEED)
        quiet = logging.getLogger("homeassistant")
        level = quiet.level
        quiet.setLevel(logging.ERROR)  # weeks of a home would flood the log
        self._rows = self.source.records(self.start, self.end)
        self._pending = next(self._rows, None)
        if self._pending is None:
            self.record.error = "no rows in the chosen range"
            return self.record
        self._restarts = self.source.restarts(self.start, self.end)
        if self.seeded:
            assert self.start is not None
            days = int(self.options.get(CONF_HISTORY_DAYS, DEFAULT_HISTORY_DAYS))
            self._seed = states_before(
                self.source, self.start, learning_start(self._pending.when, days)
            )
        self.clock = SimClock(self._pending.when)
        self.clock.start()
        delay_save = Store.async_delay_save
        Store.async_delay_save = _held_until_stop(delay_save)  # type: ignore[method-assign]
        try:
            with (
                plain_datetimes(),
                tempfile.TemporaryDirectory(prefix="history-", dir=RAM_DIR) as config_dir,
            ):
                self._copy_exposure(Path(config_dir))
                first = True
                while self._pending is not None:
                    with asyncio.Runner(loop_factory=SimLoop) as runner:
                        self.clock.attach(runner.get_loop())  # type: ignore[arg-type]
                        runner.run(self._segment(config_dir, first))
                    first = False
        except Exception as err:
            logging.getLogger(__name__).exception("history replay failed")
            self.record.error = f"{type(err).__name__}: {err}"
        finally:
            Store.async_delay_save = delay_save  # type: ignore[method-assign]
            self.clock.stop()
            self._progress.close()
            quiet.setLevel(level)
        self.record.wall_s = wall_clock() - started
        self.record.cpu_s = time.process_time() - cpu
        return self.record

    def _copy_exposure(self, config_dir: Path) -> None:
        if self.config_dir is None:
            return
        exposure = self.config_dir / ".storage" / EXPOSURE_STORE
        if exposure.is_file():
            (config_dir / ".storage").mkdir(exist_ok=True)
            shutil.copyfile(exposure, config_dir / ".storage" / EXPOSURE_STORE)

    def _next_restart(self, after: datetime) -> datetime | None:
        return next((t for t in self._restarts if t > after), None)

    async def _segment(self, config_dir: str, first: bool) -> None:
        """One HA instance, from now until the next restart or the end of the history."""
        assert self.clock is not None
        assert self._pending is not None
        ctx = self.context
        hass = await async_create_hass(
            config_dir,
            latitude=ctx.latitude if ctx.latitude is not None else 52.37,
            longitude=ctx.longitude if ctx.longitude is not None else 4.89,
            time_zone=ctx.timezone or "UTC",
            load_entries=True,
            setup=False,
        )
        observer = Observer(hass, self.record.seen)
        try:
            now = self._pending.when if first else self.clock.now
            if first and self._seed is not None:
                for record in self._seed.cut.values():  # what HA had at the cut
                    self._apply(hass, record, counted=False)
            elif first:
                # The states HA had when the monitor started: every row of the first moment.
                while self._pending is not None and self._pending.when == now:
                    self._apply(hass, self._pending)
                    self._pending = next(self._rows, None)  # type: ignore[arg-type]
            else:
                self.record.restarts.append(now)
                for entity_id, (state, attributes) in self.current.items():
                    self._write(hass, entity_id, state, attributes)  # restored by HA
            observer.async_start()
            await async_start_monitor(hass, self.options, title=ENTRY_TITLE)
            await settle(hass)
            _judge_in_loop(hass)
            if first and self._seed is not None:
                await self._learn_seed(hass)
            self._own |= {
                e.entity_id for e in er.async_get(hass).entities.values() if e.platform == DOMAIN
            }
            restart = self._next_restart(now)
            while self._pending is not None:
                record = self._pending
                if restart is not None and record.when >= restart:
                    self.clock.set(restart)  # HA was down until then: no timer fired
                    return
                self.record.timer_steps += await advance_to(hass, self.clock, record.when)
                count = 0
                # Rows written at the same moment land together, as a device burst does.
                while self._pending is not None and self._pending.when == record.when:
                    self._apply(hass, self._pending)
                    self._pending = next(self._rows, None)  # type: ignore[arg-type]
                    count += 1
                self._progress.advance(count)
                if not idle(hass):  # most rows start nothing the bus did not finish
                    await settle(hass)
            self.record.timer_steps += await advance_to(hass, self.clock, self.clock.now + TAIL)
        finally:
            observer.async_stop()
            await hass.async_stop()

    async def _learn_seed(self, hass: HomeAssistant) -> None:
        """The learned days a monitor set up now would read from the recorder."""
        assert self._seed is not None
        learning = RecordedLearning(hass, self.source, self._seed.learning_start)
        for entry in hass.config_entries.async_loaded_entries(DOMAIN):
            await entry.runtime_data.baselines.async_learn_history_from(learning)
        await settle(hass)

    def _is_own(self, entity_id: str) -> bool:
        """The recorded home's monitor entities: the replay's own monitor makes them anew."""
        if entity_id in self._own:
            return True
        ctx = self.context.entities.get(entity_id)
        return ctx is not None and ctx.platform == DOMAIN

    def _apply(self, hass: HomeAssistant, record: Record, *, counted: bool = True) -> None:
        if counted:
            self.record.rows += 1
            self.record.first = self.record.first or record.when
            self.record.last = record.when
        if self._is_own(record.entity_id):
            self.record.skipped_own += counted
            return
        self.record.entities.add(record.entity_id)
        attributes = record.attributes
        if attributes is None:  # a CSV row: the context's name, class and unit
            attributes = self._context_attributes(record.entity_id)
        self.current[record.entity_id] = (record.state, attributes)
        self._register(hass, record.entity_id)
        self._write(hass, record.entity_id, record.state, attributes, record.when)

    def _context_attributes(self, entity_id: str) -> dict[str, Any]:
        ctx = self.context.entities.get(entity_id)
        if ctx is None:
            return {}
        attributes: dict[str, Any] = {}
        if ctx.name:
            attributes["friendly_name"] = ctx.name
        if ctx.device_class:
            attributes["device_class"] = ctx.device_class
        if ctx.unit:
            attributes["unit_of_measurement"] = ctx.unit
        return attributes

    def _write(
        self,
        hass: HomeAssistant,
        entity_id: str,
        state: str,
        attributes: Mapping[str, Any],
        when: datetime | None = None,
    ) -> None:
        assert self.clock is not None
        stamp = (when or self.clock.now).timestamp()
        hass.states.async_set(entity_id, state, dict(attributes), timestamp=stamp)

    def _register(self, hass: HomeAssistant, entity_id: str) -> None:
        """A registry entry with the context's name, area and class (once per instance:
        the registry is stored in the config folder and read back at a restart)."""
        if entity_id in self._registered:
            return
        self._registered.add(entity_id)
        registry = er.async_get(hass)
        if registry.async_get(entity_id) is not None:
            return
        ctx = self.context.entities.get(entity_id)
        domain, _, object_id = entity_id.partition(".")
        entry = registry.async_get_or_create(
            domain,
            PLATFORM,
            entity_id,
            suggested_object_id=object_id,
            original_device_class=ctx.device_class if ctx else None,
            original_name=ctx.name if ctx else None,
            unit_of_measurement=ctx.unit if ctx else None,
        )
        if entry.entity_id != entity_id:
            raise RuntimeError(f"registry gave {entry.entity_id} for {entity_id}")
        if ctx is not None and ctx.area:
            if ctx.area not in self._area_ids:
                areas = ar.async_get(hass)
                area = areas.async_get_area_by_name(ctx.area) or areas.async_create(ctx.area)
                self._area_ids[ctx.area] = area.id
            registry.async_update_entity(entity_id, area_id=self._area_ids[ctx.area])


def _held_until_stop(delay_save: Callable[..., None]) -> Callable[..., None]:
    """``Store.async_delay_save`` with every write held for HA's final write."""

    def held(store: Store[Any], data_func: Callable[[], Any], delay: float = 0) -> None:
        delay_save(store, data_func, HELD_WRITE)

    return held


def _judge_in_loop(hass: HomeAssistant) -> None:
    """The rules' statistics in the (simulated) loop rather than HA's executor: the replay
    waits for every analysis anyway, and a thread hand-off per analysis cost most of the
    wall time (the verdicts are the same, only where they are computed moves)."""
    for entry in hass.config_entries.async_loaded_entries(DOMAIN):
        fallback = getattr(entry.runtime_data.coordinator, "fallback", None)
        if fallback is not None and hasattr(fallback, "offload"):
            fallback.offload = None
