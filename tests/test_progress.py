"""The replays' progress bar: one line, whether the total is known or not."""

from __future__ import annotations

import io

from benchmark_replay.progress import Progress


def test_a_known_total_fills_the_bar_and_ends_its_line() -> None:
    out = io.StringIO()
    bar = Progress(4, stream=out)
    for _ in range(4):
        bar.advance()
    bar.close()
    text = out.getvalue()
    assert text.endswith("\n")
    assert text.count("\n") == 1
    assert "4/4 100.0%" in text.rsplit("\r", 1)[-1]


def test_an_unknown_total_counts_on_one_line() -> None:
    """A History CSV's rows are not counted before the replay: no bar, no share, no eta
    (it read "1/0 100.0% eta -3s", one line for every row)."""
    out = io.StringIO()
    bar = Progress(0, stream=out)
    for _ in range(500):
        bar.advance(3)
    bar.close()
    text = out.getvalue()
    assert text.count("\n") == 1
    assert text.endswith("\n")
    last = text.rstrip("\n").rsplit("\r", 1)[-1]
    assert last.startswith("1500 done")
    assert "%" not in text
    assert "eta" not in text


def test_nothing_is_drawn_when_disabled() -> None:
    out = io.StringIO()
    bar = Progress(0, stream=out, enabled=False)
    bar.advance(10)
    bar.close()
    assert out.getvalue() == ""
