"""Where CI allows no skip.

With ``PERFECTPLAY_NO_SKIPS=1`` (``.ci/run`` sets it) every skipped test or test module
is reported as a failure with its reason: an optional suite (OpenSpiel, pycgt, Dask, the
browser) whose extra failed to install, or a missing system browser, fails CI instead of
passing quietly. A developer without the extras still runs the rest: the variable unset,
skips stay skips.
"""

from __future__ import annotations

import os
from collections.abc import Generator
from typing import Any

import pytest

NO_SKIPS = os.environ.get("PERFECTPLAY_NO_SKIPS") == "1"


def _as_failure(report: Any) -> None:
    """Turn a skip report into a failure saying what was skipped and why."""
    reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
    report.outcome = "failed"
    report.longrepr = f"skipped where PERFECTPLAY_NO_SKIPS=1 allows no skip: {reason}"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: Any) -> Generator[None, Any, None]:
    outcome = yield
    report = outcome.get_result()
    if NO_SKIPS and report.skipped and not hasattr(report, "wasxfail"):
        _as_failure(report)


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report(collector: pytest.Collector) -> Generator[None, Any, None]:
    outcome = yield
    report = outcome.get_result()
    if NO_SKIPS and report.skipped:
        _as_failure(report)
