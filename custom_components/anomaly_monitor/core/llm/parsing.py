"""Turn an LLM's reply into a Verdict, tolerating what small models and servers do.

Accepted: code fences, prose around the JSON, single quotes and trailing commas, any
case of keys and labels, a few key synonyms, evidence as a list or a comma-separated
string, and near-miss entity names (mapped back to a window id, or dropped).
Nothing here raises: a reply with no usable answer is a ``ParsedReply`` without a
verdict, which keeps the raw text and says why.

The work is bounded whatever the reply: only its first ``MAX_RAW_LENGTH`` characters are
read, at most ``MAX_CANDIDATES`` brace positions are tried, every brace's partner is
found in one linear pass, and at most ``MAX_EVIDENCE_ITEMS`` cited names (each clipped)
reach the fuzzy matcher - so parsing runs on the event loop in well under 10 ms
(``scripts/bench_parsing.py``, figures in docs/performance.md).
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
import json
import re
from typing import Any
import warnings

from ..models import ContextWindow, Finding, Label, Severity, Verdict, clip
from .entity_matching import matcher_for

# Raw replies are kept for diagnostics, but not without bound.
MAX_RAW_LENGTH = 4000
MAX_EVIDENCE = 10
# Cited names looked at, however they are written (list, dict or comma-separated string).
MAX_EVIDENCE_ITEMS = MAX_EVIDENCE * 3
MAX_CITED_LENGTH = 120
# Brace positions tried as the start of the answer object.
MAX_CANDIDATES = 64
# Objects looked for inside a decoded one that has no label.
MAX_NESTED_DEPTH = 3
MAX_NESTED_VALUES = 20
# Only answer-sized spans are repaired (trailing commas, Python dicts).
MAX_REPAIR_LENGTH = 2000
MAX_REPAIR_BRACKETS = 32
MAX_FUZZY = 10  # cited names looked up fuzzily per reply
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

    matcher = matcher_for(entity_ids, names)
    evidence: list[str] = []
    dropped: list[str] = []
    for index, item in enumerate(_evidence_items(_first(fields, _EVIDENCE_KEYS))):
        if len(evidence) >= MAX_EVIDENCE:
            break
        match = matcher.match(item, fuzzy=index < MAX_FUZZY)
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
    """Every object found in ``text``, outermost first, each character decoded about once."""
    decoder = json.JSONDecoder()
    partners = _brace_partners(text)
    start = text.find("{")
    tried = 0
    while start != -1 and tried < MAX_CANDIDATES:
        # A brace nobody closes cannot start a complete object: not worth a decode.
        if (end := partners.get(start)) is not None:
            tried += 1
            obj = _decode_at(decoder, text, start, end)
            if isinstance(obj, dict):
                yield obj
                yield from _nested_objects(obj)
                start = text.find("{", end)  # its inner objects were just yielded
                continue
        start = text.find("{", start + 1)


def _nested_objects(obj: dict[str, Any], depth: int = 0) -> Iterable[dict[str, Any]]:
    """Objects inside a decoded one (an answer wrapped in {"response": {...}})."""
    if depth >= MAX_NESTED_DEPTH:
        return
    for value in list(obj.values())[:MAX_NESTED_VALUES]:
        if isinstance(value, dict):
            yield value
            yield from _nested_objects(value, depth + 1)


def _decode_at(decoder: json.JSONDecoder, text: str, start: int, end: int) -> object:
    # Any exception is a failed candidate: deep nesting (RecursionError), a Python set of
    # dicts such as "{{}}" (TypeError) - a stray fragment must not lose a later answer.
    try:
        return decoder.raw_decode(text, start)[0]
    except Exception:
        pass
    # Small models write Python dicts or leave trailing commas: repair the balanced span,
    # if it is answer-sized (ast is slow on big or deeply nested text).
    span = text[start:end]
    if len(span) > MAX_REPAIR_LENGTH or span.count("{") + span.count("[") > MAX_REPAIR_BRACKETS:
        return None
    span = _TRAILING_COMMA.sub(r"\1", span)
    try:
        return json.loads(span)
    except Exception:
        pass
    try:
        with warnings.catch_warnings():  # odd escapes in model text are not our bug
            warnings.simplefilter("ignore")
            return ast.literal_eval(span)
    except Exception:
        return None


def _brace_partners(text: str) -> dict[int, int]:
    """For each ``{``, the index after the ``}`` that closes it, in one linear pass.

    Quotes count only inside an object (an apostrophe in prose around the answer is not
    a string), and a brace inside a quoted string is not a brace.
    """
    partners: dict[int, int] = {}
    stack: list[int] = []
    quote: str | None = None
    escaped = False
    for index, char in enumerate(text):
        if quote:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == quote:
                quote = None
        elif char == "{":
            stack.append(index)
        elif not stack:
            continue
        elif char in "\"'":
            quote = char
        elif char == "}":
            partners[stack.pop()] = index + 1
    return partners


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
        parts = re.split(r"[,;\n]", value, maxsplit=MAX_EVIDENCE_ITEMS)
        return [clip(p, MAX_CITED_LENGTH) for p in parts[:MAX_EVIDENCE_ITEMS] if p.strip()]
    if isinstance(value, dict):
        value = list(value.values()) if "entity_id" not in value else [value]
    if not isinstance(value, list | tuple):
        return [clip(value, MAX_CITED_LENGTH)]
    items: list[str] = []
    for item in value[:MAX_EVIDENCE_ITEMS]:
        cited = item
        if isinstance(item, dict):
            cited = _first(
                {str(k).lower(): v for k, v in item.items()}, ("entity_id", "id", "name")
            )
        if cited is not None:
            items.append(clip(cited, MAX_CITED_LENGTH))
    return items
