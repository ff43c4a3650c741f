"""The two ways a sandbox pool runs its workers, for tests that run each check in both.

`MODES` parametrizes a pool fixture: plain processes, and bubblewrap, skipped with the reason
where bwrap does not work on this machine. `HANG_GUARD` is the timeout of the files whose code
may hang a worker: generous, so that only a hang trips it, never a loaded machine.
"""

from __future__ import annotations

import pytest

from tracer import default_isolation

ISOLATION, WHY = default_isolation()
needs_bwrap = pytest.mark.skipif(ISOLATION != "bwrap", reason=f"bubblewrap unusable: {WHY}")
MODES = [pytest.param(False, id="plain"), pytest.param(True, id="bwrap", marks=needs_bwrap)]
HANG_GUARD = pytest.mark.timeout(600)
