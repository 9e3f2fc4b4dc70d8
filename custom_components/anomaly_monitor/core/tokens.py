"""Cheap token estimates for prompt budgeting."""

from __future__ import annotations

# About four characters per token for English and identifiers with the tokenizers of
# the small models we target; close enough for budgeting, not for billing.
CHARS_PER_TOKEN = 4


def estimate_tokens(text: str) -> int:
    """Rough token count of ``text`` (at least 1 for non-empty text)."""
    return estimate_length_tokens(len(text))


def estimate_length_tokens(length: int) -> int:
    """Rough token count of a text of ``length`` characters."""
    return (length + CHARS_PER_TOKEN - 1) // CHARS_PER_TOKEN
