"""Which of a window's entities a name cited by a model means: exact, by slug, or a near
miss found among the few names sharing the most trigrams with it."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
import difflib
from itertools import chain
import re

FUZZY_CUTOFF = 0.85
SHORTLIST = 12  # known names compared with difflib per cited name
_SLUG = re.compile(r"[^a-z0-9]+")


def slug(text: str) -> str:
    return _SLUG.sub("_", text.lower()).strip("_")


# The last window's matcher: retries and analyses of an unchanged home reuse it.
_last_matcher: tuple[tuple[tuple[str, ...], tuple[str | None, ...]], EntityMatcher] | None = None


def matcher_for(entity_ids: tuple[str, ...], names: Mapping[str, str]) -> EntityMatcher:
    global _last_matcher  # noqa: PLW0603 - a one-entry cache, no state beyond it
    key = (entity_ids, tuple(names.get(eid) for eid in entity_ids))
    if _last_matcher is None or _last_matcher[0] != key:
        _last_matcher = (key, EntityMatcher(entity_ids, names))
    return _last_matcher[1]


def _trigrams(text: str) -> set[str]:
    padded = f"  {text} "
    return {padded[i : i + 3] for i in range(len(padded) - 2)}


class EntityMatcher:
    """Maps a cited name back to one of a window's entity ids, or to nothing.

    Near misses are found with difflib, but only among the few names that share the most
    trigrams with the cited one: comparing against every name of a 500-entity home costs
    ~10 ms per cited name, the trigram shortlist well under 1 ms.
    """

    def __init__(self, entity_ids: Iterable[str], names: Mapping[str, str] | None = None) -> None:
        self.ids = tuple(entity_ids)
        self._exact = set(self.ids)
        self._by_lower = {eid.lower(): eid for eid in self.ids}
        self._by_slug: dict[str, str] = {}
        self._postings: dict[str, list[str]] | None = None  # trigram -> slugs, built on need
        ambiguous: set[str] = set()
        for eid in self.ids:
            keys = {slug(eid), slug(eid.partition(".")[2])}
            if names and names.get(eid):
                keys.add(slug(names[eid]))
            for key in keys - {""}:
                if key in self._by_slug and self._by_slug[key] != eid:
                    ambiguous.add(key)
                self._by_slug[key] = eid
        for key in ambiguous:
            del self._by_slug[key]

    def match(self, cited: str, *, fuzzy: bool = True) -> str | None:
        """The window id ``cited`` refers to; ``None`` when unsure."""
        text = cited.strip().strip("\"'`[]()").strip()
        if text in self._exact:
            return text
        if text.lower() in self._by_lower:
            return self._by_lower[text.lower()]
        key = slug(text)
        if not key:
            return None
        if key in self._by_slug:
            return self._by_slug[key]
        if not fuzzy:
            return None
        close = difflib.get_close_matches(key, self._shortlist(key), n=2, cutoff=FUZZY_CUTOFF)
        if len(close) == 1 or (
            len(close) == 2 and self._by_slug[close[0]] == self._by_slug[close[1]]
        ):
            return self._by_slug[close[0]]
        return None

    def _shortlist(self, name: str) -> list[str]:
        """The known names sharing the most trigrams with ``name`` (a name within the
        fuzzy cutoff shares most of its trigrams)."""
        if self._postings is None:
            index: defaultdict[str, list[str]] = defaultdict(list)
            for known in self._by_slug:
                for gram in _trigrams(known):
                    index[gram].append(known)
            self._postings = dict(index)
        postings = self._postings
        # A trigram most names share ("sen" of every sensor) tells nothing: skipped.
        common = max(SHORTLIST, len(self._by_slug) // 4)
        lists = (postings.get(gram, []) for gram in _trigrams(name))
        shared = Counter(chain.from_iterable(names for names in lists if len(names) <= common))
        return [known for known, _ in shared.most_common(SHORTLIST)]
