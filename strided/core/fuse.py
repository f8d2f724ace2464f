"""Fused elementwise expressions over Cores: the face-neutral half of
strided.compat.fuse and strided.fuse (the C half is strided/_c/fuse.c).

A face traces the user's function once per signature on proxy objects of
its own, which apply the face's rules (dtype promotion, scalars,
broadcasting) and record each operation here as a `Node`: an input, a
unary or binary op of the core computed in a given dtype, or a cast.
`Program(root)` turns the expression into an st_fuse program: the
instructions in evaluation order (each node once, however often it is
used), registers reused as soon as their last reader has run, the last
instruction writing the output; `Program.run(inputs, shape)` evaluates it
in one cache-blocked pass (docs/architecture.md, "Fused expressions")."""

from __future__ import annotations

import functools

from .._c._strided import ffi, lib
from .._c.inventory import BINARY, UNARY
from .base import check, dtype
from .ops import binary_result, empty_like_layout, unary_result

MAX_INPUTS = lib.ST_FUSE_MAX_INPUTS
MAX_REGISTERS = lib.ST_FUSE_MAX_REGS
MAX_INSTRUCTIONS = lib.ST_FUSE_MAX_INSTRS


class Traced:
    """The proxy values a face traces a fused function on, one base for
    both faces: a face's function that meets one among its arguments calls
    `record(function, args)` on it (on the first) instead of computing,
    and gets the traced result.  `function` is what the face knows its
    functions by: compat's name ("add"), Torch7's spec entry.  The faces'
    subclasses: compat/_fuse.py, strided/torch7/fuse.py."""

    __slots__ = ()

    def record(self, function: object, args: tuple[object, ...]) -> Traced:
        raise NotImplementedError


class Node:
    """One value of a traced expression.  kind: "input" (index: the
    position in the program's inputs), "unary" / "binary" (op: a core op
    name, computed in the dtype of its arguments), "cast"."""

    __slots__ = ("kind", "op", "dtype", "args", "index")

    def __init__(self, kind, dt, args=(), op=None, index=None):
        self.kind, self.dtype, self.args, self.op, self.index = kind, dtype(dt), args, op, index


def source(index, dt):
    """Input `index` of the program (an array of the call, or a constant)."""
    return Node("input", dt, index=index)


def cast(x, dt):
    """x converted to dt (x itself when it has that dtype)."""
    dt = dtype(dt)
    return x if x.dtype is dt else Node("cast", dt, (x,))


def unary(op, x):
    res = unary_result(op, x.dtype)
    if res is None:
        raise TypeError(f"{op} is not defined for {x.dtype.name}")
    return Node("unary", res, (x,), op)


def binary(op, a, b, dt=None):
    """op(a, b) computed in dt (default: a's dtype, which b must have),
    either argument converted to dt first, as the core's st_binary_as does."""
    dt = dtype(dt) if dt is not None else a.dtype
    res = binary_result(op, dt)
    if res is None:
        raise TypeError(f"{op} is not defined for {dt.name}")
    return Node("binary", res, (cast(a, dt), cast(b, dt)), op)


def _order(root):
    """The nodes below root in evaluation order, each once (iterative
    post-order: a long chain must not exhaust Python's stack)."""
    order, seen, stack = [], set(), [(root, False)]
    while stack:
        node, done = stack.pop()
        if done:
            order.append(node)
            continue
        if id(node) in seen:
            continue
        seen.add(id(node))
        stack.append((node, True))
        for a in reversed(node.args):
            if id(a) not in seen:
                stack.append((a, False))
    return order


class Fused:
    """What both faces' fused functions share: the traced function, its
    programs by signature (traced on the first call of each), repr and
    the wrapped function's name and doc.  A face's subclass defines
    `_trace(key)` and its `__call__`."""

    def __init__(self, f):
        self.f = f
        self._programs = {}  # the face's signature -> what its _trace returns
        functools.update_wrapper(self, f)

    def __repr__(self):
        return f"<fused {getattr(self.f, '__name__', 'function')}>"

    def program(self, key):
        """_trace(key), once per key."""
        found = self._programs.get(key)
        if found is None:
            found = self._programs[key] = self._trace(key)
        return found


class Program:
    """The st_fuse program computing `root` from inputs 0..ninputs-1."""

    def __init__(self, root, ninputs):
        if ninputs > MAX_INPUTS:
            raise ValueError(
                f"a fused expression takes at most {MAX_INPUTS} arrays and "
                f"constants (at most {lib.ST_FUSE_MAX_ARRAYS} arrays of more than "
                f"one element), this one has {ninputs}"
            )
        nodes = [n for n in _order(root) if n.kind != "input"]
        if not nodes:  # the expression is an input: a copy
            nodes = [Node("cast", root.dtype, (root,))]
        if len(nodes) > MAX_INSTRUCTIONS:
            raise ValueError(
                f"a fused expression has at most {MAX_INSTRUCTIONS} operations, "
                f"this one has {len(nodes)}"
            )
        last_use = {}
        for i, n in enumerate(nodes):
            for a in n.args:
                last_use[id(a)] = i
        self.dtype = nodes[-1].dtype
        self.used = sorted({n.index for n in _order(root) if n.kind == "input"})
        prog = ffi.new("st_fuse_instr[]", len(nodes))
        register, free = {}, list(range(MAX_REGISTERS - 1, -1, -1))
        kinds = {"unary": lib.ST_FUSE_UNARY, "binary": lib.ST_FUSE_BINARY, "cast": lib.ST_FUSE_CAST}
        for i, n in enumerate(nodes):
            ins = prog[i]
            ins.kind = kinds[n.kind]
            ins.op = (UNARY if n.kind == "unary" else BINARY)[n.op] if n.op else 0
            ins.dtype = n.args[0].dtype.code
            ins.res = n.dtype.code
            refs = [-(a.index + 1) if a.kind == "input" else register[id(a)] for a in n.args]
            ins.a = refs[0]
            ins.b = refs[1] if len(refs) > 1 else 0
            if i == len(nodes) - 1:
                ins.dst = -1
            else:
                if not free:
                    raise ValueError(
                        f"a fused expression keeps at most {MAX_REGISTERS} "
                        f"intermediate values alive at once; split this one"
                    )
                ins.dst = register[id(n)] = free.pop()
            # registers whose last reader this was go back (after dst was
            # taken: an instruction never writes a register it reads)
            for a in n.args:
                if a.kind != "input" and last_use[id(a)] == i and id(a) in register:
                    free.append(register.pop(id(a)))
        self.instructions, self.size = prog, len(nodes)

    def run(self, inputs, shape, layout=(), out=None):
        """The expression over `inputs` (Cores, in the program's order;
        unused ones may be None) broadcast to `shape`: into `out` (a Core of
        that shape and the program's dtype that no input overlaps), else a
        new Core laid out like the first of `layout` of that shape (as the
        ops' results)."""
        if out is None:
            out = empty_like_layout(shape, self.dtype, layout)
        cores = [c if c is not None else out for c in inputs]  # unused: never read
        arr = ffi.new("st_tensor *[]", [c.t for c in cores]) if cores else ffi.NULL
        check(lib.st_fuse(out.t, len(cores), arr, self.size, self.instructions))
        return out
