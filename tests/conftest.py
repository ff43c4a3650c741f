"""Settings shared by every test.

Tests that run models write their reports without plots and without running the reference
baselines, unless a test asks for them (`plots=True`, `baselines=True`): drawing was 69% of a
small run's time (issue 12). The variables are inherited by CLI subprocesses too.
"""

from __future__ import annotations

import os

os.environ.setdefault("CORE_BENCH_NO_PLOTS", "1")
os.environ.setdefault("CORE_BENCH_NO_BASELINES", "1")
