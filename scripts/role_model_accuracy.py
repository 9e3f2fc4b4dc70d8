"""How well a device's role is read from its friendly name: whole words vs a local model.

Issue #25 part 3. ``tests/fixtures/device_names/*.yaml`` lists real-world plug and switch
names (integration defaults and names people give, five languages) with the role a person
would read. Each name is judged three ways: behaviour alone (a name list has none: every
device is "other" until it has been seen working), the whole-word hints
(``core/role_words.py``), and the model, asked one scored yes/no question per role
(``core/role_question.py``). Prints the accuracy of each and the names they get wrong.

    .venv/bin/python scripts/role_model_accuracy.py [--model PATH] [--threads 2]
"""

from __future__ import annotations

import argparse
import asyncio
from pathlib import Path
import sys
import time

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from custom_components.anomaly_monitor.backends.llama_cpp import LlamaCppBackend
from custom_components.anomaly_monitor.core.device_roles import SWITCHABLE_ROLES
from custom_components.anomaly_monitor.core.role_question import async_model_role
from custom_components.anomaly_monitor.core.role_words import name_role

FIXTURES = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "device_names"


def load_names() -> list[dict[str, str]]:
    """Every fixture row: name and expected role."""
    rows: list[dict[str, str]] = []
    for path in sorted(FIXTURES.glob("*.yaml")):
        rows += yaml.safe_load(path.read_text(encoding="utf-8"))
    return rows


async def judge(rows: list[dict[str, str]], model: Path | None, threads: int) -> list[dict]:
    """Each row with the words' and (with a model) the model's answer."""
    backend = LlamaCppBackend(str(model), threads=threads) if model else None
    judged = []
    try:
        for row in rows:
            words = name_role(row["name"], "switch", None) or "other"
            answer = {"name": row["name"], "role": row["role"], "words": words}
            if backend is not None:
                role, scores = await async_model_role(
                    backend, row["name"], "switch", None, choices=SWITCHABLE_ROLES, timeout=180
                )
                answer |= {"model": role.value, "scores": scores}
                print(
                    f"  {row['name']!r}: {row['role']} words={words} model={role.value}", flush=True
                )
            judged.append(answer)
    finally:
        if backend is not None:
            await backend.async_close()
    return judged


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", type=Path, help="GGUF file (default: the test model)")
    parser.add_argument("--no-model", action="store_true", help="words and behaviour only")
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    model = None
    if not args.no_model:
        from tests.gguf_models import qwen_05b

        model = args.model or qwen_05b()
    rows = load_names()
    started = time.monotonic()
    judged = asyncio.run(judge(rows, model, args.threads))
    n = len(judged)
    print(f"{n} names, {time.monotonic() - started:.0f} s, model: {model.name if model else '-'}")
    ways = {"behaviour alone": lambda r: "other", "words": lambda r: r["words"]}
    if model:
        ways["model"] = lambda r: r["model"]
        ways["words, else model"] = lambda r: r["words"] if r["words"] != "other" else r["model"]
    for label, answer in ways.items():
        right = sum(answer(r) == r["role"] for r in judged)
        named = [r for r in judged if r["role"] != "other"]
        found = sum(answer(r) == r["role"] for r in named)
        wrong_role = sum(answer(r) not in ("other", r["role"]) for r in judged)
        print(
            f"{label:20} accuracy {right / n:.3f}  appliances found {found}/{len(named)}"
            f"  wrong role given {wrong_role}"
        )
    for r in judged:
        misses = [k for k in ("words", "model") if k in r and r[k] != r["role"]]
        if misses:
            got = ", ".join(f"{k}={r[k]}" for k in misses)
            print(f"  {r['name']!r} ({r['role']}): {got}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
