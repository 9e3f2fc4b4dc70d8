"""Write a run's results: per-sample JSONL, metrics JSON, a Markdown summary and PNG plots."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
import json
from pathlib import Path
from typing import Any

from .scoring import Metrics, Report, SampleScore


def _pct(value: float | None) -> str:
    return "–" if value is None else f"{value:.3f}"


def metrics_row(name: str, m: Metrics) -> str:
    """One Markdown table row."""
    return (
        f"| {name} | {m.n} | {_pct(m.accuracy)} | {_pct(m.precision)} | {_pct(m.recall)} | "
        f"{_pct(m.f1)} | {_pct(m.fpr)} | {_pct(m.al)} | {m.raw_tokens:.0f} → {m.tokens:.0f} | "
        f"{m.seconds * 1000:.1f} | {m.errors} |"
    )


TABLE_HEAD = (
    "| group | n | accuracy | precision | recall | F1 | FPR | AL | tokens raw → compressed "
    "| ms/sample | errors |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
)


def summary_markdown(report: Report, header: Mapping[str, Any]) -> str:
    """The run's summary: configuration, per-subset table, per-type table."""
    lines = ["# SmartBench replay", ""]
    for key, value in header.items():
        lines.append(f"- **{key}**: {value}")
    lines += ["", "## Per subset", "", TABLE_HEAD, metrics_row("all", report.overall)]
    lines += [metrics_row(name, m) for name, m in report.subsets.items()]
    lines += ["", "## Per anomaly type", "", TABLE_HEAD]
    lines += [metrics_row(f"{subset} / {kind}", m) for (subset, kind), m in report.types.items()]
    lines.append("")
    if has_ac(report):
        lines += ac_markdown(report)
    return "\n".join(lines)


AC_HEAD = (
    "| group | anomalous | rated | AC | AC ≥ 4 | AC of flagged | judge errors |\n"
    "|---|---:|---:|---:|---:|---:|---:|"
)


def has_ac(report: Report) -> bool:
    """Whether the run was judged (some anomalous sample has a rating or a judge error)."""
    return any(m.ac_n or m.ac_errors for m in (report.overall, *report.subsets.values()))


def ac_row(name: str, m: Metrics) -> str:
    """One row of the AC table."""
    anomalous = m.tp + m.fn
    return (
        f"| {name} | {anomalous} | {m.ac_n} | {_pct(m.ac)} | {_pct(m.ac_valid)} | "
        f"{_pct(m.ac_detected)} | {m.ac_errors} |"
    )


def ac_markdown(report: Report) -> list[str]:
    """The AC section: per subset, then per anomaly type."""
    lines = [
        "## AC score (LLM judge of the reasoning)",
        "",
        "AC: mean 1–5 rating over anomalous samples (a missed anomaly is rated 1); "
        "AC ≥ 4: share of valid attributions; AC of flagged: mean over the anomalies the "
        "detector flagged; judge errors: flagged anomalies left unrated (not in the means).",
        "",
        AC_HEAD,
        ac_row("all", report.overall),
    ]
    lines += [ac_row(name, m) for name, m in report.subsets.items()]
    lines += [
        ac_row(f"{subset} / {kind}", m) for (subset, kind), m in report.types.items() if m.tp + m.fn
    ]
    lines.append("")
    return lines


def write_samples(path: Path, rows: Sequence[Mapping[str, Any]]) -> None:
    """One JSON object per line, in key order."""
    with path.open("w", encoding="utf-8") as handle:
        for row in rows:
            handle.write(json.dumps(row, ensure_ascii=False, sort_keys=True) + "\n")


def write_plots(folder: Path, report: Report, scores: Sequence[SampleScore]) -> list[Path]:
    """Per-type F1 bars and a confusion matrix per subset; returns the files written."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    written: list[Path] = []
    types = list(report.types.items())
    if types:
        height = max(3.0, 0.28 * len(types) + 1.0)
        fig, ax = plt.subplots(figsize=(9, height))
        labels = [f"{subset} / {kind}" for (subset, kind), _ in types]
        values = [m.f1 for _, m in types]
        colours = [
            {"ci": "#4C72B0", "cd-argus": "#DD8452", "cd-tdcs": "#55A868"}.get(s, "#888888")
            for (s, _), _ in types
        ]
        ax.barh(range(len(types)), values, color=colours)
        ax.set_yticks(range(len(types)), labels, fontsize=7)
        ax.invert_yaxis()
        ax.set_xlim(0, 1)
        ax.set_xlabel("F1 (anomaly = positive)")
        ax.set_title("F1 per anomaly type (normals scored with their twin's type)")
        fig.tight_layout()
        path = folder / "f1_by_type.png"
        fig.savefig(path, dpi=110)
        plt.close(fig)
        written.append(path)

    subsets = sorted({s.subset for s in scores})
    if subsets:
        fig, axes = plt.subplots(1, len(subsets), figsize=(3.6 * len(subsets), 3.4), squeeze=False)
        for ax, subset in zip(axes[0], subsets, strict=True):
            m = report.types and _subset_metrics(report, subset)
            if not m:
                continue
            grid = [[m.tn, m.fp], [m.fn, m.tp]]
            ax.imshow(grid, cmap="Blues")
            for row in range(2):
                for col in range(2):
                    ax.text(col, row, str(grid[row][col]), ha="center", va="center")
            ax.set_xticks([0, 1], ["normal", "anomaly"])
            ax.set_yticks([0, 1], ["normal", "anomaly"])
            ax.set_xlabel("predicted")
            ax.set_ylabel("truth")
            ax.set_title(subset)
        fig.tight_layout()
        path = folder / "confusion.png"
        fig.savefig(path, dpi=110)
        plt.close(fig)
        written.append(path)
    return written


def _subset_metrics(report: Report, subset: str) -> Metrics | None:
    return report.subsets.get(subset)
