"""`core-bench view`: the data it shows, hostile responses, and the page in a real browser."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from collections import defaultdict
from pathlib import Path

import pytest
from shared_builds import small_benchmark

from core_bench.benchmark import load_benchmark
from core_bench.cli import main
from core_bench.runs import RunConfig, read_samples, run
from core_bench.view import script_json, write_viewer

HOSTILE = "</script><script>document.title='pwned'</script><!--\u2028"


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    bench = Path(small_benchmark(tmp_path_factory.getbasetemp()))
    root = tmp_path_factory.mktemp("view-runs")
    made = []
    for agent in ("oracle", "superficial"):
        out = root / agent
        config = RunConfig(
            model=f"ref:{agent}", bench=bench, out=out, strategies=("direct", "trace")
        )
        run(config, progress=False)
        made.append(out)
    # one response of the superficial run is hostile text, as a model may write
    path = made[1] / "samples.jsonl"
    lines = path.read_text().splitlines()
    first = json.loads(lines[0])
    first["response"] = HOSTILE
    first["answer"] = HOSTILE
    lines[0] = json.dumps(first)
    path.write_text("\n".join(lines) + "\n")
    return made


@pytest.fixture(scope="module")
def viewer(runs: list[Path], tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("viewer")
    write_viewer(runs, out)
    return out


def _pages(viewer: Path) -> dict[str, dict]:  # type: ignore[type-arg]
    pages = {}
    for path in (viewer / "data").glob("*.js"):
        found = re.fullmatch(r"window\.coreBenchLoad\((\".*?\"), (.*)\);\n", path.read_text(), re.S)
        assert found is not None
        pages[json.loads(found.group(1))] = json.loads(found.group(2))
    return pages


def test_every_sample_of_every_run_is_on_its_problem_page(runs: list[Path], viewer: Path) -> None:
    pages = _pages(viewer)
    bench = load_benchmark(
        Path(json.loads((runs[0] / "manifest.json").read_text())["benchmark"]["path"])
    )
    assert set(pages) == {p.id for p in bench.problems}
    for run_dir, label in zip(runs, ("ref:oracle", "ref:superficial"), strict=True):
        expected = defaultdict(set)
        for sample in read_samples(run_dir / "samples.jsonl"):
            expected[sample.problem_id].add((sample.task_id, sample.verdict))
        for problem_id, page in pages.items():
            shown = {
                (
                    f"{r['strategy']}/{r['task']}/"
                    + (r["probe"] or f"{r['variant']}:c{r['call']}"),
                    r["verdict"],
                )
                for r in page["samples"]
                if r["model"] == label
            }
            assert shown == expected[problem_id]


def test_variants_show_their_changed_lines_against_the_original(viewer: Path) -> None:
    for page in _pages(viewer).values():
        original = next(v for v in page["variants"] if v["kind"] == "original")
        assert original["changed"] == {"before": [], "after": []}
        for variant in page["variants"]:
            if variant["code"] != original["code"]:
                assert variant["changed"]["after"] or variant["changed"]["before"]


def test_trace_samples_carry_the_real_trace_and_the_first_divergence(viewer: Path) -> None:
    traces = [
        (r["model"], r["trace"])
        for page in _pages(viewer).values()
        for r in page["samples"]
        if r.get("trace")
    ]
    assert traces
    oracle = [t for model, t in traces if model == "ref:oracle"]
    assert oracle and all(t["diverge"] == [None, None] for t in oracle)  # the oracle's is right
    assert all(t["real"] for _, t in traces)


def test_hostile_text_cannot_close_the_script_it_sits_in(viewer: Path) -> None:
    assert "</script><script>document.title" not in (viewer / "index.html").read_text()
    for path in (viewer / "data").glob("*.js"):
        text = path.read_text()
        assert "</script" not in text and "<!--" not in text and "\u2028" not in text
    assert json.loads(script_json(HOSTILE)) == HOSTILE


def test_the_command_writes_the_viewer(runs: list[Path], tmp_path: Path) -> None:
    assert main(["view", str(runs[0]), "--out", str(tmp_path / "v"), "--no-traces"]) == 0
    assert (tmp_path / "v" / "index.html").is_file()
    assert main(["view", str(tmp_path / "nothing"), "--out", str(tmp_path / "w")]) == 2


def _chromium() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


def _dom(browser: str, url: str, tmp_path: Path) -> str:
    command = [
        browser,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--no-first-run",
        f"--user-data-dir={tmp_path / 'profile'}",
        "--virtual-time-budget=5000",
        "--dump-dom",
        url,
    ]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


@pytest.mark.skipif(_chromium() is None, reason="no Chromium here (.ci/run installs it)")
def test_in_a_browser_the_filters_and_the_problem_page_work(
    runs: list[Path], viewer: Path, tmp_path: Path
) -> None:
    browser = _chromium()
    assert browser is not None
    url = (viewer / "index.html").resolve().as_uri()
    dom = _dom(browser, url, tmp_path)
    problems = len(list((viewer / "data").glob("*.js")))
    assert f'data-shown="{problems}"' in dom
    assert dom.count("data-problem=") == problems
    # the wrong answers are all the superficial agent's: the verdict filter keeps the problems
    # that have one, and the model filter narrows to the oracle, which has none
    wrong = {
        s.problem_id for s in read_samples(runs[1] / "samples.jsonl") if s.verdict != "correct"
    }
    assert wrong
    dom = _dom(browser, f"{url}#verdict=wrong", tmp_path)
    assert f'data-shown="{len({*wrong} & {*_wrong_verdicts(runs, "wrong")})}"' in dom
    dom = _dom(browser, f"{url}#verdict=wrong&model=ref%3Aoracle", tmp_path)
    assert 'data-shown="0"' in dom
    target = sorted(wrong)[0]
    dom = _dom(browser, f"{url}#problem={target}", tmp_path)
    assert f'data-rendered="{target}"' in dom
    assert dom.count('class="variant"') == len(_pages(viewer)[target]["variants"])
    assert "pwned" not in dom.split("<title>")[1].split("</title>")[0]
    assert "first divergence marked" in dom or "the same" in dom


def _wrong_verdicts(runs: list[Path], verdict: str) -> set[str]:
    return {
        s.problem_id
        for r in runs
        for s in read_samples(r / "samples.jsonl")
        if s.verdict == verdict
    }
