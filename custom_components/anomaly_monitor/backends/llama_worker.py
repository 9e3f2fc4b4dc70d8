"""Worker process that runs llama-cpp-python, so a crash in native code kills only it.

Run as a script (``python -P -u llama_worker.py``); it imports nothing from the
integration. Protocol: one JSON object per line on stdin, one reply per line on stdout,
each carrying the request's ``id``.

- ``{"op": "load", "model_path", "n_threads", "n_ctx", "chat_format"}`` -> ``{"ok": true}``
- ``{"op": "generate", "messages", "schema", "max_tokens", "prefix_cache"}`` ->
  ``{"text", "prompt_tokens", "completion_tokens", "cached_tokens", "seconds"}``
- ``{"op": "first_token", "messages", "words", "top", "prefix_cache"}`` ->
  ``{"text", "logprobs": {token: logprob}, "prompt_tokens", "cached_tokens", "seconds"}``:
  the first answer token's log-probabilities, read from the logits the sampler sees
  (llama-cpp-python's own ``logprobs`` needs ``logits_all``, a full vocabulary row per
  context token: ~2.4 GB at 4096 tokens for Qwen). ``logprobs`` holds the ``top`` tokens
  and the first token of every spelling of ``words`` ("yes", "Yes", " yes", ...).
- any failure -> ``{"error": "..."}``

Native code may print to file descriptor 1, so the protocol gets a private copy of it and
fd 1 is pointed at stderr before llama.cpp is loaded.

Prefix caching: llama-cpp-python keeps the KV cache of the last prompt and evaluates only
the tokens after the longest common prefix. Prompts put the static instructions first,
so each analysis evaluates only its window. ``prefix_cache: false`` resets the cache first
(used by the benchmark to measure the difference).
"""

from __future__ import annotations

import json
import os
import sys
import time
from typing import Any


def _load(request: dict[str, Any]) -> Any:
    from llama_cpp import Llama

    threads = int(request.get("n_threads") or 2)
    return Llama(
        model_path=str(request["model_path"]),
        n_ctx=int(request.get("n_ctx") or 4096),
        n_threads=threads,
        n_threads_batch=threads,
        chat_format=request.get("chat_format") or None,
        verbose=False,
    )


def _common_prefix(a: list[int], b: list[int]) -> int:
    length = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        length += 1
    return length


def _generate(llm: Any, request: dict[str, Any]) -> dict[str, Any]:
    if not request.get("prefix_cache", True):
        llm.reset()
    previous = list(llm._input_ids[: llm.n_tokens])  # what the KV cache holds now
    kwargs: dict[str, Any] = {}
    if request.get("schema"):
        kwargs["response_format"] = {"type": "json_object", "schema": request["schema"]}
    started = time.perf_counter()
    result = llm.create_chat_completion(
        messages=request["messages"],
        max_tokens=int(request.get("max_tokens") or 256),
        temperature=0.0,
        **kwargs,
    )
    seconds = time.perf_counter() - started
    usage = result.get("usage") or {}
    prompt_tokens = int(usage.get("prompt_tokens") or 0)
    prompt = list(llm._input_ids[:prompt_tokens])
    return {
        "text": result["choices"][0]["message"].get("content") or "",
        "prompt_tokens": prompt_tokens,
        "completion_tokens": int(usage.get("completion_tokens") or 0),
        # llama-cpp-python re-evaluates at least the last prompt token.
        "cached_tokens": min(_common_prefix(previous, prompt), max(0, prompt_tokens - 1)),
        "seconds": round(seconds, 3),
    }


def _spellings(word: str) -> list[str]:
    forms = {word.lower(), word.capitalize(), word.upper()}
    return sorted(forms | {f" {form}" for form in forms})


def _first_token(llm: Any, request: dict[str, Any]) -> dict[str, Any]:
    import numpy as np

    if not request.get("prefix_cache", True):
        llm.reset()
    previous = list(llm._input_ids[: llm.n_tokens])
    captured: list[Any] = []

    def capture(_ids: Any, logits: Any) -> Any:
        if not captured:  # the first token only
            captured.append(np.array(logits, dtype=np.float64, copy=True))
        return logits

    started = time.perf_counter()
    result = llm.create_chat_completion(
        messages=request["messages"], max_tokens=1, temperature=0.0, logits_processor=[capture]
    )
    seconds = time.perf_counter() - started
    if not captured:
        raise RuntimeError("no logits were seen for the first token")
    logits = captured[0]
    shifted = logits - logits.max()
    logprobs = shifted - np.log(np.exp(shifted).sum())
    top = max(0, min(20, int(request.get("top") or 5)))
    ids = {int(i) for i in np.argsort(-logprobs)[:top]}
    for word in request.get("words") or ():
        for form in _spellings(str(word)[:20]):
            tokens = llm.tokenize(form.encode(), add_bos=False, special=False)
            if tokens:
                ids.add(int(tokens[0]))
    scored: dict[str, float] = {}
    for token_id in sorted(ids, key=lambda i: -logprobs[i]):
        text = llm.detokenize([token_id]).decode("utf-8", errors="replace")
        scored.setdefault(text, float(logprobs[token_id]))
    usage = result.get("usage") or {}
    prompt_tokens = int(usage.get("prompt_tokens") or 0)
    prompt = list(llm._input_ids[:prompt_tokens])
    return {
        "text": result["choices"][0]["message"].get("content") or "",
        "logprobs": scored,
        "prompt_tokens": prompt_tokens,
        "completion_tokens": 1,
        "cached_tokens": min(_common_prefix(previous, prompt), max(0, prompt_tokens - 1)),
        "seconds": round(seconds, 3),
    }


def main() -> None:
    """Serve requests until stdin closes."""
    protocol = os.fdopen(os.dup(1), "w", buffering=1, encoding="utf-8")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    llm: Any = None
    for line in sys.stdin:
        if not line.strip():
            continue
        request_id: Any = None
        try:
            request = json.loads(line)
            request_id = request.get("id")
            op = request.get("op")
            if op == "load":
                llm = None  # free the old model before loading another
                llm = _load(request)
                reply: dict[str, Any] = {"ok": True, "n_ctx": llm.n_ctx()}
            elif op == "generate":
                if llm is None:
                    raise RuntimeError("no model loaded")
                reply = _generate(llm, request)
            elif op == "first_token":
                if llm is None:
                    raise RuntimeError("no model loaded")
                reply = _first_token(llm, request)
            elif op == "ping":
                reply = {"ok": True, "pid": os.getpid()}
            else:
                raise ValueError(f"unknown op {op!r}")
        except Exception as err:  # report, keep serving
            reply = {"error": f"{type(err).__name__}: {err}"}
        reply["id"] = request_id
        protocol.write(json.dumps(reply) + "\n")


if __name__ == "__main__":
    main()
