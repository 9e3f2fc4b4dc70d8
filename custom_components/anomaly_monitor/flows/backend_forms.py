"""Forms and validation of the LLM backend steps, shared by setup, reconfigure and reauth."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit

from homeassistant.const import CONF_API_KEY
from homeassistant.core import HomeAssistant
from homeassistant.helpers import selector
import voluptuous as vol

from ..backends import async_validate_backend, llama_cpp_available
from ..backends.ai_task import ai_task_loaded
from ..const import (
    BACKEND_AI_TASK,
    BACKEND_LLAMA_CPP,
    BACKEND_OLLAMA,
    BACKEND_OPENAI,
    CONF_AI_TASK_ENTITY,
    CONF_BACKEND,
    CONF_BASE_URL,
    CONF_MODEL,
    CONF_MODEL_PATH,
    CONF_REQUEST_TIMEOUT,
    CONF_THREADS,
    DEFAULT_OLLAMA_URL,
    DEFAULT_OPENAI_URL,
    DEFAULT_REQUEST_TIMEOUT,
    DEFAULT_THREADS,
    LOGGER,
)
from ..core.llm.backend import LLMAuthError, LLMResponseError, LLMUnavailableError

# Every key a backend step may write into entry.data.
BACKEND_KEYS = (
    CONF_BACKEND,
    CONF_BASE_URL,
    CONF_API_KEY,
    CONF_MODEL,
    CONF_MODEL_PATH,
    CONF_THREADS,
    CONF_AI_TASK_ENTITY,
    CONF_REQUEST_TIMEOUT,
)

_TIMEOUT = vol.All(
    selector.NumberSelector(
        selector.NumberSelectorConfig(
            min=5, max=600, step=1, unit_of_measurement="s", mode=selector.NumberSelectorMode.BOX
        )
    ),
    vol.Coerce(int),
    vol.Range(min=5, max=600),
)
_TEXT = selector.TextSelector()
_URL = selector.TextSelector(selector.TextSelectorConfig(type=selector.TextSelectorType.URL))
SECRET = selector.TextSelector(selector.TextSelectorConfig(type=selector.TextSelectorType.PASSWORD))


def backend_schema(backend: str, current: Mapping[str, Any]) -> vol.Schema:
    """The form of one backend, filled with ``current`` values where there are some."""
    timeout = {
        vol.Required(
            CONF_REQUEST_TIMEOUT, default=current.get(CONF_REQUEST_TIMEOUT, DEFAULT_REQUEST_TIMEOUT)
        ): _TIMEOUT
    }
    if backend == BACKEND_LLAMA_CPP:
        fields = {
            vol.Required(CONF_MODEL_PATH, default=current.get(CONF_MODEL_PATH, "")): _TEXT,
            vol.Required(CONF_THREADS, default=current.get(CONF_THREADS, DEFAULT_THREADS)): vol.All(
                selector.NumberSelector(
                    selector.NumberSelectorConfig(
                        min=1, max=64, step=1, mode=selector.NumberSelectorMode.BOX
                    )
                ),
                vol.Coerce(int),
            ),
        }
    elif backend in (BACKEND_OPENAI, BACKEND_OLLAMA):
        default_url = DEFAULT_OPENAI_URL if backend == BACKEND_OPENAI else DEFAULT_OLLAMA_URL
        fields = {
            vol.Required(CONF_BASE_URL, default=current.get(CONF_BASE_URL, default_url)): _URL,
            vol.Required(CONF_MODEL, default=current.get(CONF_MODEL, "")): _TEXT,
            vol.Optional(
                CONF_API_KEY, description={"suggested_value": current.get(CONF_API_KEY)}
            ): SECRET,
        }
    else:
        fields = {
            vol.Required(
                CONF_AI_TASK_ENTITY, default=current.get(CONF_AI_TASK_ENTITY, vol.UNDEFINED)
            ): selector.EntitySelector(selector.EntitySelectorConfig(domain="ai_task"))
        }
    return vol.Schema(fields | timeout)


def llama_placeholders() -> dict[str, str]:
    """Tell the user whether llama-cpp-python can be used in this installation."""
    if llama_cpp_available():
        return {"llama_status": "llama-cpp-python is installed."}
    return {
        "llama_status": "llama-cpp-python is not installed in Home Assistant's Python "
        "environment (it has no wheels for Home Assistant OS). Install it in a Home Assistant "
        "Core/container installation, or run a llama.cpp server and choose the "
        "OpenAI-compatible backend instead."
    }


def backend_missing(hass: HomeAssistant, backend: str) -> str | None:
    """The translated error key when ``backend`` cannot work in this HA at all, or None."""
    if backend == BACKEND_LLAMA_CPP and not llama_cpp_available():
        return "llama_cpp_missing"
    if backend == BACKEND_AI_TASK and not ai_task_loaded(hass):
        return "ai_task_missing"
    return None


async def async_check_backend(hass: HomeAssistant, config: Mapping[str, Any]) -> str | None:
    """Validate a backend configuration; return a translated error key, or None."""
    if (missing := backend_missing(hass, str(config.get(CONF_BACKEND)))) is not None:
        return missing
    if config.get(CONF_API_KEY) and _has_credentials(str(config.get(CONF_BASE_URL) or "")):
        # Both go in the one Authorization header: aiohttp refuses the request (seen in a
        # live HA as "answered, but not with a usable reply").
        return "credentials_twice"
    try:
        await async_validate_backend(hass, config)
    except LLMAuthError:
        return "invalid_auth"
    except LLMUnavailableError as err:
        LOGGER.debug("Backend check failed: %s", err)
        return "cannot_connect"
    except LLMResponseError as err:
        LOGGER.debug("Backend answered badly: %s", err)
        return "invalid_response"
    except Exception:
        LOGGER.exception("Unexpected error while checking the backend")
        return "unknown"
    return None


def _has_credentials(url: str) -> bool:
    """The URL carries a user or password (``http://user:pass@host``)."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return False
    return parts.username is not None or parts.password is not None


BACKEND_MENU = [BACKEND_LLAMA_CPP, BACKEND_OPENAI, BACKEND_OLLAMA, BACKEND_AI_TASK]
