/* pyarray.c -- the C half of strided.compat's Array: the CPython extension
 * module strided._c._pyarray (limited API 3.10: one build serves every
 * CPython >= 3.10, as the cffi module does).
 *
 * Why it exists: an operator written in Python costs a Python frame, a
 * cffi call (which releases and retakes the GIL), two Python objects and
 * an ffi.gc handle -- with the C core's own work, about 3.5x numpy's whole
 * `a + b` on 3 elements.  Here the Array's operators are type slots: `x + y`
 * goes from the interpreter straight into C, which calls the core's
 * one-call entry points (fast.c: they return NULL whenever the case is not
 * the plain one) and makes the result object; any other case calls the
 * Python operator of compat/_operators.py, which makes the same decisions
 * as before and raises the same errors.
 *
 * The core is not linked in: setup() is given the addresses of the core
 * functions called here, read from the cffi module (one core, one set of
 * globals: thread count, error state, record cache).  The core's header
 * only gives the types.
 *
 * ArrayBase holds the record `t` (st_tensor *) and the Core object of
 * strided.core.base that Python code reads as `x._c`.  An array made here
 * has no Core until Python asks for `_c` (make_core builds one whose cffi
 * pointer frees the record when collected): until then the object owns the
 * record, after that the Core does and `t` borrows it.  An array made in
 * Python (`Array._new(core)`) has a Core and no `t` until an operator needs
 * it (address_of reads it once).  compat/_array.py's Array subclasses
 * ArrayBase and adds everything else in Python. */
#define Py_LIMITED_API 0x030A0000
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include "strided.h"

/* ---- the core functions called here, by address ---- */
static struct {
    __typeof__(&st_binary_new) binary_new;
    __typeof__(&st_binary_scalar_new) binary_scalar_new;
    __typeof__(&st_unary_new) unary_new;
    __typeof__(&st_vector_new) vector_new;
    __typeof__(&st_tensor_free) tensor_free;
    __typeof__(&st_binary_inplace_small) binary_inplace_small;
    __typeof__(&st_view_new) view_new;
    __typeof__(&st_astype_new) astype_new;
    __typeof__(&st_fill_scalar) fill_scalar;
    __typeof__(&st_assign_small) assign_small;
    __typeof__(&st_matmul_new) matmul_new;
    __typeof__(&st_tensor_new) tensor_new;
    __typeof__(&st_tensor_alloc) tensor_alloc;
    __typeof__(&st_tensor_is_contiguous) tensor_is_contiguous;
} core;
/* setup()'s `functions` are these, in this order (the module's CORE_FUNCTIONS) */
static const char *const core_names[] = {"st_binary_new", "st_binary_scalar_new", "st_unary_new",
                                         "st_vector_new", "st_tensor_free",
                                         "st_binary_inplace_small", "st_view_new",
                                         "st_astype_new", "st_fill_scalar", "st_assign_small",
                                         "st_matmul_new", "st_tensor_new", "st_tensor_alloc",
                                         "st_tensor_is_contiguous"};
#define N_CORE (sizeof core_names / sizeof core_names[0])
_Static_assert(N_CORE * sizeof(void *) == sizeof core, "one name per core function");

/* ---- the operators ---- */
enum {
    OP_ADD, OP_SUB, OP_MUL, OP_TRUEDIV, OP_FLOORDIV, OP_MOD, OP_POW,
    OP_AND, OP_OR, OP_XOR, OP_LSHIFT, OP_RSHIFT, OP_MATMUL,
    OP_LT, OP_LE, OP_EQ, OP_NE, OP_GT, OP_GE,      /* Py_LT .. Py_GE in order */
    OP_NEG, OP_POS, OP_ABS, OP_INVERT,
    N_OPS
};
static const char *const op_names[N_OPS] = {
    "add", "sub", "mul", "truediv", "floordiv", "mod", "pow",
    "and", "or", "xor", "lshift", "rshift", "matmul",
    "lt", "le", "eq", "ne", "gt", "ge",
    "neg", "pos", "abs", "invert"};
_Static_assert(Py_LT == 0 && Py_LE == 1 && Py_EQ == 2 && Py_NE == 3 && Py_GT == 4 && Py_GE == 5,
               "rich comparison codes index the comparisons");

/* Per operator: the core's op code (matmul: none, st_matmul_new) and the
 * dtype mask the face accepts for it (fast.c), and the Python operators
 * that take every other case:
 * slow(self, other) for x op y, rslow(self, other) for other op x (unary:
 * slow(self)). */
static struct {
    int code;
    uint32_t mask;
    PyObject *slow, *rslow;
} ops[N_OPS];

static PyTypeObject *record_type;   /* RecordBase */
static PyTypeObject *base_type;     /* ArrayBase */
static PyTypeObject *array_type;    /* compat's Array: the class of every result */
static allocfunc array_alloc;
static PyObject *make_core;         /* make_core(address) -> a Core owning the record */
static PyObject *dtypes;            /* the tuple of DType objects, by code */
/* The Python answers to what C declines here (setup_operators' `general`):
 * indexing, assignment, the transposes' errors */
static PyObject *slow_getitem, *slow_setitem, *slow_T, *slow_mT;
static PyObject *address_of;        /* address_of(core) -> the record's address */

/* *slot = v (a new reference), the old value released (Py_XSETREF is not
 * in the limited API). */
static void replace(PyObject **slot, PyObject *v)
{
    PyObject *old = *slot;
    Py_XINCREF(v);
    *slot = v;
    Py_XDECREF(old);
}

typedef struct {
    PyObject_HEAD
    st_tensor *t;       /* owned while core is NULL, else core's */
    PyObject *core;
} ArrayObject;

/* setup() gave the core's functions (records work) / setup_operators() the
 * Array class (arrays can be made here). */
static int core_ready(void)
{
    if (make_core) return 1;
    PyErr_SetString(PyExc_RuntimeError, "strided._c._pyarray: setup() was not called");
    return 0;
}

static int ready(void)
{
    if (!core_ready()) return 0;
    if (array_type) return 1;
    PyErr_SetString(PyExc_RuntimeError, "strided._c._pyarray: setup_operators() was not called");
    return 0;
}

/* The record of an ArrayBase, or NULL with an exception set. */
static st_tensor *record(PyObject *o)
{
    ArrayObject *a = (ArrayObject *)o;
    if (a->t) return a->t;
    if (!a->core) {
        PyErr_SetString(PyExc_TypeError, "an Array without a record (made by strided.compat "
                                         "functions only)");
        return NULL;
    }
    if (!core_ready()) return NULL;
    PyObject *addr = PyObject_CallFunctionObjArgs(address_of, a->core, NULL);
    if (!addr) return NULL;
    void *p = PyLong_AsVoidPtr(addr);
    Py_DECREF(addr);
    if (!p) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "an Array over a NULL record");
        return NULL;
    }
    return a->t = p;
}

/* A new Array owning record t (freed on failure). */
static PyObject *wrap(st_tensor *t)
{
    ArrayObject *o = (ArrayObject *)array_alloc(array_type, 0);
    if (!o) {
        core.tensor_free(t);
        return NULL;
    }
    o->t = t;
    o->core = NULL;
    return (PyObject *)o;
}

/* ---- the slots ---- */
static PyObject *binary(int k, PyObject *v, PyObject *w)
{
    if (!ready()) return NULL;
    /* the interpreter calls the slot for x op y and for y op x alike: the
     * array is v unless only w is one (then the operator is reflected) */
    int reflected = !PyObject_TypeCheck(v, base_type);
    PyObject *self = reflected ? w : v, *other = reflected ? v : w;
    st_tensor *a = record(self), *r = NULL;
    if (!a) return NULL;
    PyTypeObject *kind = Py_TYPE(other);
    if (kind == array_type) {
        st_tensor *b = record(other);
        if (!b) return NULL;
        if (k == OP_MATMUL)
            r = reflected ? core.matmul_new(ops[k].mask, b, a) : core.matmul_new(ops[k].mask, a, b);
        else
            r = core.binary_new(ops[k].code, ops[k].mask, a, b);
    } else if (k == OP_MATMUL) {
        /* a number: the Python operator's TypeError */
    } else if (kind == &PyFloat_Type) {
        r = core.binary_scalar_new(ops[k].code, ops[k].mask, a, 0, 0, PyFloat_AsDouble(other),
                                   reflected);
    } else if (kind == &PyLong_Type) {
        int overflow;
        long long i = PyLong_AsLongLongAndOverflow(other, &overflow);
        if (!overflow)
            r = core.binary_scalar_new(ops[k].code, ops[k].mask, a, 1, i, 0.0, reflected);
    }
    if (r) return wrap(r);
    return PyObject_CallFunctionObjArgs(reflected ? ops[k].rslow : ops[k].slow, self, other, NULL);
}

static PyObject *unary(int k, PyObject *self)
{
    if (!ready()) return NULL;
    st_tensor *a = record(self);
    if (!a) return NULL;
    st_tensor *r = core.unary_new(ops[k].code, ops[k].mask, a);
    if (r) return wrap(r);
    return PyObject_CallFunctionObjArgs(ops[k].slow, self, NULL);
}

#define BINARY_SLOT(NAME, K) \
    static PyObject *nb_##NAME(PyObject *v, PyObject *w) { return binary(K, v, w); }
BINARY_SLOT(add, OP_ADD)
BINARY_SLOT(sub, OP_SUB)
BINARY_SLOT(mul, OP_MUL)
BINARY_SLOT(truediv, OP_TRUEDIV)
BINARY_SLOT(floordiv, OP_FLOORDIV)
BINARY_SLOT(mod, OP_MOD)
BINARY_SLOT(and, OP_AND)
BINARY_SLOT(or, OP_OR)
BINARY_SLOT(xor, OP_XOR)
BINARY_SLOT(lshift, OP_LSHIFT)
BINARY_SLOT(rshift, OP_RSHIFT)
BINARY_SLOT(matmul, OP_MATMUL)
#define UNARY_SLOT(NAME, K) \
    static PyObject *nb_##NAME(PyObject *v) { return unary(K, v); }
UNARY_SLOT(negative, OP_NEG)
UNARY_SLOT(positive, OP_POS)
UNARY_SLOT(absolute, OP_ABS)
UNARY_SLOT(invert, OP_INVERT)

static PyObject *nb_power(PyObject *v, PyObject *w, PyObject *z)
{
    if (z != Py_None) {
        /* pow(x, y, m): the Python operator's answer (it takes no modulus) */
        if (!ready()) return NULL;
        int reflected = !PyObject_TypeCheck(v, base_type);
        return PyObject_CallFunctionObjArgs(reflected ? ops[OP_POW].rslow : ops[OP_POW].slow,
                                            reflected ? w : v, reflected ? v : w, z, NULL);
    }
    return binary(OP_POW, v, w);
}

static PyObject *richcompare(PyObject *self, PyObject *other, int op)
{
    /* the interpreter swaps the comparison itself (3 < x is x > 3), so
     * self is always the array and the comparison never reflected */
    if (op < Py_LT || op > Py_GE) Py_RETURN_NOTIMPLEMENTED;
    return binary(OP_LT + op, self, other);
}

static void dealloc(PyObject *self)
{
    ArrayObject *a = (ArrayObject *)self;
    PyTypeObject *tp = Py_TYPE(self);
    if (a->core) Py_DECREF(a->core);
    else if (a->t && core.tensor_free) core.tensor_free(a->t);
    ((freefunc)PyType_GetSlot(tp, Py_tp_free))(self);
    Py_DECREF(tp);   /* a heap type: its instances hold a reference */
}

/* ---- _c: the Core ---- */
static PyObject *get_core(PyObject *self, void *closure)
{
    ArrayObject *a = (ArrayObject *)self;
    if (!a->core) {
        if (!a->t) {
            PyErr_SetString(PyExc_AttributeError, "_c");
            return NULL;
        }
        if (!core_ready()) return NULL;
        PyObject *addr = PyLong_FromVoidPtr(a->t);
        if (!addr) return NULL;
        PyObject *c = PyObject_CallFunctionObjArgs(make_core, addr, NULL);
        Py_DECREF(addr);
        if (!c) return NULL;     /* the record stays ours */
        a->core = c;             /* the Core owns the record now; t borrows it */
    }
    Py_INCREF(a->core);
    return a->core;
}

static int set_core(PyObject *self, PyObject *value, void *closure)
{
    ArrayObject *a = (ArrayObject *)self;
    if (!value) {
        PyErr_SetString(PyExc_AttributeError, "an Array's _c cannot be deleted");
        return -1;
    }
    Py_INCREF(value);
    PyObject *old = a->core;
    st_tensor *owned = old ? NULL : a->t;
    a->core = value;
    a->t = NULL;          /* read from the new Core when an operator needs it */
    Py_XDECREF(old);
    if (owned && core.tensor_free) core.tensor_free(owned);
    return 0;
}

static PyGetSetDef getset[] = {
    {"_c", get_core, set_core, "The array's view record (strided.core.base.Core).", NULL},
    {NULL},
};

/* ArrayBase._new(core): an array of this class over `core` (a classmethod:
 * the general paths of compat make every result so). */
static PyObject *new_over(PyObject *cls, PyObject *c)
{
    allocfunc alloc = (allocfunc)PyType_GetSlot((PyTypeObject *)cls, Py_tp_alloc);
    PyObject *o = alloc((PyTypeObject *)cls, 0);
    if (o && set_core(o, c, NULL)) Py_CLEAR(o);
    return o;
}

static PyMethodDef methods[] = {
    {"_new", new_over, METH_O | METH_CLASS, "An array of this class over a Core."},
    {NULL},
};

static PyType_Slot record_slots[] = {
    {Py_tp_doc, "A view record held in C: `_c`, the Core over it, read from Python; the "
                "record itself for C (strided.core.arraytype)."},
    {Py_tp_dealloc, dealloc},
    {Py_tp_getset, getset},
    {Py_tp_methods, methods},
    {0, NULL},
};

static PyType_Spec record_spec = {
    .name = "strided._c._pyarray.RecordBase",
    .basicsize = sizeof(ArrayObject),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .slots = record_slots,
};

/* ---- indexing ---- */

/* The view of `a` that a basic index selects (an int, a slice, None, the
 * ellipsis, or a tuple of them), with the geometry of compat/_indexing.py's
 * _basic: a new record, or NULL -- with a Python exception set only when
 * one was raised that the general path would not raise in its place.
 * Every other case is declined (any other entry, a bool, an index out of
 * range, too many indices, a bad slice): the general path decides and
 * raises its own errors. */
static st_tensor *basic_view(const st_tensor *a, PyObject *key)
{
    PyObject *entry[ST_MAX_DIMS];
    int tuple = PyTuple_Check(key);
    Py_ssize_t n = tuple ? PyTuple_Size(key) : 1;
    if (n > ST_MAX_DIMS) return NULL;
    int indexed = 0, ellipses = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *e = entry[i] = tuple ? PyTuple_GetItem(key, i) : key;
        if (e == Py_Ellipsis) ellipses++;
        else if (PyLong_CheckExact(e) || PySlice_Check(e)) indexed++;
        else if (e != Py_None) return NULL;
    }
    if (ellipses > 1 || indexed > a->ndim) return NULL;
    int64_t sizes[ST_MAX_DIMS], strides[ST_MAX_DIMS], offset = a->offset;
    int nd = 0, d = 0, empty = 0;
    for (Py_ssize_t i = 0; i <= n; i++) {
        PyObject *e = i < n ? entry[i] : NULL;
        if (!e || e == Py_Ellipsis) {           /* the dims it stands for; the rest at the end */
            int k = e ? a->ndim - indexed : a->ndim - d;
            if (nd + k > ST_MAX_DIMS) return NULL;
            for (int j = 0; j < k; j++, d++, nd++) {
                sizes[nd] = a->sizes[d];
                strides[nd] = a->strides[d];
            }
        } else if (e == Py_None) {
            if (nd == ST_MAX_DIMS) return NULL;
            sizes[nd] = 1;
            strides[nd++] = 0;
        } else if (PySlice_Check(e)) {
            Py_ssize_t start, stop, step;
            if (PySlice_Unpack(e, &start, &stop, &step) < 0) {
                PyErr_Clear();
                return NULL;
            }
            if (nd == ST_MAX_DIMS || __builtin_mul_overflow(a->strides[d], (int64_t)step,
                                                            &strides[nd]))
                return NULL;
            sizes[nd++] = PySlice_AdjustIndices((Py_ssize_t)a->sizes[d], &start, &stop, step);
            offset += (int64_t)start * a->strides[d++];
        } else {
            int overflow;
            long long k = PyLong_AsLongLongAndOverflow(e, &overflow);
            int64_t size = a->sizes[d];
            if (overflow || k < -size || k >= size) return NULL;
            offset += (k < 0 ? k + size : k) * a->strides[d++];
        }
    }
    for (int j = 0; j < a->ndim; j++) empty |= !a->sizes[j];
    for (int j = 0; j < nd; j++) empty |= !sizes[j];
    /* an empty view keeps the offset: with negative strides a moved one
     * could fall outside the storage */
    return core.view_new(a, empty ? a->offset : offset, nd, sizes, strides);
}

static PyObject *subscript(PyObject *self, PyObject *key)
{
    if (!ready()) return NULL;
    st_tensor *a = record(self);
    if (!a) return NULL;
    st_tensor *v = basic_view(a, key);
    if (v) return wrap(v);
    if (PyErr_Occurred()) return NULL;
    return PyObject_CallFunctionObjArgs(slow_getitem, self, key, NULL);
}

/* x[key] = value: a basic index and a Python float, an int or an Array of
 * x's dtype and of the view's shape (or 0-d) in C; anything else, and
 * whatever C declines (read-only, a value that does not convert plainly),
 * the general path's. */
static int ass_subscript(PyObject *self, PyObject *key, PyObject *value)
{
    if (!ready()) return -1;
    if (!value) {
        PyErr_SetString(PyExc_TypeError, "Array does not support item deletion");
        return -1;
    }
    st_tensor *a = record(self);
    if (!a) return -1;
    PyTypeObject *kind = Py_TYPE(value);
    st_tensor *v = kind == &PyFloat_Type || kind == &PyLong_Type || kind == array_type
                 ? basic_view(a, key) : NULL;
    if (v) {
        int done = 0;
        if (kind == array_type) {
            st_tensor *src = record(value);
            done = src && core.assign_small(v, src);
        } else if (kind == &PyFloat_Type) {
            done = core.fill_scalar(v, 0, 0, PyFloat_AsDouble(value));
        } else {
            int overflow;
            long long i = PyLong_AsLongLongAndOverflow(value, &overflow);
            done = !overflow && core.fill_scalar(v, 1, i, 0.0);
        }
        core.tensor_free(v);
        if (done) return 0;
    }
    if (PyErr_Occurred()) return -1;
    PyObject *r = PyObject_CallFunctionObjArgs(slow_setitem, self, key, value, NULL);
    if (!r) return -1;
    Py_DECREF(r);
    return 0;
}

/* ---- the attributes ---- */
static PyObject *get_shape(PyObject *self, void *closure)
{
    st_tensor *t = record(self);
    PyObject *shape = t ? PyTuple_New(t->ndim) : NULL;
    for (int d = 0; shape && d < t->ndim; d++) {
        PyObject *n = PyLong_FromLongLong(t->sizes[d]);
        if (!n || PyTuple_SetItem(shape, d, n)) Py_CLEAR(shape);
    }
    return shape;
}

static PyObject *get_ndim(PyObject *self, void *closure)
{
    st_tensor *t = record(self);
    return t ? PyLong_FromLong(t->ndim) : NULL;
}

static PyObject *get_size(PyObject *self, void *closure)
{
    st_tensor *t = record(self);
    if (!t) return NULL;
    int64_t n = 1;      /* sizes are checked so that the count fits (st_tensor_set) */
    for (int d = 0; d < t->ndim; d++) n *= t->sizes[d];
    return PyLong_FromLongLong(n);
}

static PyObject *get_dtype(PyObject *self, void *closure)
{
    st_tensor *t = record(self);
    if (!t || !ready()) return NULL;
    PyObject *dt = PyTuple_GetItem(dtypes, t->dtype);
    Py_XINCREF(dt);
    return dt;
}

/* t with dims d0 and d1 swapped, as a new Array. */
static PyObject *swapped(st_tensor *t, int d0, int d1)
{
    int64_t sizes[ST_MAX_DIMS], strides[ST_MAX_DIMS];
    memcpy(sizes, t->sizes, sizeof(int64_t) * t->ndim);
    memcpy(strides, t->strides, sizeof(int64_t) * t->ndim);
    sizes[d0] = t->sizes[d1], sizes[d1] = t->sizes[d0];
    strides[d0] = t->strides[d1], strides[d1] = t->strides[d0];
    st_tensor *v = core.view_new(t, t->offset, t->ndim, sizes, strides);
    return v ? wrap(v) : PyErr_NoMemory();
}

/* x.T (2-D) and x.mT (at least 2-D); other dims: the Python getter's error */
static PyObject *get_T(PyObject *self, void *closure)
{
    st_tensor *t = ready() ? record(self) : NULL;
    if (!t) return NULL;
    if (t->ndim != 2) return PyObject_CallFunctionObjArgs(slow_T, self, NULL);
    return swapped(t, 0, 1);
}

static PyObject *get_mT(PyObject *self, void *closure)
{
    st_tensor *t = ready() ? record(self) : NULL;
    if (!t) return NULL;
    if (t->ndim < 2) return PyObject_CallFunctionObjArgs(slow_mT, self, NULL);
    return swapped(t, t->ndim - 2, t->ndim - 1);
}

static PyGetSetDef array_getset[] = {
    {"shape", get_shape, NULL, "The array's shape, a tuple of ints.", NULL},
    {"ndim", get_ndim, NULL, "The array's number of dimensions.", NULL},
    {"size", get_size, NULL, "The array's number of elements.", NULL},
    {"dtype", get_dtype, NULL, "The array's dtype.", NULL},
    {"T", get_T, NULL, "The transpose of a 2-D array (a view); other dimensions raise "
                       "ValueError, as the standard says.", NULL},
    {"mT", get_mT, NULL, "The transpose of the last two axes (a view; at least 2 "
                         "dimensions).", NULL},
    {NULL},
};

static PyType_Slot base_slots[] = {
    {Py_tp_doc, "The C part of strided.compat.Array: its record and its operators."},
    {Py_tp_richcompare, richcompare},
    {Py_tp_hash, PyObject_HashNotImplemented},
    {Py_nb_add, nb_add},
    {Py_nb_subtract, nb_sub},
    {Py_nb_multiply, nb_mul},
    {Py_nb_true_divide, nb_truediv},
    {Py_nb_floor_divide, nb_floordiv},
    {Py_nb_remainder, nb_mod},
    {Py_nb_power, nb_power},
    {Py_nb_and, nb_and},
    {Py_nb_or, nb_or},
    {Py_nb_xor, nb_xor},
    {Py_nb_lshift, nb_lshift},
    {Py_nb_rshift, nb_rshift},
    {Py_nb_matrix_multiply, nb_matmul},
    {Py_mp_subscript, subscript},
    {Py_mp_ass_subscript, ass_subscript},
    {Py_tp_getset, array_getset},
    {Py_nb_negative, nb_negative},
    {Py_nb_positive, nb_positive},
    {Py_nb_absolute, nb_absolute},
    {Py_nb_invert, nb_invert},
    {0, NULL},
};

static PyType_Spec base_spec = {
    .name = "strided._c._pyarray.ArrayBase",
    .basicsize = sizeof(ArrayObject),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .slots = base_slots,
};

/* ---- module functions ---- */

/* setup(make_core, address_of, functions): functions are the addresses of
 * CORE_FUNCTIONS, in order (strided.core.arraytype, at import). */
static PyObject *setup(PyObject *mod, PyObject *args)
{
    PyObject *mk, *addr, *functions;
    if (!PyArg_ParseTuple(args, "OOO:setup", &mk, &addr, &functions)) return NULL;
    if (!PyCallable_Check(mk) || !PyCallable_Check(addr)) {
        PyErr_SetString(PyExc_TypeError, "setup: make_core and address_of must be callable");
        return NULL;
    }
    if (!PyTuple_Check(functions) || PyTuple_Size(functions) != (Py_ssize_t)N_CORE) {
        PyErr_Format(PyExc_ValueError, "setup: functions must be a tuple of %d addresses",
                     (int)N_CORE);
        return NULL;
    }
    void *fn[N_CORE];
    for (size_t i = 0; i < N_CORE; i++) {
        fn[i] = PyLong_AsVoidPtr(PyTuple_GetItem(functions, (Py_ssize_t)i));
        if (!fn[i]) {
            if (!PyErr_Occurred())
                PyErr_Format(PyExc_ValueError, "setup: NULL address for %s", core_names[i]);
            return NULL;
        }
    }
    memcpy(&core, fn, sizeof core);
    replace(&make_core, mk);
    replace(&address_of, addr);
    Py_RETURN_NONE;
}

/* setup_operators(array_type, operators, dtypes, general): the class of
 * every array made here (compat's Array, a subclass of ArrayBase), the
 * operators' table, name (OPERATORS) -> (code, mask, slow, rslow) (rslow
 * None for the unary ones and the comparisons), the tuple of DType objects
 * by code, and the Python functions of what C declines: general maps
 * "getitem" (self, key), "setitem" (self, key, value), "T" and "mT" (self)
 * to them. */
static const char *const general_names[] = {"getitem", "setitem", "T", "mT"};
static PyObject **const general_slots[] = {&slow_getitem, &slow_setitem, &slow_T, &slow_mT};

static PyObject *setup_operators(PyObject *mod, PyObject *args)
{
    PyObject *cls, *operators, *dts, *general;
    if (!PyArg_ParseTuple(args, "OOO!O!:setup_operators", &cls, &operators, &PyTuple_Type, &dts,
                          &PyDict_Type, &general))
        return NULL;
    for (int i = 0; i < (int)(sizeof general_names / sizeof general_names[0]); i++) {
        PyObject *f = PyDict_GetItemString(general, general_names[i]);
        if (!f || !PyCallable_Check(f)) {
            PyErr_Format(PyExc_TypeError, "setup_operators: general[%s] must be callable",
                         general_names[i]);
            return NULL;
        }
        replace(general_slots[i], f);
    }
    replace(&dtypes, dts);
    if (!PyType_Check(cls) || !PyType_IsSubtype((PyTypeObject *)cls, base_type)) {
        PyErr_SetString(PyExc_TypeError, "setup_operators: array_type must subclass ArrayBase");
        return NULL;
    }
    if (!PyDict_Check(operators)) {
        PyErr_SetString(PyExc_TypeError, "setup_operators: operators must be a dict");
        return NULL;
    }
    for (int k = 0; k < N_OPS; k++) {
        PyObject *row = PyDict_GetItemString(operators, op_names[k]);
        long code;
        unsigned long mask;
        PyObject *slow, *rslow;
        if (!row || !PyArg_ParseTuple(row, "lkOO", &code, &mask, &slow, &rslow)) {
            if (!PyErr_Occurred())
                PyErr_Format(PyExc_ValueError, "setup_operators: no operator %s", op_names[k]);
            return NULL;
        }
        if (!PyCallable_Check(slow) || (k < OP_LT && !PyCallable_Check(rslow))) {
            PyErr_Format(PyExc_TypeError, "setup_operators: operator %s needs callables",
                         op_names[k]);
            return NULL;
        }
        replace(&ops[k].slow, slow);
        replace(&ops[k].rslow, rslow);
        ops[k].code = (int)code;
        ops[k].mask = (uint32_t)mask;
    }
    replace((PyObject **)&array_type, cls);
    array_alloc = (allocfunc)PyType_GetSlot(array_type, Py_tp_alloc);
    Py_RETURN_NONE;
}

/* from_list(obj): the Array of a non-empty list of Python floats, ints
 * (each within int64) or bools, all of one type (asarray's commonest
 * case), or None for any other list: asarray's general path answers. */
static PyObject *from_list(PyObject *mod, PyObject *obj)
{
    if (!ready()) return NULL;
    Py_ssize_t n = PyList_Check(obj) ? PyList_Size(obj) : 0;
    if (n <= 0) Py_RETURN_NONE;
    PyTypeObject *kind = Py_TYPE(PyList_GetItem(obj, 0));
    int dtype = kind == &PyFloat_Type ? ST_FLOAT64 : kind == &PyLong_Type ? ST_INT64
              : kind == &PyBool_Type ? ST_BOOL : -1;
    if (dtype < 0) Py_RETURN_NONE;
    for (Py_ssize_t i = 1; i < n; i++)
        if (Py_TYPE(PyList_GetItem(obj, i)) != kind) Py_RETURN_NONE;
    st_tensor *t = core.vector_new(dtype, (int64_t)n, NULL);
    if (!t) Py_RETURN_NONE;          /* out of memory: the general path says so */
    char *data = t->storage->data;   /* fresh and contiguous: element 0 */
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *v = PyList_GetItem(obj, i);
        if (dtype == ST_FLOAT64) {
            ((double *)data)[i] = PyFloat_AsDouble(v);
        } else if (dtype == ST_BOOL) {
            ((_Bool *)data)[i] = v == Py_True;
        } else {
            int overflow;
            long long x = PyLong_AsLongLongAndOverflow(v, &overflow);
            if (overflow) {          /* beyond int64: the general path raises */
                core.tensor_free(t);
                Py_RETURN_NONE;
            }
            ((int64_t *)data)[i] = x;
        }
    }
    return wrap(t);
}

/* zeros(n): the float64 Array of n zeros for an int n >= 0, else None. */
static PyObject *zeros(PyObject *mod, PyObject *obj)
{
    if (!ready()) return NULL;
    if (!PyLong_Check(obj)) Py_RETURN_NONE;
    int overflow;
    long long n = PyLong_AsLongLongAndOverflow(obj, &overflow);
    if (overflow || n < 0) Py_RETURN_NONE;
    st_tensor *t = core.vector_new(ST_FLOAT64, n, NULL);
    if (!t) Py_RETURN_NONE;
    return wrap(t);
}

/* binary_new(code, mask, x1, x2) / unary_new(code, mask, x): fast.c's
 * st_binary_new / st_unary_new on Arrays (the functions' plain case,
 * compat/_elementwise.py): the result, or None when C declines. */
static int code_mask(PyObject *const *args, int *code, uint32_t *mask)
{
    long c = PyLong_AsLong(args[0]);
    unsigned long m = PyLong_AsUnsignedLong(args[1]);
    if (PyErr_Occurred()) return 0;
    *code = (int)c;
    *mask = (uint32_t)m;
    return 1;
}

static PyObject *binary_new(PyObject *mod, PyObject *const *args, Py_ssize_t nargs)
{
    int code;
    uint32_t mask;
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "binary_new(code, mask, x1, x2)");
        return NULL;
    }
    if (!ready() || !code_mask(args, &code, &mask)) return NULL;
    if (Py_TYPE(args[2]) != array_type || Py_TYPE(args[3]) != array_type) Py_RETURN_NONE;
    st_tensor *a = record(args[2]), *b = a ? record(args[3]) : NULL;
    if (!b) return NULL;
    st_tensor *r = core.binary_new(code, mask, a, b);
    if (r) return wrap(r);
    Py_RETURN_NONE;
}

static PyObject *unary_new(PyObject *mod, PyObject *const *args, Py_ssize_t nargs)
{
    int code;
    uint32_t mask;
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "unary_new(code, mask, x)");
        return NULL;
    }
    if (!ready() || !code_mask(args, &code, &mask)) return NULL;
    if (Py_TYPE(args[2]) != array_type) Py_RETURN_NONE;
    st_tensor *a = record(args[2]);
    if (!a) return NULL;
    st_tensor *r = core.unary_new(code, mask, a);
    if (r) return wrap(r);
    Py_RETURN_NONE;
}

/* binary_inplace(code, x, y): st_binary_inplace_small on two RecordBase
 * objects (the Torch7 face's x:add(y), forms.py): True when done, False
 * when C declines (x untouched). */
static PyObject *binary_inplace(PyObject *mod, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "binary_inplace(code, x, y)");
        return NULL;
    }
    if (!core_ready()) return NULL;
    long code = PyLong_AsLong(args[0]);
    if (code == -1 && PyErr_Occurred()) return NULL;
    if (!PyObject_TypeCheck(args[1], record_type) || !PyObject_TypeCheck(args[2], record_type))
        Py_RETURN_FALSE;
    st_tensor *x = record(args[1]), *y = x ? record(args[2]) : NULL;
    if (!y) return NULL;
    return PyBool_FromLong(core.binary_inplace_small((int)code, x, y));
}

/* ---- the small calls of compat's functions: the result, or None ---- */

/* The Array's record, or NULL (no exception) for any other object. */
static st_tensor *array_record(PyObject *o)
{
    return Py_TYPE(o) == array_type ? record(o) : NULL;
}

/* wrap(t), or None for a declined NULL t (an error set stays raised). */
static PyObject *wrap_or_none(st_tensor *t)
{
    if (t) return wrap(t);
    if (PyErr_Occurred()) return NULL;
    Py_RETURN_NONE;
}

/* matmul(x1, x2): x1 @ x2 for two Arrays of one dtype, 1-D or 2-D */
static PyObject *matmul(PyObject *mod, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "matmul(x1, x2)");
        return NULL;
    }
    if (!ready()) return NULL;
    st_tensor *a = array_record(args[0]), *b = a ? array_record(args[1]) : NULL;
    return wrap_or_none(b ? core.matmul_new(ops[OP_MATMUL].mask, a, b) : NULL);
}

/* astype(x, dtype): a C-contiguous copy of Array x converted to a DType */
static PyObject *astype(PyObject *mod, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "astype(x, dtype)");
        return NULL;
    }
    if (!ready()) return NULL;
    st_tensor *a = array_record(args[0]);
    if (!a) return wrap_or_none(NULL);
    for (Py_ssize_t code = 0; code < PyTuple_Size(dtypes); code++)
        if (PyTuple_GetItem(dtypes, code) == args[1])
            return wrap_or_none(core.astype_new(a, (int)code));
    Py_RETURN_NONE;
}

/* reshape(x, shape): a view of a C-contiguous, non-empty Array x with a
 * tuple of ints (one may be -1) of the same size */
static PyObject *reshape(PyObject *mod, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "reshape(x, shape)");
        return NULL;
    }
    if (!ready()) return NULL;
    st_tensor *a = array_record(args[0]);
    PyObject *shape = args[1];
    if (!a || !PyTuple_Check(shape) || PyTuple_Size(shape) > ST_MAX_DIMS
        || !core.tensor_is_contiguous(a))
        return wrap_or_none(NULL);
    int ndim = (int)PyTuple_Size(shape), inferred = -1;
    int64_t sizes[ST_MAX_DIMS], strides[ST_MAX_DIMS], numel = 1, known = 1;
    for (int d = 0; d < a->ndim; d++) numel *= a->sizes[d];
    for (int d = 0; d < ndim; d++) {
        PyObject *e = PyTuple_GetItem(shape, d);
        int overflow;
        long long n = PyLong_CheckExact(e) ? PyLong_AsLongLongAndOverflow(e, &overflow) : 0;
        if (!PyLong_CheckExact(e) || overflow || n < -1 || (n == -1 && inferred >= 0) || n == 0
            || __builtin_mul_overflow(known, n == -1 ? 1 : n, &known))
            return wrap_or_none(NULL);
        if (n == -1) inferred = d;
        sizes[d] = n;
    }
    if (!numel || (inferred < 0 ? known != numel : numel % known)) return wrap_or_none(NULL);
    if (inferred >= 0) sizes[inferred] = numel / known;
    for (int64_t d = ndim - 1, step = 1; d >= 0; step *= sizes[d--]) strides[d] = step;
    return wrap_or_none(core.view_new(a, a->offset, ndim, sizes, strides));
}

/* alias(x): a new Array viewing all of Array x (asarray(x)) */
static PyObject *alias(PyObject *mod, PyObject *x)
{
    if (!ready()) return NULL;
    st_tensor *a = array_record(x);
    return wrap_or_none(a ? core.view_new(a, a->offset, a->ndim, a->sizes, a->strides) : NULL);
}

/* scalar(v): the 0-d Array of a Python float (float64), an int within
 * int64 (int64) or a bool (bool), asarray's defaults */
static PyObject *scalar(PyObject *mod, PyObject *v)
{
    if (!ready()) return NULL;
    PyTypeObject *kind = Py_TYPE(v);
    int overflow = 0;
    long long i = kind == &PyLong_Type ? PyLong_AsLongLongAndOverflow(v, &overflow) : 0;
    int dtype = kind == &PyFloat_Type ? ST_FLOAT64 : kind == &PyBool_Type ? ST_BOOL
              : kind == &PyLong_Type && !overflow ? ST_INT64 : -1;
    if (dtype < 0) Py_RETURN_NONE;
    st_tensor *t = core.tensor_new();
    if (t && core.tensor_alloc(t, dtype, 0, NULL)) {
        core.tensor_free(t);
        t = NULL;
    }
    if (!t) Py_RETURN_NONE;          /* out of memory: the general path says so */
    char *data = t->storage->data;   /* fresh: element 0 */
    if (dtype == ST_FLOAT64) *(double *)data = PyFloat_AsDouble(v);
    else if (dtype == ST_BOOL) *(_Bool *)data = v == Py_True;
    else *(int64_t *)data = i;
    return wrap(t);
}

static PyMethodDef module_methods[] = {
    {"binary_inplace", (PyCFunction)(void (*)(void))binary_inplace, METH_FASTCALL,
     "binary_inplace(code, x, y): x = x op y in C when small and plain; True when done."},
    {"binary_new", (PyCFunction)(void (*)(void))binary_new, METH_FASTCALL,
     "binary_new(code, mask, x1, x2): the plain case in C, or None."},
    {"unary_new", (PyCFunction)(void (*)(void))unary_new, METH_FASTCALL,
     "unary_new(code, mask, x): the plain case in C, or None."},
    {"setup", setup, METH_VARARGS, "setup(make_core, address_of, functions)"},
    {"setup_operators", setup_operators, METH_VARARGS, "setup_operators(array_type, operators)"},
    {"from_list", from_list, METH_O, "The Array of a flat list of floats, ints or bools, or None."},
    {"zeros", zeros, METH_O, "The float64 Array of n zeros, or None."},
    {"matmul", (PyCFunction)(void (*)(void))matmul, METH_FASTCALL,
     "matmul(x1, x2): x1 @ x2 for 1-D or 2-D Arrays of one dtype, or None."},
    {"astype", (PyCFunction)(void (*)(void))astype, METH_FASTCALL,
     "astype(x, dtype): a contiguous copy of x as dtype, or None."},
    {"reshape", (PyCFunction)(void (*)(void))reshape, METH_FASTCALL,
     "reshape(x, shape): a view of contiguous x with shape, or None."},
    {"alias", alias, METH_O, "A new Array viewing all of Array x, or None."},
    {"scalar", scalar, METH_O, "The 0-d Array of a Python float, int or bool, or None."},
    {NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "strided._c._pyarray",
    "The C part of strided.compat's Array (see pyarray.c).", -1, module_methods,
};

PyMODINIT_FUNC PyInit__pyarray(void)
{
    PyObject *m = PyModule_Create(&module_def);
    if (!m) return NULL;
    record_type = (PyTypeObject *)PyType_FromSpec(&record_spec);
    base_type = record_type ? (PyTypeObject *)PyType_FromSpecWithBases(&base_spec,
                                                                       (PyObject *)record_type)
                            : NULL;
    PyObject *names = PyTuple_New((Py_ssize_t)N_CORE), *opnames = PyTuple_New(N_OPS);
    if (names)
        for (size_t i = 0; i < N_CORE; i++)
            PyTuple_SetItem(names, (Py_ssize_t)i, PyUnicode_FromString(core_names[i]));
    if (opnames)
        for (int k = 0; k < N_OPS; k++) PyTuple_SetItem(opnames, k, PyUnicode_FromString(op_names[k]));
    Py_XINCREF(record_type);   /* PyModule_AddObject steals one; record_type keeps another */
    if (!base_type || !names || !opnames || PyErr_Occurred()
        || PyModule_AddObject(m, "RecordBase", (PyObject *)record_type) < 0
        || PyModule_AddObject(m, "ArrayBase", (PyObject *)base_type) < 0) {
        Py_XDECREF(names);
        Py_XDECREF(opnames);
        Py_DECREF(m);
        return NULL;
    }
    Py_INCREF(base_type);    /* PyModule_AddObject stole one; base_type keeps another */
    if (PyModule_AddObject(m, "CORE_FUNCTIONS", names) < 0
        || PyModule_AddObject(m, "OPERATORS", opnames) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
