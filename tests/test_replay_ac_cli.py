"""``--judge-backend`` end to end: the fixtures replayed, judged by a loopback server, cached."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
import sys
from typing import Any

from .judge_server import judge_server, rate_by_text

FIXTURES = Path(__file__).parent / "fixtures" / "smartbench"
REPO = Path(__file__).parent.parent


async def _run(out: Path, url: str, model: str = "by_text") -> tuple[int, str, str]:
    # An asyncio subprocess, so the judge server in this event loop keeps answering.
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "benchmark_replay",
        "smartbench",
        "--data",
        str(FIXTURES),
        "--mode",
        "direct",
        "--out",
        str(out),
        "--no-progress",
        "--no-plots",
        "--judge-backend",
        "openai",
        "--judge-model",
        model,
        "--judge-base-url",
        url,
        cwd=REPO,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    stdout, stderr = await asyncio.wait_for(process.communicate(), timeout=300)
    assert process.returncode is not None
    return process.returncode, stdout.decode(), stderr.decode()


def _reference(body: dict[str, Any]) -> str:
    user = str(body["messages"][1]["content"])
    return str(json.loads(user.split("REFERENCE (a JSON string):\n", 1)[1].split("\n", 1)[0]))


def _fixture_references() -> list[str]:
    found = []
    for path in FIXTURES.rglob("*.json"):
        data = json.loads(path.read_text())
        if data["label"] == "anomaly":
            found.append(data["reasoning"])
    return found


async def test_ac_column_and_cache(socket_enabled: None, tmp_path: Path) -> None:
    """AC figures follow the judge's replies; a rerun asks only for the unrated samples.

    In direct mode the rules flag all 10 fixture anomalies. The loopback judge rates
    "Smoke" 5, "Moisture" 4, anything else 2, and answers prose (unrated) for the two
    "unavailable" explanations: ci 5,4,2,2,2 + 1 unrated -> AC 3.0, 2/5 valid;
    cd-argus 2,2 -> 2.0; cd-tdcs 4 + 1 unrated -> 4.0; all 23/8.
    """
    async with judge_server() as server:
        code, stdout, stderr = await _run(tmp_path, server.url)
        assert code == 0, stderr
        assert len(server.requests) == 10
        assert "AC judge: 10 flagged anomalies, 0 cached, 10 asked, 2 unrated" in stderr
        assert "## AC score (LLM judge of the reasoning)" in stdout
        assert "| ci | 6 | 5 | 3.000 | 0.400 | 3.000 | 1 |" in stdout
        assert "| cd-argus | 2 | 2 | 2.000 | 0.000 | 2.000 | 0 |" in stdout
        assert "| cd-tdcs | 2 | 1 | 4.000 | 1.000 | 4.000 | 1 |" in stdout
        assert "| all | 10 | 8 | 2.875 | 0.375 | 2.875 | 2 |" in stdout
        assert "- **AC judge**: openai by_text at " in stdout

        rows = [json.loads(line) for line in (tmp_path / "samples.jsonl").read_text().splitlines()]
        for row in rows:
            if row["label"] == "normal":
                assert row["ac"] is None
                continue
            # each row's AC is what the judge said about that row's own explanation
            reply = rate_by_text(row["verdict"]["reasoning"])
            expected = json.loads(reply)["score"] if reply.startswith("{") else None
            assert row["ac"] == expected, row["key"]
            assert (row["ac_error"] is None) == (expected is not None)
        metrics = json.loads((tmp_path / "metrics.json").read_text())
        assert metrics["subsets"]["ci"]["ac"] == 3.0
        assert metrics["overall"]["ac_valid"] == 0.375
        assert metrics["overall"]["ac_errors"] == 2
        # each anomaly's reference reasoning reached the judge, quoted
        sent = sorted(_reference(body) for body in server.requests)
        assert sent == sorted(_fixture_references())

        code, stdout, stderr = await _run(tmp_path, server.url)
        assert code == 0, stderr
        assert "20 cached, 0 to run" in stderr
        assert "AC judge: 10 flagged anomalies, 8 cached, 2 asked, 2 unrated" in stderr
        assert len(server.requests) == 12
        assert "| all | 10 | 8 | 2.875 | 0.375 | 2.875 | 2 |" in stdout

        code, stdout, stderr = await _run(tmp_path, server.url, model="bare")
        assert code == 0, stderr
        assert "0 cached, 10 asked, 0 unrated" in stderr  # another judge: judged anew
        assert "| all | 10 | 10 | 4.000 | 1.000 | 4.000 | 0 |" in stdout


async def test_judge_options_are_checked_before_the_replay(tmp_path: Path) -> None:
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "benchmark_replay",
        "smartbench",
        "--data",
        str(FIXTURES),
        "--out",
        str(tmp_path),
        "--judge-backend",
        "llama_cpp",
        cwd=REPO,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    _, stderr = await asyncio.wait_for(process.communicate(), timeout=120)
    assert process.returncode == 1
    assert "needs --judge-model-path" in stderr.decode()
    assert not (tmp_path / "predictions.jsonl").exists()
