"""Import shim: pickles written before the package was split by layer
name strided._core; the names they use now live in strided.core.base."""
from .core.base import dtype  # noqa: F401
