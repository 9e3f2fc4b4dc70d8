"""An instruction split into one clause per operation it asks for ("turn on the fan and
dim the light" is two; "the fan and the light in the kitchen" is one), bounded in length
and count."""

from __future__ import annotations

import re

from .vocabulary import (
    ACTIONS,
    DECREASE_VERBS,
    DEVICE_KINDS,
    INCREASE_VERBS,
    SET_VERBS,
    normalize,
    phrase_regex,
)

MAX_INSTRUCTION_LENGTH = 2000
MAX_CLAUSES = 30

_VERB_PHRASES = sorted(
    {p for phrases in ACTIONS.values() for p in phrases}
    | set(SET_VERBS)
    | set(INCREASE_VERBS)
    | set(DECREASE_VERBS)
    | {"maximize", "maximise", "minimize", "minimise", "mute"},
    key=len,
    reverse=True,
)
_VERB_START = re.compile(
    r"^(?:please\s+|also\s+|then\s+)*(?:" + "|".join(re.escape(v) for v in _VERB_PHRASES) + r")\b"
)


def split_clauses(instruction: str) -> list[str]:
    """Split an instruction into one clause per requested operation."""
    text = instruction.strip()[:MAX_INSTRUCTION_LENGTH]
    text = re.sub(r"[.!?]+\s*$", "", text)
    pieces = re.split(r"\s*[,;]\s*(?:and\s+then\s+|and\s+|then\s+)?|\.\s+|\s+and\s+then\s+", text)
    clauses: list[str] = []
    leading = ""
    for raw_piece in pieces:
        piece = raw_piece.strip()
        if not piece:
            continue
        # "X and Y" is two operations only when Y starts with a verb.
        first_of_piece = len(clauses)
        parts = re.split(r"\s+(?:and|then|also|plus)\s+(?=(?:please\s+)?[a-zA-Z])", piece)
        current = parts[0]
        for part in parts[1:]:
            elliptical = re.search(r"\d", part) and not _has_device(part)
            if _VERB_START.match(normalize(part)) or elliptical:
                clauses.append(current)
                current = part
            else:
                current = f"{current} and {part}"
        verbless = not _VERB_START.match(normalize(current)) and not _has_device(current)
        if verbless and clauses and re.search(r"\d", current):
            # "…to 80 and in the kitchen to 10": an elliptical clause of its own.
            clauses.append(current)
            continue
        if verbless:
            if clauses:
                # A verb-less fragment ("…, bathroom and garage") extends the previous clause.
                clauses[-1] = f"{clauses[-1]}, {current}"
            else:
                leading = f"{leading} {current}".strip()  # "In the kitchen, turn on …"
            continue
        if leading:
            # "In the kitchen, turn on the fan and dim the light": the room covers both.
            for index in range(first_of_piece, len(clauses)):
                clauses[index] = f"{clauses[index]} {leading}"
            current, leading = f"{current} {leading}", ""
        clauses.append(current)
    if leading:
        clauses.append(leading)
    return clauses[:MAX_CLAUSES]


def _has_device(text: str) -> bool:
    norm = normalize(text)
    return any(phrase_regex(noun).search(norm) for nouns in DEVICE_KINDS.values() for noun in nouns)
