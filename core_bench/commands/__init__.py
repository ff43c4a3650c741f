"""Subcommands of the `core-bench` CLI: each module has `register(subparsers)`."""
