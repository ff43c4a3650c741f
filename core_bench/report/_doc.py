"""The report as blocks, rendered once as markdown (report.md) and once as HTML (report.html),
so both carry the same content."""

from __future__ import annotations

from dataclasses import dataclass

from core_bench.report._tables import Table


@dataclass(frozen=True, slots=True)
class Heading:
    """A section heading (level 1 to 3)."""

    text: str
    level: int = 2


@dataclass(frozen=True, slots=True)
class Paragraph:
    """A paragraph of plain text (code spans in backticks are kept)."""

    text: str


@dataclass(frozen=True, slots=True)
class Image:
    """A PNG, by its path relative to the report's directory."""

    src: str
    alt: str


Block = Heading | Paragraph | Image | Table


def markdown(blocks: list[Block]) -> str:
    """report.md's text."""
    parts = []
    for block in blocks:
        if isinstance(block, Heading):
            parts.append(f"{'#' * block.level} {block.text}\n")
        elif isinstance(block, Paragraph):
            parts.append(block.text + "\n")
        elif isinstance(block, Image):
            parts.append(f"![{block.alt}]({block.src})\n")
        else:
            note = f": {block.note}" if block.note else ""
            parts.append(f"**{block.title}**{note}\n\n{block.markdown()}")
    return "\n".join(parts)
