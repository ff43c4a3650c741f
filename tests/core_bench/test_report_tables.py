"""Tables of a report from MetricRows alone: any metric, runs side by side, gaps shown."""

from __future__ import annotations

from pathlib import Path

from core_bench.report import RunData, Table
from core_bench.report._doc import Heading, Image, Paragraph, markdown
from core_bench.report._glossary import FEW_ITEMS
from core_bench.report._html import render
from core_bench.report._tables import format_value, headline_table, metric_tables, summary_csv
from core_bench.schemas import MetricRow


def row(model: str, metric: str, group: str, value: float, **extra: object) -> MetricRow:
    return MetricRow.model_validate(
        {
            "model": model,
            "strategy": "cot",
            "task": "probe",
            "metric": metric,
            "group": group,
            "value": value,
            "n": 7,
            **extra,
        }
    )


def runs() -> list[RunData]:
    a = RunData(
        Path("runs/a"), "m-a", {}, [row("m-a", "Ws", "all", 50.0), row("m-a", "x|y", "g", 0.5)]
    )
    b = RunData(
        Path("runs/b"), "m-b", {}, [row("m-b", "Ws", "all", 0.1234, ci_low=0.1, ci_high=0.2)]
    )
    return [a, b]


def test_format_value_shows_interval_and_n() -> None:
    assert format_value(row("m", "I", "all", 12.5, n=30)) == "12.5 (n=30)"
    assert format_value(row("m", "I", "all", 0.1234, ci_low=0.1, ci_high=0.2, n=45)) == (
        "0.123 [0.1, 0.2] (n=45)"
    )


def test_rows_over_too_few_items_are_marked() -> None:
    assert format_value(row("m", "I", "all", 12.5)) == "12.5 (n=7, few)"
    assert FEW_ITEMS == 30
    assert format_value(row("m", "I", "all", 1.0, n=29)).endswith("(n=29, few)")


def test_headline_has_meanings_beside_numbers_and_reference_columns() -> None:
    def headline_row(model: str, task: str, metric: str, group: str, value: float) -> MetricRow:
        return MetricRow(
            model=model, strategy="direct", task=task, metric=metric, group=group, value=value, n=50
        )

    model = RunData(
        Path("runs/m"),
        "m",
        {},
        [
            headline_row("m", "output", "pass@1", "original", 40.0),
            headline_row("m", "output", "core_I", "all", 10.0),
            headline_row("m", "probe", "core_Ws", "all", 20.0),
            headline_row("m", "core", "core_Cons", "all", 90.0),
        ],
    )
    oracle = RunData(
        Path("runs/o"),
        "ref:oracle",
        {},
        [headline_row("ref:oracle", "output", "core_I", "all", 100)],
    )
    table = headline_table([model], [("ref:oracle (ceiling)", oracle)])
    assert table.headers == ["metric", "meaning", "m direct", "ref:oracle (ceiling) direct"]
    by_label = {r[0]: r for r in table.rows}
    labels = [r[0] for r in table.rows]
    # Cons sits right after the I and Ws it comes from.
    assert labels.index("core_Cons") == labels.index("core_Ws") + 1 == labels.index("core_I") + 2
    assert by_label["core_I"][2:] == ["10 (n=50)", "100 (n=50)"]
    assert by_label["input pass@1"][2:] == ["-", "-"]
    assert all(r[1] for r in table.rows)  # every headline metric explained in one line
    assert "CoRE's I" in by_label["core_I"][1]


def test_headline_keeps_full_trace_questions_out_of_probe_accuracy() -> None:
    # full_trace is a task of its own: its accuracy row must not be read as the probes' one.
    rows = [
        MetricRow(
            model="m",
            strategy="direct",
            task=task,
            metric="accuracy",
            group="all",
            value=value,
            n=n,
        )
        for task, value, n in (("probe", 80.0, 600), ("full_trace", 12.5, 40))
    ]
    table = headline_table([RunData(Path("runs/m"), "m", {}, rows)], [])
    by_label = {r[0]: r for r in table.rows}
    assert by_label["probe accuracy"][2:] == ["80 (n=600)"]
    assert by_label["full trace accuracy"][2:] == ["12.5 (n=40)"]
    assert "full_trace" in by_label["probe accuracy"][1]


def test_one_table_per_metric_with_missing_cells() -> None:
    tables = metric_tables(runs())
    assert [t.title for t in tables] == ["Ws", "x|y"]
    assert tables[0].headers == ["task", "strategy", "group", "m-a", "m-b"]
    assert tables[0].rows == [
        ["probe", "cot", "all", "50 (n=7, few)", "0.123 [0.1, 0.2] (n=7, few)"]
    ]
    assert tables[1].rows == [["probe", "cot", "g", "0.5 (n=7, few)", "-"]]


def test_markdown_escapes_pipes() -> None:
    text = Table("t", ["a|b"], [["c|d"]]).markdown()
    assert text == "| a\\|b |\n|---|\n| c\\|d |\n"


def test_csv_one_line_per_row() -> None:
    lines = summary_csv(runs()).splitlines()
    assert lines[0] == "run,label,model,strategy,task,metric,group,value,ci_low,ci_high,n"
    assert len(lines) == 4
    assert lines[3] == "runs/b,m-b,m-b,cot,probe,Ws,all,0.1234,0.1,0.2,7"


def test_html_and_markdown_carry_the_same_blocks(tmp_path: Path) -> None:
    blocks = [
        Heading("T", 1),
        Paragraph("see `x` <here>"),
        Image("plots/none.png", "alt"),
        *metric_tables(runs()),
    ]
    text = markdown(blocks)
    page = render(blocks, tmp_path, "T")
    assert "# T\n" in text and "<h1>T</h1>" in page
    assert "<p>see <code>x</code> &lt;here&gt;</p>" in page
    assert '<img src="plots/none.png" alt="alt">' in page  # not there: linked, not embedded
    assert "<td>0.123 [0.1, 0.2] (n=7, few)</td>" in page and "0.123 [0.1, 0.2] (n=7, few)" in text
    assert "<td>x|y</td>" not in page and "<strong>x|y</strong>" in page
