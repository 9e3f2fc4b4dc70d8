"""Test a "pace of the home" reading of falls offline, on the plans of the scenario sets.

No Home Assistant and no detector: the seeded plan of each home (``build_plan``, what the
replay writes into HA) gives every state change, so a notion about counts of events can be
judged over all sets in about a minute instead of hours of replays.

The pace is the number of events (motion on, any change of a door, lock, light, switch,
media player, cover or fan; never numeric sensors) in the last ``--window`` minutes. A
home's learned low at an hour is the lowest pace of its earlier days within an hour of it,
counted while any tracker is home. The reading fires when the pace is below ``--fraction``
of that low, the low is at least ``--low-min``, no entity went unavailable in the last day,
and (``--alone``) exactly one tracker is home, (``--was-up``) the window before ran at
least at the learned low.

Two outputs:
- ``rows``: per fall, the pace after it (from its start to the window's end or its
  deadline) against this home's learned lows, with the trackers and who is truly up.
- ``sim``: every fall told before its deadline (``HIT``), and every other firing, with the
  incidents under way (``INC``) or none (``FP``) and who was really home.

Usage (from the repository):
    python scripts/pace_offline.py rows benchmark_replay/home/blind4[0-8]/*.yaml
    python scripts/pace_offline.py sim --window 90 --alone benchmark_replay/home/blind*/*.yaml
"""

from __future__ import annotations

import argparse
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
import sys

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmark_replay.home.effects import Change
from benchmark_replay.home.presence import PersonTimeline, household
from benchmark_replay.home.scenario import Scenario, load_scenario, within_minutes
from benchmark_replay.home.streams import Streams
from benchmark_replay.home.timeline import build_plan

EVENT_DOMAINS = {"binary_sensor", "light", "switch", "lock", "media_player", "cover", "fan"}
GONE = {"unavailable", "unknown"}
MOTION_CLASSES = {"motion", "occupancy", "presence"}
STEP = timedelta(minutes=15)


@dataclass
class Home:
    """One home's plan, read as events, trackers and the people's true timelines."""

    scenario: Scenario
    events: list[datetime]
    offline: list[datetime]
    trackers: dict[str, list[tuple[datetime, str]]]
    people: list[PersonTimeline]

    @property
    def name(self) -> str:
        path = self.scenario.path
        return f"{path.parent.name} {path.name[0]}"

    def pace(self, end: datetime, window: timedelta) -> int:
        return bisect_left(self.events, end) - bisect_left(self.events, end - window)

    def home_count(self, when: datetime) -> int:
        count = 0
        for changes in self.trackers.values():
            index = bisect_right([c[0] for c in changes], when) - 1
            count += changes[index][1] == "home"
        return count

    def tracked(self, start: datetime, end: datetime, *, alone: bool) -> bool:
        when = start
        while when <= end:
            count = self.home_count(when)
            if count == 0 or (alone and count != 1):
                return False
            when += timedelta(minutes=10)
        return True

    def truth(self, when: datetime) -> str:
        def state(person: PersonTimeline) -> str:
            if any(i.start <= when < i.end for i in person.awake_home):
                return "up"
            return "home" if any(i.start <= when < i.end for i in person.home) else "out"

        return ",".join(f"{p.person}:{state(p)}" for p in self.people)


def load(path: Path) -> Home:
    scenario = load_scenario(path)
    plan = build_plan(scenario)
    persons = scenario.data["home"]["persons"]
    trackers: dict[str, list[tuple[datetime, str]]] = {
        p.get("tracker") or f"device_tracker.{p['id']}_phone": [(scenario.start, "home")]
        for p in persons
    }
    motion = {
        e["entity_id"]
        for e in scenario.data["home"]["entities"]
        if e.get("device_class") in MOTION_CLASSES
    }
    events: list[datetime] = []
    offline: list[datetime] = []
    for step in plan.steps:
        if not isinstance(step, Change):
            continue
        if step.entity_id in trackers:
            trackers[step.entity_id].append((step.when, step.state))
            continue
        if step.entity_id.partition(".")[0] not in EVENT_DOMAINS:
            continue
        if step.state in GONE:
            offline.append(step.when)
        elif step.state != "off" or step.entity_id not in motion:
            events.append(step.when)
    people = household(scenario, Streams(scenario.data["seed"], scenario.tz))
    return Home(scenario, events, offline, trackers, people)


def learned_low(
    home: Home, end: datetime, window: timedelta, *, alone: bool
) -> tuple[int | None, int]:
    """The lowest pace of the earlier days within an hour of ``end``'s time of day."""
    lows = []
    for days in range(1, 60):
        for minutes in range(-60, 61, 15):
            then = end - timedelta(days=days) + timedelta(minutes=minutes)
            if then - window < home.scenario.start:
                continue
            if home.tracked(then - window, then, alone=alone):
                lows.append(home.pace(then, window))
    return (min(lows) if lows else None), len(lows)


def rows(homes: Sequence[Home], window: timedelta, *, alone: bool) -> None:
    for home in homes:
        zone = home.scenario.tz
        for incident in home.scenario.data["incidents"]:
            if incident["class"] != "fall":
                continue
            start = home.scenario.at(incident["at"])
            deadline = start + timedelta(minutes=within_minutes(incident))
            end = min(start + window + timedelta(minutes=5), deadline)
            low, samples = learned_low(home, end, window, alone=alone)
            print(
                f"{home.name} {incident['id'][:34]:34} {start.astimezone(zone):%a %H:%M} "
                f"pace={home.pace(end, window)} low={low} samples={samples} "
                f"trackers_home={home.home_count(start + timedelta(minutes=30))} "
                f"truth[{home.truth(start + timedelta(minutes=30))}]"
            )


def simulate(homes: Sequence[Home], args: argparse.Namespace) -> None:
    window = timedelta(minutes=args.window)
    for home in homes:
        scenario, zone = home.scenario, home.scenario.tz
        samples: list[tuple[datetime, int, int]] = []  # when, minute of the day, pace
        fires: list[tuple[datetime, int, int]] = []
        when = scenario.start + window
        while when < scenario.end:
            if home.tracked(when - window, when, alone=False):
                local = when.astimezone(zone)
                samples.append((when, local.hour * 60 + local.minute, home.pace(when, window)))
            when += STEP
        for when, minute, pace in samples:
            if (when - scenario.start).days < args.learn_days:
                continue
            if args.alone and not home.tracked(when - window, when, alone=True):
                continue
            if any(when - timedelta(days=1) <= gone <= when for gone in home.offline):
                continue
            learned = [
                p
                for t, m, p in samples
                if t.date() < when.date() and min(abs(m - minute), 1440 - abs(m - minute)) <= 60
            ]
            if len(learned) < 10 or min(learned) < args.low_min:
                continue
            if args.was_up and home.pace(when - window, window) < min(learned):
                continue  # the window before was not at this home's pace: nobody was up
            if pace < args.fraction * min(learned):
                fires.append((when, pace, min(learned)))
        for incident in scenario.data["incidents"]:
            if incident["class"] != "fall":
                continue
            start = scenario.at(incident["at"])
            deadline = start + timedelta(minutes=within_minutes(incident))
            hit = next((f for f in fires if start <= f[0] <= deadline), None)
            told = f"HIT {hit[0].astimezone(zone):%H:%M} pace={hit[1]} low={hit[2]}" if hit else ""
            print(f"FALL {home.name} {incident['id'][:34]:34} {told or 'miss'}")
        last: datetime | None = None
        for when, pace, low in fires:
            if last is not None and when - last <= timedelta(hours=2):
                last = when
                continue
            last = when
            under_way = [
                f"{i['id']}:{i['class']}"
                for i in scenario.data["incidents"]
                if scenario.at(i["at"]) - timedelta(minutes=30)
                <= when
                <= scenario.at(i["at"])
                + timedelta(minutes=max(i.get("duration", 60), within_minutes(i)) + 15)
            ]
            print(
                f"{'INC' if under_way else 'FP'} {home.name} {when.astimezone(zone):%a %d %H:%M} "
                f"pace={pace} low={low} {under_way} truth[{home.truth(when)}]"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("mode", choices=("rows", "sim"))
    parser.add_argument("paths", nargs="+", type=Path)
    parser.add_argument("--window", type=int, default=90, help="minutes")
    parser.add_argument("--fraction", type=float, default=0.34)
    parser.add_argument("--low-min", type=int, default=6)
    parser.add_argument("--learn-days", type=int, default=7)
    parser.add_argument("--alone", action="store_true", help="judge only a lone tracked person")
    parser.add_argument(
        "--was-up", action="store_true", help="the window before ran at least at the learned low"
    )
    args = parser.parse_args()
    homes = [load(path) for path in args.paths]
    if args.mode == "rows":
        rows(homes, timedelta(minutes=args.window), alone=args.alone)
    else:
        simulate(homes, args)


if __name__ == "__main__":
    main()
