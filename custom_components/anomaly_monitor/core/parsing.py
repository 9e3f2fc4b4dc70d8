"""Turn an LLM's reply into a Verdict, tolerating what small models and servers do.

Accepted: code fences, prose around the JSON, single quotes and trailing commas, any
case of keys and labels, a few key synonyms, evidence as a list or a comma-separated
string, and near-miss entity names (mapped back to a window id, or dropped).
Nothing here raises: a reply with no usable answer is a ``ParsedReply`` without a
verdict, which keeps the raw text and says why.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
import difflib
import json
import re
from typing import Any
import warnings

from .models import ContextWindow, Finding, Label, Severity, Verdict, clip

# Raw replies are kept for diagnostics, but not without bound.
MAX_RAW_LENGTH = 4000
MAX_EVIDENCE = 10
FUZZY_CUTOFF = 0.85
LLM_RULE = "llm"  # Finding.rule of LLM findings; their signature is "llm:<ids>"

_LABEL_KEYS = ("label", "verdict", "status", "result", "classification", "is_anomaly", "anomaly")
_EVIDENCE_KEYS = ("evidence", "evidence_devices", "evidence_entities", "entities", "devices")
_REASONING_KEYS = ("reasoning", "reason", "explanation", "rationale")
_TYPE_KEYS = ("anomaly_type", "type", "category")
_SEVERITY_KEYS = ("severity", "level", "priority")
_RECOMMENDATION_KEYS = ("recommendation", "action", "advice", "suggestion")

_ANOMALY_WORDS = frozenset(
    {"anomaly", "anomalous", "abnormal", "anomalies", "yes", "true", "alert"}
)
_NORMAL_WORDS = frozenset({"normal", "no", "false", "ok", "fine", "none", "no_anomaly"})
_NO_VALUE = frozenset({"", "none", "null", "n/a", "na", "normal"})
_SEVERITY_SYNONYMS = {"moderate": Severity.MEDIUM, "severe": Severity.HIGH, "minor": Severity.LOW}

_FENCE = re.compile(r"```(?:json|JSON)?\s*(.*?)```", re.DOTALL)
_TRAILING_COMMA = re.compile(r",\s*([}\]])")
_SLUG = re.compile(r"[^a-z0-9]+")


@dataclass(frozen=True, slots=True)
class ParsedReply:
    """The outcome of parsing one reply: a verdict, or why there is none."""

    verdict: Verdict | None
    raw: str
    error: str = ""
    dropped_evidence: tuple[str, ...] = ()  # cited names that match no window entity

    @property
    def ok(self) -> bool:
        """A verdict was found."""
        return self.verdict is not None


def parse_for_window(text: object, window: ContextWindow, detector: str = "llm") -> ParsedReply:
    """Parse ``text`` with the window's ids and friendly names as the evidence vocabulary."""
    names = {state.entity_id: state.info.name for state in window.snapshot}
    return parse_reply(text, window.entity_ids, names=names, detector=detector)


def parse_reply(
    text: object,
    entity_ids: Iterable[str],
    *,
    names: Mapping[str, str] | None = None,
    detector: str = "llm",
) -> ParsedReply:
    """Parse ``text`` into a verdict whose evidence only holds ``entity_ids``."""
    try:
        raw = text if isinstance(text, str) else json.dumps(text, default=str)
    except (TypeError, ValueError):
        raw = str(text)
    raw = raw[:MAX_RAW_LENGTH]
    try:
        return _parse(raw, tuple(entity_ids), names or {}, detector)
    except Exception as err:  # a parser must never take the monitor down
        return ParsedReply(verdict=None, raw=raw, error=f"parser failed: {err!r}")


def _parse(
    raw: str, entity_ids: tuple[str, ...], names: Mapping[str, str], detector: str
) -> ParsedReply:
    if not raw.strip():
        return ParsedReply(verdict=None, raw=raw, error="empty reply")
    data = find_json_object(raw)
    if data is None:
        label = _bare_label(raw)
        if label is None:
            return ParsedReply(verdict=None, raw=raw, error="no JSON object in reply")
        data = {"label": label.value}
    fields = {str(key).strip().lower(): value for key, value in data.items()}
    label = _label(_first(fields, _LABEL_KEYS))
    if label is None:
        return ParsedReply(verdict=None, raw=raw, error="reply has no normal/anomaly label")

    reasoning = clip(_text(_first(fields, _REASONING_KEYS)), 500)
    if label is Label.NORMAL:
        verdict = Verdict(
            label=label, reasoning=reasoning or "Nothing unusual.", detector=detector, raw=raw
        )
        return ParsedReply(verdict=verdict, raw=raw)

    matcher = EntityMatcher(entity_ids, names)
    evidence: list[str] = []
    dropped: list[str] = []
    for item in _evidence_items(_first(fields, _EVIDENCE_KEYS)):
        match = matcher.match(item)
        if match is None:
            dropped.append(clip(item, 80))
        elif match not in evidence:
            evidence.append(match)
    evidence = evidence[:MAX_EVIDENCE]
    anomaly_type = _anomaly_type(_first(fields, _TYPE_KEYS))
    severity = _severity(_first(fields, _SEVERITY_KEYS)) or Severity.MEDIUM
    recommendation = clip(_text(_first(fields, _RECOMMENDATION_KEYS)), 300)
    finding = Finding(
        rule=LLM_RULE,
        evidence=tuple(evidence),
        reasoning=reasoning,
        anomaly_type=anomaly_type or "unknown",
        severity=severity,
        recommendation=recommendation,
    )
    verdict = Verdict(
        label=label,
        evidence=tuple(evidence),
        reasoning=reasoning,
        anomaly_type=anomaly_type,
        severity=severity,
        recommendation=recommendation,
        findings=(finding,),
        detector=detector,
        raw=raw,
    )
    return ParsedReply(verdict=verdict, raw=raw, dropped_evidence=tuple(dropped))


# --- finding the object ------------------------------------------------------------------


def find_json_object(text: str) -> dict[str, Any] | None:
    """The answer object in ``text``: fenced, bare or surrounded by prose.

    Prefers an object with a label-like key; falls back to the first object found.
    """
    candidates: list[dict[str, Any]] = []
    sources = [*_FENCE.findall(text), text]
    for source in sources:
        for obj in _objects_in(source):
            if any(str(k).strip().lower() in _LABEL_KEYS for k in obj):
                return obj
            candidates.append(obj)
    return candidates[0] if candidates else None


def _objects_in(text: str) -> Iterable[dict[str, Any]]:
    decoder = json.JSONDecoder()
    start = text.find("{")
    while start != -1:
        obj = _decode_at(decoder, text, start)
        if isinstance(obj, dict):
            yield obj
        start = text.find("{", start + 1)


def _decode_at(decoder: json.JSONDecoder, text: str, start: int) -> object:
    try:
        return decoder.raw_decode(text, start)[0]
    except ValueError:
        pass
    # Small models write Python dicts or leave trailing commas: repair the balanced span.
    end = _balanced_end(text, start)
    if end is None:
        return None
    span = _TRAILING_COMMA.sub(r"\1", text[start:end])
    try:
        return json.loads(span)
    except ValueError:
        pass
    try:
        with warnings.catch_warnings():  # odd escapes in model text are not our bug
            warnings.simplefilter("ignore")
            return ast.literal_eval(span)
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return None


def _balanced_end(text: str, start: int) -> int | None:
    """Index after the brace that closes the one at ``start``, skipping quoted text."""
    depth = 0
    quote: str | None = None
    escaped = False
    for index in range(start, min(len(text), start + MAX_RAW_LENGTH)):
        char = text[index]
        if quote:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == quote:
                quote = None
        elif char in "\"'":
            quote = char
        elif char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
            if depth == 0:
                return index + 1
    return None


# --- fields ------------------------------------------------------------------------------


def _first(fields: Mapping[str, Any], keys: tuple[str, ...]) -> Any:
    for key in keys:
        if key in fields:
            return fields[key]
    return None


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, list):
        return " ".join(_text(v) for v in value)
    return str(value).strip()


def _word(value: str) -> str:
    return value.strip().strip("\"'`.!*").strip().lower().replace(" ", "_").replace("-", "_")


def _label(value: Any) -> Label | None:
    if isinstance(value, bool):
        return Label.ANOMALY if value else Label.NORMAL
    if not isinstance(value, str):
        return None
    word = _word(value)
    if word in _ANOMALY_WORDS or word.startswith("anomal"):
        return Label.ANOMALY
    if word in _NORMAL_WORDS:
        return Label.NORMAL
    return None


def _bare_label(text: str) -> Label | None:
    """A reply that is just a label word ("ANOMALY."), with nothing else to misread."""
    word = _word(text)
    if word in {"anomaly", "anomalous", "abnormal"}:
        return Label.ANOMALY
    if word == "normal":
        return Label.NORMAL
    return None


def _anomaly_type(value: Any) -> str | None:
    word = _word(_text(value))
    return None if word in _NO_VALUE else clip(word, 60)


def _severity(value: Any) -> Severity | None:
    word = _word(_text(value))
    if word in _SEVERITY_SYNONYMS:
        return _SEVERITY_SYNONYMS[word]
    try:
        return Severity(word)
    except ValueError:
        return None


def _evidence_items(value: Any) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [part for part in re.split(r"[,;\n]", value) if part.strip()]
    if isinstance(value, dict):
        value = list(value.values()) if "entity_id" not in value else [value]
    if not isinstance(value, list | tuple):
        return [str(value)]
    items: list[str] = []
    for item in value[: MAX_EVIDENCE * 3]:
        cited = item
        if isinstance(item, dict):
            cited = _first(
                {str(k).lower(): v for k, v in item.items()}, ("entity_id", "id", "name")
            )
        if cited is not None:
            items.append(str(cited))
    return items


# --- entity names ------------------------------------------------------------------------


def _slug(text: str) -> str:
    return _SLUG.sub("_", text.lower()).strip("_")


class EntityMatcher:
    """Maps a cited name back to one of a window's entity ids, or to nothing."""

    def __init__(self, entity_ids: Iterable[str], names: Mapping[str, str] | None = None) -> None:
        self.ids = tuple(entity_ids)
        self._exact = set(self.ids)
        self._by_lower = {eid.lower(): eid for eid in self.ids}
        self._by_slug: dict[str, str] = {}
        ambiguous: set[str] = set()
        for eid in self.ids:
            keys = {_slug(eid), _slug(eid.partition(".")[2])}
            if names and names.get(eid):
                keys.add(_slug(names[eid]))
            for key in keys - {""}:
                if key in self._by_slug and self._by_slug[key] != eid:
                    ambiguous.add(key)
                self._by_slug[key] = eid
        for key in ambiguous:
            del self._by_slug[key]

    def match(self, cited: str) -> str | None:
        """The window id ``cited`` refers to; ``None`` when unsure."""
        text = cited.strip().strip("\"'`[]()").strip()
        if text in self._exact:
            return text
        if text.lower() in self._by_lower:
            return self._by_lower[text.lower()]
        slug = _slug(text)
        if not slug:
            return None
        if slug in self._by_slug:
            return self._by_slug[slug]
        close = difflib.get_close_matches(slug, list(self._by_slug), n=2, cutoff=FUZZY_CUTOFF)
        if len(close) == 1 or (
            len(close) == 2 and self._by_slug[close[0]] == self._by_slug[close[1]]
        ):
            return self._by_slug[close[0]]
        return None
