"""`core-bench view`: browse runs problem by problem in a static HTML page.

    from core_bench.view import write_viewer

    write_viewer([Path("runs/oracle"), Path("runs/gpt")], Path("view"))  # view/index.html

The page lists the problems with filters (model, task kind, verdict, family, probe kind; kept in
the address's `#` part, so a filtered view can be bookmarked), and shows for a problem its calls,
the original and each variant side by side with the changed lines marked, each model's answers
and verdicts, the probe questions with expected and given answers, every response, and for the
`trace` strategy the model's trace beside the real one with the first divergence marked. It
needs no server and no network (`index.html` opens from `file://`); `core-bench view --serve`
serves it on 127.0.0.1 as well.
"""

from __future__ import annotations

import functools
import http.server
import shutil
from pathlib import Path

from core_bench.report import load_runs
from core_bench.view._data import ViewData, collect, sandbox_traces
from core_bench.view._page import index_html, problem_script, script_json

__all__ = ["ViewData", "collect", "script_json", "serve", "write_viewer"]


def write_viewer(run_dirs: list[Path | str], out: Path | str, *, real_traces: bool = True) -> Path:
    """Write the viewer of these runs into the directory `out` and return its index.html.

    Args:
        run_dirs: run directories (`core-bench run`'s output).
        out: the viewer's directory (index.html and data/; an older data/ is replaced).
        real_traces: trace the calls the `trace` strategy was asked about again in the
            sandbox, to show the real trace beside the model's.

    Raises:
        ValueError: a path is not a run directory, or no run's benchmark can be read.
    """
    runs = load_runs([Path(p) for p in run_dirs], full_samples=True)
    target = Path(out)
    if real_traces:
        from tracer import SandboxPool

        benchmark = next(r.benchmark for r in runs if r.benchmark is not None)
        timeout = float(benchmark.manifest.options.get("timeout_s", 5.0)) if benchmark else 5.0
        with SandboxPool(workers=1) as pool:
            data = collect(runs, sandbox_traces(pool, timeout))
    else:
        data = collect(runs)
    data_dir = target / "data"
    if data_dir.exists():
        shutil.rmtree(data_dir)
    data_dir.mkdir(parents=True)
    files: dict[str, str] = {}
    for number, (problem_id, page) in enumerate(data.problems.items()):
        name = f"p{number:05d}.js"
        files[problem_id] = name
        (data_dir / name).write_text(problem_script(problem_id, page), encoding="utf-8")
    index = {
        "problems": [{**entry, "file": files[entry["id"]]} for entry in data.index],
        "facets": data.facets,
        "models": data.models,
    }
    title = f"core-bench view: {', '.join(data.models)}"
    index_path = target / "index.html"
    index_path.write_text(index_html(title, index), encoding="utf-8")
    return index_path


def serve(directory: Path | str, *, port: int = 8765) -> None:
    """Serve `directory` on http://127.0.0.1:`port`/ until interrupted (loopback only)."""
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(directory))
    with http.server.ThreadingHTTPServer(("127.0.0.1", port), handler) as server:
        print(f"serving {directory} on http://127.0.0.1:{server.server_address[1]}/index.html")
        server.serve_forever()
