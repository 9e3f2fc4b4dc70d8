"""What an explanation says a device IS, checked against the device's state in the window.

A small model gets the state itself wrong: "The Kitchen Smoke Detector is reporting smoke"
for a detector that reads clear, "the Front door contact and Front door lock are locked"
for an open door (a live hass). A homeowner misled about a state in an alarm is worse off
than with the rule's own words, so such an explanation is not shown.

How a sentence is read (English, HA's state words per domain and device class):

- **Mentions** (``device_mentions``): a device by its name or object id in words, or
  "the <words>" naming one evidence device ("the lock"); "the doors" names every door.
- **Subjects**: a mention, or a list of them ("the contact and the lock are locked": both);
  "or"/"nor" make a list unsure. A few words may follow a mention ("in the Hall").
- **Claims**: a verb (is, are, remains, has been, reads, shows, reports, detects, was,
  opened, turned off, left, arrived, ...), adverbs and a negation ("not", "n't", "no
  longer", "never"), then state words ("open", "locked", "on", "running", "clear",
  "home", "heating", "armed", "open and unlocked") or, after a reporting verb, what is
  found ("reporting smoke", "detects no motion", "reports nothing"). Also "with the
  Window open" and "the unlocked Front Door Lock".
- **Judging**: a claim about now contradicts when the device's value on that aspect
  differs (``state_words``), a negated one when it is the same. A claim about the past or
  lately ("was opened", "shows activity") holds if the device has that value now or
  changed in the window. Whatever is not understood is not judged (an aspect the device
  lacks, no state, a negated past, an unsure name): only a direct contradiction rejects.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
import re

from .device_mentions import MARKER, Mention, find_mentions
from .models import ContextWindow, EntityState
from .state_words import (
    ALARM,
    DETECTION,
    HVAC,
    LOCK,
    OPENING,
    POWER,
    PRESENCE,
    RUNNING,
    agrees,
    implied,
    state_value,
)

# Claim words: what each says, as (aspect, value) choices; the first aspect the device has
# is used ("triggered" is an alarm panel's state, or a detector's).
_SAYS = {
    "open": (OPENING, "open"), "opened": (OPENING, "open"),  # not "ajar": a contact may miss it
    "closed": (OPENING, "closed"), "shut": (OPENING, "closed"), "locked": (LOCK, "locked"),
    "unlocked": (LOCK, "unlocked"), "jammed": (LOCK, "jammed"), "on": (POWER, "on"),
    "off": (POWER, "off"), "running": (RUNNING, "running"), "stopped": (RUNNING, "stopped"),
    "detected": (DETECTION, "detected"), "detecting": (DETECTION, "detected"),
    "clear": (DETECTION, "clear"), "wet": (DETECTION, "detected"),
    "leaking": (DETECTION, "detected"), "flooded": (DETECTION, "detected"),
    "dry": (DETECTION, "clear"), "occupied": (DETECTION, "detected"),
    "unoccupied": (DETECTION, "clear"), "silent": (DETECTION, "clear"),
    "home": (PRESENCE, "home"), "away": (PRESENCE, "away"), "heating": (HVAC, "heating"),
    "cooling": (HVAC, "cooling"), "idle": (HVAC, "idle"), "armed": (ALARM, "armed"),
    "disarmed": (ALARM, "disarmed"),
}  # fmt: skip
_WORDS: dict[str, tuple[tuple[str, str], ...]] = {w: (said,) for w, said in _SAYS.items()}
_WORDS["triggered"] = ((ALARM, "triggered"), (DETECTION, "detected"))  # a panel's, or a detector's
# What a detector finds: "reporting smoke", "detects a leak", "shows no motion".
_FOUND = frozenset(
    {
        "smoke", "fire", "gas", "co", "monoxide", "leak", "water", "moisture", "flood",
        "flooding", "motion", "movement", "activity", "presence", "someone", "occupancy",
        "sound", "noise", "vibration", "tampering",
    }
)  # fmt: skip
_PRESENT = frozenset(
    {"is", "are", "'s", "remains", "remain", "stays", "stay", "keeps", "keep", "appears",
     "appear", "seems", "seem", "reads", "read", "shows", "show", "reports", "report",
     "says", "say", "indicates", "indicate", "detects", "detect", "senses", "sense",
     "registers", "register", "does", "do"}
)  # fmt: skip
_PAST = frozenset(
    {"was", "were", "became", "got", "reported", "showed", "indicated", "said", "detected",
     "sensed", "registered", "did", "went"}
)  # fmt: skip
_REPORTING = frozenset(
    {"reads", "read", "shows", "show", "reports", "report", "says", "say", "indicates",
     "indicate", "detects", "detect", "senses", "sense", "registers", "register", "reported",
     "showed", "indicated", "said", "detected", "sensed", "registered", "reporting",
     "showing", "indicating", "detecting", "sensing", "registering", "saying"}
)  # fmt: skip
_EVENTS = {  # a verb that is itself the claim: "The Front Door opened at 18:55."
    "opened": "opened", "closed": "closed", "shut": "shut", "locked": "locked",
    "unlocked": "unlocked",
}  # fmt: skip
_SWITCHING = frozenset({"turned", "switched", "powered", "turning", "switching"})
_ADVERBS = frozenset(
    {"still", "now", "currently", "already", "again", "also", "both", "all", "just", "actually",
     "apparently", "left", "been", "being", "at", "fully", "completely", "wide", "properly",
     "securely", "reportedly", "firmly"}
)  # fmt: skip
_ARTICLES = frozenset({"a", "an", "the", "some", "any", "its", "their"})
_LINKS = frozenset({"and", ",", "as", "well", "both"})  # "A, B and C", "A as well as B"
_UNSURE_LINKS = frozenset({"or", "nor", "either", "neither"})
# After "on"/"off": what may follow the claim (not "turned on the heating").
_ENDS = frozenset(
    {".", ",", ";", ":", "!", "?", "and", "but", "while", "at", "in", "for", "since", "again",
     "now", "when", "after", "before", "although", "though", "yet", "so", "because", "with",
     "even", "all", "too", "as", "already", "by", "until", ""}
)  # fmt: skip
_FILLER = 4  # words allowed between a mention and its verb ("in the Hall")
_TOKEN = re.compile(r"\x00\d+\x00|'s\b|[^\W_]+(?:-[^\W_]+)*|[.,;:!?]")
_CLAUSE = frozenset(
    {"while", "but", "and", "when", "since", "because", "although", "though", "which", "that",
     "who", "where", "if", "as", "so", "yet", "after", "before", "until", "whereas", "or",
     "then", "even", "nor", "unless"}
)  # fmt: skip
_STATIVE = frozenset({"is", "are", "'s", "remains", "remain", "stays", "stay", "appears", "seems"})
_NOT = re.compile(r"n[’']t\b", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Contradiction:
    """One claim of the explanation that the window's state refutes."""

    entity_id: str
    said: str  # the claim word ("locked", "smoke", "not locked")
    state: str  # the device's state in the window

    def __str__(self) -> str:  # for the benchmark's list of rejections
        return f"{self.entity_id}: said {self.said!r}, state {self.state!r}"


def contradiction(
    text: str, window: ContextWindow, evidence: Iterable[str] = ()
) -> Contradiction | None:
    """The first claim of ``text`` that a device's state in ``window`` refutes, or None."""
    by_id = window.by_id()
    shown = [by_id[e] for e in evidence if e in by_id]
    text = _NOT.sub(" not", text.replace("’", "'"))  # "isn't" -> "is not"
    mentions, marked = find_mentions(text, list(by_id.values()), shown)
    tokens: list[str | Mention] = [
        mentions[int(m.group(1))] if (m := MARKER.fullmatch(t)) else t
        for t in _TOKEN.findall(marked.lower())
    ]
    for subjects, said, negated, past in _claims(tokens):
        for mention in subjects:
            found = _judge(mention, said, negated, past, window)
            if found is not None:
                return found
    return None


_Claim = tuple[list[Mention], str, bool, bool]  # subjects, claim word, negated, past


def _claims(tokens: list[str | Mention]) -> list[_Claim]:
    """Every (subjects, claim word, negated, about the past) the tokens make."""
    claims: list[_Claim] = []
    i = 0
    while i < len(tokens):
        token = tokens[i]
        if isinstance(token, Mention):
            subjects, i = _subjects(tokens, i)
            if subjects:
                claims.extend((subjects, *c) for c in _predicate(tokens, i))
            continue
        after_article = i > 0 and tokens[i - 1] in ("the", "an", "a", "your")
        if token == "with" or (after_article and token in ("open", "closed", "locked", "unlocked")):
            claims.extend(_attached(tokens, i))
        i += 1
    return claims


def _subjects(tokens: list[str | Mention], i: int) -> tuple[list[Mention], int]:
    """A mention and those listed with it; [] when the list is unsure ("A or B")."""
    subjects: list[Mention] = []
    unsure = False
    while i < len(tokens):
        if isinstance(tokens[i], Mention):
            subjects.append(tokens[i])  # type: ignore[arg-type]
            i += 1
            continue
        j = i
        while j < len(tokens) and tokens[j] in _LINKS | _UNSURE_LINKS | _ARTICLES:
            j += 1
        links = tokens[i:j]
        if (
            j < len(tokens)
            and isinstance(tokens[j], Mention)
            and any(t in ("and", ",", "or", "nor") for t in links)
        ):
            unsure = unsure or any(t in _UNSURE_LINKS for t in links)
            i = j
            continue
        break
    return ([] if unsure else subjects), i


def _predicate(tokens: list[str | Mention], i: int) -> list[tuple[str, bool, bool]]:
    """The claims after a subject: (claim word, negated, about the past)."""
    j = i
    while j < len(tokens) and j - i < _FILLER:  # "in the Hall", "sensor"
        token = tokens[j]
        if token == "," and _is_verb(_next(tokens, j + 1)):  # "A, and B, are"
            j += 1
            break
        if not isinstance(token, str) or not token.isalnum() or token in _CLAUSE or _is_verb(token):
            break
        j += 1
    if j >= len(tokens) or not isinstance(tokens[j], str) or not _is_verb(str(tokens[j])):
        return []
    verb = str(tokens[j])
    past = verb in _PAST or verb in ("had", "left", "turned", "switched", "powered")
    if verb in _EVENTS:  # "The Front Door opened", "the lock unlocked at 19:10"
        return [(_EVENTS[verb], False, True)]
    if verb in ("arrived", "came", "returned"):
        return [("home", False, True)]
    if verb == "left" and _next(tokens, j + 1) in _ENDS | {"home", "the"}:
        return [("away", False, True)]
    return _states(tokens, j + 1, past, verb)


def _is_verb(token: str) -> bool:
    if token in _PRESENT or token in _PAST or token in _EVENTS or token in _SWITCHING:
        return True
    if token in ("has", "have", "had", "arrived", "came", "returned", "left"):
        return True
    return token in _REPORTING


def _states(
    tokens: list[str | Mention], j: int, past: bool, verb: str
) -> list[tuple[str, bool, bool]]:
    """State words after a verb, with adverbs and a negation in between."""
    negated = False
    reporting = verb in _REPORTING
    n = len(tokens)
    while j < n and isinstance(tokens[j], str):
        token = str(tokens[j])
        if token in ("not", "never"):
            negated, past = True, past or token == "never"
        elif token == "no" and _next(tokens, j + 1) == "longer":
            negated, j = True, j + 1
        elif token in ("has", "have", "had", "been", "being", "does", "do", "did"):
            past = past or token in ("had", "did")
        elif token in _REPORTING:
            reporting = True
            past = past or token.endswith("ed") or token in ("said", "read", "showed")
        elif token in _SWITCHING:
            past = past or token in ("turned", "switched", "powered")
        elif token in ("opened", "locked", "unlocked") and verb not in _STATIVE:
            past = True  # "has opened", "was unlocked": an event, not only a state
            break
        elif token not in _ADVERBS:
            break
        j += 1
    # "shows activity", "detects motion": what the device reported lately, as a rule says
    # of a sensor that toggled in the window; "is reporting smoke" is about now.
    lately = past or verb in _REPORTING
    return _state_words(tokens, j, negated, past, reporting, lately=lately)


def _state_words(
    tokens: list[str | Mention],
    j: int,
    negated: bool,
    past: bool,
    reporting: bool,
    *,
    lately: bool = False,
) -> list[tuple[str, bool, bool]]:
    found: list[tuple[str, bool, bool]] = []
    while j < len(tokens):
        token = tokens[j]
        if not isinstance(token, str):
            break
        if reporting and token == "that":  # "reports that the window is open"
            return _reported(tokens, j + 1, negated, past)
        if (
            reporting
            and token in ("nothing", "no")
            and (
                token == "nothing"
                or _next(tokens, j + 1) in _FOUND
                or _next(tokens, j + 2) in _FOUND
            )
        ):
            found.append(("clear", negated, lately))
        elif reporting and (
            token in _FOUND or (token in _ARTICLES and _next(tokens, j + 1) in _FOUND)
        ):
            found.append(("detected", negated, lately))
        elif token in _WORDS and (
            token not in ("on", "off", "home") or _next(tokens, j + 1) in _ENDS
        ):
            found.append((token, negated, past))
        else:
            break
        # "open and unlocked": more state words for the same subjects
        if _next(tokens, j + 1) in ("and", ",") and _next(tokens, j + 2) in _WORDS:
            j += 2
            continue
        break
    return found


def _reported(
    tokens: list[str | Mention], j: int, negated: bool, past: bool
) -> list[tuple[str, bool, bool]]:
    """ "reports that the window is open": the device's own words about itself."""
    end = min(len(tokens), j + 4)
    for k in range(j, end):
        token = tokens[k]
        if not isinstance(token, str) or token in _ENDS - {""}:
            return []
        if token in ("is", "are", "was", "were"):
            return _states(tokens, k + 1, past or token in ("was", "were"), token)
    return []


def _attached(tokens: list[str | Mention], i: int) -> list[_Claim]:
    """ "with the Window open", "the unlocked Front Door Lock": claims about now."""
    token = tokens[i]
    j = i + 1
    while j < len(tokens) and tokens[j] in _ARTICLES:
        j += 1
    if j >= len(tokens) or not isinstance(tokens[j], Mention):
        return []
    mention = tokens[j]
    assert isinstance(mention, Mention)
    if token != "with":
        return [([mention], str(token), False, False)]
    k = j + 1
    negated = False
    while k < len(tokens) and tokens[k] in ("still", "now", "not", "wide", "fully"):
        negated = negated or tokens[k] == "not"
        k += 1
    word = _next(tokens, k)
    if word in _WORDS and (word not in ("on", "off") or _next(tokens, k + 1) in _ENDS):
        return [([mention], word, negated, False)]
    return []


def _next(tokens: list[str | Mention], j: int) -> str:
    token = tokens[j] if j < len(tokens) else ""
    return token if isinstance(token, str) else "\x00"


# --- judging ---------------------------------------------------------------------------


def _judge(
    mention: Mention, said: str, negated: bool, past: bool, window: ContextWindow
) -> Contradiction | None:
    refuted = [d for d in mention.devices if _refutes(d, said, negated, past, window)]
    if not refuted or (mention.plural and len(refuted) < len(mention.devices)):
        return None
    device = refuted[0]
    return Contradiction(device.entity_id, f"not {said}" if negated else said, device.state)


def _refutes(
    device: EntityState, said: str, negated: bool, past: bool, window: ContextWindow
) -> bool:
    """Whether the device's state refutes the claim (unsure is False)."""
    for aspect, value in _WORDS[said]:
        actual = state_value(device, aspect)
        if actual is None:
            continue
        holds_now = agrees(value, actual)
        if negated:
            return holds_now and not past
        if holds_now or not past:
            return not holds_now
        return _unchanged_in(device, window)
    if negated:
        return False
    for aspect, value in _WORDS[said]:
        if implied(device, aspect, value) is False:
            return not past or _unchanged_in(device, window)
    return False


def _unchanged_in(device: EntityState, window: ContextWindow) -> bool:
    """Whether the device is known to have kept its state through the window."""
    if any(t.entity_id == device.entity_id for t in window.transitions):
        return False
    if device.last_changed is not None and window.start is not None:
        return device.last_changed <= window.start
    return bool(window.transitions)  # a sequence without it: it did not change
