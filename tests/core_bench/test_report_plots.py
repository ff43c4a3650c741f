"""The report's plots as a reader sees them: one 0-100 scale, no overlapping or clipped text,
legends off the data, buckets in numeric order and the same as the tables'."""

from __future__ import annotations

from itertools import combinations
from pathlib import Path

import pytest
from matplotlib.figure import Figure
from matplotlib.text import Text
from matplotlib.transforms import Bbox

from core_bench.report import load_runs
from core_bench.report._plots import figures
from core_bench.runs import RunResult

AGENTS = ("oracle", "superficial", "style-biased")


@pytest.fixture(scope="module")
def drawn(agent_runs: dict[str, RunResult]) -> list[tuple[str, Figure]]:
    runs = load_runs([agent_runs[agent].out for agent in AGENTS])
    made = [(plot.name, figure) for plot, figure in figures(runs) if figure is not None]
    assert {name for name, _ in made} == {
        "robustness_heatmap",
        "accuracy_by_dimension",
        "superficial_quadrant",
        "accuracy_by_trace_length",
    }
    for _, figure in made:
        figure.canvas.draw()  # lay out, so text extents are final
    return made


def _texts(figure: Figure) -> list[Text]:
    """Every text drawn on the figure: titles, axis labels, annotations, legends, and the tick
    labels of ticks inside the axes' range (matplotlib keeps hidden ones beyond it)."""
    found: list[Text] = [*figure.texts]
    for legend in figure.legends:
        found.extend(legend.get_texts())
    for axes in figure.axes:
        found.extend([axes.title, axes.xaxis.label, axes.yaxis.label, *axes.texts])
        legend = axes.get_legend()
        if legend is not None:
            found.extend(legend.get_texts())
        for axis in (axes.xaxis, axes.yaxis):
            low, high = sorted(axis.get_view_interval())
            for tick in axis.get_major_ticks():
                if low - 1e-9 <= tick.get_loc() <= high + 1e-9:
                    found.extend(t for t in (tick.label1, tick.label2) if t.get_visible())
    return [t for t in found if t.get_visible() and t.get_text().strip()]


def _extent(text: Text, figure: Figure) -> Bbox:
    return text.get_window_extent(renderer=figure.canvas.get_renderer())  # type: ignore[attr-defined]


def test_no_text_overlaps_other_text(drawn: list[tuple[str, Figure]]) -> None:
    for name, figure in drawn:
        boxes = [(t.get_text(), _extent(t, figure)) for t in _texts(figure)]
        overlapping = [
            (a, b)
            for (a, box_a), (b, box_b) in combinations(boxes, 2)
            if box_a.overlaps(box_b) and box_a.width > 0 and box_b.width > 0
        ]
        assert not overlapping, f"{name}: {overlapping[:5]}"


def test_nothing_is_clipped_by_the_figure_edge(drawn: list[tuple[str, Figure]]) -> None:
    for name, figure in drawn:
        edge = figure.bbox
        for text in _texts(figure):
            box = _extent(text, figure)
            inside = (
                box.x0 >= edge.x0 - 1
                and box.y0 >= edge.y0 - 1
                and box.x1 <= edge.x1 + 1
                and box.y1 <= edge.y1 + 1
            )
            assert inside, f"{name}: {text.get_text()!r} is cut at the edge"


def test_legends_do_not_cover_the_data(drawn: list[tuple[str, Figure]]) -> None:
    for name, figure in drawn:
        renderer = figure.canvas.get_renderer()  # type: ignore[attr-defined]
        for legend in figure.legends:
            box = legend.get_window_extent(renderer)
            for axes in figure.axes:
                if axes.get_label() == "<colorbar>":
                    continue
                assert not box.overlaps(axes.get_window_extent(renderer)), name


def test_one_scale_of_0_to_100(drawn: list[tuple[str, Figure]]) -> None:
    for name, figure in drawn:
        for axes in figure.axes:
            if name == "robustness_heatmap" or axes.get_label() == "<colorbar>":
                continue
            low, high = axes.get_ylim()
            assert high >= 100 and low <= 0, (name, low, high)
            assert "100" in axes.get_ylabel() or [t.get_text() for t in axes.get_yticklabels()]


def test_position_buckets_sort_numerically_and_match_the_tables(
    drawn: list[tuple[str, Figure]],
) -> None:
    figure = dict(drawn)["accuracy_by_trace_length"]
    labels = [t.get_text().split("\n")[0] for t in figure.axes[0].get_xticklabels()]
    starts = [int(label.split("-")[0].rstrip("+")) for label in labels]
    assert starts == sorted(starts)
    from core_bench.metrics import position_bucket

    every = {position_bucket(i) for i in range(200)}
    assert set(labels) <= every


def test_heatmap_cells_show_n(drawn: list[tuple[str, Figure]]) -> None:
    figure = dict(drawn)["robustness_heatmap"]
    cells = [t.get_text() for t in figure.axes[0].texts]
    assert cells and all("n=" in cell for cell in cells)


def test_report_still_writes_every_png(tmp_path: Path, drawn: list[tuple[str, Figure]]) -> None:
    from core_bench.report._plots import _save

    for name, figure in drawn:
        path = _save(figure, tmp_path / f"{name}.png")
        assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
