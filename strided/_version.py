"""The version of strided, in one place: pyproject.toml reads it from here
([tool.setuptools.dynamic]) and `strided.__version__` is it."""

__version__ = "0.1.0"
