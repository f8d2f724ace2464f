"""The project's basics: one version (strided/_version.py, which
pyproject.toml reads and strided.__version__ is), the licence that
pyproject.toml names in the LICENSE file, and the files a newcomer looks
for."""

import importlib.metadata
import pathlib
import re
import sys

import pytest

import strided

ROOT = pathlib.Path(__file__).resolve().parents[2]

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover (3.10)
    tomllib = None


def pyproject():
    if tomllib is None:
        pytest.skip("tomllib is Python >= 3.11")
    return tomllib.loads((ROOT / "pyproject.toml").read_text())


def test_version_has_one_source():
    project = pyproject()["project"]
    assert "version" not in project and "version" in project["dynamic"]
    attr = pyproject()["tool"]["setuptools"]["dynamic"]["version"]["attr"]
    assert attr == "strided._version.__version__"
    assert re.fullmatch(r"\d+\.\d+\.\d+", strided.__version__)


def test_installed_metadata_agrees():
    try:
        installed = importlib.metadata.version("strided")
    except importlib.metadata.PackageNotFoundError:
        pytest.skip("strided is not installed (run from a source tree)")
    assert installed == strided.__version__


def test_licence_file_is_the_declared_licence():
    project = pyproject()["project"]
    assert project["license"] == "BSD-3-Clause"
    assert project["license-files"] == ["LICENSE"]
    text = (ROOT / "LICENSE").read_text()
    assert text.startswith("BSD 3-Clause License")
    assert "the strided authors" in text


@pytest.mark.parametrize("name", ["README.md", "CHANGELOG.md", "CONTRIBUTING.md", "LICENSE"])
def test_newcomers_files_exist(name):
    assert (ROOT / name).stat().st_size > 500


def test_changelog_names_the_version():
    assert f"({strided.__version__}," in (ROOT / "CHANGELOG.md").read_text()
