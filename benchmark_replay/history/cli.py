"""``python -m benchmark_replay history --db PATH | --csv PATH [--config DIR] [--from DATE
--to DATE] [--option KEY=JSON] --out DIR``: what the monitor would have told about a
recorded history."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from datetime import datetime, time
from pathlib import Path
import sys
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from ..monitor_options import parse_option_items
from .home_context import HomeContext, from_config_dir, from_yaml, yaml_beside
from .records import HistoryError, HistorySource


def build_parser() -> argparse.ArgumentParser:
    """The command line."""
    parser = argparse.ArgumentParser(
        prog="python -m benchmark_replay history",
        description="Replay a home's recorded history through the monitor in a real Home "
        "Assistant and report every notification it would have sent.",
    )
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--db", type=Path, help="the recorder database (home-assistant_v2.db)")
    source.add_argument("--csv", type=Path, help="the History panel's 'Download data' CSV")
    parser.add_argument("--config", type=Path, help="HA's config folder (its .storage registries)")
    parser.add_argument("--from", dest="start", help="first day (YYYY-MM-DD or ISO time)")
    parser.add_argument("--to", dest="end", help="last day, included (YYYY-MM-DD or ISO time)")
    parser.add_argument("--timezone", help="the home's time zone (default: the config's, else UTC)")
    parser.add_argument("--out", type=Path, required=True, help="report folder")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    parser.add_argument(
        "--jobs",
        type=int,
        default=1,
        help="replay in this many parts by time, side by side (each later part is a "
        "monitor set up at its cut: the hours after a cut may differ)",
    )
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=JSON",
        help="a monitor option (default: every option at its default)",
    )
    return parser


def parse_moment(text: str | None, zone: ZoneInfo, end: bool) -> datetime | None:
    """A day (its start; ``end``: the next day's start, so the day is included) or a time."""
    if text is None:
        return None
    try:
        parsed = datetime.fromisoformat(text)
    except ValueError as err:
        raise HistoryError(f"{text!r} is not a date (YYYY-MM-DD) or an ISO time") from err
    if len(text) <= 10:  # a day
        day = parsed.date()
        if end:
            day = day.fromordinal(day.toordinal() + 1)
        parsed = datetime.combine(day, time(), zone)
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=zone)


def open_history(args: argparse.Namespace) -> tuple[HistorySource, HomeContext]:
    """The source and its context (registries, else attributes, else the YAML)."""
    from .history_csv import HistoryCsv
    from .recorder_db import RecorderDatabase

    context = from_config_dir(args.config) if args.config else None
    source: HistorySource
    if args.db is not None:
        source = RecorderDatabase(args.db)
        context = context or HomeContext()
        context.add_attributes(source.entity_attributes())
    else:
        beside = yaml_beside(args.csv)
        yaml_context = from_yaml(beside) if beside else HomeContext()
        context = context or yaml_context
        source = HistoryCsv(args.csv, restart_times=yaml_context.restarts)
    return source, context


def main(argv: Sequence[str] | None = None) -> int:
    """Read, replay, report."""
    args = build_parser().parse_args(argv)
    options = parse_option_items(args.option)
    try:
        source, context = open_history(args)
        zone_name = args.timezone or context.timezone or "UTC"
        try:
            zone = ZoneInfo(zone_name)
        except (ZoneInfoNotFoundError, ValueError) as err:
            raise HistoryError(f"unknown time zone {zone_name!r}") from err
        context.timezone = zone_name
        start = parse_moment(args.start, zone, end=False)
        end = parse_moment(args.end, zone, end=True)
    except HistoryError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    from ..home.cli import _commit
    from .report import summarise, write
    from .runner import HistoryRun

    if args.jobs > 1:
        from .parallel import SourceFile, run_parts

        restarts = () if args.db else tuple(source.restarts(None, None))
        file = SourceFile(args.db or args.csv, csv=args.db is None, restarts=restarts)
        try:
            record = run_parts(
                file, source, context, options,
                start=start, end=end, config_dir=args.config, jobs=args.jobs,
            )  # fmt: skip
        except HistoryError as err:
            print(f"error: {err}", file=sys.stderr)
            return 2
    else:
        record = HistoryRun(
            source,
            context,
            options,
            start=start,
            end=end,
            config_dir=args.config,
            progress=not args.no_progress and sys.stderr.isatty(),
        ).run()
    header = {
        "command": "python -m benchmark_replay history "
        + " ".join(sys.argv[2:] if argv is None else argv),
        "commit": _commit(),
        "source": str(args.db or args.csv),
        "context": ", ".join(context.sources) or "none",
        "time zone": zone_name,
        "options": options or "defaults",
        "parts": args.jobs,
    }
    document = summarise(record, zone, header, source.stats.as_dict())
    print(write(args.out, document))
    if record.error:
        print(f"error: {record.error}", file=sys.stderr)
        return 1
    return 0
