"""The viewer's page: one HTML file with its style and script inline, and one script file of
data per problem, loaded on demand with a `<script>` element (which works from `file://`,
where `fetch` of a local file does not). No network resource is referenced.

Every value from a run (model responses above all) reaches the DOM through `textContent`,
never as markup; the JSON embedded in scripts has `<`, `>`, `&` and the line separators
escaped, so no text can close the script element it sits in.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any


@cache
def _asset(name: str) -> str:
    """A file shipped beside this module (viewer.css, viewer.js)."""
    return resources.files("core_bench.view").joinpath(name).read_text(encoding="utf-8")


def script_json(value: Any) -> str:
    """`value` as JSON that is safe inside a `<script>` element (and inside a JS file)."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    for raw, escaped in (
        ("&", "\\u0026"),
        ("<", "\\u003c"),
        (">", "\\u003e"),
        ("\u2028", "\\u2028"),
        ("\u2029", "\\u2029"),
    ):
        text = text.replace(raw, escaped)
    return text


def index_html(title: str, index: dict[str, Any]) -> str:
    """The page: filters, the problem list, the detail pane, and the index as JSON."""
    safe_title = title.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{safe_title}</title>\n<style>{_asset('viewer.css')}</style>\n</head>\n<body>\n"
        f'<header><h1>{safe_title}</h1><div id="filters"></div></header>\n'
        '<main><nav id="list"></nav><section id="detail">'
        '<div class="empty">Choose a problem on the left.</div></section></main>\n'
        f'<script type="application/json" id="cb-index">{script_json(index)}</script>\n'
        f"<script>{_asset('viewer.js')}</script>\n</body>\n</html>\n"
    )


def problem_script(problem_id: str, page: dict[str, Any]) -> str:
    """The data file of one problem: a call that hands its page to the viewer."""
    return f"window.coreBenchLoad({script_json(problem_id)}, {script_json(page)});\n"
