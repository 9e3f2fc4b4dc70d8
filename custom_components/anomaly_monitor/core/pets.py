"""Whether the household has pets, from the profile the homeowner wrote.

Dogs and cats set off ordinary motion sensors all day while the family is out; in HA
there is no attribute for "a pet lives here" (nor for pet-immune sensors), so the
profile is where a homeowner says it.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from functools import lru_cache
import re

from .home import OPENING_DEVICE_CLASSES, HomeView

_PET = r"(?:dogs?|cats?|pets?|puppy|puppies|kittens?)"
# How people name a pet in English without the word: its breed ("Huck is our yellow lab",
# "Boudreaux is our pit mix", "Bella the Staffie") or kind (a parrot that sets the living
# room's motion off all day); "lab", "shepherd", "golden" and "boxer" only with the word
# that makes them a dog (a lab is also where people work).
_BREED = (
    r"labradors?|(?:yellow|black|chocolate)\s+labs?|retrievers?|beagle\w*|terriers?"
    r"|spaniels?|poodles?|collies?|huskies|husky|dachshunds?|chihuahuas?|schnauzers?"
    r"|staffies?|staffy|corgis?|greyhounds?|whippets?|pugs?|mutts?|pit\s*bulls?|pitties"
    r"|pit\s+mix|(?:german|australian)\s+shepherds?|sheepdogs?|rottweilers?|dobermanns?"
    r"|dobermans?|\w*doodles?|cockapoos?|shih\s+tzus?|maltipoos?|tabby|tabbies|kelpies?"
    r"|boerboels?|chiweenies?|jack\s+russells?|our\s+golden|(?:our|the)\s+boxer|boxer\s+mix"
    r"|parrots?|budgies?|cockatiels?|rabbits?|bunny|bunnies|guinea\s+pigs?|ferrets?"
)
# The profile is written in the homeowner's language: the words for a dog, a cat or a pet
# in the languages Home Assistant is most used in (not the ones that are also common
# English words: "chat", "cane", "pies" only after an article).
_OTHER = (
    r"chiens?|chatons?|animaux|hunde?|hunden|katzen?|haustiere?|honden|hond|katten|kat|poes"
    r"|huisdieren|huisdier|perros?|gatos?|mascotas?|cani|gatt[oi]|hundar|katter|katt|husdjur"
    r"|psy|psa|psem|piesek|pieska|koty?|kota|kotem|kotka|kotki|kotkę|kotek|c[aã]es|c[aã]o"
    r"|cachorr[oa]s?|perr[oa]s?|perr(?:it|in)[oa]s?|gatas?|gatit[oa]s?|vira-latas?|cadelas?|gossa|gos|gat"
    r"|kissa\w*|kissan|koira\w*|kedi(?:miz|ler|si|yi|m)?|köpe[kğ]\w*|kucing|anjing|macja|mace|qeni?|mbwa|paka"
    r"|kuty[aá]\w*|macsk\w*|câine|caine|pisic[aă]|kočk\w*|mačk\w*|koer\w*|kass|suns"
    r"|kaķis|šuo|katė|hundur|kött\w*|kelb|qattus\w*|pusa|irong|lisien|pişik|σκύλ\w*|σκυλ\w*|γάτ\w*|γατ\w*"
    r"|собак\w*|кошк\w*|кот|кота|коту|котом|котик\w*|кіт|пёс|пес|куче|котка|мачка|כלב\w*|חתול\w*"
    r"|(?:un|le|les|notre|nos|mon|mes|deux|trois)\s+chats?|(?:la|notre|ma|une)\s+chatte"
    r"|(?:il|un|due|tre)\s+cane"
)
# Scripts written without spaces between words, where a word boundary says nothing.
_UNSPACED = (
    r"[犬猫貓狗]|강아지|고양이|반려견|반려묘|หมา|แมว|สุนัข|كلب|قطة|قطه|कुत्त|कुत्र|बिल्ली|मांजर"
    r"|कुकुर|बिरालो|কুকুর|বিড়াল|நாய்|பூனை|බල්ලා|පූසා|ძაღლ|კატა|سگ|گربه|chó|mèo"
)
_PET_WORD = re.compile(rf"\b(?:{_PET}|{_BREED}|{_OTHER})\b|{_UNSPACED}", re.IGNORECASE)
# "no pets", "without a dog", "pets: none", "not a cat"; "pas de chien", "kein Hund",
# "geen huisdieren", "sin perro", "senza gatto", "inga husdjur", "bez psa".
_NO = r"no|without|not|pas\s+d[e']|sans|kein(?:e|en)?|geen|sin|senza|inga?|ingen|bez"
_NO_PET = re.compile(
    rf"\b(?:{_NO})\s*(?:an?\s+|any\s+|un\s+|une\s+)?(?:{_PET}|{_OTHER})\b"
    rf"|\b{_PET}\s*[:=]\s*(?:none|no|0)\b",
    re.IGNORECASE,
)


@lru_cache(maxsize=16)  # read by many judges on every analysis; the profile seldom changes
def has_pets(profile: str) -> bool:
    """The profile says a dog, a cat or another pet lives in the home."""
    return len(_PET_WORD.findall(profile)) > len(_NO_PET.findall(profile))


# A person's sign (a light switched on, a door opened) this close before motion began, or
# any time after, is the person moving: they switch the light on as they walk in. Motion
# earlier in the spell than that, with pets, is the pet's (the owner coming home later
# opens the door after the dog has moved all afternoon).
SIGN_REACH = timedelta(minutes=5)

# What a pet does not do: switch a light on, open a door or window, unlock, start media,
# move a cover.
HUMAN_STATES = {
    "light": frozenset({"on"}),
    "lock": frozenset({"unlocked", "unlocking", "open", "opening"}),
    "media_player": frozenset({"on", "playing"}),
    "cover": frozenset({"open", "opening"}),
}


def human_signs(home: HomeView, start: datetime, end: datetime) -> list[str]:
    """Entities that did something only a person does between ``start`` and ``end``."""
    return [entity_id for entity_id, _ in _first_signs(home, start, end)]


def first_human_sign(home: HomeView, start: datetime, end: datetime) -> datetime | None:
    """When something only a person does first happened between ``start`` and ``end``."""
    return min((when for _, when in _first_signs(home, start, end)), default=None)


def _first_signs(home: HomeView, start: datetime, end: datetime) -> list[tuple[str, datetime]]:
    """Each entity that did something only a person does in the span, and when it first did."""
    found: list[tuple[str, datetime]] = []
    for entity_id, transitions in home.history.items():
        domain = home.domain(entity_id)
        if domain == "binary_sensor":
            if home.device_class(entity_id) not in OPENING_DEVICE_CLASSES:
                continue
            wanted: frozenset[str] = frozenset({"on"})
        elif (wanted := HUMAN_STATES.get(domain, frozenset())) == frozenset():
            continue
        previous: str | None = None
        for transition in transitions:
            state = transition.state.lower()
            if start <= transition.when <= end and state in wanted and previous != state:
                found.append((entity_id, transition.when))
                break
            previous = state
    return found
