"""The rule-based detector: runs every semantic rule, needs no model or server."""

from __future__ import annotations

from collections.abc import Iterable

from .checks import Check, ChecksDetector
from .feedback import Suppressions
from .rules import ALL_RULES


class RuleDetector(ChecksDetector):
    """The semantic rules (``rules/``): what the window's states say."""

    def __init__(
        self,
        rules: Iterable[Check] = ALL_RULES,
        sensitivity: str = "medium",
        suppressed: Suppressions = (),
    ) -> None:
        super().__init__(rules, sensitivity, suppressed, name="rules")
