"""The machinery of the declarative spec (spec.py), after Torch7's
TensorMath.lua and cwrap: a function is declared once as a list of
argument forms; `torch.f(...)` and the method `x:f(...)` are both
generated from that declaration.

A form is a list of argument slots (`Arg`).  A call is matched against
each form in turn: the Python arguments fill the slots in order, a slot
with a default may be left out (then it takes its default), and the first
form whose slots all accept their arguments wins.  The method `x:f(a, b)`
is the function called with x first, as in Lua, except that a slot's
`method=` default replaces its function default (TensorMath's `method={...}`
overrides): e.g. `add`'s source tensor defaults to the result slot in the
method, so `x:add(5)` is `add(x, x, 5)`, in place.

The function dispatches on a tensor type as Lua's `torch.f` does: the
type of the first argument if it is a tensor, else of the second, else of
the first tensor of a list given first, else the type named by a last
string argument, else the default tensor type.  An entry declares the
element types it exists for; methods are made only for those classes.

Matching is done once per shape of call: the plan (which form, where each
slot's value comes from) is cached under the tuple of the arguments'
kinds, so a repeated call costs a dictionary look-up and the slot fills.
"""

from __future__ import annotations

import math

from ..core import arraytype as _fast
from ..core.arraytype import DECLINED, binary_inplace
from ..core.fuse import Traced
from ..core import ops as _ops
from ..core.rng import Generator
from .core_ops import core_op
from .docstrings import entry_doc
from .storage import LongStorage
from .registry import TENSOR_TYPES, default_tensor_class
from .tensor import Tensor, _is_number

REQUIRED = object()  # a slot without a default
NEW = object()  # a default: a new empty tensor of the slot's class


class FormMismatch(TypeError):
    """No form of the function accepts the arguments."""


class Same:
    """A default: the value of slot k (TensorMath's `default=k`)."""

    def __init__(self, k):
        self.k = k


# ---------------------------------------------------------------- kinds


class Kind:
    """What one slot accepts.  `accepts(value, T)` with T the dispatch class;
    `new(T)` makes the NEW default; `text` is the name used in messages."""

    def __init__(self, text, accepts, new=None):
        self.text, self.accepts, self._new = text, accepts, new

    def new(self, T):
        return self._new(T)


def _typed(typename):
    return lambda v, T: type(v) is TENSOR_TYPES[typename]


TENSOR = Kind("tensor", lambda v, T: type(v) is T, lambda T: T())
BYTE = Kind(
    "torch.ByteTensor", _typed("torch.ByteTensor"), lambda T: TENSOR_TYPES["torch.ByteTensor"]()
)
LONG = Kind(
    "torch.LongTensor", _typed("torch.LongTensor"), lambda T: TENSOR_TYPES["torch.LongTensor"]()
)
INT = Kind(
    "torch.IntTensor", _typed("torch.IntTensor"), lambda T: TENSOR_TYPES["torch.IntTensor"]()
)
FLOAT_TENSOR = Kind(
    "torch.FloatTensor|torch.DoubleTensor",
    lambda v, T: isinstance(v, Tensor) and v._dt in ("float32", "float64"),
)
GENERATOR = Kind("torch.Generator", lambda v, T: isinstance(v, Generator))
ANY_TENSOR = Kind("any tensor", lambda v, T: isinstance(v, Tensor))
NUMBER = Kind("number", lambda v, T: _is_number(v))
INDEX = Kind("dim", lambda v, T: _is_number(v) and math.isfinite(v))  # Lua truncates 2.5
BOOLEAN = Kind("boolean", lambda v, T: isinstance(v, bool))
NIL = Kind("nil", lambda v, T: v is None)
TABLE = Kind(
    "table of tensors",
    lambda v, T: isinstance(v, (list, tuple)) and all(isinstance(t, Tensor) for t in v),
)
LIST = Kind("list", lambda v, T: isinstance(v, list))
SIZES = Kind(
    "sizes", lambda v, T: isinstance(v, (LongStorage, list, tuple)) and not isinstance(v, Tensor)
)
STRING = Kind("string", lambda v, T: isinstance(v, str))
ANYTHING = Kind("value", lambda v, T: True)


def option(*choices):
    """A one-letter option such as 'V'/'F' (conv2) or 'U'/'L' (potrf); as
    Lua, only the first letter is read ('Upper' is 'U')."""
    return Kind(
        "'" + "'|'".join(choices) + "'", lambda v, T: isinstance(v, str) and v[:1] in choices
    )


class Arg:
    """One slot of a form.  default: REQUIRED, NEW, Same(k) or a value;
    method: the default in the method form when it differs (REQUIRED to
    make the slot required there, as TensorMath's method={default='nil'});
    many: the slot takes every remaining argument (sizes as numbers);
    hidden: the slot takes no argument, only its default (cwrap's invisible)."""

    def __init__(self, kind, default=REQUIRED, method=None, name=None, many=False, hidden=False):
        self.kind, self.default, self.name, self.many = kind, default, name, many
        self.method = default if method is None else method
        self.hidden = hidden

    def required(self, in_method):
        """Whether the slot needs an argument (in the method form or the function)."""
        return (self.method if in_method else self.default) is REQUIRED

    def text(self, in_method):
        t = self.name or self.kind.text
        t = t + "..." if self.many else t
        return t if self.required(in_method) else f"[{t}]"


class Elementwise:
    """What an elementwise form computes, as data (spec.py declares it,
    maths.ELEMENTWISE[kind] implements it; the small in-place path below and
    torch.fuse read it): kind "unary" res = op(x), "binary" res = x op y,
    "scaled" res = x op value * y, "reversed" res = value op x, where op is
    the core op the op table gives Torch7's `name` for the tensor's type
    (core_ops.py)."""

    KINDS = ("unary", "binary", "scaled", "reversed")

    def __init__(self, kind, name):
        if kind not in self.KINDS:
            raise ValueError(f"Elementwise: kind {kind!r} (one of {self.KINDS})")
        self.kind, self.name = kind, name

    def __repr__(self):
        return f"Elementwise({self.kind!r}, {self.name!r})"


class Form:
    """An implementation and its argument slots; op: an Elementwise when
    the form is one (else None)."""

    def __init__(self, impl, args, op=None):
        self.impl, self.args, self.op = impl, list(args), op


class Entry:
    """One Torch7 function: name, forms, the element types it exists for,
    whether tensors have it as a method, and where it dispatches."""

    def __init__(self, name, forms, types, method=True, function=True, doc="", group=""):
        self.name, self.forms, self.types = name, forms, frozenset(types)
        self.method, self.function, self.doc, self.group = method, function, doc, group
        self.method_forms = None  # the method's own forms, when they differ
        self.direct = None  # a function of no tensor type, used as it is
        self.front = None  # front(args): a plain call's result in C, or DECLINED
        self._plans = {}

    # ------------------------------------------------------------ matching
    def forms_for(self, in_method):
        return self.method_forms if in_method and self.method_forms else self.forms

    def _match(self, args, T, in_method):
        for fi, form in enumerate(self.forms_for(in_method)):
            plan = _fill(form.args, 0, args, 0, T, in_method, [])
            if plan is not None:
                return fi, plan
        return None

    def usage(self, in_method):
        how = f"x.{self.name}" if in_method else f"torch.{self.name}"  # Lua's x:f
        alts = []
        for form in self.forms_for(in_method):
            if in_method and form.args and form.args[0].kind is NUMBER:
                continue  # a form of numbers (torch.exp(2)) has no method
            slots = [a for a in (form.args[1:] if in_method else form.args) if not a.hidden]
            alt = f"{how}({', '.join(a.text(in_method) for a in slots)})"
            if alt not in alts:
                alts.append(alt)
        return " | ".join(alts)

    def _mismatch(self, args, T, in_method):
        """The message for a call no form accepts: the argument the closest
        form stopped at (the furthest one reached), what it wanted there,
        and the forms."""
        best, rank = (-1, None), (-1, False)
        for form in self.forms_for(in_method):
            miss = []
            _fill(form.args, 0, args, 0, T, in_method, [], miss)
            for ai, slot in miss:
                r = (ai, slot.kind is not NIL)  # a slot that refused beats "no more"
                if r >= rank:
                    best, rank = (ai, slot), r
        ai, slot = best
        shift = 0 if not in_method else 1
        usage = f"expected {self.usage(in_method)}"
        if slot is None or ai < shift:
            return f"{self.name}: invalid arguments; {usage}"
        want = T._typename if slot.kind is TENSOR else slot.kind.text
        if ai >= len(args):
            return f"{self.name}: missing argument {ai + 1 - shift} ({slot.name or want}); {usage}"
        return (
            f"{self.name}: argument {ai + 1 - shift} ({slot.name or want}) must be a {want}, "
            f"got {_describe(args[ai])}; {usage}"
        )

    def call(self, args, T, in_method):
        key = (T, in_method) + tuple(map(_token, args))
        plan = self._plans.get(key)
        if plan is None:
            if T._dt not in self.types:
                raise TypeError(f"{self.name} is not defined for {T._typename}")
            found = self._match(args, T, in_method)
            if found is None:
                raise FormMismatch(self._mismatch(args, T, in_method))
            fi, sources = found
            form = self.forms_for(in_method)[fi]
            plan = (form.impl, sources, form.args)
            if len(self._plans) < 512:
                self._plans[key] = plan
        impl, sources, slots = plan
        values = []
        for (how, x), slot in zip(sources, slots):
            if how == 0:
                values.append(args[x])
            elif how == 1:
                values.append(list(args[x[0] : x[1]]))
            elif how == 2:
                values.append(slot.kind.new(T))
            elif how == 3:
                values.append(values[x])
            else:
                values.append(x)
        return impl(*values)


def _default_source(slot, in_method):
    d = slot.method if in_method else slot.default
    if d is REQUIRED:
        return None
    if d is NEW:
        return (2, None)
    if isinstance(d, Same):
        return (3, d.k)
    return (4, d)


def _fill(slots, si, args, ai, T, in_method, acc, miss=None):
    """Sources for slots[si:] from args[ai:] (backtracking: an optional
    slot first takes the argument when it accepts it, else its default).
    miss: a list that collects (argument position, slot) where a required
    slot refused an argument (or found none), for the error message."""
    if si == len(slots):
        if ai != len(args) and miss is not None:
            miss.append((ai, Arg(NIL, name="no further argument")))
        return acc if ai == len(args) else None
    slot = slots[si]
    if slot.hidden:
        return _fill(
            slots, si + 1, args, ai, T, in_method, acc + [_default_source(slot, in_method)], miss
        )
    if slot.many:
        end = ai
        while end < len(args) and slot.kind.accepts(args[end], T):
            end += 1
        for stop in range(end, ai - 1, -1):
            r = _fill(slots, si + 1, args, stop, T, in_method, acc + [(1, (ai, stop))], miss)
            if r is not None:
                return r
        return None
    if ai < len(args):
        if slot.kind.accepts(args[ai], T):
            r = _fill(slots, si + 1, args, ai + 1, T, in_method, acc + [(0, ai)], miss)
            if r is not None:
                return r
        elif miss is not None and slot.kind is not TENSOR and slot.kind is not NUMBER:
            miss.append((ai, slot))  # an option or flag that refused what it was given
    d = _default_source(slot, in_method)
    if d is None:
        if miss is not None:
            miss.append((ai, slot))
        return None
    return _fill(slots, si + 1, args, ai, T, in_method, acc + [d], miss)


def _token(v):
    """The kind of an argument that decides matching (the plan's cache key)."""
    t = type(v)
    if t is int or t is float:
        return "n"
    if t is list or t is tuple:
        return (t, tuple(map(type, v[:1])), len(v) == 0)
    if t is str:
        return ("s", v)
    return t


def _describe(v):
    return getattr(v, "_typename", None) or type(v).__name__


# ---------------------------------------------------------------- dispatch


def dispatch(args):
    """Lua's torch.f dispatch: (the tensor type of the call, the arguments):
    the type of the first argument if it is a tensor, else of the second,
    else of the first tensor of a list given first, else the type named by
    a last string argument (taken off the arguments), else the default."""
    if args:
        if isinstance(args[0], Tensor):
            return type(args[0]), args
        if len(args) > 1 and isinstance(args[1], Tensor):
            return type(args[1]), args
        a0 = args[0]
        if isinstance(a0, (list, tuple)) and a0 and isinstance(a0[0], Tensor):
            return type(a0[0]), args
        last = args[-1]
        if isinstance(last, str) and last in TENSOR_TYPES:
            return TENSOR_TYPES[last], args[:-1]
    return default_tensor_class(), args


def make_function(entry):
    call = entry.call

    def f(*args):
        T, args = dispatch(args)
        try:
            return call(args, T, False)
        except TypeError as first:
            traced = next((a for a in args if isinstance(a, Traced)), None)
            if traced is not None:  # a fused function's value (fuse.py)
                return traced.record(entry, args)
            if not isinstance(first, FormMismatch):
                raise
            # a result of another type first (torch.nonzero(indices, x),
            # torch.lt(mask, x, 3)): Lua refuses; we try the second tensor's type
            if len(args) > 1 and isinstance(args[1], Tensor) and type(args[1]) is not T:
                try:
                    return call(args, type(args[1]), False)
                except FormMismatch:
                    raise first from None
            raise

    front = entry.front
    if front is not None:
        general = f

        def f(*args):
            r = front(args)
            return general(*args) if r is DECLINED else r

        f.general = general  # the path front stands before (tests)
    f.__name__ = f.__qualname__ = entry.name
    f.__module__ = "strided.torch7"  # where it is found (documentation tools, pickle)
    f.__doc__ = entry_doc(entry, False)
    return f


def _inplace_op(entry, dt, number=False):
    """The core op code of the method call `x:f(y)`, y a tensor of x's
    class (number: y a float), when the method's forms make it x = x op y
    (the source slot defaulting to x, any scale to 1, as add's, csub's and
    cmul's do), else None: the call is matched on probes standing for x and
    y, and the chosen form's op (an Elementwise, spec.py's data) gives the
    core op from the op table."""
    if not any(
        f.op is not None and f.op.kind in ("binary", "scaled") for f in entry.forms_for(True)
    ):
        return None

    class Probe:
        _dt = dt

    try:
        found = entry._match((Probe(), 1.5 if number else Probe()), Probe, True)
    except KeyError:  # a slot of a named tensor class, made after the methods: not ours
        return None
    if found is None:
        return None
    fi, sources = found
    op = entry.forms_for(True)[fi].op
    # res <- x, source <- res (x), [value <- 1], tensor <- y
    if (
        op is None
        or op.kind not in ("binary", "scaled")
        or sources not in ([(0, 0), (3, 0), (0, 1)], [(0, 0), (3, 0), (4, 1), (0, 1)])
    ):
        return None
    name = core_op(op.name, dt)
    # None: not for this type (bitand of floats): the general call raises
    return None if name is None else _ops.BINARY[name]


def make_method(entry, dt=None):
    call = entry.call

    def m(self, *args):
        T = type(self)
        if dt is not None and getattr(T, "_dt", dt) != dt:
            # the method of one class given another tensor as self, as Lua's
            # torch.DoubleTensor.multinomial(longRes, probs, n): that class's
            # forms (Lua's wrapper is the class's, whatever self is)
            T = next(c for c in TENSOR_TYPES.values() if c._dt == dt)
        try:
            return call((self,) + args, T, True)
        except FormMismatch:
            # Lua's explicit-self call x.f(res, x, ...) (tensor.md's
            # x.nonzero(indices, x)): the function of x's type on the arguments
            if args and isinstance(args[0], Tensor) and T is type(self):
                try:
                    return call(args, T, False)
                except FormMismatch:
                    pass
            raise

    code = _inplace_op(entry, dt) if dt is not None else None
    # x:add(5), x:mul(2) on small float and double tensors: one C call
    # (pyarray.c's t7_scalar_inplace), which declines any other case
    scalar_code = _inplace_op(entry, dt, number=True) if dt in ("float32", "float64") else None
    if code is not None or scalar_code is not None:
        general, inplace, scalar_inplace = m, binary_inplace, _fast.t7_scalar_inplace

        def m(self, *args):
            # x:add(y) and kin on small contiguous tensors of one class and
            # shape (fast.c through the Tensor's C base, core.arraytype), and
            # x:add(5): one C call, in one frame, which declines any other case
            if len(args) == 1:
                kind = type(args[0])
                if kind is type(self):
                    if code is not None and inplace(code, self, args[0]):
                        return self
                elif (
                    scalar_code is not None
                    and (kind is float or kind is int)
                    and scalar_inplace(scalar_code, self, args[0])
                ):
                    return self
            return general(self, *args)

    m.__name__ = m.__qualname__ = entry.name
    m.__doc__ = entry_doc(entry, True)
    return m


def method_table(entries, dt):
    """name -> method, for the class of element type dt."""
    return {e.name: make_method(e, dt) for e in entries if e.method and dt in e.types}


def function_table(entries):
    return {e.name: e.direct or make_function(e) for e in entries if e.function}
