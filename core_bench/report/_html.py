"""report.html: the blocks of report.md as one self-contained page (PNGs embedded)."""

from __future__ import annotations

import base64
import html
import re
from pathlib import Path

from core_bench.report._doc import Block, Heading, Image, Paragraph
from core_bench.report._tables import Table

_STYLE = """
body { font-family: sans-serif; max-width: 70em; margin: 2em auto; padding: 0 1em; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; font-size: 0.9em; }
th, td { border: 1px solid #ccc; padding: 0.2em 0.6em; text-align: left; }
th { background: #f0f0f0; }
img { max-width: 100%; }
code { background: #f4f4f4; padding: 0 0.2em; }
"""


def _inline(text: str) -> str:
    escaped = html.escape(text)
    return re.sub(r"`([^`]+)`", r"<code>\1</code>", escaped)


def _table(table: Table) -> str:
    head = "".join(f"<th>{html.escape(h)}</th>" for h in table.headers)
    body = "".join(
        "<tr>" + "".join(f"<td>{html.escape(cell)}</td>" for cell in row) + "</tr>"
        for row in table.rows
    )
    note = f": {html.escape(table.note)}" if table.note else ""
    caption = f"<caption><strong>{html.escape(table.title)}</strong>{note}</caption>"
    return f"<table>{caption}<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _image(image: Image, root: Path) -> str:
    path = root / image.src
    if path.is_file():
        data = base64.b64encode(path.read_bytes()).decode("ascii")
        src = f"data:image/png;base64,{data}"
    else:
        src = html.escape(image.src)
    return f'<p><img src="{src}" alt="{html.escape(image.alt)}"></p>'


def render(blocks: list[Block], root: Path, title: str) -> str:
    """The page; images are read from `root` (the report's directory) and embedded."""
    parts = []
    for block in blocks:
        if isinstance(block, Heading):
            parts.append(f"<h{block.level}>{_inline(block.text)}</h{block.level}>")
        elif isinstance(block, Paragraph):
            parts.append(f"<p>{_inline(block.text)}</p>")
        elif isinstance(block, Image):
            parts.append(_image(block, root))
        else:
            parts.append(_table(block))
    body = "\n".join(parts)
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{html.escape(title)}</title>\n<style>{_STYLE}</style>\n</head>\n"
        f"<body>\n{body}\n</body>\n</html>\n"
    )
