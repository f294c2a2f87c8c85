"""Shared fixtures of the pegsim module's tests (run by ctest: python/CMakeLists.txt
sets PYTHONPATH to the built module, PEGSIM_SOURCE_DIR and PEGSIM_CLI)."""

import os
import pathlib

import pytest

SOURCE_DIR = pathlib.Path(os.environ.get("PEGSIM_SOURCE_DIR", pathlib.Path(__file__).resolve().parents[2]))


@pytest.fixture
def scenes():
    return SOURCE_DIR / "scenes"


@pytest.fixture
def cli():
    path = os.environ.get("PEGSIM_CLI")
    if not path or not os.path.exists(path):
        pytest.skip("PEGSIM_CLI is not set (run through ctest)")
    return path
