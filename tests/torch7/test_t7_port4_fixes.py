"""Lua Torch7 behaviours fixed while porting test.lua's gesv..pstrf tests
(test_lua_port4.py).  The expected values were produced by real Lua Torch7."""

import hashlib

import pytest

import strided as torch


def _sha(b):
    return hashlib.sha256(b).hexdigest()


def _seeded(seed):
    g = torch.Generator()
    torch.manualSeed(g, seed)
    return g


# Lua: g = torch.Generator(); torch.manualSeed(g, 123); torch.serialize(g)
LUA_GEN123 = "f511498082c78b372d2fd31b9c0f1596544538cefdcb53ce963218d558a2b4b5"
LUA_GEN123_ASCII = "17f3c81a9bcd66ae00bd9a664ed5afeb1c1cdcbcf3102519ffd1b669b7763079"
LUA_GEN123_TWICE = "9e6b1ce49833b2193005ad4445958e58825ffc62ce754b1946b347b94254b4d1"  # {g, g}
# Lua: torch.manualSeed(g, 5); torch.randn(g, 3); torch.serialize(g)
LUA_GEN5_NORMAL = "08ed75dfb705f68055016d39205eeb04ca592193c756177ce228f44c496ca1d8"


def test_generator_serializes_as_lua():
    g = _seeded(123)
    b = torch.serialize(g)
    # tag 4 (torch object), index 1, "V 1", "torch.Generator", the 5048 raw state bytes
    assert len(b) == 5082
    assert b[:34] == (
        b"\x04\x00\x00\x00\x01\x00\x00\x00\x03\x00\x00\x00V 1\x0f\x00\x00\x00torch.Generator"
    )
    assert _sha(b) == LUA_GEN123
    assert _sha(torch.serialize(g, "ascii")) == LUA_GEN123_ASCII
    assert _sha(torch.serialize([g, g])) == LUA_GEN123_TWICE  # the second as a reference
    g5 = _seeded(5)
    torch.randn(g5, 3)  # a Box-Muller value left pending in the state
    assert _sha(torch.serialize(g5)) == LUA_GEN5_NORMAL


def test_generator_deserializes_to_its_stream():
    g = _seeded(123)
    d = torch.deserialize(torch.serialize(g))
    assert isinstance(d, torch.Generator) and d is not g
    assert torch.random(d) == 2991312382  # Lua's next torch.random(g)
    assert torch.random(g) == 2991312382  # serializing left g's state alone
    a = torch.deserialize(torch.serialize(_seeded(123), "ascii"), "ascii")
    assert torch.random(a) == 2991312382
    twice = torch.deserialize(torch.serialize([g, g]))
    assert twice[0] is twice[1]  # Lua: t[1] == t[2]
    g5 = _seeded(5)
    torch.randn(g5, 3)
    assert torch.normal(torch.deserialize(torch.serialize(g5))) == -1.3693802243009257


def test_generator_save_load_and_file_objects(tmp_path):
    p = str(tmp_path / "g.t7")
    torch.save(p, _seeded(123), "ascii")  # Lua's torch.save(p, g, 'ascii') bytes
    assert _sha(open(p, "rb").read()) == LUA_GEN123_ASCII
    assert torch.random(torch.load(p, "ascii")) == 2991312382
    f = torch.MemoryFile("rw")
    f.writeObject(_seeded(123))
    f.seek(1)
    assert torch.random(f.readObject()) == 2991312382


def test_bad_generator_data_is_a_clear_error():
    b = torch.serialize(_seeded(123))
    with pytest.raises(ValueError, match="truncated.*torch.Generator"):
        torch.deserialize(b[:-10])
    bad = bytearray(b)
    bad[46:50] = b"\0\0\0\0"  # seeded = 0: not a state Lua writes
    with pytest.raises(ValueError, match="torch.Generator.*invalid generator state"):
        torch.deserialize(bytes(bad))


# ---------------------------------------------------------------- LAPACK results in given tensors
# TH (THTensorLapack.c) puts a LAPACK answer into the result tensor given,
# in that tensor's own storage.  The layouts below are Lua's: (sizes,
# strides, storageOffset, the storage's size), the storage always the one
# the result had.  Given results: a new zeros of the answer's shape
# ('contig'), zeros(20, 20) ('big'), zeros(1) ('small'), the answer's shape
# column-major ('colmajor'), a slice x[{ {}, 2, {} }] of a bigger tensor
# ('view').


def _given(kind, shape):
    if kind == "contig":
        return torch.zeros(torch.LongStorage(shape))
    if kind == "big":
        return torch.zeros(20, 20)
    if kind == "small":
        return torch.zeros(1)
    if kind == "colmajor":
        return (
            torch.zeros(shape[0] * 2).narrow(1, 1, shape[0])
            if len(shape) == 1
            else torch.zeros(shape[1], shape[0]).t()
        )
    return (
        torch.zeros(shape[0], 2).select(2, 2)
        if len(shape) == 1
        else torch.zeros(shape[0], 2, shape[1])[[], 2, []]
    )


def _layout(t):
    return (
        tuple(t.size().totable()),
        tuple(t.stride().totable()),
        t.storageOffset(),
        t.storage().size(),
    )


def _operands():
    gen = torch.Generator()
    torch.manualSeed(gen, 7)
    A = torch.randn(gen, 4, 4)
    A = A * A.t() + torch.eye(4) * 4
    B = torch.randn(gen, 4, 2)
    G = torch.randn(gen, 6, 3)
    GB = torch.randn(gen, 6, 2)
    GU = torch.randn(gen, 3, 5)
    return dict(A=A, B=B, G=G, GB=GB, GU=GU, chol=torch.potrf(A))


_CALLS = {
    "gesv": (lambda o, *r: torch.gesv(*r, o["B"], o["A"]), [[4, 2], [4, 4]]),
    "gels": (lambda o, *r: torch.gels(*r, o["GB"], o["G"]), [[6, 2], [6, 3]]),
    "potrs": (lambda o, *r: torch.potrs(*r, o["B"], o["chol"]), [[4, 2]]),
    "eig": (lambda o, *r: torch.eig(*r, o["A"], "V"), [[4, 2], [4, 4]]),
    "symeig": (lambda o, *r: torch.symeig(*r, o["A"], "V"), [[4], [4, 4]]),
    "svd": (lambda o, *r: torch.svd(*r, o["G"]), [[6, 3], [3], [3, 3]]),
    "qr": (lambda o, *r: torch.qr(*r, o["GU"]), [[3, 3], [3, 5]]),
}
_CM44, _CM42 = ((4, 4), (1, 4), 1, 16), ((4, 2), (1, 4), 1, 8)
LUA_LAYOUTS = {
    ("gesv", "contig"): [_CM42, _CM44],
    ("gesv", "big"): [((4, 2), (1, 4), 1, 400), ((4, 4), (1, 4), 1, 400)],
    ("gesv", "small"): [_CM42, _CM44],
    ("gesv", "colmajor"): [_CM42, _CM44],
    ("gels", "contig"): [((3, 2), (1, 6), 1, 12), ((6, 3), (1, 6), 1, 18)],
    ("gels", "view"): [((3, 2), (1, 6), 3, 24), ((6, 3), (1, 6), 4, 36)],
    ("potrs", "view"): [((4, 2), (1, 4), 3, 16)],
    ("eig", "contig"): [((4, 2), (2, 1), 1, 8), _CM44],
    ("eig", "colmajor"): [((4, 2), (1, 4), 1, 8), _CM44],
    ("eig", "view"): [((4, 2), (4, 1), 3, 16), ((4, 4), (8, 1), 5, 32)],
    ("symeig", "colmajor"): [((4,), (1,), 1, 8), _CM44],
    ("symeig", "view"): [((4,), (2,), 2, 8), ((4, 4), (8, 1), 5, 32)],
    ("svd", "contig"): [((6, 3), (1, 6), 1, 18), ((3,), (1,), 1, 3), ((3, 3), (3, 1), 1, 9)],
    ("svd", "colmajor"): [((6, 3), (1, 6), 1, 18), ((3,), (1,), 1, 6), ((3, 3), (1, 3), 1, 9)],
    ("svd", "view"): [((6, 3), (1, 6), 4, 36), ((3,), (2,), 2, 6), ((3, 3), (6, 1), 4, 18)],
    ("qr", "small"): [((3, 3), (1, 3), 1, 15), ((3, 5), (5, 1), 1, 15)],
    ("qr", "colmajor"): [((3, 3), (1, 3), 1, 15), ((3, 5), (1, 3), 1, 15)],
    ("qr", "view"): [((3, 3), (1, 3), 4, 18), ((3, 5), (10, 1), 6, 30)],
}


@pytest.mark.parametrize("name, kind", sorted(LUA_LAYOUTS))
def test_lapack_results_land_in_the_given_tensors_as_lua(name, kind):
    o = _operands()
    call, shapes = _CALLS[name]
    fresh = call(o)
    fresh = fresh if isinstance(fresh, tuple) else (fresh,)
    given = [_given(kind, s) for s in shapes]
    storages = [torch.pointer(g.storage()) for g in given]
    out = call(o, *given)
    out = out if isinstance(out, tuple) else (out,)
    assert [_layout(g) for g in given] == LUA_LAYOUTS[name, kind]
    for g, s, r, f in zip(given, storages, out, fresh):
        assert r is g and torch.pointer(g.storage()) == s
        assert g.isSameSizeAs(f) and (g - f).abs().max() == 0  # the answer itself


def test_eig_into_slices_fills_the_bigger_tensors():
    o = _operands()
    ebig, vbig = torch.zeros(4, 2, 2), torch.zeros(4, 2, 4)
    e, v = ebig[[], 2, []], vbig[[], 2, []]
    torch.eig(e, v, o["A"], "V")
    e0, v0 = torch.eig(o["A"], "V")
    assert (ebig[[], 2, []] - e0).abs().max() == 0 and (vbig[[], 2, []] - v0).abs().max() == 0
    assert ebig[[], 1, []].abs().max() == 0 and vbig[[], 1, []].abs().max() == 0


# (function, result given as its own operand) -> Lua's layouts: the operand keeps
# its layout, resized contiguous when the answer's shape differs (gels's X)
LUA_OPERAND_LAYOUTS = {
    "gesv": [((4, 2), (2, 1), 1, 8), ((4, 4), (4, 1), 1, 16)],
    "gels": [((3, 2), (2, 1), 1, 12), ((6, 3), (3, 1), 1, 18)],
    "trtrs": [((4, 2), (2, 1), 1, 8), ((4, 4), (4, 1), 1, 16)],
    "potrf": [((4, 4), (4, 1), 1, 16)],
    "inverse": [((4, 4), (4, 1), 1, 16)],
    "eig": [((4, 4), (1, 4), 1, 16)],  # geev does not work in its operand
}


@pytest.mark.parametrize("name", sorted(LUA_OPERAND_LAYOUTS))
def test_lapack_result_that_is_its_operand_keeps_its_layout(name):
    o = _operands()
    b, a, g, gb = o["B"].clone(), o["A"].clone(), o["G"].clone(), o["GB"].clone()
    calls = {
        "gesv": ([b, a], lambda: torch.gesv(b, a, b, a), lambda: torch.gesv(o["B"], o["A"])),
        "gels": ([gb, g], lambda: torch.gels(gb, g, gb, g), lambda: torch.gels(o["GB"], o["G"])),
        "trtrs": ([b, a], lambda: torch.trtrs(b, a, b, a), lambda: torch.trtrs(o["B"], o["A"])),
        "potrf": ([a], lambda: torch.potrf(a, a), lambda: torch.potrf(o["A"])),
        "inverse": ([a], lambda: torch.inverse(a, a), lambda: torch.inverse(o["A"])),
        "eig": (
            [a],
            lambda: torch.eig(torch.Tensor(), a, a, "V")[1],
            lambda: torch.eig(o["A"], "V")[1],
        ),
    }
    ts, call, fresh_call = calls[name]
    storages = [torch.pointer(t.storage()) for t in ts]
    call()
    fresh = fresh_call()
    fresh = fresh if isinstance(fresh, tuple) else (fresh,)
    assert [_layout(t) for t in ts] == LUA_OPERAND_LAYOUTS[name]
    for t, s, f in zip(ts, storages, fresh):
        assert torch.pointer(t.storage()) == s and (t - f).abs().max() == 0


def test_gels_solves_in_b_when_b_is_lapacks_layout():
    # Lua: B 6x6 column-major given as its own result: X is its first 3 rows,
    # strides (1, 6), the rows below (residual parts) left in its storage
    o = _operands()
    gb = torch.Tensor(6, 6).t()
    gb.copy(torch.randn(6, 6))
    b0 = gb.clone()
    s = torch.pointer(gb.storage())
    torch.gels(gb, torch.Tensor(), gb, o["G"])
    assert _layout(gb) == ((3, 6), (1, 6), 1, 36) and torch.pointer(gb.storage()) == s
    x, _ = torch.gels(b0, o["G"])
    assert (gb - x).abs().max() == 0
    assert (torch.Tensor(gb.storage()) - torch.Tensor(x.storage())).abs().max() == 0


def test_1d_b_and_eig_without_vectors_as_lua():
    o = _operands()
    b1 = o["B"].select(2, 1).clone()
    s = torch.pointer(b1.storage())
    torch.gesv(b1, torch.Tensor(), b1, o["A"])  # Lua: a (4, 1) column, in b1's storage
    assert _layout(b1) == ((4, 1), (1, 4), 1, 4) and torch.pointer(b1.storage()) == s
    v = torch.ones(2, 2)
    torch.eig(torch.Tensor(), v, o["A"])  # Lua leaves v as it was
    assert _layout(v) == ((2, 2), (2, 1), 1, 4) and v.sum() == 4


@pytest.mark.parametrize("name", ["gesv", "potrf", "inverse", "pstrf"])
def test_square_slice_results_get_the_right_answer(name):
    # Lua runs LAPACK over such a slice as if it were column-major (a wrong
    # answer, or a "singular" error); here the slice keeps its layout and
    # gets the answer
    o = _operands()
    r = torch.zeros(4, 2, 4)[[], 2, []]
    A, I = o["A"], torch.eye(4)
    fresh, given = {
        "gesv": (lambda: torch.gesv(I, A)[0], lambda: torch.gesv(r, torch.Tensor(), I, A)),
        "potrf": (lambda: torch.potrf(A), lambda: torch.potrf(r, A)),
        "inverse": (lambda: torch.inverse(A), lambda: torch.inverse(r, A)),
        "pstrf": (lambda: torch.pstrf(A)[0], lambda: torch.pstrf(r, torch.IntTensor(), A)),
    }[name]
    want = fresh()
    given()
    assert _layout(r) == ((4, 4), (8, 1), 5, 32) and (r - want).abs().max() == 0
