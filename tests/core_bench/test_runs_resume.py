"""A run killed with SIGKILL and started again: no answered request twice, the same samples."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from shared_builds import small_benchmark

from core_bench.benchmark import load_benchmark
from core_bench.fake_openai import FakeOpenAI, answers_for, tasks_of
from core_bench.runs import prompts

LIMIT = "2"


def command(url: str, bench: Path, out: Path) -> list[str]:
    return [
        sys.executable,
        "-m",
        "core_bench.cli",
        "run",
        "--model",
        "openai:fake-model",
        "--base-url",
        url,
        "--bench",
        str(bench),
        "--out",
        str(out),
        "--limit",
        LIMIT,
        "--concurrency",
        "4",
        "--quiet",
    ]


def cached_rows(path: Path) -> int:
    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=1) as db:
            return int(db.execute("SELECT COUNT(*) FROM responses").fetchone()[0])
    except sqlite3.Error:
        return 0


def cached_prompt_hashes(path: Path) -> set[str]:
    with sqlite3.connect(path) as db:
        return {h for (h,) in db.execute("SELECT prompt_hash FROM responses")}


def test_sigkill_halfway_then_rerun_repeats_no_answered_request(
    tmp_path_factory: pytest.TempPathFactory, tmp_path: Path
) -> None:
    bench_dir = small_benchmark(tmp_path_factory.getbasetemp())
    tasks = tasks_of(load_benchmark(bench_dir), limit=int(LIMIT))
    answers = answers_for(tasks)
    env = {**os.environ, "OPENAI_API_KEY": "test-key"}
    killed_out, clean_out = tmp_path / "killed", tmp_path / "clean"
    with FakeOpenAI(answers, latency_s=0.03) as server:
        run = subprocess.Popen(
            command(server.url, bench_dir, killed_out),
            env=env,
            start_new_session=True,  # its sandbox workers die with it
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        cache = killed_out / "cache.sqlite"
        deadline = time.monotonic() + 60
        while cached_rows(cache) < len(answers) // 3:
            assert run.poll() is None, run.stderr.read() if run.stderr else ""
            assert time.monotonic() < deadline, "the run made no progress"
            time.sleep(0.02)
        os.killpg(run.pid, signal.SIGKILL)
        run.wait()
        assert run.returncode == -signal.SIGKILL
        answered = cached_prompt_hashes(cache)
        before = dict(server.counts)
        assert 0 < len(answered) < len(answers), "killed halfway, not before or after"
        for line in (killed_out / "samples.jsonl").read_text().splitlines():
            json.loads(line)  # whole lines only, even after SIGKILL

        resumed = subprocess.run(
            command(server.url, bench_dir, killed_out), env=env, capture_output=True, text=True
        )
        assert resumed.returncode == 0, resumed.stderr
        assert f"{len(answers) - len(answered)} requested, 0 failed" in resumed.stdout
        for prompt, count in server.counts.items():
            digest = prompts.messages_hash([{"role": "user", "content": prompt}])
            if digest in answered:
                assert count == 1, f"an answered request was sent again ({count} times)"
        in_flight = sum(server.counts.values()) - len(server.counts)
        assert in_flight <= 4  # at most the requests in flight at the kill are repeated
        assert set(server.counts) == set(answers)
        assert sum(before.values()) < sum(server.counts.values())

        clean = subprocess.run(
            command(server.url, bench_dir, clean_out), env=env, capture_output=True, text=True
        )
        assert clean.returncode == 0, clean.stderr
    resumed_samples = (killed_out / "samples.jsonl").read_bytes()
    assert resumed_samples == (clean_out / "samples.jsonl").read_bytes()
    assert len(resumed_samples.splitlines()) == len(tasks)
    manifest = json.loads((killed_out / "manifest.json").read_text())
    assert manifest["status"] == "complete"
