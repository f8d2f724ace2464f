"""pytest plugin: strided.compat stands where a peer's test suite uses
array-api-strict.

    pytest -p strided_for_strict --pyargs sklearn -k array_api_strict

(with this folder on sys.path).  Loaded before the peer's conftest files,
it binds the module name `array_api_strict` to `strided.compat`, so every
test the peer parametrizes with "array_api_strict" runs on our namespace;
`array_namespace(x)` of our arrays is `strided.compat` itself, so the
peer's code sees our namespace, not a strict look-alike.

array-api-strict's own test helpers, which its users call on the module,
are given to `strided.compat` for the run (they are not part of the array
API and strided.compat does not export them otherwise):
- `set_array_api_strict_flags(api_version=...)`, `get_...`, `reset_...`
  and the `ArrayAPIStrictFlags` context manager record the requested flags
  and change nothing: strided.compat implements 2025.12 with every
  extension and no restriction to switch off;
- `Device(name)` is strided's one device whatever strict device name is
  asked ("CPU_DEVICE", "device1", ...), and those names given as strings
  (as scikit-learn's checks pass them) are accepted for the CPU: the tests
  that use strict's second device to check device propagation run on the
  CPU;
- `__version__` is the installed array-api-strict's, as the peers check it;
- `array_api_strict._array_object.Array` is our Array class.
"""

from __future__ import annotations

import contextlib
import importlib.metadata
import sys
import types

import strided.compat as _xp
from strided.compat import _array

_FLAGS = {"api_version": _xp.__array_api_version__}


def set_array_api_strict_flags(**flags):
    _FLAGS.update(flags)


def get_array_api_strict_flags():
    return dict(_FLAGS)


def reset_array_api_strict_flags():
    _FLAGS.clear()
    _FLAGS["api_version"] = _xp.__array_api_version__


@contextlib.contextmanager
def ArrayAPIStrictFlags(**flags):
    saved = dict(_FLAGS)
    _FLAGS.update(flags)
    try:
        yield
    finally:
        _FLAGS.clear()
        _FLAGS.update(saved)


STRICT_DEVICE_NAMES = {"CPU_DEVICE", "device1", "device2"}


class Device(_array.Device):
    """strided's CPU device, whatever strict device name is asked for."""

    __slots__ = ()

    def __new__(cls, name="CPU_DEVICE"):
        return _array.CPU


def _install():
    try:
        version = importlib.metadata.version("array-api-strict")
    except importlib.metadata.PackageNotFoundError:
        version = "2.6"
    extras = {
        "set_array_api_strict_flags": set_array_api_strict_flags,
        "get_array_api_strict_flags": get_array_api_strict_flags,
        "reset_array_api_strict_flags": reset_array_api_strict_flags,
        "ArrayAPIStrictFlags": ArrayAPIStrictFlags,
        "Device": Device,
        "__version__": version,
    }
    for name, value in extras.items():
        if not hasattr(_xp, name):
            setattr(_xp, name, value)
    sys.modules["array_api_strict"] = _xp
    _array.DEVICE_NAMES.update(STRICT_DEVICE_NAMES)
    # `from array_api_strict._array_object import Array` (xarray's tests)
    array_object = types.ModuleType("array_api_strict._array_object")
    array_object.Array = _array.Array
    sys.modules["array_api_strict._array_object"] = array_object


_install()


def pytest_report_header(config):
    return "strided_for_strict: array_api_strict is strided.compat in this run"


def pytest_configure(config):
    # marks of plugins some peers' suites expect (pytest-run-parallel)
    config.addinivalue_line("markers", "thread_unsafe: not run in parallel threads")
