"""The README's Python snippets run as pasted: each ```python block runs in a fresh
interpreter in an empty directory, on the bundled data and reference agents (no network)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

README = Path(__file__).resolve().parent.parent / "README.md"
BLOCKS = re.findall(r"^```python\n(.*?)^```$", README.read_text(encoding="utf-8"), re.M | re.S)


def test_the_readme_has_python_snippets() -> None:
    assert len(BLOCKS) >= 2


@pytest.mark.parametrize("code", BLOCKS, ids=[f"snippet{i}" for i in range(len(BLOCKS))])
def test_a_readme_snippet_runs(code: str, tmp_path: Path) -> None:
    env = {**os.environ, "OPENAI_API_KEY": "", "CORE_BENCH_CACHE": str(tmp_path / "cache")}
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, f"README snippet failed:\n{code}\n{done.stderr[-3000:]}"
