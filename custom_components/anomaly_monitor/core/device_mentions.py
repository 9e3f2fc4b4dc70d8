"""Which devices of a window a sentence names, for reading what it says about them.

By full name or object id in words ("Front Door Lock", "front door lock"), longest first;
a one-word name ("Door") only for a device of the evidence (else it is a plain word); a
name shared by two devices, or equal to an area's, names nobody for sure and is skipped.
"the <words>" names an evidence device when exactly one has those words at the end of its
name ("the lock", "the smoke detector"), else when exactly one has them anywhere in it; a
plural ("the doors") names every evidence device whose name has the word.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
import re

from .models import EntityState


@dataclass(frozen=True, slots=True, eq=False)  # compared by identity, never by its devices
class Mention:
    """One place in the sentence that names devices."""

    devices: tuple[EntityState, ...]
    plural: bool = False  # "the doors": a claim is wrong only if every device refutes it


# Each mention is replaced by this marker (``\x00<index>\x00``) in the text returned.
MARKER = re.compile(r"\x00(\d+)\x00")
_THE_WORDS = re.compile(r"\bthe((?:\s+[^\W\d_]+){1,3})\b", re.IGNORECASE)


def find_mentions(
    text: str, devices: list[EntityState], shown: list[EntityState]
) -> tuple[list[Mention], str]:
    """The mentions of ``devices`` (``shown``: the evidence) and ``text`` with markers."""
    areas = {(d.info.area or "").lower() for d in devices}
    by_phrase: dict[str, dict[str, EntityState]] = {}
    for device in devices:
        object_words = device.entity_id.partition(".")[2].replace("_", " ")
        for phrase in {device.info.name.strip().lower(), object_words.lower()}:
            one_word = " " not in phrase and device not in shown
            if len(phrase) >= 3 and phrase not in areas and not one_word:
                by_phrase.setdefault(phrase, {})[device.entity_id] = device
    mentions: list[Mention] = []

    def mark(named: tuple[EntityState, ...], plural: bool = False) -> str:
        mentions.append(Mention(named, plural))
        return f" \x00{len(mentions) - 1}\x00 "

    for phrase in sorted(by_phrase, key=len, reverse=True):
        named = tuple(by_phrase[phrase].values())
        if len(named) != 1:
            continue  # two devices of one name: unsure which
        pattern = r"(?<![\w\x00])" + re.escape(phrase) + r"(?![\w\x00])"
        text = re.sub(pattern, lambda _, n=named: mark(n), text, flags=re.IGNORECASE)  # type: ignore[misc]
    return mentions, _partial_mentions(text, shown, areas, mark)


def _partial_mentions(
    text: str,
    shown: list[EntityState],
    areas: set[str],
    mark: Callable[[tuple[EntityState, ...], bool], str],
) -> str:
    """Mark "the lock", "the smoke detector", "the doors": words naming evidence devices."""
    names = [(d, d.info.name.lower().split()) for d in shown]

    def replace(match: re.Match[str]) -> str:
        words = match.group(1).lower().split()
        for size in range(len(words), 0, -1):
            phrase = words[:size]
            plural = phrase[-1].endswith("s") and len(phrase[-1]) > 3
            if plural:
                phrase = [*phrase[:-1], phrase[-1][:-1]]
            if " ".join(phrase) in areas:
                return match.group(0)  # "the Hall" is a place
            found = _naming(phrase, names, plural)
            if found:
                return "the" + mark(found, plural) + " ".join(words[size:])
        return match.group(0)

    return _THE_WORDS.sub(replace, text)


def _naming(
    phrase: list[str], names: list[tuple[EntityState, list[str]]], plural: bool
) -> tuple[EntityState, ...]:
    """The evidence devices ``phrase`` names: one by the end of its name, else by any part."""
    size = len(phrase)

    def inside(words: list[str]) -> bool:
        return any(words[i : i + size] == phrase for i in range(len(words) - size + 1))

    ending = tuple(d for d, words in names if words[-size:] == phrase)
    within = tuple(d for d, words in names if inside(words))
    if plural:
        return within if len(within) > 1 else ()
    if len(ending) == 1:
        return ending
    return within if len(within) == 1 and not ending else ()
