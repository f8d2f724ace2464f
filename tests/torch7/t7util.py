"""Shared helpers of the Torch7-face tests."""

import re

TYPES = [
    "ByteTensor",
    "CharTensor",
    "ShortTensor",
    "IntTensor",
    "LongTensor",
    "FloatTensor",
    "DoubleTensor",
]
NUMPY_OF = {
    "ByteTensor": "uint8",
    "CharTensor": "int8",
    "ShortTensor": "int16",
    "IntTensor": "int32",
    "LongTensor": "int64",
    "FloatTensor": "float32",
    "DoubleTensor": "float64",
}


def _norm(text):
    """Lines of printed output, each as its whitespace-separated tokens.

    The seed documentation was pasted by hand and its column padding is not
    consistent from one example to the next (the same 2x5 tensor of 3.14 is
    shown with one and with two spaces between columns); its footers mix the
    old `of dimension` with the later `of size`, and once `torch.Tensor` for
    `torch.DoubleTensor`.  The oracle is therefore the sequence of tokens of
    each non-empty line, with those footer variants made equal.  Lua comments
    (`-- ...`) in the documented output are dropped."""
    out = []
    for line in text.strip("\n").splitlines():
        line = re.sub(r"\s--.*$", "", line).rstrip()
        if not line.strip():
            continue
        line = re.sub(r"\[torch\.Tensor of", "[torch.DoubleTensor of", line)
        line = re.sub(r"(Tensor) of size ", r"\1 of dimension ", line)
        out.append(line.split())
    return out


def assert_prints(obj, documented):
    actual = str(obj)
    assert _norm(actual) == _norm(documented), f"\nprinted:\n{actual}\ndocumented:\n{documented}"


def assert_prints_exactly(obj, documented):
    """Exact comparison, modulo trailing whitespace and surrounding blank lines
    (and the later `of size` footer of some examples read as `of dimension`)."""
    a = [ln.rstrip() for ln in str(obj).strip("\n").splitlines()]
    d = [
        re.sub(r"(Tensor) of size ", r"\1 of dimension ", ln.rstrip())
        for ln in documented.strip("\n").splitlines()
    ]
    assert a == d, "\nprinted:\n" + str(obj) + "\ndocumented:\n" + documented


def counter():
    i = [0]

    def f(*_):
        i[0] += 1
        return i[0]

    return f
