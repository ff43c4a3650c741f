"""Exports of a built benchmark for other tools.

from core_bench.export import write_hf, write_inspect

write_hf(benchmark, Path("hf"))            # a Hugging Face `datasets` folder with its card
write_inspect(benchmark, Path("inspect"))  # an inspect_ai task module and its samples
"""

from __future__ import annotations

from core_bench.export._hf import CONFIGS, dataset_card, write_hf
from core_bench.export._inspect import inspect_samples, write_inspect

__all__ = ["CONFIGS", "dataset_card", "inspect_samples", "write_hf", "write_inspect"]
