"""Import shim: pickles written before the package was split by layer
name strided._storage; the names they use now live in strided.torch7.storage."""
from .torch7.storage import _rebuild_storage  # noqa: F401
