"""str/repr of Torch7 tensors and storages, as Torch7's Tensor.lua prints
them (the version the Tensor documentation was written against):

- one format for all the values of a tensor, chosen from the largest and
  smallest magnitude: whole values print as integers (`%Nd`), others with
  four decimals (`%N.4f`), `%11.4e` when magnitudes differ by more than
  four orders, and a common scale line (`1e-03 *`) when all values are very
  large or very small;
- matrices print row by row, columns separated by one space, wrapped in
  blocks of `Columns a to b` when wider than 80 characters;
- more than two dimensions print as 2-D slices `(i,j,.,.) =` with the first
  index running fastest;
- a footer `[torch.DoubleTensor of dimension 4x5]`, or
  `[torch.DoubleTensor with no dimension]` for an empty tensor.

The values are read once through a C copy to double; formatting them is
the only per-element Python work here.
"""

from __future__ import annotations

import math

from ..core.base import astype, tolist


def _double_values(c):
    """All values of Core c, C order, as Python floats (one C cast + unpack)."""
    flat = astype(c, "float64")
    vals = tolist(flat)
    if not isinstance(vals, list):
        return [vals]
    out = []

    def walk(v):
        if isinstance(v, list):
            for x in v:
                walk(x)
        else:
            out.append(v)

    walk(vals)
    return out


def _digits(v):
    """Lua's `math.floor(log10(v)) + 1` for v = |x| (1 for 0, as Lua
    Torch7; NaN and infinity carried through as Lua's arithmetic does)."""
    if v == 0:
        return 1
    if not math.isfinite(v):
        return v
    return math.floor(math.log10(v)) + 1


def _lua_min_max(values):
    """TH's minall/maxall of |x|: a NaN anywhere makes both NaN."""
    mags = [abs(v) for v in values]
    if any(math.isnan(m) for m in mags):
        return math.nan, math.nan
    return min(mags), max(mags)


def printformat(values):
    """(format, scale or None, size) as Torch7's Storage__printformat,
    with Lua's arithmetic on NaN and infinity: a NaN anywhere gives a size
    that is not a number, and then the whole tensor prints with `%f`."""
    int_mode = all(not math.isnan(v) and (math.isinf(v) or v == math.ceil(v)) for v in values)
    lo, hi = _lua_min_max(values)
    exp_min, exp_max = _digits(lo), _digits(hi)
    scale = None
    if int_mode:
        if exp_max > 9:
            fmt, sz = "%11.4e", 11
        else:
            sz, fmt = exp_max + 1, "%{}d"
    elif exp_max - exp_min > 4:
        sz = 12 if abs(exp_max) > 99 or abs(exp_min) > 99 else 11
        fmt = "%{}.4e"
    elif exp_max > 5 or exp_max < 0:
        sz, fmt, scale = 7, "%{}.4f", 10.0 ** (exp_max - 1)
    else:
        sz = 7 if exp_max == 0 else exp_max + 6
        fmt = "%{}.4f"
    if isinstance(sz, float) and not math.isfinite(sz):
        return "%f", None, 8  # Lua: the format "%nan..." is replaced by "%f"
    fmt = fmt.format(int(sz))
    if scale == 1:
        scale = None
    return fmt, scale, int(sz)


def _fmt(fmt, v):
    if fmt.endswith("d") and math.isfinite(v):
        return fmt % int(v)
    return fmt % v


def format_values_1d(values, fmt, scale):
    lines = []
    if scale:
        lines.append("%g *" % scale)
        lines.extend(_fmt(fmt, v / scale) for v in values)
    else:
        lines.extend(_fmt(fmt, v) for v in values)
    return lines


def _matrix(rows, ncols, fmt, scale, sz, indent=""):
    """Torch7's Tensor__printMatrix over a list of rows (lists of floats)."""
    scale_v = scale or 1
    parts = [indent]
    ncol_line = max((80 - len(indent)) // (sz + 1), 1)
    first = 1
    nrows = len(rows)
    while first <= ncols:
        last = min(first + ncol_line - 1, ncols)
        if ncol_line < ncols:
            if first != 1:
                parts.append("\n")
            parts.append(f"Columns {first} to {last}\n{indent}")
        if scale_v != 1:
            parts.append("%g *\n " % scale_v + indent)
        for l in range(nrows):
            row = rows[l]
            for c in range(first, last + 1):
                parts.append(_fmt(fmt, row[c - 1] / scale_v))
                if c == last:
                    parts.append("\n")
                    if l != nrows - 1:
                        parts.append(indent + " " if scale_v != 1 else indent)
                else:
                    parts.append(" ")
        first = last + 1
    return "".join(parts)


def format_tensor(typename, c):
    """The text of a tensor of Torch7 type `typename` over Core c (no
    trailing newline)."""
    shape = c.shape
    if c.ndim == 0 or c.size == 0:
        return f"[{typename} with no dimension]"
    values = _double_values(c)
    fmt, scale, sz = printformat(values)
    dims = "x".join(str(n) for n in shape)
    footer = f"[{typename} of dimension {dims}]"
    if c.ndim == 1:
        return "\n".join(format_values_1d(values, fmt, scale) + [footer])
    nr, nc = shape[-2], shape[-1]
    if c.ndim == 2:
        rows = [values[i * nc : (i + 1) * nc] for i in range(nr)]
        return _matrix(rows, nc, fmt, scale, sz) + footer
    # slices (i,j,.,.) with the first index fastest
    lead = shape[:-2]
    strides = []
    s = 1
    for n in reversed(lead):
        strides.append(s)
        s *= n
    strides.reverse()  # C-order position of a leading index tuple
    block = nr * nc
    counter = [1] * len(lead)
    chunks = []
    total = math.prod(lead)
    for _ in range(total):
        pos = sum((i - 1) * st for i, st in zip(counter, strides))
        start = pos * block
        rows = [values[start + i * nc : start + (i + 1) * nc] for i in range(nr)]
        head = "(" + "".join(f"{i}," for i in counter) + ".,.) = \n"
        chunks.append(head + _matrix(rows, nc, fmt, scale, sz, " "))
        # advance: first index fastest
        for d in range(len(lead)):
            counter[d] += 1
            if counter[d] > lead[d]:
                counter[d] = 1
            else:
                break
    return "\n".join(chunks) + footer


def format_storage(typename, c):
    """The text of a storage (Core c: its 1-D view)."""
    n = c.size
    if n == 0:
        return f"[{typename} of size 0]"
    values = _double_values(c)
    fmt, scale, _ = printformat(values)
    return "\n".join(format_values_1d(values, fmt, scale) + [f"[{typename} of size {n}]"])
