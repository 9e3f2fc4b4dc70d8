"""Load SmartBench samples, keeping what a detector may see apart from the answers.

A SmartBench file mixes the model-visible input with the answers (``label``,
``reasoning``, ``evidence_devices``, ...) and with hints that leak them (``scenario``,
``description``, ``anomaly_*``, ``metadata``). The loader copies only the visible
fields into :class:`CISample` / :class:`CDSample`, which are all the replay ever hands
to Home Assistant or a detector; the answers go into a separate :class:`Answer` that
only scoring reads. Nothing else from the file is kept.

Layout (see ``/work/shared/datasets/README.md``)::

    context-independent/<anomaly_type>/<subtype>/{normal,anomaly}/*.json
    context-dependent/{argus_prime,tdcs_rbe}/{normal,anomaly}/<id>.json
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
import json
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal

SUBSET_CI = "ci"
SUBSET_CD_ARGUS = "cd-argus"
SUBSET_CD_TDCS = "cd-tdcs"
SUBSETS = (SUBSET_CI, SUBSET_CD_ARGUS, SUBSET_CD_TDCS)
_CD_FOLDERS = {SUBSET_CD_ARGUS: "argus_prime", SUBSET_CD_TDCS: "tdcs_rbe"}

# The only keys that may leave the loader, per kind of sample.
CI_VISIBLE_KEYS = frozenset({"environment_context", "device_states"})
CD_VISIBLE_KEYS = frozenset({"context", "events"})

Subset = Literal["ci", "cd-argus", "cd-tdcs"]


class SmartBenchError(ValueError):
    """A sample file that cannot be read as SmartBench; the message names the file."""


@dataclass(frozen=True, slots=True)
class CDEvent:
    """One event of a context-dependent trace, exactly as the file gives it."""

    timestamp: str
    device: str
    status: str


@dataclass(frozen=True, slots=True)
class CISample:
    """Model-visible part of a context-independent sample: a snapshot of one home."""

    key: str  # "<subset>/<id>", unique across the benchmark
    environment: Mapping[str, Any]
    device_states: Mapping[str, str]
    subset: Subset = "ci"

    @property
    def kind(self) -> Literal["ci"]:
        """Snapshot sample."""
        return "ci"


@dataclass(frozen=True, slots=True)
class CDSample:
    """Model-visible part of a context-dependent sample: a household and an event trace."""

    key: str
    subset: Subset
    context: Mapping[str, Any]
    events: tuple[CDEvent, ...]

    @property
    def kind(self) -> Literal["cd"]:
        """Sequence sample."""
        return "cd"


Sample = CISample | CDSample


@dataclass(frozen=True, slots=True)
class Answer:
    """What scoring needs and the detector must never see."""

    key: str
    subset: Subset
    is_anomaly: bool
    evidence: frozenset[str]
    anomaly_type: str  # for a normal sample: its anomalous twin's type (see group_types)
    subtype: str
    pair_id: str
    reasoning: str = field(repr=False)


@dataclass(frozen=True, slots=True)
class Record:
    """A sample and its answer, loaded together but handed out separately."""

    sample: Sample
    answer: Answer
    path: Path


@dataclass(slots=True)
class LoadResult:
    """Every record that loaded, and one clear message per file that did not."""

    records: list[Record] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


def load_smartbench(data_dir: str | Path, subsets: Iterable[str] = SUBSETS) -> LoadResult:
    """Load the chosen subsets from a SmartBench folder, in a stable (sorted) order.

    A malformed file is reported in ``errors`` and skipped; the others still load.
    Normal samples get their anomalous twin's type and subtype (by ``pair_id``) so
    per-type scores can show false positives too.
    """
    root = Path(data_dir)
    wanted = list(subsets)
    unknown = [s for s in wanted if s not in SUBSETS]
    if unknown:
        raise SmartBenchError(f"unknown subset(s) {unknown}; choose from {list(SUBSETS)}")
    if not root.is_dir():
        raise SmartBenchError(f"{root} is not a folder")
    result = LoadResult()
    for subset in SUBSETS:
        if subset not in wanted:
            continue
        if subset == SUBSET_CI:
            folder = root / "context-independent"
        else:
            folder = root / "context-dependent" / _CD_FOLDERS[subset]
        for path in sorted(folder.rglob("*.json")) if folder.is_dir() else []:
            try:
                result.records.append(load_file(path, subset))
            except SmartBenchError as err:
                result.errors.append(str(err))
    if not result.records and not result.errors:
        raise SmartBenchError(
            f"no SmartBench samples under {root} (expected context-independent/ or "
            "context-dependent/argus_prime|tdcs_rbe/)"
        )
    _give_normals_their_twin_type(result.records)
    return result


def load_file(path: Path, subset: str) -> Record:
    """Read one sample file of ``subset``; raise SmartBenchError naming the file."""
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
        raise SmartBenchError(f"{path}: cannot read JSON ({err})") from err
    if not isinstance(raw, dict):
        raise SmartBenchError(f"{path}: expected a JSON object")
    try:
        if subset == SUBSET_CI:
            return _ci_record(raw, path)
        return _cd_record(raw, path, subset)
    except (KeyError, TypeError, ValueError) as err:
        raise SmartBenchError(f"{path}: not a SmartBench {subset} sample ({err!r})") from err


def load_visible(path: Path, subset: str) -> Sample:
    """Only the model-visible part of one file: what a replay worker may hold."""
    return load_file(path, subset).sample


def _label(raw: Mapping[str, Any]) -> bool:
    label = str(raw["label"]).strip().lower()
    if label not in ("normal", "anomaly"):
        raise ValueError(f"label must be normal or anomaly, got {label!r}")
    return label == "anomaly"


def _ci_record(raw: Mapping[str, Any], path: Path) -> Record:
    states = raw["device_states"]
    env = raw["environment_context"]
    if not isinstance(states, dict) or not isinstance(env, dict):
        raise TypeError("device_states and environment_context must be objects")
    key = f"{SUBSET_CI}/{raw['id']}"
    sample = CISample(
        key=key,
        environment=MappingProxyType(dict(env)),
        device_states=MappingProxyType({str(k): str(v) for k, v in states.items()}),
    )
    info = raw.get("anomaly_info") or {}
    # The folder names the type for both twins (a normal sits in its twin's folder).
    parts = path.parts
    folder_type, folder_subtype = (parts[-4], parts[-3]) if len(parts) >= 4 else ("", "")
    answer = Answer(
        key=key,
        subset="ci",
        is_anomaly=_label(raw),
        evidence=frozenset(str(d) for d in raw.get("evidence_devices") or ()),
        anomaly_type=str(info.get("anomaly_type") or folder_type or "unknown"),
        subtype=str(info.get("anomaly_subtype") or folder_subtype or "unknown"),
        pair_id=str(raw.get("pair_id") or ""),
        reasoning=str(raw.get("reasoning") or ""),
    )
    return Record(sample, answer, path)


def _cd_record(raw: Mapping[str, Any], path: Path, subset: str) -> Record:
    events_raw = raw["events"]
    if not isinstance(events_raw, list):
        raise TypeError("events must be a list")
    events = tuple(
        CDEvent(timestamp=str(e["timestamp"]), device=str(e["device"]), status=str(e["status"]))
        for e in events_raw
    )
    if not events:
        raise ValueError("events is empty")
    context = raw.get("context") or {}
    if not isinstance(context, dict):
        raise TypeError("context must be an object")
    key = f"{subset}/{raw['id']}"
    cd_subset: Subset = "cd-argus" if subset == SUBSET_CD_ARGUS else "cd-tdcs"
    sample = CDSample(
        key=key, subset=cd_subset, context=MappingProxyType(dict(context)), events=events
    )
    is_anomaly = _label(raw)
    details = raw.get("anomaly_details") or []
    types = raw.get("anomaly_types") or []
    first = details[0] if details and isinstance(details[0], dict) else {}
    if cd_subset == "cd-argus":
        # argus has five precise subtypes under two broad types: score per subtype.
        kind = str(first.get("subtype") or (types[0] if types else "unknown"))
    else:
        kind = str(types[0]) if types else str(first.get("type") or "unknown")
    answer = Answer(
        key=key,
        subset=cd_subset,
        is_anomaly=is_anomaly,
        evidence=frozenset(str(d) for d in raw.get("evidence_devices") or ()),
        anomaly_type=kind if is_anomaly else "unknown",
        subtype=str(first.get("subtype") or kind) if is_anomaly else "unknown",
        pair_id=str(raw.get("pair_id") or ""),
        reasoning=str(raw.get("reasoning") or ""),
    )
    return Record(sample, answer, path)


def _give_normals_their_twin_type(records: list[Record]) -> None:
    """CD normals carry no type: borrow the anomalous twin's so FPR shows per type."""
    by_pair = {
        (r.answer.subset, r.answer.pair_id): r.answer
        for r in records
        if r.answer.is_anomaly and r.answer.pair_id
    }
    for index, record in enumerate(records):
        answer = record.answer
        if answer.is_anomaly or answer.anomaly_type != "unknown":
            continue
        twin = by_pair.get((answer.subset, answer.pair_id))
        if twin is None:
            continue
        records[index] = Record(
            record.sample,
            Answer(
                key=answer.key,
                subset=answer.subset,
                is_anomaly=False,
                evidence=answer.evidence,
                anomaly_type=twin.anomaly_type,
                subtype=twin.subtype,
                pair_id=answer.pair_id,
                reasoning=answer.reasoning,
            ),
            record.path,
        )
