"""The special-case values of the array API standard 2025.12, row by row.

The cases are data: tests/compat/special_cases.txt (its header describes the
format; it was transcribed from the standard's "Special cases" sections).
Each row runs through strided.compat in every form that must give the same
value: the function on 1-D arrays holding all the rows of that function at
once (contiguous, and a strided view, so that the vector loops and their
tails see every case), on 0-d arrays one row at a time, and for the
operators (``+ - * / // % ** == != abs``) the operator, the reflected
operator with a Python scalar, and the in-place form.  float32 and float64
for real rows, complex64 and complex128 for complex rows, bool for the
conversion rows with boolean inputs.  Results are compared exactly: NaN
is any NaN unless the row asks for a sign bit, zeros and infinities by sign.
"""

import math
import operator
import re
from collections import defaultdict
from pathlib import Path

import numpy as np
import pytest

import strided.compat as xp
from compat_util import np_of

TABLE = Path(__file__).with_name("special_cases.txt")

REAL = ("float32", "float64")
COMPLEX = ("complex64", "complex128")


# ---------------------------------------------------------------- the table
class Row:
    __slots__ = ("func", "args", "result", "line")

    def __init__(self, func, args, result, line):
        self.func, self.args, self.result, self.line = func, args, result, line

    @property
    def kind(self):
        if any(a.startswith("(") for a in self.args):
            return "complex"
        if any(a in ("True", "False") for a in self.args):
            return "bool"
        return "real"

    def __repr__(self):
        return f"line {self.line}: {self.func} {' '.join(self.args)} -> {self.result}"


def load_table(path=TABLE):
    rows = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        lhs, sep, rhs = line.partition("->")
        if not sep:
            raise ValueError(f"{path.name}:{n}: no '->' in {line!r}")
        func, *args = lhs.split()
        res = rhs.split()
        if len(res) != 1 or not args:
            raise ValueError(f"{path.name}:{n}: malformed row {line!r}")
        rows.append(Row(func, tuple(args), res[0], n))
    return rows


_PI = re.compile(r"(\d*)pi(?:/(\d+))?")


def real_value(tok):
    """The float a real token stands for (inputs; '±' is read as '+')."""
    neg = tok.startswith("-")
    body = tok.lstrip("+-±")
    sign = -1.0 if neg else 1.0
    if body == "nan":
        return math.copysign(math.nan, sign)
    if body == "inf":
        return sign * math.inf
    m = _PI.fullmatch(body)
    if m:
        return sign * int(m.group(1) or 1) * math.pi / int(m.group(2) or 1)
    return math.copysign(float(body), sign) if float(body) == 0 else sign * float(body)


def split_complex(tok):
    assert tok[0] == "(" and tok[-1] == ")", tok
    re_, im = tok[1:-1].split(",")
    return re_, im


def value(tok):
    """A token as a Python value (bool, float or complex)."""
    if tok in ("True", "False"):
        return tok == "True"
    if tok.startswith("("):
        re_, im = split_complex(tok)
        return complex(real_value(re_), real_value(im))
    return real_value(tok)


def _round_to(v, real_dtype):
    return float(np.array(v, dtype=real_dtype)) if real_dtype else v


def real_matches(tok, got, real_dtype):
    """Does float `got` satisfy result token `tok` (values rounded to real_dtype)?"""
    body = tok.lstrip("+-±")
    if body == "nan":
        if not math.isnan(got):
            return False
        if tok == "+nan":
            return math.copysign(1.0, got) > 0
        if tok == "-nan":
            return math.copysign(1.0, got) < 0
        return True
    if math.isnan(got):
        return False
    want = _round_to(real_value(tok), real_dtype)
    if tok.startswith("±"):
        return abs(got) == abs(want)
    return got == want and math.copysign(1.0, got) == math.copysign(1.0, want)


def matches(tok, got, dtype_name=None):
    """Does Python value `got` satisfy result token `tok`?"""
    real = {
        "float32": "float32",
        "complex64": "float32",
        "float64": "float64",
        "complex128": "float64",
    }.get(dtype_name)
    if tok in ("True", "False"):
        return isinstance(got, (bool, np.bool_)) and bool(got) is (tok == "True")
    if tok.startswith("!"):
        return False  # an exception was expected; a value came back
    if tok.startswith("("):
        re_, im = split_complex(tok)
        got = complex(got)
        return real_matches(re_, got.real, real) and real_matches(im, got.imag, real)
    if isinstance(got, complex):
        return False
    return real_matches(tok, float(got), real)


ROWS = load_table()
BY_FUNC = defaultdict(list)
for _r in ROWS:
    BY_FUNC[_r.func].append(_r)

CONVERSIONS = {"__bool__": bool, "__int__": int, "__float__": float, "__complex__": complex}
OPERATORS = {  # function -> (binary operator, in-place operator)
    "add": (operator.add, operator.iadd),
    "subtract": (operator.sub, operator.isub),
    "multiply": (operator.mul, operator.imul),
    "divide": (operator.truediv, operator.itruediv),
    "floor_divide": (operator.floordiv, operator.ifloordiv),
    "remainder": (operator.mod, operator.imod),
    "pow": (operator.pow, operator.ipow),
    "equal": (operator.eq, None),
    "not_equal": (operator.ne, None),
}
UNARY_OPERATORS = {"abs": abs}


def dtypes_of(kind):
    return {"real": REAL, "complex": COMPLEX, "bool": ("bool",)}[kind]


def groups(funcs):
    """(func, dtype name) pairs over the table, for parametrize."""
    out = []
    for f in funcs:
        kinds = sorted({r.kind for r in BY_FUNC[f]})
        out += [(f, dt) for k in kinds for dt in dtypes_of(k)]
    return out


ELEMENTWISE = sorted(f for f in BY_FUNC if f not in CONVERSIONS and f != "clip")


def rows_of(func, dtype_name):
    kind = "complex" if dtype_name in COMPLEX else "bool" if dtype_name == "bool" else "real"
    return [r for r in BY_FUNC[func] if r.kind == kind]


# ---------------------------------------------------------------- helpers
def np_column(rows, i, dtype_name):
    return np.array([value(r.args[i]) for r in rows], dtype=dtype_name)


def as_xp(a):
    return xp.asarray(np.ascontiguousarray(a), copy=True)


def strided_view(a):
    """An Array holding a's values as a non-contiguous view (step -2)."""
    buf = np.zeros(2 * a.size + 1, dtype=a.dtype)
    buf[-2::-2] = a
    v = as_xp(buf)[-2::-2]
    assert v.shape == a.shape
    return v


def py_values(x):
    """The elements of an Array as Python values (1-D or 0-d)."""
    a = np_of(x)
    return [a[()].item()] if a.ndim == 0 else [e.item() for e in a]


def check_all(rows, results, dtype_name, form):
    """Compare; return the mismatch descriptions."""
    bad = []
    assert len(results) == len(rows), (form, len(results), len(rows))
    for r, got in zip(rows, results):
        if isinstance(got, BaseException):
            bad.append(f"{form}: {r!r}  raised {type(got).__name__}: {got}")
        elif not matches(r.result, got, dtype_name):
            bad.append(f"{form}: {r!r}  got {got!r}")
    return bad


def report(bad, func, dtype_name):
    if bad:
        pytest.fail(
            f"{func} on {dtype_name}: {len(bad)} special case(s) differ from the "
            f"standard:\n" + "\n".join(bad),
            pytrace=False,
        )


def per_row(rows, call):
    out = []
    for r in rows:
        try:
            out.append(call(r))
        except Exception as e:  # reported as a mismatch
            out.append(e)
    return out


# ---------------------------------------------------------------- the table itself
def test_table_is_well_formed():
    assert len(ROWS) > 1500
    for r in ROWS:
        for tok in r.args:
            value(tok)
        n = len(r.args)
        if r.func in CONVERSIONS:
            assert n == 1, r
        elif r.func == "clip":
            assert n == 3, r
        else:
            f = getattr(xp, r.func)
            assert callable(f), r
        if not r.result.startswith("!"):
            value(r.result.replace("±", "+").replace("+nan", "nan"))
    # rows with the same inputs (a value admitted by two bullets) agree
    seen = {}
    for r in ROWS:
        key = (r.func, r.args)
        assert seen.setdefault(key, r.result) == r.result, f"conflicting rows for {r!r}"


# ---------------------------------------------------------------- elementwise functions
@pytest.mark.parametrize("func,dtype_name", groups(ELEMENTWISE))
def test_function_on_vectors(func, dtype_name):
    """All rows of `func` at once, contiguous and as a strided view, also
    repeated so each value sits at several vector-lane positions."""
    rows = rows_of(func, dtype_name)
    f = getattr(xp, func)
    cols = [np_column(rows, i, dtype_name) for i in range(len(rows[0].args))]
    bad = []
    # contiguous: the rows, then the rows again shifted by one (other lanes, other tails)
    rep = [np.concatenate([c, c[1:], c[:1]]) for c in cols]
    res = py_values(f(*(as_xp(c) for c in rep)))
    rows3 = rows + rows[1:] + rows[:1]
    bad += check_all(rows3, res, dtype_name, "contiguous")
    res = py_values(f(*(strided_view(c) for c in cols)))
    bad += check_all(rows, res, dtype_name, "strided view")
    report(bad, func, dtype_name)


@pytest.mark.parametrize("func,dtype_name", groups(ELEMENTWISE))
def test_function_on_0d_arrays(func, dtype_name):
    rows = rows_of(func, dtype_name)
    f = getattr(xp, func)
    res = per_row(
        rows,
        lambda r: py_values(f(*(as_xp(np.array(value(a), dtype=dtype_name)) for a in r.args)))[0],
    )
    report(check_all(rows, res, dtype_name, "0-d"), func, dtype_name)


BINARY_IN_TABLE = [f for f in ELEMENTWISE if len(BY_FUNC[f][0].args) == 2]


@pytest.mark.parametrize("func,dtype_name", groups(BINARY_IN_TABLE))
def test_binary_function_with_a_broadcast_operand(func, dtype_name):
    """x2 (then x1) as a 0-d array broadcast against a vector: the kernels'
    scalar-operand loops."""
    rows = rows_of(func, dtype_name)
    f = getattr(xp, func)
    bad = []
    for r in rows:
        a, b = (np.array(value(t), dtype=dtype_name) for t in r.args)
        for form, args in (
            ("vector op 0-d", (as_xp(np.full(9, a)), as_xp(b))),
            ("0-d op vector", (as_xp(a), as_xp(np.full(9, b)))),
        ):
            try:
                got = py_values(f(*args))
            except Exception as e:
                got = [e] * 9
            bad += check_all([r] * 9, got, dtype_name, form)[:1]
    report(bad, func, dtype_name)


# ---------------------------------------------------------------- operators
@pytest.mark.parametrize("func,dtype_name", groups(sorted(set(OPERATORS) & set(BY_FUNC))))
def test_operators(func, dtype_name):
    """x1 op x2 on vectors and 0-d arrays, array op Python scalar, Python
    scalar op array, and x1 op= x2 (arrays and scalars)."""
    rows = rows_of(func, dtype_name)
    op, iop = OPERATORS[func]
    x1, x2 = np_column(rows, 0, dtype_name), np_column(rows, 1, dtype_name)
    bad = check_all(rows, py_values(op(as_xp(x1), as_xp(x2))), dtype_name, "operator")

    def scalar(tok):  # the Python scalar of the row's value (complex for complex rows)
        return value(tok)

    bad += check_all(
        rows,
        per_row(
            rows,
            lambda r: py_values(
                op(
                    as_xp(np.array(value(r.args[0]), dtype=dtype_name)),
                    as_xp(np.array(value(r.args[1]), dtype=dtype_name)),
                )
            )[0],
        ),
        dtype_name,
        "operator 0-d",
    )
    bad += check_all(
        rows,
        per_row(
            rows,
            lambda r: py_values(
                op(as_xp(np.array([value(r.args[0])], dtype=dtype_name)), scalar(r.args[1]))
            )[0],
        ),
        dtype_name,
        "array op scalar",
    )
    bad += check_all(
        rows,
        per_row(
            rows,
            lambda r: py_values(
                op(scalar(r.args[0]), as_xp(np.array([value(r.args[1])], dtype=dtype_name)))
            )[0],
        ),
        dtype_name,
        "scalar op array",
    )
    if iop is not None:
        y = as_xp(x1)
        y_view = y[::1]
        out = iop(y, as_xp(x2))
        assert out is y
        bad += check_all(rows, py_values(y_view), dtype_name, "in-place")

        def inplace_scalar(r):
            z = as_xp(np.array([value(r.args[0])], dtype=dtype_name))
            z = iop(z, scalar(r.args[1]))
            return py_values(z)[0]

        bad += check_all(rows, per_row(rows, inplace_scalar), dtype_name, "in-place scalar")
    report(bad, func, dtype_name)


@pytest.mark.parametrize("func,dtype_name", groups(sorted(set(UNARY_OPERATORS) & set(BY_FUNC))))
def test_unary_operators(func, dtype_name):
    rows = rows_of(func, dtype_name)
    op = UNARY_OPERATORS[func]
    x = np_column(rows, 0, dtype_name)
    bad = check_all(rows, py_values(op(as_xp(x))), dtype_name, "operator")
    bad += check_all(
        rows,
        per_row(
            rows, lambda r: py_values(op(as_xp(np.array(value(r.args[0]), dtype=dtype_name))))[0]
        ),
        dtype_name,
        "operator 0-d",
    )
    report(bad, func, dtype_name)


# ---------------------------------------------------------------- clip and conversions
@pytest.mark.parametrize("dtype_name", REAL)
def test_clip(dtype_name):
    rows = BY_FUNC["clip"]
    cols = [np_column(rows, i, dtype_name) for i in range(3)]
    bad = check_all(rows, py_values(xp.clip(*(as_xp(c) for c in cols))), dtype_name, "arrays")
    bad += check_all(
        rows,
        per_row(
            rows,
            lambda r: py_values(
                xp.clip(
                    as_xp(np.array(value(r.args[0]), dtype=dtype_name)),
                    value(r.args[1]),
                    value(r.args[2]),
                )
            )[0],
        ),
        dtype_name,
        "Python scalar bounds",
    )
    report(bad, "clip", dtype_name)


@pytest.mark.parametrize("func,dtype_name", groups(sorted(CONVERSIONS)))
def test_conversions(func, dtype_name):
    """bool(x), int(x), float(x), complex(x) of 0-d arrays."""
    rows = rows_of(func, dtype_name)
    py = CONVERSIONS[func]
    bad = []
    for r in rows:
        x = as_xp(np.array(value(r.args[0]), dtype=dtype_name))
        try:
            got = py(x)
        except Exception as e:
            if r.result != "!" + type(e).__name__:
                bad.append(f"{r!r}  raised {type(e).__name__}: {e}")
            continue
        if r.result.startswith("!"):
            bad.append(f"{r!r}  returned {got!r}")
        elif type(got) is not py:
            bad.append(f"{r!r}  returned a {type(got).__name__}: {got!r}")
        elif py is int:
            if got != int(value(r.result)):
                bad.append(f"{r!r}  got {got!r}")
        elif not matches(r.result, got, dtype_name if py is not bool else None):
            bad.append(f"{r!r}  got {got!r}")
    report(bad, func, dtype_name)
