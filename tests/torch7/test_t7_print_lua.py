"""Printing as real Lua Torch7 prints (values obtained from Lua Torch7
built from github:torch/torch7 814ea4a; only the footer keeps the seed's
`of dimension`, docs/torch7.md)."""

import math

import pytest

import strided as torch

NAN, INF = math.nan, math.inf


@pytest.mark.parametrize(
    "values,text",
    [
        ([[0, 0], [0, 0]], " 0  0\n 0  0\n[torch.DoubleTensor of dimension 2x2]"),
        ([1, NAN, INF, -INF], "1.000000\nnan\ninf\n-inf\n[torch.DoubleTensor of dimension 4]"),
        ([1.5, NAN, INF], "1.500000\nnan\ninf\n[torch.DoubleTensor of dimension 3]"),
        ([1, INF], " 1.0000e+00\n        inf\n[torch.DoubleTensor of dimension 2]"),
        ([1.5, INF], "  1.5000e+00\n         inf\n[torch.DoubleTensor of dimension 2]"),
        ([0.001, 0], "0.001 *\n 1.0000\n 0.0000\n[torch.DoubleTensor of dimension 2]"),
        (
            [[1e-3, 0], [0, 1]],
            " 0.0010  0.0000\n 0.0000  1.0000\n[torch.DoubleTensor of dimension 2x2]",
        ),
    ],
)
def test_prints_as_lua(values, text):
    assert str(torch.Tensor(values)) == text
