"""Untrusted text (entity names, model output) shown literally in Markdown."""

from __future__ import annotations

import re

_MARKDOWN_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~])")


def escape_markdown(text: str) -> str:
    """Untrusted text (entity names, LLM reasoning) shown literally in Markdown."""
    return _MARKDOWN_SPECIAL.sub(r"\\\1", text)
