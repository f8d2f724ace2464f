"""Import shim: pickles written before the package was split by layer
name strided._tensor; the names they use now live in strided.torch7.tensor."""
from .torch7.tensor import _rebuild, _rebuild_view  # noqa: F401
