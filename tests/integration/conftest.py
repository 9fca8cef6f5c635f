"""Fixtures of the integration tests; the real things themselves are in real_things.py."""

from __future__ import annotations

import pytest
from real_things import start_chromium


@pytest.fixture(scope="module")
def browser():
    """One headless Chromium for the module (skips without it, fails in CI)."""
    driver = start_chromium()
    yield driver
    driver.quit()
