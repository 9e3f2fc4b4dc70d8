"""LLM backends chosen in the config flow, and the factories the integration calls.

``config`` is the merged entry configuration (``{**entry.data, **entry.options}``):
``CONF_BACKEND`` picks the backend; the keys each one reads are listed in
``create_backend``. Backend modules are imported only when chosen, so a home without
the ``ai_task`` integration (or without llama-cpp-python) loads nothing it cannot use.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from homeassistant.const import CONF_API_KEY
from homeassistant.core import HomeAssistant
from homeassistant.helpers.aiohttp_client import async_get_clientsession

from ..const import (
    BACKEND_AI_TASK,
    BACKEND_LLAMA_CPP,
    BACKEND_OLLAMA,
    BACKEND_OPENAI,
    CONF_AI_TASK_ENTITY,
    CONF_BACKEND,
    CONF_BASE_URL,
    CONF_DETECTOR,
    CONF_LLM_MAY_ADD,
    CONF_LLM_MAY_DISMISS,
    CONF_MODEL,
    CONF_MODEL_PATH,
    CONF_REQUEST_TIMEOUT,
    CONF_THREADS,
    DEFAULT_DETECTOR,
    DEFAULT_OLLAMA_URL,
    DEFAULT_OPENAI_URL,
    DEFAULT_REQUEST_TIMEOUT,
    DEFAULT_THREADS,
    DETECTOR_HYBRID,
    DETECTOR_LLM,
)
from ..core.detector import Detector
from ..core.llm.backend import LLMBackend, LLMUnavailableError
from ..core.llm.calibration import CALIBRATION_FILE, ModelCalibration, load_calibration
from ..core.llm.detector import LLMDetector
from ..core.llm.evidence_choice import EvidenceRanker
from ..core.llm.explanations import Explainer
from ..core.llm.hybrid_detector import HybridDetector
from ..core.llm.prompts import PromptExample
from ..core.llm.second_opinion import SecondOpinionJudge
from ..core.models import Severity
from ..core.safety_floor import SafetyFloorDetector
from ..redaction import RedactingBackend, Redactor
from .llama_cpp import is_available as llama_cpp_available

# Validation should answer quickly in the config flow, whatever the analysis timeout.
VALIDATION_TIMEOUT = 30.0


def create_backend(hass: HomeAssistant, config: Mapping[str, Any]) -> LLMBackend:
    """The backend ``config[CONF_BACKEND]`` names, configured from ``config``.

    - llama_cpp: CONF_MODEL_PATH, CONF_THREADS
    - openai: CONF_BASE_URL, CONF_MODEL, CONF_API_KEY (optional)
    - ollama: CONF_BASE_URL, CONF_MODEL, CONF_API_KEY (optional, for a proxy)
    - ai_task: CONF_AI_TASK_ENTITY
    Raises ``ValueError`` for an unknown backend or a missing required key.
    """
    backend = config.get(CONF_BACKEND)
    if backend == BACKEND_LLAMA_CPP:
        from .llama_cpp import LlamaCppBackend

        return LlamaCppBackend(
            _required(config, CONF_MODEL_PATH),
            threads=int(config.get(CONF_THREADS) or DEFAULT_THREADS),
        )
    if backend == BACKEND_OPENAI:
        from .openai_compat import OpenAICompatBackend

        return OpenAICompatBackend(
            async_get_clientsession(hass),
            config.get(CONF_BASE_URL) or DEFAULT_OPENAI_URL,
            _required(config, CONF_MODEL),
            config.get(CONF_API_KEY) or None,
        )
    if backend == BACKEND_OLLAMA:
        from .ollama import OllamaBackend

        return OllamaBackend(
            async_get_clientsession(hass),
            config.get(CONF_BASE_URL) or DEFAULT_OLLAMA_URL,
            _required(config, CONF_MODEL),
            config.get(CONF_API_KEY) or None,
        )
    if backend == BACKEND_AI_TASK:
        from .ai_task import AITaskBackend

        return AITaskBackend(hass, _required(config, CONF_AI_TASK_ENTITY))
    raise ValueError(f"Unknown LLM backend {backend!r}")


async def async_validate_backend(hass: HomeAssistant, config: Mapping[str, Any]) -> None:
    """Check the backend answers before an entry is created or changed.

    Raises ``LLMAuthError`` (bad API key: show ``invalid_auth`` / start reauth),
    ``LLMUnavailableError`` (cannot connect, not installed, model file missing or not
    loadable, entity missing) or ``LLMResponseError`` (server reachable but the model
    is unknown or the reply unusable). Messages are meant for the user.
    """
    if config.get(CONF_BACKEND) == BACKEND_LLAMA_CPP and not llama_cpp_available():
        raise LLMUnavailableError(
            "llama-cpp-python is not installed in Home Assistant's Python environment"
        )
    try:
        # Wrapped so that errors shown in the form or the log carry no secret.
        backend = RedactingBackend(create_backend(hass, config), Redactor.from_config(config))
    except ValueError as err:
        raise LLMUnavailableError(str(err)) from err
    try:
        validate = getattr(backend, "async_validate", None)
        if validate is not None:
            if config.get(CONF_BACKEND) in (BACKEND_OPENAI, BACKEND_OLLAMA):
                await validate(timeout=VALIDATION_TIMEOUT)
            else:
                await validate()
    finally:
        await backend.async_close()


def create_detector(
    hass: HomeAssistant,
    config: Mapping[str, Any],
    rules: Detector,
    *,
    examples: Sequence[PromptExample] = (),
    suppressed: Sequence[str] = (),
) -> Detector:
    """The detector ``config[CONF_DETECTOR]`` names: ``rules``, or an LLM/hybrid one.

    For "llm" the result is a ``SafetyFloorDetector`` (the model judges, the urgent rule
    findings always stand); for "hybrid" a ``HybridDetector``. Either has the
    ``LLMDetector`` as ``.llm``: use ``llm_detector_of`` to reach it.
    """
    kind = config.get(CONF_DETECTOR, DEFAULT_DETECTOR)
    if kind not in (DETECTOR_LLM, DETECTOR_HYBRID):
        return rules
    # Every reply and error passes the redactor before anything can show or log it.
    backend = RedactingBackend(create_backend(hass, config), Redactor.from_config(config))
    timeout = float(config.get(CONF_REQUEST_TIMEOUT) or DEFAULT_REQUEST_TIMEOUT)
    llm = LLMDetector(
        backend,
        timeout=timeout,
        examples=examples,
        suppressed=suppressed,
    )
    if kind == DETECTOR_LLM:
        return SafetyFloorDetector(llm, rules)
    return HybridDetector(
        rules,
        llm,
        dismiss_up_to=Severity.MEDIUM if config.get(CONF_LLM_MAY_DISMISS) else None,
        add_min_severity=Severity.HIGH if config.get(CONF_LLM_MAY_ADD) else None,
        second_opinion=second_opinion_judge(config, backend, timeout),
        # The model words the findings for the homeowner; checked, else the template text.
        explainer=Explainer(backend, timeout=timeout),
        evidence_ranker=evidence_ranker(config, backend, timeout),
    )


def second_opinion_judge(
    config: Mapping[str, Any],
    backend: LLMBackend,
    timeout: float,
    calibration_file: Path = CALIBRATION_FILE,
) -> SecondOpinionJudge | None:
    """Scored second opinions, only for a model calibrated to benefit from them.

    The calibration is looked up by the model's name (the GGUF file's, or the server's
    model name); without one that acts on some question family nothing is asked, so an
    uncalibrated model costs no time and changes no label.
    """
    calibration = _calibration(config, calibration_file)
    if calibration is None or not any(calibration.acts_on(f) for f in calibration.families):
        return None
    return SecondOpinionJudge(backend, calibration, timeout=min(timeout, 30.0))


def evidence_ranker(
    config: Mapping[str, Any],
    backend: LLMBackend,
    timeout: float,
    calibration_file: Path = CALIBRATION_FILE,
) -> EvidenceRanker | None:
    """Evidence choice, only for a model whose stored thresholds were measured to help."""
    calibration = _calibration(config, calibration_file)
    if calibration is None or calibration.evidence is None or not calibration.evidence.acts:
        return None
    return EvidenceRanker(backend, calibration.evidence, timeout=min(timeout, 30.0))


def _calibration(config: Mapping[str, Any], calibration_file: Path) -> ModelCalibration | None:
    """The stored calibration of the configured model: by the GGUF file's name, the
    server's model name, or the AI Task entity's id."""
    name = config.get(CONF_MODEL_PATH) or config.get(CONF_MODEL)
    if config.get(CONF_BACKEND) == BACKEND_AI_TASK:
        name = config.get(CONF_AI_TASK_ENTITY)
    return load_calibration(str(name), calibration_file) if name else None


def llm_detector_of(detector: Detector) -> LLMDetector | None:
    """The LLMDetector inside ``detector`` (itself, a hybrid's or a floored one's), if any."""
    if isinstance(detector, LLMDetector):
        return detector
    if isinstance(detector, HybridDetector | SafetyFloorDetector) and isinstance(
        detector.llm, LLMDetector
    ):
        return detector.llm
    return None


def _required(config: Mapping[str, Any], key: str) -> str:
    value = config.get(key)
    if not value or not str(value).strip():
        raise ValueError(f"Missing {key} for the {config.get(CONF_BACKEND)} backend")
    return str(value).strip()


__all__ = [
    "async_validate_backend",
    "create_backend",
    "create_detector",
    "llama_cpp_available",
    "llm_detector_of",
]
