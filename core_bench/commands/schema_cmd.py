"""`core-bench schema [NAME]`: print the JSON Schemas of the records a build writes."""

from __future__ import annotations

import argparse
import json
from typing import Any

from core_bench.errors import UsageError
from core_bench.schemas import RECORDS, SCHEMA_VERSION


def register(subparsers: Any) -> None:
    """Add the `schema` subcommand."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "schema",
        help="print the JSON Schemas of benchmark records",
        description="Print the JSON Schema of one record kind, or of all of them.",
    )
    parser.add_argument("name", nargs="?", help="one of: " + ", ".join(RECORDS) + " (default: all)")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Print the schemas as one JSON document."""
    if args.name is None:
        document: dict[str, Any] = {
            "schema_version": SCHEMA_VERSION,
            "records": {name: model.model_json_schema() for name, model in RECORDS.items()},
        }
    elif args.name in RECORDS:
        document = RECORDS[args.name].model_json_schema()
    else:
        raise UsageError(f"unknown record {args.name!r}; expected one of: {', '.join(RECORDS)}")
    print(json.dumps(document, indent=2, sort_keys=True))
    return 0
