"""The error every action raises for bad input: translated, and a 4xx over every API."""

from __future__ import annotations

from homeassistant.exceptions import ServiceValidationError
import voluptuous as vol

from ..const import DOMAIN


class InvalidActionInput(ServiceValidationError, vol.Invalid):
    """Bad input to one of the integration's actions (unknown monitor, empty instruction, ...).

    A ``ServiceValidationError``: the message comes from ``exceptions`` in the translations
    and the UI shows it without a stack trace. Also a ``vol.Invalid``, because Home
    Assistant's REST API answers HTTP 400 only for ``vol.Invalid`` and turns a plain
    ``ServiceValidationError`` into HTTP 500. Over WebSocket the caller gets the translated
    message (as an ``invalid_format`` error).
    """

    def __init__(self, translation_key: str, **placeholders: str) -> None:
        # HomeAssistantError.__init__ calls vol.Invalid.__init__ through super(), which sets
        # vol.Invalid's own fields (path, error_message); the message stays the translation.
        super().__init__(
            translation_domain=DOMAIN,
            translation_key=translation_key,
            translation_placeholders=placeholders or None,
        )
