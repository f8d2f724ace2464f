"""The examples of the generated Torch7 functions (docstrings.py puts each
in its function's docstring, after `>>> import strided as torch`): one
short session per spec entry, typed as Python.  The outputs are those of
this implementation, checked against the maths by eye and kept as
regression values: tests/project/test_docs.py runs every one as a doctest, so a
change of behaviour or of printing fails there."""

EXAMPLES = {
    "add": """\
>>> torch.add(torch.Tensor([1, 2, 3]), 10)
 11
 12
 13
[torch.DoubleTensor of dimension 3]
>>> x = torch.Tensor([1, 2, 3])
>>> x.add(2, torch.Tensor([1, 1, 1]))  # in place: x + 2 * y
 3
 4
 5
[torch.DoubleTensor of dimension 3]
>>> x
 3
 4
 5
[torch.DoubleTensor of dimension 3]""",
    "csub": """\
>>> torch.csub(torch.Tensor([5, 6]), 2, torch.Tensor([1, 2]))
 3
 2
[torch.DoubleTensor of dimension 2]""",
    "mul": """\
>>> torch.mul(torch.LongTensor([1, -2, 3]), 3)
 3
-6
 9
[torch.LongTensor of dimension 3]""",
    "div": """\
>>> torch.div(torch.LongTensor([7, -7]), 2)  # integers: toward zero
 3
-3
[torch.LongTensor of dimension 2]""",
    "fmod": """\
>>> torch.fmod(torch.Tensor([-7, 7]), 3)  # the sign of the dividend
-1
 1
[torch.DoubleTensor of dimension 2]""",
    "remainder": """\
>>> torch.remainder(torch.Tensor([-7, 7]), 3)  # the sign of the divisor
 2
 1
[torch.DoubleTensor of dimension 2]""",
    "cmul": """\
>>> torch.cmul(torch.Tensor([1, 2, 3]), torch.Tensor([4, 5, 6]))
  4
 10
 18
[torch.DoubleTensor of dimension 3]""",
    "cdiv": """\
>>> torch.cdiv(torch.LongTensor([7, -7]), torch.LongTensor([2, 2]))
 3
-3
[torch.LongTensor of dimension 2]""",
    "cpow": """\
>>> torch.cpow(torch.Tensor([2, 3]), torch.Tensor([3, 2]))
 8
 9
[torch.DoubleTensor of dimension 2]""",
    "cfmod": """\
>>> torch.cfmod(torch.Tensor([-7, 7]), torch.Tensor([3, -3]))
-1
 1
[torch.DoubleTensor of dimension 2]""",
    "cremainder": """\
>>> torch.cremainder(torch.Tensor([-7, 7]), torch.Tensor([3, -3]))
 2
-2
[torch.DoubleTensor of dimension 2]""",
    "mod": """\
>>> torch.mod(torch.Tensor([-7, 7]), 3)
-1
 1
[torch.DoubleTensor of dimension 2]""",
    "cmod": """\
>>> torch.cmod(torch.Tensor([-7, 7]), torch.Tensor([3, 3]))
-1
 1
[torch.DoubleTensor of dimension 2]""",
    "bitand": """\
>>> torch.bitand(torch.IntTensor([12, 10]), 6)
 4
 2
[torch.IntTensor of dimension 2]""",
    "cbitand": """\
>>> torch.cbitand(torch.IntTensor([12, 10]), torch.IntTensor([6, 3]))
 4
 2
[torch.IntTensor of dimension 2]""",
    "bitor": """\
>>> torch.bitor(torch.IntTensor([12, 10]), 1)
 13
 11
[torch.IntTensor of dimension 2]""",
    "cbitor": """\
>>> torch.cbitor(torch.IntTensor([12, 10]), torch.IntTensor([1, 5]))
 13
 15
[torch.IntTensor of dimension 2]""",
    "bitxor": """\
>>> torch.bitxor(torch.IntTensor([12, 10]), 6)
 10
 12
[torch.IntTensor of dimension 2]""",
    "cbitxor": """\
>>> torch.cbitxor(torch.IntTensor([12, 10]), torch.IntTensor([6, 3]))
 10
  9
[torch.IntTensor of dimension 2]""",
    "lshift": """\
>>> torch.lshift(torch.IntTensor([1, 3]), 2)
  4
 12
[torch.IntTensor of dimension 2]""",
    "clshift": """\
>>> torch.clshift(torch.IntTensor([1, 3]), torch.IntTensor([1, 4]))
  2
 48
[torch.IntTensor of dimension 2]""",
    "rshift": """\
>>> torch.rshift(torch.IntTensor([8, 12]), 2)
 2
 3
[torch.IntTensor of dimension 2]""",
    "crshift": """\
>>> torch.crshift(torch.IntTensor([8, 12]), torch.IntTensor([1, 2]))
 4
 3
[torch.IntTensor of dimension 2]""",
    "cmax": """\
>>> torch.cmax(torch.Tensor([1, 5, 3]), torch.Tensor([4, 2, 3]))
 4
 5
 3
[torch.DoubleTensor of dimension 3]
>>> torch.cmax(torch.Tensor([1, 5, 3]), 2)
 2
 5
 3
[torch.DoubleTensor of dimension 3]""",
    "cmin": """\
>>> torch.cmin(torch.Tensor([1, 5, 3]), torch.Tensor([4, 2, 3]))
 1
 2
 3
[torch.DoubleTensor of dimension 3]""",
    "pow": """\
>>> torch.pow(torch.Tensor([1, 2, 3]), 2)
 1
 4
 9
[torch.DoubleTensor of dimension 3]
>>> torch.pow(2, torch.Tensor([1, 2, 3]))
 2
 4
 8
[torch.DoubleTensor of dimension 3]""",
    "atan2": """\
>>> torch.atan2(torch.Tensor([1, -1]), torch.Tensor([1, 1]))
 0.7854
-0.7854
[torch.DoubleTensor of dimension 2]""",
    "clamp": """\
>>> torch.clamp(torch.Tensor([-2, 0.5, 3]), 0, 1)
 0.0000
 0.5000
 1.0000
[torch.DoubleTensor of dimension 3]""",
    "abs": """\
>>> torch.abs(torch.Tensor([-1.5, 2]))
 1.5000
 2.0000
[torch.DoubleTensor of dimension 2]
>>> torch.abs(-3)
3.0""",
    "sign": """\
>>> torch.sign(torch.Tensor([-2, 0, 3]))
-1
 0
 1
[torch.DoubleTensor of dimension 3]""",
    "neg": """\
>>> torch.neg(torch.Tensor([1, -2]))
-1
 2
[torch.DoubleTensor of dimension 2]""",
    "cinv": """\
>>> torch.cinv(torch.Tensor([2, 4]))
 0.5000
 0.2500
[torch.DoubleTensor of dimension 2]""",
    "sqrt": """\
>>> torch.sqrt(torch.Tensor([4, 9]))
 2
 3
[torch.DoubleTensor of dimension 2]
>>> torch.sqrt(2)
1.4142135623730951""",
    "exp": """\
>>> torch.exp(torch.Tensor([0, 1]))
 1.0000
 2.7183
[torch.DoubleTensor of dimension 2]""",
    "log": """\
>>> torch.log(torch.Tensor([1, 100]))
 0.0000
 4.6052
[torch.DoubleTensor of dimension 2]""",
    "log1p": """\
>>> torch.log1p(torch.Tensor([0, 1]))
 0.0000
 0.6931
[torch.DoubleTensor of dimension 2]""",
    "sin": """\
>>> torch.sin(torch.Tensor([0, 0.5]))
 0.0000
 0.4794
[torch.DoubleTensor of dimension 2]""",
    "cos": """\
>>> torch.cos(torch.Tensor([0, 0.5]))
 1.0000
 0.8776
[torch.DoubleTensor of dimension 2]""",
    "tan": """\
>>> torch.tan(torch.Tensor([0, 0.5]))
 0.0000
 0.5463
[torch.DoubleTensor of dimension 2]""",
    "asin": """\
>>> torch.asin(torch.Tensor([0, 1]))
 0.0000
 1.5708
[torch.DoubleTensor of dimension 2]""",
    "acos": """\
>>> torch.acos(torch.Tensor([1, 0]))
 0.0000
 1.5708
[torch.DoubleTensor of dimension 2]""",
    "atan": """\
>>> torch.atan(torch.Tensor([0, 1]))
 0.0000
 0.7854
[torch.DoubleTensor of dimension 2]""",
    "sinh": """\
>>> torch.sinh(torch.Tensor([0, 1]))
 0.0000
 1.1752
[torch.DoubleTensor of dimension 2]""",
    "cosh": """\
>>> torch.cosh(torch.Tensor([0, 1]))
 1.0000
 1.5431
[torch.DoubleTensor of dimension 2]""",
    "tanh": """\
>>> torch.tanh(torch.Tensor([0, 1]))
 0.0000
 0.7616
[torch.DoubleTensor of dimension 2]""",
    "floor": """\
>>> torch.floor(torch.Tensor([-1.5, 1.5]))
-2
 1
[torch.DoubleTensor of dimension 2]""",
    "ceil": """\
>>> torch.ceil(torch.Tensor([-1.5, 1.5]))
-1
 2
[torch.DoubleTensor of dimension 2]""",
    "round": """\
>>> torch.round(torch.Tensor([-1.5, 0.5, 2.5]))  # halves away from zero, as C's round
-2
 1
 3
[torch.DoubleTensor of dimension 3]""",
    "trunc": """\
>>> torch.trunc(torch.Tensor([-1.7, 1.7]))
-1
 1
[torch.DoubleTensor of dimension 2]""",
    "sigmoid": """\
>>> torch.sigmoid(torch.Tensor([0, 2]))
 0.5000
 0.8808
[torch.DoubleTensor of dimension 2]""",
    "rsqrt": """\
>>> torch.rsqrt(torch.Tensor([4, 16]))
 0.5000
 0.2500
[torch.DoubleTensor of dimension 2]""",
    "frac": """\
>>> torch.frac(torch.Tensor([-1.25, 2.5]))
-0.2500
 0.5000
[torch.DoubleTensor of dimension 2]""",
    "lt": """\
>>> torch.lt(torch.Tensor([1, 2, 3]), 2)
 1
 0
 0
[torch.ByteTensor of dimension 3]""",
    "le": """\
>>> torch.le(torch.Tensor([1, 2, 3]), 2)
 1
 1
 0
[torch.ByteTensor of dimension 3]""",
    "gt": """\
>>> torch.gt(torch.Tensor([1, 2, 3]), torch.Tensor([3, 2, 1]))
 0
 0
 1
[torch.ByteTensor of dimension 3]""",
    "ge": """\
>>> torch.ge(torch.Tensor([1, 2, 3]), 2)
 0
 1
 1
[torch.ByteTensor of dimension 3]""",
    "eq": """\
>>> torch.eq(torch.Tensor([1, 2, 3]), 2)
 0
 1
 0
[torch.ByteTensor of dimension 3]""",
    "ne": """\
>>> torch.ne(torch.Tensor([1, 2, 3]), 2)
 1
 0
 1
[torch.ByteTensor of dimension 3]""",
    "sum": """\
>>> m = torch.Tensor([[1, 2], [3, 4]])
>>> torch.sum(m)
10.0
>>> torch.sum(m, 2)
 3
 7
[torch.DoubleTensor of dimension 2x1]""",
    "prod": """\
>>> torch.prod(torch.Tensor([[1, 2], [3, 4]]), 1)
 3  8
[torch.DoubleTensor of dimension 1x2]""",
    "mean": """\
>>> torch.mean(torch.Tensor([[1, 2], [3, 4]]))
2.5""",
    "max": """\
>>> m = torch.Tensor([[1, 5], [3, 2]])
>>> torch.max(m)
5.0
>>> values, indices = torch.max(m, 2)
>>> indices
 2
 1
[torch.LongTensor of dimension 2x1]""",
    "min": """\
>>> values, indices = torch.min(torch.Tensor([[1, 5], [3, 2]]), 1)
>>> values
 1  2
[torch.DoubleTensor of dimension 1x2]""",
    "var": """\
>>> torch.var(torch.Tensor([1, 2, 3, 4]))
1.6666666666666667
>>> torch.var(torch.Tensor([1, 2, 3, 4]), True)  # biased: / n
1.25""",
    "std": """\
>>> torch.std(torch.Tensor([2, 4, 4, 4, 5, 5, 7, 9]), True)
2.0""",
    "cumsum": """\
>>> torch.cumsum(torch.Tensor([1, 2, 3]))
 1
 3
 6
[torch.DoubleTensor of dimension 3]""",
    "cumprod": """\
>>> torch.cumprod(torch.Tensor([1, 2, 3]))
 1
 2
 6
[torch.DoubleTensor of dimension 3]""",
    "all": """\
>>> torch.all(torch.ByteTensor([1, 1, 0]))
False""",
    "any": """\
>>> torch.any(torch.ByteTensor([0, 0, 1]))
True""",
    "numel": """\
>>> torch.numel(torch.Tensor(2, 3))
6""",
    "sort": """\
>>> values, indices = torch.sort(torch.Tensor([3, 1, 2]))
>>> values
 1
 2
 3
[torch.DoubleTensor of dimension 3]
>>> indices
 2
 3
 1
[torch.LongTensor of dimension 3]""",
    "dot": """\
>>> torch.dot(torch.Tensor([1, 2, 3]), torch.Tensor([4, 5, 6]))
32.0""",
    "mm": """\
>>> torch.mm(torch.Tensor([[1, 2], [3, 4]]), torch.Tensor([[1, 0], [0, 1]]))
 1  2
 3  4
[torch.DoubleTensor of dimension 2x2]""",
    "mv": """\
>>> torch.mv(torch.Tensor([[1, 2], [3, 4]]), torch.Tensor([1, 1]))
 3
 7
[torch.DoubleTensor of dimension 2]""",
    "bmm": """\
>>> torch.bmm(torch.ones(2, 1, 3), torch.ones(2, 3, 1)).totable()
[[[3.0]], [[3.0]]]""",
    "ger": """\
>>> torch.ger(torch.Tensor([1, 2]), torch.Tensor([1, 10, 100]))
   1   10  100
   2   20  200
[torch.DoubleTensor of dimension 2x3]""",
    "addmm": """\
>>> torch.addmm(torch.ones(2, 2), torch.Tensor([[1, 2], [3, 4]]), torch.eye(2))
 2  3
 4  5
[torch.DoubleTensor of dimension 2x2]""",
    "addmv": """\
>>> torch.addmv(torch.Tensor([10, 20]), 2, torch.Tensor([[1, 2], [3, 4]]), torch.Tensor([1, 1]))  # v2 * (M v) + y
 16
 34
[torch.DoubleTensor of dimension 2]""",
    "addr": """\
>>> torch.addr(torch.zeros(2, 2), torch.Tensor([1, 2]), torch.Tensor([3, 4]))
 3  4
 6  8
[torch.DoubleTensor of dimension 2x2]""",
    "addbmm": """\
>>> torch.addbmm(torch.zeros(1, 1), torch.ones(2, 1, 3), torch.ones(2, 3, 1))  # the sum of the 2 products
 6
[torch.DoubleTensor of dimension 1x1]""",
    "baddbmm": """\
>>> torch.baddbmm(torch.ones(2, 1, 1), torch.ones(2, 1, 3), torch.ones(2, 3, 1)).totable()
[[[4.0]], [[4.0]]]""",
    "histc": """\
>>> torch.histc(torch.Tensor([1, 2, 2, 3, 3, 3]), 3)
 1
 2
 3
[torch.DoubleTensor of dimension 3]""",
    "bhistc": """\
>>> torch.bhistc(torch.Tensor([[1, 2, 2], [3, 3, 1]]), 3, 1, 3)
 1  2  0
 1  0  2
[torch.DoubleTensor of dimension 2x3]""",
    "topk": """\
>>> values, indices = torch.topk(torch.Tensor([3, 1, 4, 1, 5]), 2, 1, True, True)  # the 2 largest, sorted
>>> values
 5
 4
[torch.DoubleTensor of dimension 2]
>>> indices
 5
 3
[torch.LongTensor of dimension 2]""",
    "kthvalue": """\
>>> values, indices = torch.kthvalue(torch.Tensor([3, 1, 4, 1, 5]), 2)
>>> values
 1
[torch.DoubleTensor of dimension 1]""",
    "median": """\
>>> values, indices = torch.median(torch.Tensor([3, 1, 4, 1, 5]))
>>> values
 3
[torch.DoubleTensor of dimension 1]""",
    "mode": """\
>>> values, indices = torch.mode(torch.Tensor([3, 1, 4, 1, 5]))
>>> values
 1
[torch.DoubleTensor of dimension 1]""",
    "norm": """\
>>> torch.norm(torch.Tensor([3, 4]))
5.0
>>> torch.norm(torch.Tensor([3, 4]), 1)
7.0""",
    "renorm": """\
>>> torch.renorm(torch.Tensor([[3, 4], [0.3, 0.4]]), 2, 1, 1)  # rows of 2-norm above 1 scaled to 1
 0.6000  0.8000
 0.3000  0.4000
[torch.DoubleTensor of dimension 2x2]""",
    "dist": """\
>>> torch.dist(torch.Tensor([1, 1]), torch.Tensor([4, 5]))
5.0""",
    "equal": """\
>>> torch.equal(torch.Tensor([1, 2]), torch.Tensor([1, 2]))
True""",
    "trace": """\
>>> torch.trace(torch.Tensor([[1, 2], [3, 4]]))
5.0""",
    "cross": """\
>>> torch.cross(torch.Tensor([1, 0, 0]), torch.Tensor([0, 1, 0]))
 0
 0
 1
[torch.DoubleTensor of dimension 3]""",
    "diag": """\
>>> torch.diag(torch.Tensor([1, 2]))
 1  0
 0  2
[torch.DoubleTensor of dimension 2x2]
>>> torch.diag(torch.Tensor([[1, 2], [3, 4]]))
 1
 4
[torch.DoubleTensor of dimension 2]""",
    "tril": """\
>>> torch.tril(torch.ones(3, 3))
 1  0  0
 1  1  0
 1  1  1
[torch.DoubleTensor of dimension 3x3]""",
    "triu": """\
>>> torch.triu(torch.ones(3, 3), 1)
 0  1  1
 0  0  1
 0  0  0
[torch.DoubleTensor of dimension 3x3]""",
    "eye": """\
>>> torch.eye(2, 3)
 1  0  0
 0  1  0
[torch.DoubleTensor of dimension 2x3]""",
    "conv2": """\
>>> torch.conv2(torch.ones(3, 3), torch.Tensor([[1, 2], [3, 4]]))
 10  10
 10  10
[torch.DoubleTensor of dimension 2x2]
>>> torch.conv2(torch.ones(1, 1), torch.Tensor([[1, 2], [3, 4]]), 'F')
 1  2
 3  4
[torch.DoubleTensor of dimension 2x2]""",
    "xcorr2": """\
>>> torch.xcorr2(torch.Tensor([[1, 2], [3, 4]]), torch.Tensor([[1, 0], [0, 1]]))
 5
[torch.DoubleTensor of dimension 1x1]""",
    "conv3": """\
>>> torch.conv3(torch.ones(2, 2, 2), torch.ones(2, 2, 2)).totable()
[[[8.0]]]""",
    "xcorr3": """\
>>> torch.xcorr3(torch.ones(2, 2, 3), torch.ones(2, 2, 2)).totable()
[[[8.0, 8.0]]]""",
    "addcmul": """\
>>> torch.addcmul(torch.Tensor([1, 1]), 2, torch.Tensor([1, 2]), torch.Tensor([3, 4]))
  7
 17
[torch.DoubleTensor of dimension 2]""",
    "addcdiv": """\
>>> torch.addcdiv(torch.Tensor([1, 1]), 2, torch.Tensor([1, 2]), torch.Tensor([4, 8]))
 1.5000
 1.5000
[torch.DoubleTensor of dimension 2]""",
    "lerp": """\
>>> torch.lerp(torch.Tensor([0, 10]), torch.Tensor([10, 20]), 0.5)
  5
 15
[torch.DoubleTensor of dimension 2]
>>> torch.lerp(1, 3, 0.25)
1.5""",
    "linspace": """\
>>> torch.linspace(0, 1, 5)
 0.0000
 0.2500
 0.5000
 0.7500
 1.0000
[torch.DoubleTensor of dimension 5]""",
    "logspace": """\
>>> torch.logspace(0, 2, 3)
   1
  10
 100
[torch.DoubleTensor of dimension 3]""",
    "gesv": """\
>>> X, LU = torch.gesv(torch.Tensor([[1], [2]]), torch.Tensor([[2, 0], [0, 4]]))
>>> X
 0.5000
 0.5000
[torch.DoubleTensor of dimension 2x1]""",
    "gels": """\
>>> X, QR = torch.gels(torch.Tensor([[1], [2], [3]]), torch.Tensor([[1], [1], [1]]))  # least squares
>>> X[1][1]
2.0""",
    "trtrs": """\
>>> X, A = torch.trtrs(torch.Tensor([[2], [4]]), torch.Tensor([[2, 1], [0, 4]]))  # upper triangle
>>> X
 0.5000
 1.0000
[torch.DoubleTensor of dimension 2x1]""",
    "potrf": """\
>>> torch.potrf(torch.Tensor([[4, 2], [2, 5]]))  # upper: A = U' U
 2  1
 0  2
[torch.DoubleTensor of dimension 2x2]""",
    "potrs": """\
>>> chol = torch.potrf(torch.Tensor([[4, 2], [2, 5]]))
>>> torch.potrs(torch.Tensor([[6], [7]]), chol)
 1
 1
[torch.DoubleTensor of dimension 2x1]""",
    "potri": """\
>>> torch.potri(torch.potrf(torch.Tensor([[2, 0], [0, 4]])))
 0.5000 -0.0000
-0.0000  0.2500
[torch.DoubleTensor of dimension 2x2]""",
    "qr": """\
>>> Q, R = torch.qr(torch.Tensor([[3, 1], [4, 2]]))
>>> R
-5.0000 -2.2000
 0.0000  0.4000
[torch.DoubleTensor of dimension 2x2]""",
    "geqrf": """\
>>> QR, tau = torch.geqrf(torch.Tensor([[3, 1], [4, 2]]))
>>> tau
 1.6000
 0.0000
[torch.DoubleTensor of dimension 2]""",
    "orgqr": """\
>>> QR, tau = torch.geqrf(torch.Tensor([[3, 1], [4, 2]]))
>>> torch.orgqr(QR, tau)
-0.6000 -0.8000
-0.8000  0.6000
[torch.DoubleTensor of dimension 2x2]""",
    "ormqr": """\
>>> QR, tau = torch.geqrf(torch.Tensor([[3, 1], [4, 2]]))
>>> torch.ormqr(QR, tau, torch.eye(2))  # Q itself
-0.6000 -0.8000
-0.8000  0.6000
[torch.DoubleTensor of dimension 2x2]""",
    "eig": """\
>>> e, V = torch.eig(torch.Tensor([[2, 0], [0, 3]]))
>>> e  # (real, imaginary) rows
 2  0
 3  0
[torch.DoubleTensor of dimension 2x2]""",
    "symeig": """\
>>> e, V = torch.symeig(torch.Tensor([[2, 1], [1, 2]]), 'V')
>>> e
 1
 3
[torch.DoubleTensor of dimension 2]""",
    "svd": """\
>>> U, S, V = torch.svd(torch.Tensor([[3, 0], [0, 4]]))
>>> S
 4
 3
[torch.DoubleTensor of dimension 2]""",
    "inverse": """\
>>> torch.inverse(torch.Tensor([[2, 0], [0, 4]]))
 0.5000 -0.0000
 0.0000  0.2500
[torch.DoubleTensor of dimension 2x2]""",
    "pstrf": """\
>>> factor, piv = torch.pstrf(torch.Tensor([[4, 2], [2, 5]]))
>>> piv
 2
 1
[torch.IntTensor of dimension 2]""",
    "uniform": """\
>>> torch.manualSeed(1)
>>> torch.uniform(torch.Tensor(3), 0, 10)
 4.1702
 9.9718
 7.2032
[torch.DoubleTensor of dimension 3]""",
    "normal": """\
>>> torch.manualSeed(1)
>>> torch.normal(torch.Tensor(2), 0, 1)
-2.9718
 1.7070
[torch.DoubleTensor of dimension 2]""",
    "cauchy": """\
>>> torch.manualSeed(1)
>>> torch.cauchy(torch.Tensor(2))
  -0.2668
 113.0657
[torch.DoubleTensor of dimension 2]""",
    "logNormal": """\
>>> torch.manualSeed(1)
>>> torch.logNormal(torch.Tensor(2), 1, 2)
  0.0071
 82.5911
[torch.DoubleTensor of dimension 2]""",
    "exponential": """\
>>> torch.manualSeed(1)
>>> torch.exponential(torch.Tensor(2), 1)
 0.5396
 5.8727
[torch.DoubleTensor of dimension 2]""",
    "geometric": """\
>>> torch.manualSeed(1)
>>> torch.geometric(torch.Tensor(3), 0.5)
 1
 9
 2
[torch.DoubleTensor of dimension 3]""",
    "bernoulli": """\
>>> torch.manualSeed(1)
>>> torch.bernoulli(torch.Tensor(4), 0.5)
 1
 0
 0
 0
[torch.DoubleTensor of dimension 4]""",
    "random": """\
>>> torch.manualSeed(1)
>>> torch.random(1, 6)
2
>>> torch.random(torch.LongTensor(3), 10)
 10
  5
  9
[torch.LongTensor of dimension 3]""",
    "randperm": """\
>>> torch.manualSeed(1)
>>> torch.randperm(4)
 2
 4
 3
 1
[torch.DoubleTensor of dimension 4]""",
    "multinomial": """\
>>> torch.manualSeed(1)
>>> torch.multinomial(torch.Tensor([0, 1, 0, 3]), 4, True)
 4
 4
 4
 4
[torch.LongTensor of dimension 4]""",
    "multinomialAliasSetup": """\
>>> J, q = torch.multinomialAliasSetup(torch.Tensor([0.25, 0.75]))
>>> q
 0.5000
 1.0000
[torch.DoubleTensor of dimension 2]""",
    "multinomialAlias": """\
>>> torch.manualSeed(1)
>>> state = torch.multinomialAliasSetup(torch.Tensor([0, 0.5, 0.5]))
>>> torch.multinomialAlias(torch.LongTensor(4), state)
 2
 2
 3
 3
[torch.LongTensor of dimension 4]""",
    "zeros": """\
>>> torch.zeros(2, 3)
 0  0  0
 0  0  0
[torch.DoubleTensor of dimension 2x3]""",
    "ones": """\
>>> torch.ones(2)
 1
 1
[torch.DoubleTensor of dimension 2]""",
    "reshape": """\
>>> torch.reshape(torch.range(1, 6), 2, 3)
 1  2  3
 4  5  6
[torch.DoubleTensor of dimension 2x3]""",
    "rand": """\
>>> torch.manualSeed(1)
>>> torch.rand(2)
 0.4170
 0.9972
[torch.DoubleTensor of dimension 2]""",
    "randn": """\
>>> torch.manualSeed(1)
>>> torch.randn(2)
-2.9718
 1.7070
[torch.DoubleTensor of dimension 2]""",
    "range": """\
>>> torch.range(1, 2, 0.5)
 1.0000
 1.5000
 2.0000
[torch.DoubleTensor of dimension 3]""",
    "cat": """\
>>> torch.cat(torch.ones(2), torch.zeros(1))
 1
 1
 0
[torch.DoubleTensor of dimension 3]
>>> torch.cat([torch.ones(1, 2), torch.zeros(1, 2)], 1)
 1  1
 0  0
[torch.DoubleTensor of dimension 2x2]""",
    "nonzero": """\
>>> torch.nonzero(torch.Tensor([[0, 1], [2, 0]]))
 1  2
 2  1
[torch.LongTensor of dimension 2x2]""",
    "narrow": """\
>>> torch.narrow(torch.range(1, 5), 1, 2, 3)
 2
 3
 4
[torch.DoubleTensor of dimension 3]""",
    "select": """\
>>> torch.select(torch.Tensor([[1, 2], [3, 4]]), 1, 2)
 3
 4
[torch.DoubleTensor of dimension 2]""",
    "sub": """\
>>> torch.sub(torch.range(1, 5), 2, 3)
 2
 3
[torch.DoubleTensor of dimension 2]""",
    "transpose": """\
>>> torch.transpose(torch.Tensor([[1, 2], [3, 4]]), 1, 2)
 1  3
 2  4
[torch.DoubleTensor of dimension 2x2]""",
    "t": """\
>>> torch.t(torch.Tensor([[1, 2, 3]]))
 1
 2
 3
[torch.DoubleTensor of dimension 3x1]""",
    "permute": """\
>>> torch.permute(torch.Tensor(2, 3, 4), 3, 1, 2).size()
 4
 2
 3
[torch.LongStorage of size 3]""",
    "unfold": """\
>>> torch.unfold(torch.range(1, 5), 1, 2, 2)
 1  2
 3  4
[torch.DoubleTensor of dimension 2x2]""",
    "squeeze": """\
>>> torch.squeeze(torch.Tensor(2, 1, 3)).size()
 2
 3
[torch.LongStorage of size 2]""",
    "unsqueeze": """\
>>> torch.unsqueeze(torch.Tensor([1, 2]), 1)
 1  2
[torch.DoubleTensor of dimension 1x2]""",
    "expand": """\
>>> torch.expand(torch.Tensor([[1], [2]]), 2, 3)
 1  1  1
 2  2  2
[torch.DoubleTensor of dimension 2x3]""",
    "expandAs": """\
>>> torch.expandAs(torch.Tensor([[1, 2]]), torch.Tensor(2, 2))
 1  2
 1  2
[torch.DoubleTensor of dimension 2x2]""",
    "repeatTensor": """\
>>> torch.repeatTensor(torch.Tensor([1, 2]), 2)
 1
 2
 1
 2
[torch.DoubleTensor of dimension 4]""",
    "view": """\
>>> torch.view(torch.range(1, 4), 2, 2)
 1  2
 3  4
[torch.DoubleTensor of dimension 2x2]""",
    "viewAs": """\
>>> torch.viewAs(torch.range(1, 4), torch.Tensor(2, 2))
 1  2
 3  4
[torch.DoubleTensor of dimension 2x2]""",
    "index": """\
>>> torch.index(torch.Tensor([10, 20, 30]), 1, torch.LongTensor([3, 1]))
 30
 10
[torch.DoubleTensor of dimension 2]""",
    "indexCopy": """\
>>> x = torch.zeros(3)
>>> torch.indexCopy(x, 1, torch.LongTensor([1, 3]), torch.Tensor([5, 6]))
 5
 0
 6
[torch.DoubleTensor of dimension 3]""",
    "indexAdd": """\
>>> x = torch.ones(3)
>>> torch.indexAdd(x, 1, torch.LongTensor([2, 2]), torch.Tensor([5, 6]))
  1
 12
  1
[torch.DoubleTensor of dimension 3]""",
    "indexFill": """\
>>> torch.indexFill(torch.zeros(3), 1, torch.LongTensor([2]), 7)
 0
 7
 0
[torch.DoubleTensor of dimension 3]""",
    "gather": """\
>>> torch.gather(torch.Tensor([[1, 2], [3, 4]]), 2, torch.LongTensor([[2], [1]]))
 2
 3
[torch.DoubleTensor of dimension 2x1]""",
    "scatter": """\
>>> torch.scatter(torch.zeros(2, 2), 2, torch.LongTensor([[2], [1]]), 9)
 0  9
 9  0
[torch.DoubleTensor of dimension 2x2]""",
    "maskedSelect": """\
>>> x = torch.Tensor([1, 5, 2])
>>> torch.maskedSelect(x, torch.gt(x, 1))
 5
 2
[torch.DoubleTensor of dimension 2]""",
    "maskedCopy": """\
>>> x = torch.zeros(3)
>>> torch.maskedCopy(x, torch.ByteTensor([1, 0, 1]), torch.Tensor([7, 8]))
 7
 0
 8
[torch.DoubleTensor of dimension 3]""",
    "maskedFill": """\
>>> torch.maskedFill(torch.zeros(3), torch.ByteTensor([0, 1, 1]), 4)
 0
 4
 4
[torch.DoubleTensor of dimension 3]""",
    "clone": """\
>>> x = torch.Tensor([1, 2])
>>> y = torch.clone(x)
>>> y.fill(0)
 0
 0
[torch.DoubleTensor of dimension 2]
>>> x  # unchanged: y has its own storage
 1
 2
[torch.DoubleTensor of dimension 2]""",
    "contiguous": """\
>>> torch.contiguous(torch.Tensor([[1, 2], [3, 4]]).t()).isContiguous()
True""",
    "fill": """\
>>> torch.fill(torch.Tensor(2), 7)
 7
 7
[torch.DoubleTensor of dimension 2]""",
    "zero": """\
>>> torch.zero(torch.Tensor(2))
 0
 0
[torch.DoubleTensor of dimension 2]""",
    "copy": """\
>>> torch.copy(torch.Tensor(2), torch.LongTensor([3, 4]))  # converts
 3
 4
[torch.DoubleTensor of dimension 2]""",
    "resize": """\
>>> torch.resize(torch.Tensor(), 2, 2).size()
 2
 2
[torch.LongStorage of size 2]""",
    "resizeAs": """\
>>> torch.resizeAs(torch.Tensor(), torch.Tensor(3, 1)).size()
 3
 1
[torch.LongStorage of size 2]""",
    "apply": """\
>>> torch.apply(torch.Tensor([1, 2]), lambda v: v * 10)
 10
 20
[torch.DoubleTensor of dimension 2]""",
    "map": """\
>>> torch.map(torch.Tensor([1, 2]), torch.Tensor([3, 4]), lambda a, b: a + b)
 4
 6
[torch.DoubleTensor of dimension 2]""",
    "map2": """\
>>> torch.map2(torch.Tensor([1, 2]), torch.Tensor([3, 4]), torch.Tensor([5, 6]), lambda a, b, c: a * b + c)
  8
 14
[torch.DoubleTensor of dimension 2]""",
    "typeAs": """\
>>> torch.typeAs(torch.Tensor([1.5, 2]), torch.LongTensor()).type()
'torch.LongTensor'""",
    "size": """\
>>> torch.size(torch.Tensor(2, 3))
 2
 3
[torch.LongStorage of size 2]
>>> torch.size(torch.Tensor(2, 3), 2)
3""",
    "stride": """\
>>> torch.stride(torch.Tensor(2, 3), 1)
3""",
    "nElement": """\
>>> torch.nElement(torch.Tensor(2, 3))
6""",
    "nDimension": """\
>>> torch.nDimension(torch.Tensor(2, 3))
2""",
    "dim": """\
>>> torch.dim(torch.Tensor(2, 3, 4))
3""",
    "isContiguous": """\
>>> torch.isContiguous(torch.Tensor(2, 3).t())
False""",
    "storage": """\
>>> torch.storage(torch.Tensor([1, 2]))
 1
 2
[torch.DoubleStorage of size 2]""",
    "storageOffset": """\
>>> torch.storageOffset(torch.range(1, 5).narrow(1, 3, 2))
3""",
    "isSameSizeAs": """\
>>> torch.isSameSizeAs(torch.Tensor(2, 3), torch.LongTensor(2, 3))
True""",
    "isSize": """\
>>> torch.isSize(torch.Tensor(2, 3), torch.LongStorage([2, 3]))
True""",
    "isSetTo": """\
>>> x = torch.Tensor(3)
>>> torch.isSetTo(x, torch.Tensor().set(x))
True""",
    "retain": """\
>>> x = torch.Tensor(2)
>>> torch.retain(x) is x  # Lua's reference count: Python counts its own
True""",
    "free": """\
>>> x = torch.Tensor(2)
>>> torch.free(x) is None
True""",
    "split": """\
>>> [p.totable() for p in torch.split(torch.range(1, 5), 2)]
[[1.0, 2.0], [3.0, 4.0], [5.0]]""",
    "chunk": """\
>>> [p.totable() for p in torch.chunk(torch.range(1, 5), 2)]
[[1.0, 2.0, 3.0], [4.0, 5.0]]""",
}
