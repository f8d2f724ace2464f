"""Processes and threads (docs/core-semantics.md, *Threads, fork*):

1. a child made by fork() after the parent ran parallel kernels runs every
   kernel (elementwise, reductions, sort, topk, matmul on OpenBLAS and on our
   own kernel, fft) on threads of its own and gets the parent's results:
   os.fork(), a grandchild, and a multiprocessing pool with the fork start
   method, in both faces; every child runs under a deadline, so a hang
   fails the test;
2. a thread that ends gives back what the core kept for it (RSS over 8000
   short-lived threads);
3. Python threads running mixed kernels on shared inputs into private
   outputs give the serial results, at 1 and 2 threads and while another
   thread keeps changing the setting."""

import multiprocessing
import os
import pickle
import select
import signal
import subprocess
import sys
import sysconfig
import threading
import time

import numpy as np
import pytest

import strided
import strided as torch
import strided.compat as xp
from strided.core import base as _core

from helpers import under_asan

DEADLINE = 60  # seconds a child may take; the work takes well under 1 s


@pytest.fixture
def two_threads():
    before = strided.getnumthreads()
    strided.setnumthreads(2)
    yield
    strided.setnumthreads(before)


# ---- the work: large enough for every kernel to split across threads
# (elementwise and reductions past 2 x 32768 elements, sort lanes past
# RDX_PAR_MIN, a 300 x 300 float product above OpenBLAS's threshold for its
# threads, an int64 product on our packed kernel, fft lines past the
# threshold of the line-splitting path) and small enough to stay well under
# a second on one thread.


def _inputs():
    rng = np.random.default_rng(7)
    return {
        "a": rng.standard_normal((400, 600)),
        "b": rng.standard_normal((400, 600)),
        "m": rng.standard_normal((300, 300)),
        "v": rng.standard_normal(300_000),
        "i": rng.integers(-50, 50, (160, 160)),
        "z": rng.standard_normal(1 << 18),
    }


def work_torch7():
    """The Torch7 face (`import strided as torch`).  Torch7 has no FFT: its
    transform is the core's, under the compat face's."""
    n = _inputs()
    x = {k: xp_to_tensor(v) for k, v in n.items()}  # DoubleTensors, i a LongTensor
    a, b, m, v, i = (x[k] for k in "abmvi")
    sa, ia = torch.sort(a, 2)
    sv, _ = torch.sort(v)
    tk, tki = torch.topk(a, 5, 2, True, True)
    out = {
        "add": a + b,
        "exp": torch.exp(a),
        "cmul": torch.cmul(a, b),
        "sum": torch.sum(a),
        "sum2": torch.sum(a, 2),
        "max1": torch.max(a, 1)[0],
        "std": torch.std(a, 1),
        "cumsum": torch.cumsum(a, 1),
        "sort": sa,
        "sorti": ia,
        "sortv": sv,
        "topk": tk,
        "topki": tki,
        "mm": torch.mm(m, m),
        "mm_long": torch.mm(i, i),
        "fft": xp.fft.rfft(xp.asarray(n["z"])),
    }
    return {k: np.array(v) if not isinstance(v, float) else v for k, v in out.items()}


def xp_to_tensor(v):
    """A Torch7 tensor holding numpy array v's values (through the compat
    face's asarray and the one crossing between the faces)."""
    from strided.interop import to_tensor

    return to_tensor(xp.asarray(v))


def work_compat():
    """The array API face (`strided.compat`)."""
    n = _inputs()
    a, b, m, v, i, z = (xp.asarray(n[k]) for k in "abmviz")
    out = {
        "add": a + b,
        "exp": xp.exp(a),
        "mul": a * b,
        "sum": xp.sum(a),
        "sum1": xp.sum(a, axis=1),
        "max0": xp.max(a, axis=0),
        "std": xp.std(a, axis=1),
        "cumsum": xp.cumulative_sum(a, axis=1),
        "sort": xp.sort(a, axis=1),
        "argsort": xp.argsort(a, axis=1),
        "sortv": xp.sort(v),
        "argmax": xp.argmax(v),
        "matmul": m @ m,
        "matmul_int": i @ i,
        "fft": xp.fft.fft(xp.astype(z, xp.complex128)),
        "rfft": xp.fft.rfft(xp.reshape(z, (256, 1024)), axis=1),
    }
    return {k: np.asarray(v) for k, v in out.items()}


WORK = {"torch7": work_torch7, "compat": work_compat}
BLAS = {"mm", "matmul"}  # OpenBLAS: the last bits may follow its thread count


def check_same(got, want):
    assert got.keys() == want.keys()
    for k in want:
        if k in BLAS:
            np.testing.assert_allclose(got[k], want[k], rtol=1e-12, atol=1e-12, err_msg=k)
        else:
            np.testing.assert_array_equal(got[k], want[k], err_msg=k)


def run_forked(fn, *args):
    """fn(*args) in a child made by os.fork(), its result pickled back
    through a pipe; the child is killed and the test fails past DEADLINE."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns into pytest
        code = 1
        try:
            os.close(r)
            try:
                payload = pickle.dumps(("ok", fn(*args)))
            except BaseException as e:  # reported by the parent
                payload = pickle.dumps(("error", repr(e)))
            with os.fdopen(w, "wb") as f:
                f.write(payload)
            code = 0
        finally:
            os._exit(code)
    os.close(w)
    chunks, deadline = [], time.monotonic() + DEADLINE
    try:
        while True:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([r], [], [], left)[0]:
                os.kill(pid, signal.SIGKILL)
                pytest.fail(f"the forked child did not finish {fn.__name__} in {DEADLINE} s")
            chunk = os.read(r, 1 << 20)
            if not chunk:
                break
            chunks.append(chunk)
    finally:
        os.close(r)
        os.waitpid(pid, 0)
    status, value = pickle.loads(b"".join(chunks))
    assert status == "ok", value
    return value


def in_child(work):
    """work()'s results, with how the child ran: whether it fell back to
    one thread, and how many threads the process has after the work (its
    own OpenMP and OpenBLAS threads: fork copied none)."""
    out = work()
    return out, _core.threads_forked(), len(os.listdir("/proc/self/task"))


def fork_twice(work):
    """in_child(work) in a grandchild (fork of a fork, the child having run
    the work itself first, on threads of its own), and in the child."""
    mine = in_child(work)
    return run_forked(in_child, work), mine


def check_child(child, want):
    out, fell_back, nthreads = child
    check_same(out, want)
    # the child split the kernels over threads it started itself (the
    # runtime paused the parent's before fork: docs/architecture.md)
    assert not fell_back
    assert nthreads >= 2


@pytest.mark.parametrize("face", ["torch7", "compat"])
def test_os_fork_child_runs_every_kernel(two_threads, face):
    work = WORK[face]
    want = work()  # the parent's threads are running now
    check_child(run_forked(in_child, work), want)


@pytest.mark.parametrize("face", ["torch7", "compat"])
def test_forked_grandchild_runs_every_kernel(two_threads, face):
    work = WORK[face]
    want = work()
    grandchild, child = run_forked(fork_twice, work)
    check_child(child, want)
    check_child(grandchild, want)


@pytest.mark.parametrize("face", ["torch7", "compat"])
def test_fork_pool_workers_run_every_kernel(two_threads, face):
    work = WORK[face]
    want = work()
    with multiprocessing.get_context("fork").Pool(2) as pool:  # exit: terminate()
        pending = [pool.apply_async(in_child, (work,)) for _ in range(3)]
        got = [p.get(timeout=DEADLINE) for p in pending]
    for child in got:
        check_child(child, want)


def test_fork_with_one_thread_set_and_parent_after_fork(two_threads):
    # a child forked at setnumthreads(1) runs on one thread; the parent's
    # kernels run on threads again after forking (its pool was paused for
    # the fork and starts anew) and give the same results
    want = work_compat()
    strided.setnumthreads(1)
    out, fell_back, _ = run_forked(in_child, work_compat)
    check_same(out, want)
    assert not fell_back
    strided.setnumthreads(2)
    assert not _core.threads_forked()
    check_same(work_compat(), want)
    assert len(os.listdir("/proc/self/task")) >= 2


FALLBACK_SCRIPT = """
import os, signal, sys
import numpy as np
import strided.compat as xp
import strided
from strided.core import base
strided.setnumthreads(2)
a = xp.asarray(np.random.default_rng(0).standard_normal((600, 600)))
want = np.asarray(xp.sum(xp.exp(a), axis=1))        # on 2 threads
def same():
    return base.threads_forked() and np.array_equal(np.asarray(xp.sum(xp.exp(a), axis=1)), want)
pid = os.fork()
if pid == 0:
    signal.alarm(50)                                  # a hang kills the child
    code = 3
    try:
        if same():
            pid2 = os.fork()                          # and its child: one thread too
            if pid2 == 0:
                signal.alarm(50)
                os._exit(0 if same() else 4)
            code = os.waitstatus_to_exitcode(os.waitpid(pid2, 0)[1])
    finally:
        os._exit(code)
_, st = os.waitpid(pid, 0)
sys.exit(os.waitstatus_to_exitcode(st))
"""


def test_fork_falls_back_to_one_thread_when_the_runtime_cannot_pause(tmp_path):
    # The fallback: a runtime that refuses to pause its threads before fork
    # (here a shim preloaded over libgomp's omp_pause_resource_all) leaves
    # the child without them: the child notes it and runs every kernel on
    # its calling thread, with the parent's results, instead of hanging.
    shim = tmp_path / "nopause.so"
    src = tmp_path / "nopause.c"
    src.write_text("int omp_pause_resource_all(int kind) { (void)kind; return -1; }\n")
    cc = (sysconfig.get_config_var("CC") or "cc").split()[0]
    subprocess.run([cc, "-shared", "-fPIC", "-o", str(shim), str(src)], check=True)
    # after what is preloaded already (the sanitizer job's libasan comes first)
    preload = " ".join(filter(None, [os.environ.get("LD_PRELOAD"), str(shim)]))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path), LD_PRELOAD=preload)
    r = subprocess.run(
        [sys.executable, "-c", FALLBACK_SCRIPT],
        env=env,
        timeout=DEADLINE + 30,
        capture_output=True,
        text=True,
    )
    assert r.returncode == 0, (r.returncode, r.stderr)


# ---- 2. memory of threads that ended

RSS_SCRIPT = """
import gc, sys, threading
def rss():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * 4096
face = sys.argv[1]
if face == "torch7":
    import strided as torch
    m = torch.randn(4, 4)
    def work():
        a = torch.Tensor(3).fill(1); b = a + a; c = b.sum(); d = torch.cmul(a, b)
        e = torch.mm(m, m); s = torch.sort(b)
        try:
            torch.add(a, torch.Tensor(4))      # an error: the thread's message record
        except Exception:
            pass
else:
    import strided.compat as xp
    m = xp.ones((4, 4))
    def work():
        a = xp.ones(3); b = a + a; c = xp.sum(b); d = a * b
        e = m @ m; s = xp.sort(b); f = xp.fft.rfft(a)
        try:
            a + xp.ones(4)
        except Exception:
            pass
def run(n):
    for _ in range(n):
        t = threading.Thread(target=work)
        t.start()
        t.join()
run(300)                 # warm up: caches, arenas, the thread stack cache
gc.collect()
before = rss()
run(8000)
gc.collect()
print(rss() - before)
"""


@pytest.mark.parametrize("face", ["torch7", "compat"])
def test_threads_that_end_leave_no_memory(face):
    # Each thread used to keep its cached tensor records (about 4 KiB): 8000
    # threads grew the process by ~33 MiB (numpy: 0).  The bound is generous
    # (a tenth of a KiB per thread would be 0.8 MiB).
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    r = subprocess.run(
        [sys.executable, "-c", RSS_SCRIPT, face],
        env=env,
        timeout=120,
        capture_output=True,
        text=True,
    )
    assert r.returncode == 0, r.stderr
    grew = int(r.stdout.split()[-1])
    if under_asan():  # its quarantine holds freed blocks: the size says nothing there
        return
    assert grew < 4 << 20, f"8000 threads grew the process by {grew / 2**20:.1f} MiB"


# ---- 3. many threads, shared inputs, private outputs


def _mixed_inputs():
    rng = np.random.default_rng(3)
    return {
        "a": rng.standard_normal((300, 700)),
        "b": rng.standard_normal((300, 700)),
        "m": rng.standard_normal((120, 120)),
        "v": rng.standard_normal(200_000),
        "z": rng.standard_normal((64, 2048)),
    }


def mixed_torch7(x, outs):
    """Torch7's [res] forms: every result written into the caller's own
    tensors (outs), the inputs x shared with the other threads."""
    a, b, m, v = x["a"], x["b"], x["m"], x["v"]
    torch.add(outs["add"], a, b)
    torch.cmul(outs["cmul"], a, b)
    torch.exp(outs["exp"], a)
    torch.sum(outs["sum2"], a, 2)
    torch.max(outs["max1"], outs["max1i"], a, 1)
    torch.cumsum(outs["cumsum"], a, 2)
    torch.sort(outs["sort"], outs["sorti"], a, 2)
    torch.sort(outs["sortv"], outs["sortvi"], v)
    torch.topk(outs["topk"], outs["topki"], v, 10, 1, True, True)
    torch.kthvalue(outs["kth"], outs["kthi"], v, 1000)
    torch.mm(outs["mm"], m, m)
    return {k: np.array(t) for k, t in outs.items()} | {"total": torch.sum(a)}


def torch7_outputs(x):
    D, L = torch.DoubleTensor, torch.LongTensor
    return {
        "add": D(),
        "cmul": D(),
        "exp": D(),
        "sum2": D(),
        "max1": D(),
        "max1i": L(),
        "cumsum": D(),
        "sort": D(),
        "sorti": L(),
        "sortv": D(),
        "sortvi": L(),
        "topk": D(),
        "topki": L(),
        "kth": D(),
        "kthi": L(),
        "mm": D(),
    }


def mixed_compat(x, outs):
    a, b, m, v, z = (x[k] for k in "abmvz")
    res = {
        "add": a + b,
        "exp": xp.exp(a),
        "sum1": xp.sum(a, axis=1),
        "max0": xp.max(a, axis=0),
        "argmax": xp.argmax(v),
        "std": xp.std(a, axis=1),
        "sort": xp.sort(a, axis=1),
        "argsort": xp.argsort(v),
        "matmul": m @ m,
        "fft": xp.fft.rfft(z, axis=1),
        "total": xp.sum(a),
    }
    return {k: np.asarray(r) for k, r in res.items()}


MIXED = {
    "torch7": (lambda n: {k: xp_to_tensor(v) for k, v in n.items()}, torch7_outputs, mixed_torch7),
    "compat": (lambda n: {k: xp.asarray(v) for k, v in n.items()}, lambda x: None, mixed_compat),
}


def run_threads(face, nthreads, rounds, changer=False):
    """nthreads Python threads each run the mixed work `rounds` times on the
    shared inputs; returns every result, and how many times the setting
    changed meanwhile (changer: one more thread keeps setting 1..4)."""
    convert, outputs, mixed = MIXED[face]
    x = convert(_mixed_inputs())
    results, errors, stop = [], [], threading.Event()
    changes = [0]

    def worker():
        try:
            outs = outputs(x)
            for _ in range(rounds):
                results.append(mixed(x, outs))
        except BaseException as e:  # reported below
            errors.append(repr(e))

    def change():
        k = 0
        while not stop.is_set():
            strided.setnumthreads(1 + k % 4)
            k += 1
            time.sleep(0.0005)
        changes[0] = k

    threads = [threading.Thread(target=worker) for _ in range(nthreads)]
    extra = threading.Thread(target=change) if changer else None
    if extra:
        extra.start()
    for t in threads:
        t.start()
    for t in threads:
        t.join(DEADLINE)
    stop.set()
    if extra:
        extra.join()
    assert not any(t.is_alive() for t in threads), "a thread did not finish"
    assert not errors, errors
    return results, changes[0]


@pytest.mark.parametrize("face", ["torch7", "compat"])
@pytest.mark.parametrize("setting", [1, 2, "changing"])
def test_many_threads_give_the_serial_results(face, setting):
    before = strided.getnumthreads()
    try:
        strided.setnumthreads(1)
        convert, outputs, mixed = MIXED[face]
        x = convert(_mixed_inputs())
        want = mixed(x, outputs(x))  # serial: one Python thread, one core thread
        if setting != "changing":
            strided.setnumthreads(setting)
        results, changes = run_threads(face, 6, 3, changer=setting == "changing")
        assert len(results) == 18
        if setting == "changing":
            assert changes > 10
        for got in results:
            check_same(got, want)
    finally:
        strided.setnumthreads(before)


def test_setting_changes_while_topk_and_kthvalue_share_out_lanes():
    # topk, kthvalue and mode size one buffer per thread from the setting
    # (and Torch7's order among ties one more), and their lanes must not run
    # on more threads than that, nor free another count of buffers, even
    # when the setting changes meanwhile (few long lanes: each lane split
    # over threads; ties, so that Torch7's order needs its buffers)
    rng = np.random.default_rng(5)
    v = rng.standard_normal((2, 400_000))
    t = xp_to_tensor(v)
    want_k = np.sort(v, axis=1)[:, :7]
    want_kth = np.sort(v, axis=1)[:, 999]
    ties = xp_to_tensor(np.round(v[:, :50_000]))
    want_mode = [np.unique(r, return_counts=True) for r in np.round(v[:, :50_000])]
    want_mode = [u[np.argmax(c)] for u, c in want_mode]
    stop = threading.Event()

    def change():
        k = 0
        while not stop.is_set():
            strided.setnumthreads(1 + k % 8)
            k += 1

    before = strided.getnumthreads()
    changer = threading.Thread(target=change)
    changer.start()
    try:
        for _ in range(40):
            vals, _ = torch.topk(t, 7, 2, False, True)
            kth, _ = torch.kthvalue(t, 1000, 2)
            np.testing.assert_array_equal(np.array(vals), want_k)
            np.testing.assert_array_equal(np.array(kth)[:, 0], want_kth)
            mode, _ = torch.mode(ties, 2)
            np.testing.assert_array_equal(np.array(mode)[:, 0], want_mode)
            tk, _ = torch.topk(ties, 3, 2, False, True)
            np.testing.assert_array_equal(np.array(tk), np.sort(np.array(ties), axis=1)[:, :3])
    finally:
        stop.set()
        changer.join()
        strided.setnumthreads(before)
