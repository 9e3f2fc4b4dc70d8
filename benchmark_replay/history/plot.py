"""The alarms-per-day plot: matplotlib when the venv has it, else a plain bar chart written
by a few lines of PNG (no text: the report's table carries the numbers)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
import struct
import zlib

WIDTH, HEIGHT, MARGIN = 800, 240, 10
BAR = (52, 101, 164)
AXIS = (80, 80, 80)


def write_plot(path: Path, per_day: Mapping[str, int]) -> str:
    """Write the plot; a sentence saying what was written (or why nothing was)."""
    if not per_day:
        return "no plot: the history has no day"
    try:
        import matplotlib

        matplotlib.use("Agg")
        from matplotlib import pyplot
    except ImportError:
        write_png_bars(path, list(per_day.values()))
        return (
            f"written {path.name} (matplotlib is not installed in this venv: a plain bar chart, "
            "one bar per day, no labels)"
        )
    figure, axes = pyplot.subplots(figsize=(8, 2.6), dpi=100)
    axes.bar(range(len(per_day)), list(per_day.values()), color="#3465a4")
    step = max(1, len(per_day) // 10)
    labels = list(per_day)
    axes.set_xticks(
        range(0, len(labels), step), [labels[i][5:] for i in range(0, len(labels), step)]
    )
    axes.set_ylabel("notifications")
    axes.set_title("Notifications per day")
    figure.tight_layout()
    figure.savefig(path)
    pyplot.close(figure)
    return f"written {path.name} (matplotlib)"


def write_png_bars(path: Path, values: list[int]) -> None:
    """A bar per value, scaled to the highest, on white (RGB PNG)."""
    top = max(values) or 1
    pixels = [[(255, 255, 255)] * WIDTH for _ in range(HEIGHT)]
    plot_w, plot_h = WIDTH - 2 * MARGIN, HEIGHT - 2 * MARGIN
    slot = plot_w / len(values)
    for index, value in enumerate(values):
        left = MARGIN + int(index * slot + slot * 0.15)
        right = max(left + 1, MARGIN + int((index + 1) * slot - slot * 0.15))
        height = int(plot_h * value / top)
        for y in range(HEIGHT - MARGIN - height, HEIGHT - MARGIN):
            for x in range(left, min(right, WIDTH - MARGIN)):
                pixels[y][x] = BAR
    for x in range(MARGIN, WIDTH - MARGIN):
        pixels[HEIGHT - MARGIN][x] = AXIS
    raw = b"".join(b"\x00" + bytes(c for px in row for c in px) for row in pixels)

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", WIDTH, HEIGHT, 8, 2, 0, 0, 0)
    path.write_bytes(
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw, 9))
        + chunk(b"IEND", b"")
    )
