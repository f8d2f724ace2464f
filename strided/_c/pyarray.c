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
#include <math.h>
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
    __typeof__(&st_reduce_new) reduce_new;
    __typeof__(&st_reshape_new) reshape_new;
    __typeof__(&st_argreduce_new) argreduce_new;
    __typeof__(&st_where_new) where_new;
    __typeof__(&st_mask_select_new) mask_select_new;
    __typeof__(&st_mask_assign) mask_assign;
    __typeof__(&st_binary_into) binary_into;
    __typeof__(&st_zeros_new) zeros_new;
    __typeof__(&st_dlpack_import) dlpack_import;
    __typeof__(&st_dlpack_capsule_name) dlpack_capsule_name;
    __typeof__(&st_last_error) last_error;
    __typeof__(&st_cat) cat;
    __typeof__(&st_var_new) var_new;
    __typeof__(&st_take_new) take_new;
    __typeof__(&st_dlpack_export_versioned) dlpack_export_versioned;
    __typeof__(&st_dlpack_capsule_destructor) dlpack_capsule_destructor;
} core;
/* setup()'s `functions` are these, in this order (the module's CORE_FUNCTIONS) */
static const char *const core_names[] = {"st_binary_new",
                                         "st_binary_scalar_new",
                                         "st_unary_new",
                                         "st_vector_new",
                                         "st_tensor_free",
                                         "st_binary_inplace_small",
                                         "st_view_new",
                                         "st_astype_new",
                                         "st_fill_scalar",
                                         "st_assign_small",
                                         "st_matmul_new",
                                         "st_tensor_new",
                                         "st_tensor_alloc",
                                         "st_tensor_is_contiguous",
                                         "st_reduce_new",
                                         "st_reshape_new",
                                         "st_argreduce_new",
                                         "st_where_new",
                                         "st_mask_select_new",
                                         "st_mask_assign",
                                         "st_binary_into",
                                         "st_zeros_new",
                                         "st_dlpack_import",
                                         "st_dlpack_capsule_name",
                                         "st_last_error",
                                         "st_cat",
                                         "st_var_new",
                                         "st_take_new",
                                         "st_dlpack_export_versioned",
                                         "st_dlpack_capsule_destructor"};
#define N_CORE (sizeof core_names / sizeof core_names[0])
_Static_assert(N_CORE * sizeof(void *) == sizeof core, "one name per core function");

/* ---- the operators ---- */
/* clang-format off */
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
/* clang-format on */
_Static_assert(Py_LT == 0 && Py_LE == 1 && Py_EQ == 2 && Py_NE == 3 && Py_GT == 4 && Py_GE == 5,
               "rich comparison codes index the comparisons");

/* Per operator: the core's op code (matmul: none, st_matmul_new) and the
 * dtype mask the face accepts for it (fast.c), and the Python operators
 * that take every other case:
 * slow(self, other) for x op y, rslow(self, other) for other op x (unary:
 * slow(self)), islow(self, other) for x op= y. */
static struct {
    int code;
    uint32_t mask;
    PyObject *slow, *rslow, *islow;
} ops[N_OPS];

static PyTypeObject *record_type; /* RecordBase */
static PyTypeObject *base_type;   /* ArrayBase */
static PyTypeObject *array_type;  /* compat's Array: the class of every result */
static allocfunc array_alloc;
static PyObject *make_core; /* make_core(address) -> a Core owning the record */
static PyObject *dtypes;    /* the tuple of DType objects, by code */
/* The Python answers to what C declines here (setup_operators' `general`):
 * indexing, assignment, the transposes' errors */
static PyObject *slow_getitem, *slow_setitem, *slow_T, *slow_mT;
static PyObject *address_of; /* address_of(core) -> the record's address */

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
    PyObject_HEAD st_tensor *t; /* owned while core is NULL, else core's */
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

/* A Python float, or an int within int64, as the core's scalar arguments
 * (is_int, ivalue, fvalue): 1; 0 for any other object (bools, wider ints:
 * the general paths decide). */
static int plain_number(PyObject *o, int *is_int, int64_t *ivalue, double *fvalue)
{
    *is_int = 0, *ivalue = 0, *fvalue = 0.0;
    if (Py_TYPE(o) == &PyFloat_Type) {
        *fvalue = PyFloat_AsDouble(o);
        return 1;
    }
    if (Py_TYPE(o) != &PyLong_Type) return 0;
    int overflow;
    long long i = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (overflow) return 0;
    *is_int = 1, *ivalue = i;
    return 1;
}

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
    int is_int;
    int64_t i;
    double f;
    if (kind == array_type) {
        st_tensor *b = record(other);
        if (!b) return NULL;
        if (k == OP_MATMUL)
            r = reflected ? core.matmul_new(ops[k].mask, b, a) : core.matmul_new(ops[k].mask, a, b);
        else
            r = core.binary_new(ops[k].code, ops[k].mask, a, b);
    } else if (k != OP_MATMUL && plain_number(other, &is_int, &i, &f)) {
        /* (a number @ x: the Python operator's TypeError) */
        r = core.binary_scalar_new(ops[k].code, ops[k].mask, a, is_int, i, f, reflected);
    }
    if (r) return wrap(r);
    return PyObject_CallFunctionObjArgs(reflected ? ops[k].rslow : ops[k].slow, self, other, NULL);
}

/* x op= y: written straight into x when y is an Array of x's dtype that
 * broadcasts to x's shape or a Python float or int that converts plainly
 * (st_binary_into), else the Python operator (islow) decides and raises. */
static PyObject *inplace(int k, PyObject *self, PyObject *other)
{
    if (!ready()) return NULL;
    if (!PyObject_TypeCheck(self, base_type)) Py_RETURN_NOTIMPLEMENTED;
    st_tensor *a = record(self);
    if (!a) return NULL;
    int done = 0, is_int;
    int64_t i;
    double f;
    if (Py_TYPE(other) == array_type) {
        st_tensor *b = record(other);
        if (!b) return NULL;
        done = core.binary_into(ops[k].code, ops[k].mask, a, b, 0, 0, 0.0);
    } else if (plain_number(other, &is_int, &i, &f)) {
        done = core.binary_into(ops[k].code, ops[k].mask, a, NULL, is_int, i, f);
    }
    if (done) {
        Py_INCREF(self);
        return self;
    }
    if (PyErr_Occurred()) return NULL;
    return PyObject_CallFunctionObjArgs(ops[k].islow, self, other, NULL);
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

#define BINARY_SLOT(NAME, K)                                                                       \
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
#define INPLACE_SLOT(NAME, K)                                                                      \
    static PyObject *nb_inplace_##NAME(PyObject *v, PyObject *w) { return inplace(K, v, w); }
INPLACE_SLOT(add, OP_ADD)
INPLACE_SLOT(sub, OP_SUB)
INPLACE_SLOT(mul, OP_MUL)
INPLACE_SLOT(truediv, OP_TRUEDIV)
INPLACE_SLOT(floordiv, OP_FLOORDIV)
INPLACE_SLOT(mod, OP_MOD)
INPLACE_SLOT(and, OP_AND)
INPLACE_SLOT(or, OP_OR)
INPLACE_SLOT(xor, OP_XOR)
INPLACE_SLOT(lshift, OP_LSHIFT)
INPLACE_SLOT(rshift, OP_RSHIFT)

/* x @= y and x **= y: the Python operators (matmul's product is no
 * elementwise op; pow's third argument is always None here) */
static PyObject *nb_inplace_matmul(PyObject *v, PyObject *w)
{
    if (!ready()) return NULL;
    return PyObject_CallFunctionObjArgs(ops[OP_MATMUL].islow, v, w, NULL);
}

static PyObject *nb_inplace_power(PyObject *v, PyObject *w, PyObject *Py_UNUSED(z))
{
    return inplace(OP_POW, v, w);
}

#define UNARY_SLOT(NAME, K)                                                                        \
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
    if (a->core)
        Py_DECREF(a->core);
    else if (a->t && core.tensor_free)
        core.tensor_free(a->t);
    ((freefunc)PyType_GetSlot(tp, Py_tp_free))(self);
    Py_DECREF(tp); /* a heap type: its instances hold a reference */
}

/* ---- _c: the Core ---- */
static PyObject *get_core(PyObject *self, void *Py_UNUSED(closure))
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
        if (!c) return NULL; /* the record stays ours */
        a->core = c;         /* the Core owns the record now; t borrows it */
    }
    Py_INCREF(a->core);
    return a->core;
}

static int set_core(PyObject *self, PyObject *value, void *Py_UNUSED(closure))
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
    a->t = NULL; /* read from the new Core when an operator needs it */
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
        if (e == Py_Ellipsis)
            ellipses++;
        else if (PyLong_CheckExact(e) || PySlice_Check(e))
            indexed++;
        else if (e != Py_None)
            return NULL;
    }
    if (ellipses > 1 || indexed > a->ndim) return NULL;
    int64_t sizes[ST_MAX_DIMS], strides[ST_MAX_DIMS], offset = a->offset;
    int nd = 0, d = 0, empty = 0;
    for (Py_ssize_t i = 0; i <= n; i++) {
        PyObject *e = i < n ? entry[i] : NULL;
        if (!e || e == Py_Ellipsis) { /* the dims it stands for; the rest at the end */
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
            if (nd == ST_MAX_DIMS ||
                __builtin_mul_overflow(a->strides[d], (int64_t)step, &strides[nd]))
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
    st_tensor *v = basic_view(a, key), *m;
    if (v) return wrap(v);
    if (PyErr_Occurred()) return NULL;
    /* x[mask], a bool Array over x's leading dims (scikit-learn's
     * score[valid]): the selected rows in one call */
    if (PyObject_TypeCheck(key, array_type) && (m = record(key)) &&
        (v = core.mask_select_new(a, m)))
        return wrap(v);
    if (PyErr_Occurred()) return NULL;
    /* x[idx], a 1-D int64 Array (scikit-learn's X[train]): x's rows idx */
    if (PyObject_TypeCheck(key, array_type) && (m = record(key)) && a->ndim &&
        (v = core.take_new(a, 0, m)))
        return wrap(v);
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
                       ? basic_view(a, key)
                       : NULL;
    int is_int;
    int64_t i;
    double f;
    if (v) {
        int done = 0;
        if (kind == array_type) {
            st_tensor *src = record(value);
            done = src && core.assign_small(v, src);
        } else if (plain_number(value, &is_int, &i, &f)) {
            done = core.fill_scalar(v, is_int, i, f);
        }
        core.tensor_free(v);
        if (done) return 0;
    }
    if (PyErr_Occurred()) return -1;
    st_tensor *m;
    if (!v && PyObject_TypeCheck(key, array_type) && (m = record(key))) {
        /* x[mask] = a number, or the Array of x[mask]'s shape and dtype */
        int done = 0;
        if (kind == array_type) {
            st_tensor *src = record(value);
            done = src && core.mask_assign(a, m, src, 0, 0, 0.0);
        } else if (plain_number(value, &is_int, &i, &f)) {
            done = core.mask_assign(a, m, NULL, is_int, i, f);
        }
        if (done) return 0;
        if (PyErr_Occurred()) return -1;
    }
    PyObject *r = PyObject_CallFunctionObjArgs(slow_setitem, self, key, value, NULL);
    if (!r) return -1;
    Py_DECREF(r);
    return 0;
}

/* ---- the attributes ---- */
static PyObject *get_shape(PyObject *self, void *Py_UNUSED(closure))
{
    st_tensor *t = record(self);
    PyObject *shape = t ? PyTuple_New(t->ndim) : NULL;
    for (int d = 0; shape && d < t->ndim; d++) {
        PyObject *n = PyLong_FromLongLong(t->sizes[d]);
        if (!n || PyTuple_SetItem(shape, d, n)) Py_CLEAR(shape);
    }
    return shape;
}

static PyObject *get_ndim(PyObject *self, void *Py_UNUSED(closure))
{
    st_tensor *t = record(self);
    return t ? PyLong_FromLong(t->ndim) : NULL;
}

static PyObject *get_size(PyObject *self, void *Py_UNUSED(closure))
{
    st_tensor *t = record(self);
    if (!t) return NULL;
    int64_t n = 1; /* sizes are checked so that the count fits (st_tensor_set) */
    for (int d = 0; d < t->ndim; d++) n *= t->sizes[d];
    return PyLong_FromLongLong(n);
}

static PyObject *get_dtype(PyObject *self, void *Py_UNUSED(closure))
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
static PyObject *get_T(PyObject *self, void *Py_UNUSED(closure))
{
    st_tensor *t = ready() ? record(self) : NULL;
    if (!t) return NULL;
    if (t->ndim != 2) return PyObject_CallFunctionObjArgs(slow_T, self, NULL);
    return swapped(t, 0, 1);
}

static PyObject *get_mT(PyObject *self, void *Py_UNUSED(closure))
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
    {"T", get_T, NULL,
     "The transpose of a 2-D array (a view); other dimensions raise "
     "ValueError, as the standard says.",
     NULL},
    {"mT", get_mT, NULL,
     "The transpose of the last two axes (a view; at least 2 "
     "dimensions).",
     NULL},
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
    {Py_nb_inplace_add, nb_inplace_add},
    {Py_nb_inplace_subtract, nb_inplace_sub},
    {Py_nb_inplace_multiply, nb_inplace_mul},
    {Py_nb_inplace_true_divide, nb_inplace_truediv},
    {Py_nb_inplace_floor_divide, nb_inplace_floordiv},
    {Py_nb_inplace_remainder, nb_inplace_mod},
    {Py_nb_inplace_power, nb_inplace_power},
    {Py_nb_inplace_and, nb_inplace_and},
    {Py_nb_inplace_or, nb_inplace_or},
    {Py_nb_inplace_xor, nb_inplace_xor},
    {Py_nb_inplace_lshift, nb_inplace_lshift},
    {Py_nb_inplace_rshift, nb_inplace_rshift},
    {Py_nb_inplace_matrix_multiply, nb_inplace_matmul},
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
static PyObject *setup(PyObject *Py_UNUSED(mod), PyObject *args)
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
 * operators' table, name (OPERATORS) -> (code, mask, slow, rslow, islow)
 * (rslow and islow None for the unary ones and the comparisons), the tuple of DType objects
 * by code, and the Python functions of what C declines: general maps
 * "getitem" (self, key), "setitem" (self, key, value), "T" and "mT" (self)
 * to them. */
static const char *const general_names[] = {"getitem", "setitem", "T", "mT"};
static PyObject **const general_slots[] = {&slow_getitem, &slow_setitem, &slow_T, &slow_mT};

static PyObject *setup_operators(PyObject *Py_UNUSED(mod), PyObject *args)
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
        PyObject *slow, *rslow, *islow;
        if (!row || !PyArg_ParseTuple(row, "lkOOO", &code, &mask, &slow, &rslow, &islow)) {
            if (!PyErr_Occurred())
                PyErr_Format(PyExc_ValueError, "setup_operators: no operator %s", op_names[k]);
            return NULL;
        }
        if (!PyCallable_Check(slow) ||
            (k < OP_LT && (!PyCallable_Check(rslow) || !PyCallable_Check(islow)))) {
            PyErr_Format(PyExc_TypeError, "setup_operators: operator %s needs callables",
                         op_names[k]);
            return NULL;
        }
        replace(&ops[k].slow, slow);
        replace(&ops[k].rslow, rslow);
        replace(&ops[k].islow, islow);
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
static PyObject *from_list(PyObject *Py_UNUSED(mod), PyObject *obj)
{
    if (!ready()) return NULL;
    Py_ssize_t n = PyList_Check(obj) ? PyList_Size(obj) : 0;
    if (n <= 0) Py_RETURN_NONE;
    PyTypeObject *kind = Py_TYPE(PyList_GetItem(obj, 0));
    int dtype = kind == &PyFloat_Type  ? ST_FLOAT64
                : kind == &PyLong_Type ? ST_INT64
                : kind == &PyBool_Type ? ST_BOOL
                                       : -1;
    if (dtype < 0) Py_RETURN_NONE;
    for (Py_ssize_t i = 1; i < n; i++)
        if (Py_TYPE(PyList_GetItem(obj, i)) != kind) Py_RETURN_NONE;
    st_tensor *t = core.vector_new(dtype, (int64_t)n, NULL);
    if (!t) Py_RETURN_NONE;        /* out of memory: the general path says so */
    char *data = t->storage->data; /* fresh and contiguous: element 0 */
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *v = PyList_GetItem(obj, i);
        if (dtype == ST_FLOAT64) {
            ((double *)data)[i] = PyFloat_AsDouble(v);
        } else if (dtype == ST_BOOL) {
            ((_Bool *)data)[i] = v == Py_True;
        } else {
            int overflow;
            long long x = PyLong_AsLongLongAndOverflow(v, &overflow);
            if (overflow) { /* beyond int64: the general path raises */
                core.tensor_free(t);
                Py_RETURN_NONE;
            }
            ((int64_t *)data)[i] = x;
        }
    }
    return wrap(t);
}

/* The length of a shape given as a tuple or a list (-1 for anything else,
 * or more than ST_MAX_DIMS entries) and its d-th entry (borrowed). */
static Py_ssize_t shape_length(PyObject *shape)
{
    Py_ssize_t n = PyTuple_Check(shape)  ? PyTuple_Size(shape)
                   : PyList_Check(shape) ? PyList_Size(shape)
                                         : -1;
    return n > ST_MAX_DIMS ? -1 : n;
}

static PyObject *shape_item(PyObject *shape, Py_ssize_t d)
{
    return PyTuple_Check(shape) ? PyTuple_GetItem(shape, d) : PyList_GetItem(shape, d);
}

/* nargs == n, or a TypeError giving the call's signature (the METH_FASTCALL
 * functions' one argument check) */
static int arity(Py_ssize_t nargs, Py_ssize_t n, const char *signature)
{
    if (nargs == n) return 1;
    PyErr_SetString(PyExc_TypeError, signature);
    return 0;
}

/* filled(shape, code, value): the C-contiguous Array of this shape (an int
 * or a tuple or list of ints) and dtype code, every element 0 (value None) or
 * value (a Python float or int64-range int that st_fill_scalar puts
 * plainly into the dtype); None for anything else, and for a size the
 * core refuses: the creation functions' general path answers (and raises). */
static PyObject *filled(PyObject *Py_UNUSED(mod), PyObject *const *args, Py_ssize_t nargs)
{
    if (!ready()) return NULL;
    if (!arity(nargs, 3, "filled(shape, code, value)")) return NULL;
    PyObject *shape = args[0], *value = args[2];
    int64_t sizes[ST_MAX_DIMS];
    int ndim = 0, overflow;
    if (PyLong_CheckExact(shape)) {
        sizes[ndim++] = PyLong_AsLongLongAndOverflow(shape, &overflow);
        if (overflow) Py_RETURN_NONE;
    } else if (shape_length(shape) >= 0) {
        for (; ndim < shape_length(shape); ndim++) {
            PyObject *d = shape_item(shape, ndim);
            if (!PyLong_CheckExact(d)) Py_RETURN_NONE;
            sizes[ndim] = PyLong_AsLongLongAndOverflow(d, &overflow);
            if (overflow) Py_RETURN_NONE;
        }
    } else {
        Py_RETURN_NONE;
    }
    for (int d = 0; d < ndim; d++)
        if (sizes[d] < 0) Py_RETURN_NONE;
    long code = PyLong_AsLong(args[1]);
    if (code == -1 && PyErr_Occurred()) return NULL;
    int is_int = 0;
    int64_t ivalue = 0;
    double fvalue = 0.0;
    if (value != Py_None && !plain_number(value, &is_int, &ivalue, &fvalue)) Py_RETURN_NONE;
    /* zeros need no pass (-0.0 does: its sign bit is set); any other value
     * is written over every element, so its block need not be cleared first */
    int zero = value == Py_None || (is_int ? ivalue == 0 : fvalue == 0.0 && !signbit(fvalue));
    st_tensor *t = zero ? core.zeros_new((int)code, ndim, sizes) : core.tensor_new();
    if (!t) Py_RETURN_NONE;
    if (!zero && (core.tensor_alloc(t, (int)code, ndim, sizes) ||
                  !core.fill_scalar(t, is_int, ivalue, fvalue))) {
        core.tensor_free(t);
        Py_RETURN_NONE;
    }
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

static PyObject *binary_new(PyObject *Py_UNUSED(mod), PyObject *const *args, Py_ssize_t nargs)
{
    int code;
    uint32_t mask;
    if (!arity(nargs, 4, "binary_new(code, mask, x1, x2)")) return NULL;
    if (!ready() || !code_mask(args, &code, &mask)) return NULL;
    int first = Py_TYPE(args[2]) == array_type, second = Py_TYPE(args[3]) == array_type;
    st_tensor *r = NULL;
    if (first && second) {
        st_tensor *a = record(args[2]), *b = a ? record(args[3]) : NULL;
        if (!b) return NULL;
        r = core.binary_new(code, mask, a, b);
    } else if (first || second) {
        /* an Array and a Python float or int64-range int, as the operators
         * take them (the standard's functions take scalars as its operators) */
        int is_int;
        int64_t i;
        double f;
        if (!plain_number(args[first ? 3 : 2], &is_int, &i, &f)) Py_RETURN_NONE;
        st_tensor *a = record(args[first ? 2 : 3]);
        if (!a) return NULL;
        r = core.binary_scalar_new(code, mask, a, is_int, i, f, !first);
    }
    if (r) return wrap(r);
    Py_RETURN_NONE;
}

static PyObject *unary_new(PyObject *Py_UNUSED(mod), PyObject *const *args, Py_ssize_t nargs)
{
    int code;
    uint32_t mask;
    if (!arity(nargs, 3, "unary_new(code, mask, x)")) return NULL;
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
static PyObject *binary_inplace(PyObject *Py_UNUSED(mod), PyObject *const *args, Py_ssize_t nargs)
{
    if (!arity(nargs, 3, "binary_inplace(code, x, y)")) return NULL;
    if (!core_ready()) return NULL;
    long code = PyLong_AsLong(args[0]);
    if (code == -1 && PyErr_Occurred()) return NULL;
    if (!PyObject_TypeCheck(args[1], record_type) || !PyObject_TypeCheck(args[2], record_type))
        Py_RETURN_FALSE;
    st_tensor *x = record(args[1]), *y = x ? record(args[2]) : NULL;
    if (!y) return NULL;
    return PyBool_FromLong(core.binary_inplace_small((int)code, x, y));
}

/* ==== The Torch7 face's small calls (strided/torch7/tensor.py) ====
 *
 * Torch7's Tensor subclasses RecordBase.  A call such as x:size(1),
 * x:narrow(1, 2, 1), x[i][j] or Tensor(3, 3) spent most of its time in
 * Python (argument checks, a Core made through cffi for every new view, an
 * ffi.gc handle, a one-element cffi buffer for a value).  These functions
 * do the plain case whole in C on the record and return DECLINED (a
 * sentinel set by t7_setup) for anything else -- another argument type, an
 * index out of range, Half, read-only memory, a failure of the core -- and
 * the Python method then runs its general code, which makes the same
 * decisions and raises the same errors.  Their results are those of the
 * general code: the same geometry (offsets of empty views included), the
 * same conversions of numbers (tensor.py's _number, core.base's
 * scalar_buffer).  A tensor made here owns its record, as an Array does
 * (its Core is made when Python code first reads `_c`). */
static struct {
    __typeof__(&st_tensor_new) tensor_new;
    __typeof__(&st_tensor_set) tensor_set;
    __typeof__(&st_tensor_numel) tensor_numel;
    __typeof__(&st_storage_zeros) storage_zeros; /* never a freed block's bytes (alloc.c) */
    __typeof__(&st_storage_release) storage_release;
    __typeof__(&st_storage_retain) storage_retain;
    __typeof__(&st_copy) copy;
    __typeof__(&st_fill) fill;
    __typeof__(&st_binary) binary;
    __typeof__(&st_random_fill) random_fill;
    __typeof__(&st_generator_default) generator_default;
} t7core;
static const char *const t7core_names[] = {"st_tensor_new",
                                           "st_tensor_set",
                                           "st_tensor_numel",
                                           "st_storage_zeros",
                                           "st_storage_release",
                                           "st_storage_retain",
                                           "st_copy",
                                           "st_fill",
                                           "st_binary",
                                           "st_random_fill",
                                           "st_generator_default"};
#define N_T7CORE (sizeof t7core_names / sizeof t7core_names[0])
_Static_assert(N_T7CORE * sizeof(void *) == sizeof t7core, "one name per core function");

static PyObject *declined; /* the sentinel: "take the general path" */
static int t7_long_storage_ints(PyObject *o, int64_t *v, int max); /* storages below */
static PyObject *t7_nested_make(PyObject *self, PyObject *obj, long dtype, long max_dims);

/* The byte size of an element of each type (the core's st_itemsize, which
 * is not linked here), by type code. */
static const int8_t t7_itemsizes[ST_NTYPES] = {1, 1, 2, 4, 8, 1, 2, 4, 8, 4, 8, 8, 16, 2, 2};
static int64_t st_itemsize_fixed(int dtype)
{
    return dtype >= 0 && dtype < ST_NTYPES ? t7_itemsizes[dtype] : 0;
}

/* Up to this many elements, fill, clone, copy and x:add(number) run here
 * with the GIL held (a kernel call of a few microseconds at most); larger
 * ones go through the general path, which releases it. */
#define T7_SMALL 32768

#define DECLINE() return Py_INCREF(declined), declined

static int t7_ready(void)
{
    if (declined && core_ready()) return 1;
    PyErr_SetString(PyExc_RuntimeError, "strided._c._pyarray: t7_setup() was not called");
    return 0;
}

/* The record of a Torch7 tensor (any RecordBase), or NULL: not one (no
 * exception) or an error (exception set). */
static st_tensor *t7_record(PyObject *o)
{
    if (!PyObject_TypeCheck(o, record_type)) return NULL;
    return record(o);
}

/* An exact Python int that fits int64 into *v (bools and floats: no). */
static int exact_int(PyObject *o, int64_t *v)
{
    if (!PyLong_CheckExact(o)) return 0;
    int overflow;
    long long x = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (overflow || (x == -1 && PyErr_Occurred())) {
        PyErr_Clear();
        return 0;
    }
    *v = x;
    return 1;
}

/* A new tensor of the class of `like` owning record t (freed on failure). */
static PyObject *t7_wrap(PyTypeObject *cls, st_tensor *t)
{
    allocfunc alloc = (allocfunc)PyType_GetSlot(cls, Py_tp_alloc);
    ArrayObject *o = (ArrayObject *)alloc(cls, 0);
    if (!o) {
        core.tensor_free(t);
        return NULL;
    }
    o->t = t;
    o->core = NULL;
    return (PyObject *)o;
}

/* A new view of t's storage with this geometry, as a tensor of self's
 * class; NULL with no exception when the core refuses it (the general path
 * then says why). */
static PyObject *t7_view(PyObject *self, const st_tensor *t, int64_t offset, int ndim,
                         const int64_t *sizes, const int64_t *strides)
{
    st_tensor *v = t7core.tensor_new();
    if (!v) return NULL;
    if (t7core.tensor_set(v, t->storage, t->dtype, offset, ndim, sizes, strides)) {
        core.tensor_free(v);
        return NULL;
    }
    return t7_wrap(Py_TYPE(self), v);
}

/* Element p of a tensor of `dtype` as tensor.py's _number gives it: a float
 * for float and double, an int for the integer types; NULL with no
 * exception for another type. */
static PyObject *t7_number(const char *p, int dtype)
{
    switch (dtype) {
    case ST_FLOAT64:
        return PyFloat_FromDouble(*(const double *)p);
    case ST_FLOAT32:
        return PyFloat_FromDouble(*(const float *)p);
    case ST_INT64:
        return PyLong_FromLongLong(*(const int64_t *)p);
    case ST_INT32:
        return PyLong_FromLong(*(const int32_t *)p);
    case ST_INT16:
        return PyLong_FromLong(*(const int16_t *)p);
    case ST_INT8:
        return PyLong_FromLong(*(const int8_t *)p);
    case ST_UINT8:
        return PyLong_FromLong(*(const uint8_t *)p);
    default:
        return NULL;
    }
}

/* value (an exact float or int) into buf as one element of `dtype`, as
 * core.base.scalar_buffer converts it: 0 when that would raise or is not
 * the plain case (a non-finite float or an int out of range for an integer
 * type, Half, any other type of value). */
static int t7_store(PyObject *value, int dtype, void *buf)
{
    int64_t i = 0;
    double f = 0;
    int is_int = exact_int(value, &i);
    if (!is_int) {
        if (!PyFloat_CheckExact(value)) return 0;
        f = PyFloat_AsDouble(value);
    }
    if (dtype == ST_FLOAT64) {
        *(double *)buf = is_int ? (double)i : f;
        return 1;
    }
    if (dtype == ST_FLOAT32) {
        *(float *)buf = (float)(is_int ? (double)i : f);
        return 1;
    }
    if (!is_int) { /* an integer type: the float truncated toward zero */
        if (!(f > -9.2e18 && f < 9.2e18)) return 0; /* NaN, inf, beyond int64 */
        i = (int64_t)f;
    }
    switch (dtype) {
#define T7_INT_CASE(CODE, T, LO, HI)                                                               \
    case CODE:                                                                                     \
        if (i < (LO) || i > (HI)) return 0;                                                        \
        *(T *)buf = (T)i;                                                                          \
        return 1;
        T7_INT_CASE(ST_INT64, int64_t, INT64_MIN, INT64_MAX)
        T7_INT_CASE(ST_INT32, int32_t, INT32_MIN, INT32_MAX)
        T7_INT_CASE(ST_INT16, int16_t, INT16_MIN, INT16_MAX)
        T7_INT_CASE(ST_INT8, int8_t, INT8_MIN, INT8_MAX)
        T7_INT_CASE(ST_UINT8, uint8_t, 0, UINT8_MAX)
#undef T7_INT_CASE
    default:
        return 0;
    }
}

static int t7_writable(const st_tensor *t)
{
    return !t->storage || !(t->storage->flags & ST_STORAGE_READONLY);
}

/* a's record made t (owned), its old record or Core let go. */
static void t7_install(ArrayObject *a, st_tensor *t)
{
    PyObject *old = a->core;
    st_tensor *owned = old ? NULL : a->t;
    a->t = t;
    a->core = NULL;
    Py_XDECREF(old);
    if (owned) core.tensor_free(owned);
}

/* t7_setup(functions, declined): the addresses of T7_CORE_FUNCTIONS in
 * order, and the sentinel the functions below return to decline. */
static PyObject *t7_setup(PyObject *Py_UNUSED(mod), PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2 || !PyTuple_Check(args[0]) || PyTuple_Size(args[0]) != (Py_ssize_t)N_T7CORE) {
        PyErr_Format(PyExc_TypeError,
                     "t7_setup(functions, declined): functions must be a "
                     "tuple of %d addresses",
                     (int)N_T7CORE);
        return NULL;
    }
    void *fn[N_T7CORE];
    for (size_t i = 0; i < N_T7CORE; i++) {
        fn[i] = PyLong_AsVoidPtr(PyTuple_GetItem(args[0], (Py_ssize_t)i));
        if (!fn[i]) {
            if (!PyErr_Occurred())
                PyErr_Format(PyExc_ValueError, "t7_setup: NULL address for %s", t7core_names[i]);
            return NULL;
        }
    }
    memcpy(&t7core, fn, sizeof t7core);
    replace(&declined, args[1]);
    Py_RETURN_NONE;
}

/* t7_init(self, sizes, dtype[, limit]): Tensor() (no sizes) of a new
 * self: the empty tensor.  Tensor(n1, n2, ...) with every
 * size an exact int >= 0 (at most ST_MAX_DIMS of them), or Tensor(sizes)
 * of a LongStorage (of another type than Long): self, which has no
 * storage yet, over a new contiguous storage, as Tensor._alloc makes it
 * (uninitialised).  Tensor(table) as t7_nested makes it.  True when done;
 * False, self untouched, for any other case or more than `limit` elements. */
static PyObject *t7_init_record(PyObject *self, PyObject *sizes, long dtype, int64_t limit);

static PyObject *t7_init(PyObject *Py_UNUSED(mod), PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 3 && nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "t7_init(self, sizes, dtype[, limit])");
        return NULL;
    }
    if (!t7_ready()) return NULL;
    long dtype = PyLong_AsLong(args[2]);
    if (dtype == -1 && PyErr_Occurred()) return NULL;
    int64_t limit = INT64_MAX;
    if (nargs == 4 && !exact_int(args[3], &limit)) Py_RETURN_FALSE;
    return t7_init_record(args[0], args[1], dtype, limit);
}

/* t7_init's work: True, False or NULL (an error). */
static PyObject *t7_init_record(PyObject *self, PyObject *sizes, long dtype, int64_t limit)
{
    if (!PyObject_TypeCheck(self, record_type) || !PyTuple_Check(sizes)) Py_RETURN_FALSE;
    ArrayObject *a = (ArrayObject *)self;
    if (a->t || a->core) {
        st_tensor *have = record(self);
        if (!have) return NULL;
        if (have->storage) Py_RETURN_FALSE;
    }
    Py_ssize_t nd = PyTuple_Size(sizes);
    if (nd > ST_MAX_DIMS || dtype < 0 || dtype >= ST_NTYPES) Py_RETURN_FALSE;
    if (nd == 0) {
        /* Tensor(): the empty tensor, a record of no dimension and no
         * storage (tensor.py's _empty_record), for a new self only */
        if (a->t || a->core) Py_RETURN_FALSE;
        st_tensor *t = t7core.tensor_new();
        if (!t) return PyErr_NoMemory();
        t->dtype = (int)dtype;
        a->t = t;
        Py_RETURN_TRUE;
    }
    if (nd == 1 && (PyList_CheckExact(PyTuple_GetItem(sizes, 0)) ||
                    PyTuple_CheckExact(PyTuple_GetItem(sizes, 0)))) {
        /* Tensor(table): t7_nested's */
        PyObject *r = t7_nested_make(self, PyTuple_GetItem(sizes, 0), dtype, ST_MAX_DIMS);
        if (r != declined) return r;
        Py_DECREF(r);
        Py_RETURN_FALSE;
    }
    int64_t n[ST_MAX_DIMS], st[ST_MAX_DIMS], numel = 1;
    int from_storage = nd == 1 && dtype != ST_INT64
                           ? t7_long_storage_ints(PyTuple_GetItem(sizes, 0), n, ST_MAX_DIMS)
                           : -1;
    if (from_storage == 0) Py_RETURN_FALSE; /* Tensor(LongStorage()): the general path */
    if (from_storage > 0) {
        /* Tensor(sizes) of a LongStorage (a LongTensor views it instead) */
        nd = from_storage;
        for (Py_ssize_t d = 0; d < nd; d++)
            if (n[d] < 0) Py_RETURN_FALSE;
    } else {
        for (Py_ssize_t d = 0; d < nd; d++)
            if (!exact_int(PyTuple_GetItem(sizes, d), &n[d]) || n[d] < 0) Py_RETURN_FALSE;
    }
    /* strides as contiguous as possible (a size 0 counts as 1), element
     * count checked for overflow: the core checks the rest */
    for (Py_ssize_t d = nd - 1; d >= 0; d--) {
        st[d] = numel;
        if (__builtin_mul_overflow(numel, n[d] ? n[d] : 1, &numel)) Py_RETURN_FALSE;
    }
    for (Py_ssize_t d = 0; d < nd; d++)
        if (n[d] == 0) numel = 0;
    if (numel > limit) Py_RETURN_FALSE;
    int64_t bytes;
    if (__builtin_mul_overflow(numel, st_itemsize_fixed((int)dtype), &bytes)) Py_RETURN_FALSE;
    st_tensor *t = t7core.tensor_new();
    st_storage *s = t ? t7core.storage_zeros(bytes) : NULL;
    st_status rc = s ? t7core.tensor_set(t, s, (int)dtype, 0, (int)nd, n, st) : ST_E_MEMORY;
    if (s) t7core.storage_release(s); /* t holds it */
    if (rc) {
        if (t) core.tensor_free(t);
        Py_RETURN_FALSE; /* the general path raises */
    }
    t7_install(a, t);
    Py_RETURN_TRUE;
}

/* The element type code of a tensor or storage class (its `_code`), -1
 * when it has none. */
static int t7_class_code(PyTypeObject *cls)
{
    static PyObject *name;
    if (!name && !(name = PyUnicode_InternFromString("_code"))) return -1;
    PyObject *code = PyObject_GetAttr((PyObject *)cls, name);
    long v = code ? PyLong_AsLong(code) : -1;
    Py_XDECREF(code);
    PyErr_Clear();
    return v >= 0 && v < ST_NTYPES ? (int)v : -1;
}

/* lock.acquire() and lock.release() (bound once per lock: the default
 * generator's is always the same).  acquire lets go of the GIL while it
 * waits, as the general path's `with lock` does. */
static PyObject *t7_lock_call(PyObject *lock, int acquire)
{
    static PyObject *held, *take, *give;
    if (lock != held) {
        PyObject *t = PyObject_GetAttrString(lock, "acquire");
        PyObject *g = t ? PyObject_GetAttrString(lock, "release") : NULL;
        if (!g) {
            Py_XDECREF(t);
            return NULL;
        }
        replace(&held, lock);
        Py_XDECREF(take);
        Py_XDECREF(give);
        take = t;
        give = g;
    }
    return PyObject_CallNoArgs(acquire ? take : give);
}

/* ==== TensorBase: the C base of the Torch7 face's Tensor classes ====
 *
 * Its tp_init is `Tensor(...)`'s front door.  The common forms (sizes, a
 * LongStorage of sizes, a table of numbers) are made here by
 * t7_init_record with no Python frame: in a Torch7 loop that makes small
 * tensors, the Python __init__ frame was a third of the call.  Any other
 * call (keywords, storages, tensors, arrays, errors) goes to the class's
 * `_init` (tensor.py's general constructor), which makes it or raises. */
static PyObject *t7_init_general_name;

static int t7_tensor_init(PyObject *self, PyObject *args, PyObject *kwargs)
{
    if (kwargs && PyDict_Size(kwargs)) {
        PyObject *name = PyObject_GetAttrString((PyObject *)Py_TYPE(self), "_typename");
        if (name)
            PyErr_Format(PyExc_TypeError,
                         "%S(...) takes no keyword arguments: Torch7's "
                         "constructors take their arguments by position",
                         name);
        Py_XDECREF(name);
        return -1;
    }
    const int code = t7_class_code(Py_TYPE(self));
    if (code >= 0 && t7_ready()) {
        PyObject *made = t7_init_record(self, args, code, INT64_MAX);
        if (!made) return -1;
        Py_DECREF(made);
        if (made == Py_True) return 0;
    }
    PyErr_Clear(); /* t7_ready's: the general path says it */
    if (!t7_init_general_name && !(t7_init_general_name = PyUnicode_InternFromString("_init")))
        return -1;
    PyObject *general = PyObject_GetAttr(self, t7_init_general_name);
    PyObject *r = general ? PyObject_Call(general, args, NULL) : NULL;
    Py_XDECREF(general);
    Py_XDECREF(r);
    return r ? 0 : -1;
}

static PyType_Slot t7_tensor_slots[] = {
    {Py_tp_doc, "The C base of the Torch7 face's tensors: Tensor(...) made in C when it can "
                "be, else by the class's _init."},
    {Py_tp_init, t7_tensor_init},
    {0, NULL},
};

static PyType_Spec t7_tensor_spec = {
    .name = "strided._c._pyarray.TensorBase",
    .basicsize = sizeof(ArrayObject),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .slots = t7_tensor_slots,
};

/* t7_set_default(cls): the default tensor class (torch.Tensor), which
 * t7_sized makes; tensor.py's publish_default sets it. */
static PyObject *t7_default_cls;

static PyObject *t7_set_default(PyObject *Py_UNUSED(mod), PyObject *cls)
{
    if (!PyType_Check(cls) || !PyType_IsSubtype((PyTypeObject *)cls, record_type)) {
        PyErr_SetString(PyExc_TypeError, "t7_set_default(cls): a tensor class");
        return NULL;
    }
    replace(&t7_default_cls, cls);
    Py_RETURN_NONE;
}

/* t7_sized(kind, lock, sizes): torch.zeros(n1, n2, ...) (kind 0),
 * torch.ones (1), torch.rand (2: the default generator's uniform numbers)
 * and torch.randn (3: its normal numbers) of exact int sizes: a new tensor
 * of the default class (not Half; rand/randn: Float or Double) of at most
 * T7_SMALL elements, made as Tensor(n1, n2, ...) and filled as the general
 * path fills it; DECLINED otherwise.  lock: the default generator's, held
 * while its numbers are drawn.  The sizes come last: the face binds the
 * rest once (functools.partial, no Python frame per call). */
static PyObject *t7_sized(PyObject *Py_UNUSED(mod), PyObject *const *args, Py_ssize_t nargs)
{
    if (!arity(nargs, 3, "t7_sized(kind, lock, sizes)")) return NULL;
    if (!t7_ready()) return NULL;
    PyObject *cls = t7_default_cls, *sizes = args[2], *lock = args[1];
    long kind = PyLong_AsLong(args[0]);
    if (kind == -1 && PyErr_Occurred()) return NULL;
    if (kind < 0 || kind > 3 || !cls || !PyTuple_Check(sizes) || PyTuple_Size(sizes) == 0)
        DECLINE();
    const int dtype = t7_class_code((PyTypeObject *)cls);
    if (dtype < 0 || dtype >= ST_FLOAT16 ||
        (kind >= 2 && dtype != ST_FLOAT32 && dtype != ST_FLOAT64))
        DECLINE();
    allocfunc alloc = (allocfunc)PyType_GetSlot((PyTypeObject *)cls, Py_tp_alloc);
    PyObject *o = alloc((PyTypeObject *)cls, 0);
    if (!o) return NULL;
    PyObject *made = t7_init_record(o, sizes, dtype, T7_SMALL);
    if (made != Py_True) {
        Py_DECREF(o);
        if (!made) return NULL;
        Py_DECREF(made);
        DECLINE();
    }
    Py_DECREF(made);
    st_tensor *t = ((ArrayObject *)o)->t;
    const int64_t n = t7core.tensor_numel(t);
    st_status rc = ST_OK;
    if (kind == 1 && n) {
        _Alignas(16) char buf[16];
        PyObject *one = PyLong_FromLong(1);
        rc = one && t7_store(one, dtype, buf) ? t7core.fill(t, buf) : ST_E_VALUE;
        Py_XDECREF(one);
    } else if (kind >= 2 && n) {
        PyObject *got = t7_lock_call(lock, 1);
        if (got) {
            rc = t7core.random_fill(t, t7core.generator_default(),
                                    kind == 2 ? ST_DIST_UNIFORM : ST_DIST_NORMAL, 0.0, 1.0);
            PyObject *r = t7_lock_call(lock, 0);
            if (!r) {
                Py_XDECREF(got);
                Py_DECREF(o);
                return NULL;
            }
            Py_DECREF(r);
        } else {
            rc = ST_E_VALUE; /* not a lock: the general path */
            PyErr_Clear();
        }
        Py_XDECREF(got);
    }
    if (rc) {
        Py_DECREF(o);
        DECLINE();
    }
    return o;
}

/* t7_ndim(x) / t7_numel(x): x:dim() and x:nElement() (0 for the empty tensor). */
static PyObject *t7_ndim(PyObject *Py_UNUSED(mod), PyObject *x)
{
    st_tensor *t = t7_record(x);
    if (!t) {
        if (PyErr_Occurred()) return NULL;
        DECLINE();
    }
    return PyLong_FromLong(t->ndim);
}

static PyObject *t7_numel(PyObject *Py_UNUSED(mod), PyObject *x)
{
    if (!t7_ready()) return NULL;
    st_tensor *t = t7_record(x);
    if (!t) {
        if (PyErr_Occurred()) return NULL;
        DECLINE();
    }
    return PyLong_FromLongLong(t->ndim ? t7core.tensor_numel(t) : 0);
}

/* The 0-based dim of an exact int d in [1, ndim], or -1. */
static int t7_dim(PyObject *d, const st_tensor *t)
{
    int64_t v;
    return exact_int(d, &v) && v >= 1 && v <= t->ndim ? (int)(v - 1) : -1;
}

/* t7_size(x, dim) / t7_stride(x, dim): x:size(dim), x:stride(dim). */
static PyObject *t7_geometry(PyObject *const *args, Py_ssize_t nargs, int strides)
{
    if (!arity(nargs, 2, "t7_size/t7_stride(x, dim)")) return NULL;
    if (!t7_ready()) return NULL;
    st_tensor *t = t7_record(args[0]);
    if (!t) {
        if (PyErr_Occurred()) return NULL;
        DECLINE();
    }
    int d = t7_dim(args[1], t);
    if (d < 0) DECLINE();
    return PyLong_FromLongLong(strides ? t->strides[d] : t->sizes[d]);
}

static PyObject *t7_size(PyObject *Py_UNUSED(mod), PyObject *const *args, Py_ssize_t nargs)
{
    return t7_geometry(args, nargs, 0);
}

static PyObject *t7_stride(PyObject *Py_UNUSED(mod), PyObject *const *args, Py_ssize_t nargs)
{
    return t7_geometry(args, nargs, 1);
}

/* t's view narrowed along d to [start, start + length) (checked by the
 * caller), as core.views.narrow places it, into sizes/offset. */
static int64_t t7_narrowed(const st_tensor *t, int d, int64_t start, int64_t length, int64_t *sizes)
{
    memcpy(sizes, t->sizes, (size_t)t->ndim * sizeof *sizes);
    sizes[d] = length;
    int64_t offset = t->offset + start * t->strides[d];
    if (!(length && t7core.tensor_numel(t)) && offset < 0) offset = t->offset;
    return offset;
}

#define T7_PROLOGUE(N, WHAT)                                                                       \
    if (!arity(nargs, (N), WHAT)) return NULL;                                                     \
    if (!t7_ready()) return NULL;                                                                  \
    st_tensor *t = t7_record(args[0]);                                                             \
    if (!t) {                                                                                      \
        if (PyErr_Occurred()) return NULL;                                                         \
        DECLINE();                                                                                 \
    }

/* A view made by t7_view, or DECLINED when the core refused it. */
static PyObject *t7_view_or_decline(PyObject *v)
{
    if (v || PyErr_Occurred()) return v;
    DECLINE();
}

/* t7_narrow(x, dim, index, size): x:narrow(dim, index, size). */
static PyObject *t7_narrow(PyObject *Py_UNUSED(mod), PyObject *const *args, Py_ssize_t nargs)
{
    T7_PROLOGUE(4, "t7_narrow(x, dim, index, size)")
    int d = t7_dim(args[1], t);
    int64_t index, size, sizes[ST_MAX_DIMS];
    if (d < 0 || !exact_int(args[2], &index) || !exact_int(args[3], &size)) DECLINE();
    const int64_t n = t->sizes[d];
    if (index < 1 || index > n || size < 0 || size > n - index + 1) DECLINE();
    int64_t offset = t7_narrowed(t, d, index - 1, size, sizes);
    return t7_view_or_decline(t7_view(args[0], t, offset, t->ndim, sizes, t->strides));
}

/* t's view without dim d at position i (checked by the caller), or the
 * number there when t has one dimension. */
static PyObject *t7_selected(PyObject *self, const st_tensor *t, int d, int64_t i)
{
    int64_t sizes[ST_MAX_DIMS], strides[ST_MAX_DIMS];
    const int64_t offset = t->offset + (t7core.tensor_numel(t) ? i * t->strides[d] : 0);
    if (t->ndim == 1) {
        PyObject *v = t7_number(
            (const char *)t->storage->data + offset * st_itemsize_fixed(t->dtype), t->dtype);
        if (v || PyErr_Occurred()) return v;
        DECLINE();
    }
    int k = 0;
    for (int e = 0; e < t->ndim; e++)
        if (e != d) sizes[k] = t->sizes[e], strides[k++] = t->strides[e];
    return t7_view_or_decline(t7_view(self, t, offset, k, sizes, strides));
}

/* t7_select(x, dim, index): x:select(dim, index) (on a 1-D x the number;
 * its dim is not looked at, as Torch7's). */
static PyObject *t7_select(PyObject *Py_UNUSED(mod), PyObject *const *args, Py_ssize_t nargs)
{
    T7_PROLOGUE(3, "t7_select(x, dim, index)")
    int64_t index, ignored;
    int d = t->ndim == 1 && exact_int(args[1], &ignored) ? 0 : t7_dim(args[1], t);
    if (d < 0 || !exact_int(args[2], &index) || index < 1 || index > t->sizes[d]) DECLINE();
    return t7_selected(args[0], t, d, index - 1);
}

/* t7_t(x): x:t() of a 2-D x. */
static PyObject *t7_t(PyObject *Py_UNUSED(mod), PyObject *const *args, Py_ssize_t nargs)
{
    T7_PROLOGUE(1, "t7_t(x)")
    if (t->ndim != 2) DECLINE();
    const int64_t sizes[2] = {t->sizes[1], t->sizes[0]},
                  strides[2] = {t->strides[1], t->strides[0]};
    return t7_view_or_decline(t7_view(args[0], t, t->offset, 2, sizes, strides));
}

/* t7_sub(x, bounds): x:sub(s1, e1, s2, e2, ...) with exact ints, each
 * range inside its dimension (1-based, inclusive, negative from the end). */
static PyObject *t7_sub(PyObject *Py_UNUSED(mod), PyObject *const *args, Py_ssize_t nargs)
{
    T7_PROLOGUE(2, "t7_sub(x, bounds)")
    PyObject *b = args[1];
    Py_ssize_t nb = PyTuple_Check(b) ? PyTuple_Size(b) : -1;
    if (nb < 0 || nb % 2 || nb > 2 * (Py_ssize_t)t->ndim || t->ndim == 0) DECLINE();
    int64_t sizes[ST_MAX_DIMS], offset = t->offset;
    memcpy(sizes, t->sizes, (size_t)t->ndim * sizeof *sizes);
    for (Py_ssize_t k = 0; k < nb; k += 2) {
        int d = (int)(k / 2);
        int64_t s, e;
        if (!exact_int(PyTuple_GetItem(b, k), &s) || !exact_int(PyTuple_GetItem(b, k + 1), &e))
            DECLINE();
        const int64_t n = t->sizes[d], s0 = s < 0 ? s + n : s - 1, e0 = e < 0 ? e + n : e - 1;
        if (s0 < 0 || s0 >= n || e0 < s0 || e0 >= n) DECLINE();
        /* each dimension narrowed in turn: the element count before this
         * one's narrowing decides an empty view's offset, as in the
         * general path's chain of narrows; here no range is empty */
        offset += s0 * t->strides[d];
        sizes[d] = e0 - s0 + 1;
    }
    return t7_view_or_decline(t7_view(args[0], t, offset, t->ndim, sizes, t->strides));
}

/* The record and element position a [] key of exact ints (an int, or a
 * tuple of them) reaches in t: the number of dimensions selected, -1 for
 * another key.  Indices are 1-based, negative from the end. */
static int t7_key(const st_tensor *t, PyObject *key, int64_t *offset)
{
    const int tuple = PyTuple_CheckExact(key);
    const Py_ssize_t nk = tuple ? PyTuple_Size(key) : 1;
    if (nk < 1 || t->ndim == 0 || nk > t->ndim) return -1;
    const int empty = t7core.tensor_numel(t) == 0;
    *offset = t->offset;
    for (Py_ssize_t k = 0; k < nk; k++) {
        int64_t i;
        if (!exact_int(tuple ? PyTuple_GetItem(key, k) : key, &i)) return -1;
        const int64_t n = t->sizes[k], i0 = i < 0 ? i + n : i - 1;
        if (i0 < 0 || i0 >= n) return -1;
        if (!empty) *offset += i0 * t->strides[k];
    }
    return (int)nk;
}

/* t7_get(x, key): x[i], x[i][j]'s steps, x[{i, j}] as a tuple of ints:
 * the number when every dimension is selected, else the view. */
static PyObject *t7_get(PyObject *Py_UNUSED(mod), PyObject *const *args, Py_ssize_t nargs)
{
    T7_PROLOGUE(2, "t7_get(x, key)")
    int64_t offset;
    int nk = t7_key(t, args[1], &offset);
    if (nk < 0) DECLINE();
    if (nk == t->ndim) {
        PyObject *v = t7_number(
            (const char *)t->storage->data + offset * st_itemsize_fixed(t->dtype), t->dtype);
        if (v || PyErr_Occurred()) return v;
        DECLINE();
    }
    return t7_view_or_decline(
        t7_view(args[0], t, offset, t->ndim - nk, t->sizes + nk, t->strides + nk));
}

/* t7_set(x, key, value): x[i] = v, x[{i, j}] = v for a number v into one
 * element; None when done. */
static PyObject *t7_set(PyObject *Py_UNUSED(mod), PyObject *const *args, Py_ssize_t nargs)
{
    T7_PROLOGUE(3, "t7_set(x, key, value)")
    int64_t offset;
    _Alignas(16) char buf[16];
    if (!t7_writable(t) || t7_key(t, args[1], &offset) != t->ndim ||
        !t7_store(args[2], t->dtype, buf))
        DECLINE();
    const int64_t item = st_itemsize_fixed(t->dtype);
    memcpy(t->storage->data + offset * item, buf, (size_t)item);
    Py_RETURN_NONE;
}

/* t7_fill(x, value): x:fill(value) of a small x; x when done. */
static PyObject *t7_fill(PyObject *Py_UNUSED(mod), PyObject *const *args, Py_ssize_t nargs)
{
    T7_PROLOGUE(2, "t7_fill(x, value)")
    _Alignas(16) char buf[16];
    const int64_t n = t->ndim ? t7core.tensor_numel(t) : 0;
    if (n > T7_SMALL || !t7_writable(t) || !t7_store(args[1], t->dtype, buf)) DECLINE();
    if (n && t7core.fill(t, buf)) DECLINE();
    Py_INCREF(args[0]);
    return args[0];
}

/* t7_clone(x): x:clone() of a small x with dimensions (C-contiguous, as
 * Core.empty makes it). */
static PyObject *t7_clone(PyObject *Py_UNUSED(mod), PyObject *const *args, Py_ssize_t nargs)
{
    T7_PROLOGUE(1, "t7_clone(x)")
    if (t->ndim == 0 || t7core.tensor_numel(t) > T7_SMALL || t->dtype >= ST_FLOAT16) DECLINE();
    const int64_t n = t7core.tensor_numel(t);
    st_tensor *out = t7core.tensor_new();
    st_storage *s = out ? t7core.storage_zeros(n * st_itemsize_fixed(t->dtype)) : NULL;
    st_status rc =
        s ? t7core.tensor_set(out, s, t->dtype, 0, t->ndim, t->sizes, NULL) : ST_E_MEMORY;
    if (s) t7core.storage_release(s);
    if (!rc && n) rc = t7core.copy(out, t);
    if (rc) {
        if (out) core.tensor_free(out);
        DECLINE();
    }
    return t7_wrap(Py_TYPE(args[0]), out);
}

/* t7_copy(x, src): x:copy(src) for a small src of x's sizes; x when done. */
static PyObject *t7_copy(PyObject *Py_UNUSED(mod), PyObject *const *args, Py_ssize_t nargs)
{
    T7_PROLOGUE(2, "t7_copy(x, src)")
    st_tensor *s = t7_record(args[1]);
    if (!s) {
        if (PyErr_Occurred()) return NULL;
        DECLINE();
    }
    if (t->ndim == 0 || s->ndim != t->ndim || !t7_writable(t) || t7core.tensor_numel(t) > T7_SMALL)
        DECLINE();
    for (int d = 0; d < t->ndim; d++)
        if (s->sizes[d] != t->sizes[d]) DECLINE();
    if (t7core.tensor_numel(t) && t7core.copy(t, s)) DECLINE();
    Py_INCREF(args[0]);
    return args[0];
}

/* t7_scalar_inplace(code, x, value): x = x op value (x:add(5), x:mul(2))
 * for a small float or double x and an exact float or int; True when done. */
static PyObject *t7_scalar_inplace(PyObject *Py_UNUSED(mod), PyObject *const *args,
                                   Py_ssize_t nargs)
{
    if (!arity(nargs, 3, "t7_scalar_inplace(code, x, value)")) return NULL;
    if (!t7_ready()) return NULL;
    long code = PyLong_AsLong(args[0]);
    if (code == -1 && PyErr_Occurred()) return NULL;
    st_tensor *t = t7_record(args[1]);
    if (!t) {
        if (PyErr_Occurred()) return NULL;
        Py_RETURN_FALSE;
    }
    _Alignas(16) char buf[16];
    if (t->ndim == 0 || (t->dtype != ST_FLOAT64 && t->dtype != ST_FLOAT32) || !t7_writable(t) ||
        t7core.tensor_numel(t) > T7_SMALL || !t7_store(args[2], t->dtype, buf))
        Py_RETURN_FALSE;
    /* the number as a 0-d view of buf, on the stack: st_binary keeps nothing */
    st_storage storage = {.data = buf, .nbytes = sizeof buf, .refcount = 1};
    st_tensor scalar;
    memset(&scalar, 0, offsetof(st_tensor, sizes));
    scalar.storage = &storage;
    scalar.dtype = t->dtype;
    scalar.refcount = 1;
    return PyBool_FromLong(t7core.binary((int)code, t, t, &scalar) == ST_OK);
}

/* The leaves of nested lists/tuples o (depth `depth` of nd, sizes `shape`)
 * stored in C order at *pos: 0 when the nesting is not rectangular, a leaf
 * is not an exact float or int, or (ints_only, an integer type) is a float
 * or does not fit. */
static int t7_fill_nested(PyObject *o, int depth, int nd, const int64_t *shape, int dtype,
                          char **pos, int64_t item)
{
    if (depth == nd) {
        if (dtype != ST_FLOAT64 && dtype != ST_FLOAT32 && !PyLong_CheckExact(o)) return 0;
        if (!t7_store(o, dtype, *pos)) return 0;
        *pos += item;
        return 1;
    }
    const int list = PyList_CheckExact(o);
    if (!list && !PyTuple_CheckExact(o)) return 0;
    const Py_ssize_t n = list ? PyList_Size(o) : PyTuple_Size(o);
    if (n != shape[depth]) return 0;
    for (Py_ssize_t i = 0; i < n; i++)
        if (!t7_fill_nested(list ? PyList_GetItem(o, i) : PyTuple_GetItem(o, i), depth + 1, nd,
                            shape, dtype, pos, item))
            return 0;
    return 1;
}

/* t7_nested(self, obj, dtype, max_dims): Tensor(table) / Storage(table):
 * nested lists or tuples of exact floats and ints (ints only, in range,
 * for an integer type: a float there takes the general path, which
 * truncates through double), rectangular, non-empty, at most max_dims
 * deep.  With self (a new tensor): self over the new contiguous record,
 * True.  With None: the address of its new storage (st_storage *), whose
 * one reference the caller takes over.  DECLINED otherwise. */
static PyObject *t7_nested_make(PyObject *self, PyObject *obj, long dtype, long max_dims)
{
    if (self != Py_None && (!PyObject_TypeCheck(self, record_type) || ((ArrayObject *)self)->t ||
                            ((ArrayObject *)self)->core))
        DECLINE();
    if (dtype < 0 || dtype >= ST_NTYPES || max_dims > ST_MAX_DIMS) DECLINE();
    int64_t shape[ST_MAX_DIMS], numel = 1;
    int nd = 0;
    for (PyObject *o = obj; PyList_CheckExact(o) || PyTuple_CheckExact(o);) {
        const int list = PyList_CheckExact(o);
        const Py_ssize_t n = list ? PyList_Size(o) : PyTuple_Size(o);
        if (nd == max_dims || n == 0) DECLINE();
        shape[nd++] = n;
        if (__builtin_mul_overflow(numel, (int64_t)n, &numel)) DECLINE();
        o = list ? PyList_GetItem(o, 0) : PyTuple_GetItem(o, 0);
    }
    const int64_t item = st_itemsize_fixed((int)dtype);
    if (nd == 0 || numel > (INT64_MAX / 2) / 16) DECLINE();
    st_tensor *t = t7core.tensor_new();
    st_storage *s = t ? t7core.storage_zeros(numel * item) : NULL;
    st_status rc = s ? t7core.tensor_set(t, s, (int)dtype, 0, nd, shape, NULL) : ST_E_MEMORY;
    if (s) t7core.storage_release(s);
    char *pos = rc ? NULL : s->data;
    if (rc || !t7_fill_nested(obj, 0, nd, shape, (int)dtype, &pos, item)) {
        if (t) core.tensor_free(t);
        DECLINE();
    }
    if (self == Py_None) {
        /* Storage(table): the storage alone, its reference the caller's */
        st_storage *keep = t->storage;
        t7core.storage_retain(keep);
        core.tensor_free(t);
        return PyLong_FromVoidPtr(keep);
    }
    t7_install((ArrayObject *)self, t);
    Py_RETURN_TRUE;
}

static PyObject *t7_nested(PyObject *Py_UNUSED(mod), PyObject *const *args, Py_ssize_t nargs)
{
    if (!arity(nargs, 4, "t7_nested(self, obj, dtype, max_dims)")) return NULL;
    if (!t7_ready()) return NULL;
    long dtype = PyLong_AsLong(args[2]), max_dims = PyLong_AsLong(args[3]);
    if (PyErr_Occurred()) return NULL;
    return t7_nested_make(args[0], args[1], dtype, max_dims);
}

/* The element i (an exact int in [1, size]) of storage s holding elements
 * of dtype, or NULL. */
static char *t7_storage_element(st_storage *s, int dtype, PyObject *index)
{
    int64_t i;
    const int64_t item = st_itemsize_fixed(dtype);
    if (!s || !item || !exact_int(index, &i) || i < 1 || i > s->nbytes / item) return NULL;
    return s->data + (i - 1) * item;
}

/* ==== The Torch7 face's storages (strided/torch7/storage.py) ====
 *
 * StorageBase is the C base of Torch7's Storage classes.  It holds the C
 * storage (st_storage *) and the cffi pointer Python reads as `_s`; a
 * storage made here (x:size(), x:stride()) has no cffi pointer until
 * Python code first reads `_s` (own_storage then wraps the pointer and
 * registers the object among storage.py's wrappers): until then the object
 * owns one reference, after that the cffi pointer does and `s` borrows it.
 * s[i] and s[i] = v of an int index and a number are its mapping slots
 * (the general path is the class's _getitem/_setitem). */
typedef struct {
    PyObject_HEAD st_storage *s; /* owned (one reference) while cdata is NULL, else cdata's */
    PyObject *cdata;             /* `_s`, the cffi pointer */
    long extra; /* `_extra`: the references retain() added (released with the object) */
    int dtype;  /* the class's element type code, -1 before `_s` is set */
} StorageObject;

static PyTypeObject *storage_type; /* StorageBase */
static PyTypeObject *long_storage; /* Torch7's LongStorage */
/* own_storage(self, address) -> the cffi pointer over the C storage
 * (retained, registered); storage_address(cdata) -> its address */
static PyObject *own_storage, *storage_address;

static int storages_ready(void)
{
    if (long_storage && t7_ready()) return 1;
    if (!PyErr_Occurred())
        PyErr_SetString(PyExc_RuntimeError,
                        "strided._c._pyarray: t7_storage_setup() was not called");
    return 0;
}

static PyObject *storage_get_s(PyObject *self, void *Py_UNUSED(closure))
{
    StorageObject *o = (StorageObject *)self;
    if (!o->cdata) {
        if (!o->s) {
            PyErr_SetString(PyExc_AttributeError, "_s");
            return NULL;
        }
        if (!storages_ready()) return NULL;
        PyObject *addr = PyLong_FromVoidPtr(o->s);
        PyObject *c = addr ? PyObject_CallFunctionObjArgs(own_storage, self, addr, NULL) : NULL;
        Py_XDECREF(addr);
        if (!c) return NULL; /* the reference stays ours */
        o->cdata = c;
        t7core.storage_release(o->s); /* c holds its own now; s borrows it */
    }
    Py_INCREF(o->cdata);
    return o->cdata;
}

static int storage_set_s(PyObject *self, PyObject *value, void *Py_UNUSED(closure))
{
    StorageObject *o = (StorageObject *)self;
    if (!value) {
        PyErr_SetString(PyExc_AttributeError, "a storage's _s cannot be deleted");
        return -1;
    }
    if (!storages_ready()) return -1;
    PyObject *addr = PyObject_CallFunctionObjArgs(storage_address, value, NULL);
    st_storage *s = addr ? PyLong_AsVoidPtr(addr) : NULL;
    Py_XDECREF(addr);
    if (!s) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "_s: a NULL storage");
        return -1;
    }
    Py_INCREF(value);
    PyObject *old = o->cdata;
    st_storage *owned = old ? NULL : o->s;
    o->cdata = value;
    o->s = s;
    o->dtype = t7_class_code(Py_TYPE(self));
    Py_XDECREF(old);
    if (owned) t7core.storage_release(owned);
    return 0;
}

static PyObject *storage_get_extra(PyObject *self, void *Py_UNUSED(closure))
{
    return PyLong_FromLong(((StorageObject *)self)->extra);
}

static int storage_set_extra(PyObject *self, PyObject *value, void *Py_UNUSED(closure))
{
    long v = value ? PyLong_AsLong(value) : -1;
    if (v < 0) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "_extra must be an int >= 0");
        return -1;
    }
    ((StorageObject *)self)->extra = v;
    return 0;
}

static void storage_dealloc(PyObject *self)
{
    StorageObject *o = (StorageObject *)self;
    PyTypeObject *tp = Py_TYPE(self);
    /* references retain() added and free() did not drop go with the
     * object (Lua would leak them) */
    if (o->s && t7core.storage_release)
        for (long k = 0; k < o->extra; k++) t7core.storage_release(o->s);
    if (o->cdata)
        Py_DECREF(o->cdata);
    else if (o->s && t7core.storage_release)
        t7core.storage_release(o->s);
    ((freefunc)PyType_GetSlot(tp, Py_tp_free))(self);
    Py_DECREF(tp);
}

/* s[i]: the element as a number for an exact int i in [1, size]; else the
 * class's _getitem (which raises what is wrong). */
static PyObject *storage_subscript(PyObject *self, PyObject *key)
{
    StorageObject *o = (StorageObject *)self;
    if (o->dtype >= 0 && t7_ready()) {
        char *p = t7_storage_element(o->s, o->dtype, key);
        PyObject *v = p ? t7_number(p, o->dtype) : NULL;
        if (v || PyErr_Occurred()) return v;
    }
    return PyObject_CallMethod(self, "_getitem", "O", key);
}

/* s[i] = v likewise (the class's _setitem otherwise). */
static int storage_ass_subscript(PyObject *self, PyObject *key, PyObject *value)
{
    StorageObject *o = (StorageObject *)self;
    if (!value) {
        PyErr_SetString(PyExc_TypeError, "storage elements cannot be deleted");
        return -1;
    }
    if (o->dtype >= 0 && t7_ready()) {
        char *p = t7_storage_element(o->s, o->dtype, key);
        _Alignas(16) char buf[16];
        if (p && !(o->s->flags & ST_STORAGE_READONLY) && t7_store(value, o->dtype, buf)) {
            memcpy(p, buf, (size_t)st_itemsize_fixed(o->dtype));
            return 0;
        }
    }
    PyObject *r = PyObject_CallMethod(self, "_setitem", "OO", key, value);
    Py_XDECREF(r);
    return r ? 0 : -1;
}

static PyGetSetDef storage_getset[] = {
    {"_s", storage_get_s, storage_set_s, "The C storage (a cffi pointer, st_storage *).", NULL},
    {"_extra", storage_get_extra, storage_set_extra,
     "The references retain() added (Lua's count is 1 + _extra).", NULL},
    {NULL},
};

static PyType_Slot storage_slots[] = {
    {Py_tp_doc, "A C storage held in C: `_s`, its cffi pointer, read from Python; s[i] in C."},
    {Py_tp_dealloc, storage_dealloc},
    {Py_tp_getset, storage_getset},
    {Py_mp_subscript, storage_subscript},
    {Py_mp_ass_subscript, storage_ass_subscript},
    {0, NULL},
};

static PyType_Spec storage_spec = {
    .name = "strided._c._pyarray.StorageBase",
    .basicsize = sizeof(StorageObject),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .slots = storage_slots,
};

/* t7_storage_setup(LongStorage, own_storage, storage_address): the class
 * x:size() makes and the two conversions of `_s` (see StorageObject). */
static PyObject *t7_storage_setup(PyObject *Py_UNUSED(mod), PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 3 || !PyType_Check(args[0]) ||
        !PyType_IsSubtype((PyTypeObject *)args[0], storage_type) || !PyCallable_Check(args[1]) ||
        !PyCallable_Check(args[2])) {
        PyErr_SetString(PyExc_TypeError,
                        "t7_storage_setup(LongStorage, own_storage, storage_address)");
        return NULL;
    }
    if (t7_class_code((PyTypeObject *)args[0]) != ST_INT64) {
        PyErr_SetString(PyExc_ValueError, "t7_storage_setup: the class's _code is not int64's");
        return NULL;
    }
    replace((PyObject **)&long_storage, args[0]);
    replace(&own_storage, args[1]);
    replace(&storage_address, args[2]);
    Py_RETURN_NONE;
}

/* A new LongStorage of the n ints v (its own C storage). */
static PyObject *t7_long_storage(const int64_t *v, int n)
{
    allocfunc alloc = (allocfunc)PyType_GetSlot(long_storage, Py_tp_alloc);
    StorageObject *o = (StorageObject *)alloc(long_storage, 0);
    if (!o) return NULL;
    o->cdata = NULL;
    o->extra = 0;
    o->dtype = ST_INT64;
    o->s = t7core.storage_zeros((int64_t)n * (int64_t)sizeof *v);
    if (!o->s) {
        Py_DECREF(o);
        return PyErr_NoMemory();
    }
    if (n) memcpy(o->s->data, v, (size_t)n * sizeof *v);
    return (PyObject *)o;
}

/* t7_shape_storage(x, strides): x:size() (strides: x:stride()), a new
 * LongStorage. */
static PyObject *t7_shape_storage(PyObject *Py_UNUSED(mod), PyObject *const *args, Py_ssize_t nargs)
{
    T7_PROLOGUE(2, "t7_shape_storage(x, strides)")
    if (!storages_ready()) return NULL;
    const int strides = PyObject_IsTrue(args[1]);
    if (strides < 0) return NULL;
    return t7_long_storage(strides ? t->strides : t->sizes, t->ndim);
}

/* The n int64 elements of a LongStorage object o into v (n <= max), or -1:
 * not a LongStorage made or set up here, or too long. */
static int t7_long_storage_ints(PyObject *o, int64_t *v, int max)
{
    if (!long_storage || Py_TYPE(o) != long_storage) return -1;
    const st_storage *s = ((StorageObject *)o)->s;
    if (!s) return -1;
    const int64_t n = s->nbytes / (int64_t)sizeof *v;
    if (n > max) return -1;
    if (n) memcpy(v, s->data, (size_t)n * sizeof *v);
    return (int)n;
}

/* ==== The objects of a C walk of a .t7 object (t7scan.c; t7format.py) ====
 *
 * t7_assemble makes what t7format's _Assembly makes of the walk's records,
 * in one call: tables (dicts, or lists for keys 1..n), numbers, strings,
 * booleans, nil, references, and the tensors and storages of the built-in
 * classes.  The storages are the walk's (each retained by its object,
 * registered among storage.py's wrappers as _fresh does), a tensor's record
 * is set here (t7_wrap: its Core made when Python first reads `_c`).
 * Anything else -- a torch.Generator, an object of a Lua class, data that
 * _Assembly would refuse (a tensor that does not fit its storage, a nil or
 * repeated key, a record out of place) -- declines: the objects made are
 * dropped, the entries added to `open` and `cyclic` taken out again, and
 * the caller undoes those remembered in `objects` and runs _Assembly, which
 * makes them or raises what the reader words.  At 201 tensors of 600 KB the
 * objects cost about 11 us a tensor in Python, a tenth of a load. */
typedef struct {
    const int64_t *words;
    int64_t nwords, pos;
    const char *bytes;
    int64_t nbytes;
    st_storage *const *storages;
    int64_t nstorages;
    PyObject *classes; /* per class number: (class, dtype code, storage class or None) */
    PyObject *objects, *open, *cyclic, *wrappers, *table_key;
    PyObject *added; /* the indices put into `cyclic` here (a list) */
    int referenced;
    int declined; /* a NULL result without an exception: decline */
} t7asm;

static PyObject *t7asm_value(t7asm *a);

/* NULL, the call declined (no exception) */
static PyObject *t7asm_decline(t7asm *a)
{
    a->declined = 1;
    return NULL;
}

/* words[pos, pos + n) in range (else the call declines) */
static const int64_t *t7asm_take(t7asm *a, int64_t n)
{
    if (n < 0 || n > a->nwords - a->pos) return NULL;
    const int64_t *w = a->words + a->pos;
    a->pos += n;
    return w;
}

static int t7asm_remember(t7asm *a, PyObject *key, PyObject *o)
{
    return a->referenced ? PyDict_SetItem(a->objects, key, o) : 0;
}

/* (class, code, storage class) of class number c, borrowed; NULL: decline */
static PyObject *t7asm_class(t7asm *a, int64_t c, long *code)
{
    if (c < 0 || c >= PyTuple_Size(a->classes)) return NULL;
    PyObject *e = PyTuple_GetItem(a->classes, (Py_ssize_t)c);
    if (!e || !PyTuple_Check(e) || PyTuple_Size(e) != 3) return NULL;
    *code = PyLong_AsLong(PyTuple_GetItem(e, 1));
    if (*code < 0 || *code >= ST_NTYPES) {
        PyErr_Clear();
        return NULL;
    }
    return e;
}

static PyObject *t7asm_number(int64_t bits)
{
    double x;
    memcpy(&x, &bits, sizeof x);
    /* tensor.py's _number: a whole double of at most 2^53 in magnitude is an
     * int (not -0.0), any other a float */
    const double exact = 9007199254740992.0;
    if (x >= -exact && x <= exact && x == (double)(int64_t)x && !(x == 0 && signbit(x)))
        return PyLong_FromLongLong((long long)x);
    return PyFloat_FromDouble(x);
}

static PyObject *t7asm_string(t7asm *a, int64_t at, int64_t n)
{
    if (at < 0 || n < 0 || at > a->nbytes || n > a->nbytes - at) return t7asm_decline(a);
    PyObject *s = PyUnicode_DecodeUTF8(a->bytes + at, (Py_ssize_t)n, NULL);
    if (s || !PyErr_ExceptionMatches(PyExc_UnicodeDecodeError)) return s;
    PyErr_Clear();
    return PyBytes_FromStringAndSize(a->bytes + at, (Py_ssize_t)n);
}

static PyObject *t7asm_storage(t7asm *a, const int64_t *rec)
{
    long code;
    PyObject *e = t7asm_class(a, rec[2], &code);
    const int64_t slot = rec[4];
    if (!e || slot < 0 || slot >= a->nstorages || !a->storages[slot]) return t7asm_decline(a);
    PyTypeObject *cls = (PyTypeObject *)PyTuple_GetItem(e, 0);
    if (!PyType_Check(cls) || !PyType_IsSubtype(cls, storage_type)) return t7asm_decline(a);
    st_storage *s = a->storages[slot];
    StorageObject *o = (StorageObject *)((allocfunc)PyType_GetSlot(cls, Py_tp_alloc))(cls, 0);
    if (!o) return NULL;
    t7core.storage_retain(s); /* the walk keeps its own until it is freed */
    o->s = s;
    o->cdata = NULL;
    o->extra = 0;
    o->dtype = (int)code;
    /* registered as _fresh does: the object every tensor over s gives */
    PyObject *addr = PyLong_FromVoidPtr(s);
    PyObject *key = addr ? PyTuple_Pack(2, addr, (PyObject *)cls) : NULL;
    PyObject *index = key ? PyLong_FromLongLong(rec[1]) : NULL;
    int bad = !index || PyObject_SetItem(a->wrappers, key, (PyObject *)o) < 0 ||
              t7asm_remember(a, index, (PyObject *)o) < 0;
    Py_XDECREF(addr);
    Py_XDECREF(key);
    Py_XDECREF(index);
    if (bad) {
        Py_DECREF(o);
        return NULL;
    }
    return (PyObject *)o;
}

/* cls(*args) */
static PyObject *t7asm_call(PyObject *cls, const int64_t *sizes, int64_t n)
{
    PyObject *args = PyTuple_New((Py_ssize_t)n);
    if (!args) return NULL;
    for (int64_t i = 0; i < n; i++) {
        PyObject *v = PyLong_FromLongLong(sizes[i]);
        if (!v) {
            Py_DECREF(args);
            return NULL;
        }
        PyTuple_SetItem(args, (Py_ssize_t)i, v);
    }
    PyObject *r = PyObject_Call(cls, args, NULL);
    Py_DECREF(args);
    return r;
}

/* t7format's _tensor_of */
static PyObject *t7asm_tensor(t7asm *a, const int64_t *rec)
{
    long code;
    PyObject *e = t7asm_class(a, rec[2], &code);
    const int64_t nd = rec[3];
    if (!e || nd < 0 || nd > ST_MAX_DIMS) return t7asm_decline(a);
    const int64_t *g = t7asm_take(a, 2 * nd + 1);
    if (!g) return t7asm_decline(a);
    const int64_t *sizes = g, *strides = g + nd, offset = g[2 * nd];
    PyObject *cls = PyTuple_GetItem(e, 0), *scls = PyTuple_GetItem(e, 2);
    if (!PyType_Check(cls) || !PyType_IsSubtype((PyTypeObject *)cls, record_type))
        return t7asm_decline(a);
    PyObject *storage = t7asm_value(a);
    if (!storage) return NULL;
    PyObject *o = NULL;
    int zero = 0, negative = 0;
    for (int64_t i = 0; i < nd; i++) {
        zero |= sizes[i] == 0;
        negative |= sizes[i] < 0;
    }
    if (storage != Py_None && (PyObject *)Py_TYPE(storage) != scls) {
        t7asm_decline(a);
    } else if (nd == 0) {
        o = PyObject_CallNoArgs(cls); /* Torch7's empty tensor (a storage is dropped) */
    } else if (negative) {
        t7asm_decline(a);
    } else if (storage == Py_None) {
        if (zero)
            o = t7asm_call(cls, sizes, nd);
        else
            t7asm_decline(a);
    } else if (offset < 1 || !((StorageObject *)storage)->s) {
        t7asm_decline(a);
    } else {
        st_tensor *t = t7core.tensor_new();
        if (!t) {
            PyErr_NoMemory();
        } else if (t7core.tensor_set(t, ((StorageObject *)storage)->s, (int)code, offset - 1,
                                     (int)nd, sizes, strides)) {
            core.tensor_free(t); /* does not fit its storage: the reader says so */
            t7asm_decline(a);
        } else {
            o = t7_wrap((PyTypeObject *)cls, t);
        }
    }
    Py_DECREF(storage);
    if (!o) return NULL;
    PyObject *index = PyLong_FromLongLong(rec[1]);
    if (!index || t7asm_remember(a, index, o) < 0) {
        Py_XDECREF(index);
        Py_DECREF(o);
        return NULL;
    }
    Py_DECREF(index);
    return o;
}

/* 1 when d's keys are exactly the ints 1..len(d) (an empty d too) */
static int t7asm_is_list(PyObject *d)
{
    const Py_ssize_t n = PyDict_Size(d);
    Py_ssize_t pos = 0;
    PyObject *k, *v;
    while (PyDict_Next(d, &pos, &k, &v)) {
        if (!PyLong_CheckExact(k)) return 0;
        int overflow;
        long long i = PyLong_AsLongLongAndOverflow(k, &overflow);
        if (overflow || i < 1 || i > (long long)n) return 0; /* (distinct keys: all of 1..n) */
    }
    return 1;
}

/* t7format's _Reader._table over the pairs that follow */
static PyObject *t7asm_table(t7asm *a, int64_t index_value, int64_t n)
{
    PyObject *index = PyLong_FromLongLong(index_value);
    PyObject *d = index ? PyDict_New() : NULL;
    if (!d || t7asm_remember(a, index, d) < 0 || PyDict_SetItem(a->open, index, d) < 0) {
        Py_XDECREF(d);
        Py_XDECREF(index);
        return NULL;
    }
    int ok = 1;
    for (int64_t i = 0; i < n && ok; i++) {
        PyObject *k = t7asm_value(a), *v = k ? t7asm_value(a) : NULL;
        ok = v != NULL;
        if (ok && k == Py_None) ok = 0, t7asm_decline(a); /* a nil key: the reader says so */
        if (ok && (PyList_Check(k) || PyDict_Check(k))) {
            PyObject *key = PyObject_CallFunctionObjArgs(a->table_key, k, NULL);
            Py_DECREF(k);
            k = key;
            ok = k != NULL;
        }
        if (ok) {
            const int dup = PyDict_Contains(d, k); /* -1: unhashable */
            ok = dup == 0 && PyDict_SetItem(d, k, v) == 0;
            if (dup != 0 && !(dup < 0 && PyErr_ExceptionMatches(PyExc_MemoryError))) {
                PyErr_Clear();
                t7asm_decline(a); /* the reader words it */
            }
        }
        Py_XDECREF(k);
        Py_XDECREF(v);
    }
    PyObject *exc_type, *exc_value, *exc_tb; /* `finally: del open[index]` */
    PyErr_Fetch(&exc_type, &exc_value, &exc_tb);
    if (PyDict_DelItem(a->open, index) < 0) PyErr_Clear();
    PyErr_Restore(exc_type, exc_value, exc_tb);
    PyObject *r = NULL;
    if (ok) {
        const int cyclic = PySet_Contains(a->cyclic, index);
        if (cyclic < 0) {
            ok = 0;
        } else if (cyclic || !t7asm_is_list(d)) {
            r = d;
            Py_INCREF(r);
        } else {
            const Py_ssize_t len = PyDict_Size(d);
            r = PyList_New(len);
            for (Py_ssize_t i = 0; r && i < len; i++) {
                PyObject *key = PyLong_FromSsize_t(i + 1);
                PyObject *v = key ? PyDict_GetItemWithError(d, key) : NULL;
                Py_XDECREF(key);
                if (!v) {
                    if (!PyErr_Occurred()) t7asm_decline(a);
                    Py_CLEAR(r);
                    break;
                }
                Py_INCREF(v);
                PyList_SetItem(r, i, v);
            }
            if (r && t7asm_remember(a, index, r) < 0) Py_CLEAR(r);
        }
    }
    Py_DECREF(d);
    Py_DECREF(index);
    return r;
}

static PyObject *t7asm_ref(t7asm *a, int64_t index_value)
{
    PyObject *index = PyLong_FromLongLong(index_value);
    if (!index) return NULL;
    PyObject *r = NULL;
    const int open = PyDict_Contains(a->open, index);
    if (open > 0) { /* a table that holds itself, or is held by what it holds */
        const int had = PySet_Contains(a->cyclic, index);
        if (had == 0 && (PySet_Add(a->cyclic, index) < 0 || PyList_Append(a->added, index) < 0))
            goto done;
        if (had < 0) goto done;
    } else if (open < 0) {
        goto done;
    }
    r = PyDict_GetItemWithError(a->objects, index);
    if (r)
        Py_INCREF(r);
    else if (!PyErr_Occurred())
        t7asm_decline(a);
done:
    Py_DECREF(index);
    return r;
}

static PyObject *t7asm_value(t7asm *a)
{
    const int64_t *w = t7asm_take(a, 1);
    if (!w) return t7asm_decline(a);
    switch (w[0]) {
    case ST_T7_NIL:
        Py_RETURN_NONE;
    case ST_T7_NUMBER:
        return (w = t7asm_take(a, 1)) ? t7asm_number(w[0]) : t7asm_decline(a);
    case ST_T7_STRING:
        return (w = t7asm_take(a, 2)) ? t7asm_string(a, w[0], w[1]) : t7asm_decline(a);
    case ST_T7_BOOLEAN:
        if (!(w = t7asm_take(a, 1))) return t7asm_decline(a);
        return PyBool_FromLong(w[0] == 1);
    case ST_T7_REF:
        return (w = t7asm_take(a, 1)) ? t7asm_ref(a, w[0]) : t7asm_decline(a);
    case ST_T7_TABLE:
        if (!(w = t7asm_take(a, 2)) || w[1] < 0) return t7asm_decline(a);
        if (Py_EnterRecursiveCall(" in t7_assemble")) return NULL;
        {
            PyObject *r = t7asm_table(a, w[0], w[1]);
            Py_LeaveRecursiveCall();
            return r;
        }
    case ST_T7_STORAGE:
        return (w = t7asm_take(a, 4)) ? t7asm_storage(a, w - 1) : t7asm_decline(a);
    case ST_T7_TENSOR:
        return (w = t7asm_take(a, 3)) ? t7asm_tensor(a, w - 1) : t7asm_decline(a);
    default: /* a Generator, an object of a Lua class: _Assembly makes them */
        return t7asm_decline(a);
    }
}

/* t7_assemble(scan, classes, objects, referenced, open, cyclic, wrappers,
 * table_key): the object of the walk `scan` (the address of its
 * st_t7_scan), or DECLINED (see above). */
static PyObject *t7_assemble(PyObject *Py_UNUSED(mod), PyObject *const *args, Py_ssize_t nargs)
{
    if (!arity(nargs, 8,
               "t7_assemble(scan, classes, objects, referenced, open, cyclic, wrappers, "
               "table_key)"))
        return NULL;
    if (!storages_ready()) return NULL;
    const st_t7_scan *s = PyLong_AsVoidPtr(args[0]);
    if (!s) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "t7_assemble: a NULL scan");
        return NULL;
    }
    const int referenced = PyObject_IsTrue(args[3]);
    if (referenced < 0) return NULL;
    if (!PyTuple_Check(args[1]) || !PyDict_Check(args[2]) || !PyDict_Check(args[4]) ||
        !PyAnySet_Check(args[5])) {
        PyErr_SetString(PyExc_TypeError,
                        "t7_assemble: classes a tuple, objects and open dicts, cyclic a set");
        return NULL;
    }
    t7asm a = {.words = s->words,
               .nwords = s->nwords,
               .bytes = s->bytes,
               .nbytes = s->nbytes,
               .storages = s->storages,
               .nstorages = s->nstorages,
               .classes = args[1],
               .objects = args[2],
               .referenced = referenced,
               .open = args[4],
               .cyclic = args[5],
               .wrappers = args[6],
               .table_key = args[7],
               .added = PyList_New(0)};
    if (!a.added) return NULL;
    PyObject *r = t7asm_value(&a);
    if (r && a.pos != a.nwords) { /* records left over: not ours to judge */
        Py_CLEAR(r);
        a.declined = 1;
    }
    if (!r && !(PyErr_Occurred() && PyErr_ExceptionMatches(PyExc_MemoryError))) {
        PyErr_Clear(); /* (an unhashable key's TypeError...: _Assembly and the reader say it) */
        for (Py_ssize_t i = 0; i < PyList_Size(a.added); i++)
            if (PySet_Discard(a.cyclic, PyList_GetItem(a.added, i)) < 0) PyErr_Clear();
        Py_DECREF(a.added);
        DECLINE();
    }
    Py_DECREF(a.added);
    return r;
}

/* ---- the small calls of compat's functions: the result, or None ---- */

/* The Array's record, or NULL (no exception) for any other object. */
static st_tensor *array_record(PyObject *o) { return Py_TYPE(o) == array_type ? record(o) : NULL; }

/* wrap(t), or None for a declined NULL t (an error set stays raised). */
static PyObject *wrap_or_none(st_tensor *t)
{
    if (t) return wrap(t);
    if (PyErr_Occurred()) return NULL;
    Py_RETURN_NONE;
}

/* matmul(x1, x2): x1 @ x2 for two Arrays of one dtype, 1-D or 2-D */
static PyObject *matmul(PyObject *Py_UNUSED(mod), PyObject *const *args, Py_ssize_t nargs)
{
    if (!arity(nargs, 2, "matmul(x1, x2)")) return NULL;
    if (!ready()) return NULL;
    st_tensor *a = array_record(args[0]), *b = a ? array_record(args[1]) : NULL;
    return wrap_or_none(b ? core.matmul_new(ops[OP_MATMUL].mask, a, b) : NULL);
}

/* astype(x, dtype): a C-contiguous copy of Array x converted to a DType */
static PyObject *astype(PyObject *Py_UNUSED(mod), PyObject *const *args, Py_ssize_t nargs)
{
    if (!arity(nargs, 2, "astype(x, dtype)")) return NULL;
    if (!ready()) return NULL;
    st_tensor *a = array_record(args[0]);
    if (!a) return wrap_or_none(NULL);
    for (Py_ssize_t code = 0; code < PyTuple_Size(dtypes); code++)
        if (PyTuple_GetItem(dtypes, code) == args[1])
            return wrap_or_none(core.astype_new(a, (int)code));
    Py_RETURN_NONE;
}

/* reshape(x, shape, copy_ok): non-empty Array x with a tuple or list of ints (one
 * may be -1) of the same size: a view when x's layout allows one, else
 * (copy_ok true) a C-contiguous copy, else None */
static PyObject *reshape(PyObject *Py_UNUSED(mod), PyObject *const *args, Py_ssize_t nargs)
{
    if (!arity(nargs, 3, "reshape(x, shape, copy_ok)")) return NULL;
    if (!ready()) return NULL;
    st_tensor *a = array_record(args[0]);
    PyObject *shape = args[1];
    int copy_ok = PyObject_IsTrue(args[2]);
    if (copy_ok < 0) return NULL;
    if (!a || shape_length(shape) < 0) return wrap_or_none(NULL);
    int ndim = (int)shape_length(shape), inferred = -1;
    int64_t sizes[ST_MAX_DIMS], numel = 1, known = 1;
    for (int d = 0; d < a->ndim; d++) numel *= a->sizes[d];
    for (int d = 0; d < ndim; d++) {
        PyObject *e = shape_item(shape, d);
        int overflow;
        long long n = PyLong_CheckExact(e) ? PyLong_AsLongLongAndOverflow(e, &overflow) : 0;
        if (!PyLong_CheckExact(e) || overflow || n < -1 || (n == -1 && inferred >= 0) || n == 0 ||
            __builtin_mul_overflow(known, n == -1 ? 1 : n, &known))
            return wrap_or_none(NULL);
        if (n == -1) inferred = d;
        sizes[d] = n;
    }
    if (!numel || (inferred < 0 ? known != numel : numel % known)) return wrap_or_none(NULL);
    if (inferred >= 0) sizes[inferred] = numel / known;
    return wrap_or_none(core.reshape_new(a, ndim, sizes, copy_ok));
}

/* ---- dimension views: permute_dims, expand_dims, squeeze, broadcast_to --
 * The plain cases in one C call each (an Array and ints or a tuple of
 * ints); anything else -- a bad axis, a repeated one, a shape that does not
 * broadcast, another type -- is declined (None) and the general path
 * decides and raises its own error. */

/* the ints of `obj` (an int or, when tuple_ok, a tuple of ints), each in
 * [-bound, bound) normalised to [0, bound), distinct; the count, or -1 */
static int axes_of(PyObject *obj, int bound, int tuple_ok, int axes[ST_MAX_DIMS])
{
    int tuple = PyTuple_Check(obj);
    if (!tuple && !PyLong_CheckExact(obj)) return -1;
    if (tuple && !tuple_ok) return -1;
    Py_ssize_t n = tuple ? PyTuple_Size(obj) : 1;
    if (n > ST_MAX_DIMS) return -1;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *e = tuple ? PyTuple_GetItem(obj, i) : obj;
        int overflow;
        long long k = PyLong_CheckExact(e) ? PyLong_AsLongLongAndOverflow(e, &overflow) : 0;
        if (!PyLong_CheckExact(e) || overflow || k < -bound || k >= bound) return -1;
        axes[i] = (int)(k < 0 ? k + bound : k);
        for (Py_ssize_t j = 0; j < i; j++)
            if (axes[j] == axes[i]) return -1;
    }
    return (int)n;
}

/* permute_dims(x, axes): axes a tuple naming every dim of x once */
static PyObject *permute(PyObject *Py_UNUSED(mod), PyObject *const *args, Py_ssize_t nargs)
{
    if (!arity(nargs, 2, "permute(x, axes)")) return NULL;
    if (!ready()) return NULL;
    st_tensor *a = array_record(args[0]);
    int axes[ST_MAX_DIMS];
    if (!a || !PyTuple_Check(args[1]) || axes_of(args[1], a->ndim, 1, axes) != a->ndim)
        return wrap_or_none(NULL);
    int64_t sizes[ST_MAX_DIMS], strides[ST_MAX_DIMS];
    for (int d = 0; d < a->ndim; d++) {
        sizes[d] = a->sizes[axes[d]];
        strides[d] = a->strides[axes[d]];
    }
    return wrap_or_none(core.view_new(a, a->offset, a->ndim, sizes, strides));
}

/* flip(x, axis): x reversed along every dim (axis None) or the dims of an
 * int or a tuple of ints: a view (offset at each such dim's last element,
 * its stride negated; an empty dim stays as it is) */
static PyObject *flip(PyObject *Py_UNUSED(mod), PyObject *const *args, Py_ssize_t nargs)
{
    if (!arity(nargs, 2, "flip(x, axis)")) return NULL;
    if (!ready()) return NULL;
    st_tensor *a = array_record(args[0]);
    int axes[ST_MAX_DIMS], k = 0;
    if (!a) return wrap_or_none(NULL);
    if (args[1] == Py_None)
        for (; k < a->ndim; k++) axes[k] = k;
    else if ((k = axes_of(args[1], a->ndim, 1, axes)) < 0)
        return wrap_or_none(NULL);
    int64_t sizes[ST_MAX_DIMS], strides[ST_MAX_DIMS], offset = a->offset;
    for (int d = 0; d < a->ndim; d++) sizes[d] = a->sizes[d], strides[d] = a->strides[d];
    for (int i = 0; i < k; i++) {
        const int d = axes[i];
        if (sizes[d] == 0) continue;
        offset += (sizes[d] - 1) * strides[d];
        strides[d] = -strides[d];
    }
    return wrap_or_none(core.view_new(a, offset, a->ndim, sizes, strides));
}

/* concat(arrays, axis): a list or tuple of 1 to 64 plain Arrays of one
 * dtype and ndim >= 1 whose shapes agree off axis (an int), joined along it
 * in one call (core st_cat); None for anything else (the general path:
 * mixed dtypes promote, axis None flattens, errors are worded there) */
#define CONCAT_MAX 64
static PyObject *concat(PyObject *Py_UNUSED(mod), PyObject *const *args, Py_ssize_t nargs)
{
    if (!arity(nargs, 2, "concat(arrays, axis)")) return NULL;
    if (!ready()) return NULL;
    PyObject *seq = args[0];
    if (!PyList_Check(seq) && !PyTuple_Check(seq)) Py_RETURN_NONE;
    const Py_ssize_t n = PyList_Check(seq) ? PyList_Size(seq) : PyTuple_Size(seq);
    if (n < 1 || n > CONCAT_MAX) Py_RETURN_NONE;
    const st_tensor *parts[CONCAT_MAX];
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *o = PyList_Check(seq) ? PyList_GetItem(seq, i) : PyTuple_GetItem(seq, i);
        parts[i] = array_record(o);
        if (!parts[i]) return wrap_or_none(NULL);
    }
    const st_tensor *a = parts[0];
    int axes[ST_MAX_DIMS];
    if (a->ndim < 1 || axes_of(args[1], a->ndim, 0, axes) != 1) Py_RETURN_NONE;
    const int dim = axes[0];
    int64_t sizes[ST_MAX_DIMS];
    for (int d = 0; d < a->ndim; d++) sizes[d] = a->sizes[d];
    sizes[dim] = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        const st_tensor *p = parts[i];
        if (p->dtype != a->dtype || p->ndim != a->ndim) Py_RETURN_NONE;
        for (int d = 0; d < a->ndim; d++)
            if (d != dim && p->sizes[d] != a->sizes[d]) Py_RETURN_NONE;
        sizes[dim] += p->sizes[dim];
    }
    st_tensor *out = core.tensor_new();
    if (!out) return PyErr_NoMemory();
    if (core.tensor_alloc(out, a->dtype, a->ndim, sizes) != ST_OK ||
        core.cat(out, (int)n, parts, dim) != ST_OK) {
        core.tensor_free(out);
        return wrap_or_none(NULL);
    }
    return wrap(out);
}

/* expand_dims(x, axis): size-1 dims at the (distinct) positions of an int
 * or a tuple of ints, each in [-(ndim + k), ndim + k) for k of them */
static PyObject *expand_dims(PyObject *Py_UNUSED(mod), PyObject *const *args, Py_ssize_t nargs)
{
    if (!arity(nargs, 2, "expand_dims(x, axis)")) return NULL;
    if (!ready()) return NULL;
    st_tensor *a = array_record(args[0]);
    int k = PyTuple_Check(args[1]) ? (int)PyTuple_Size(args[1]) : 1;
    int axes[ST_MAX_DIMS], nd = a ? a->ndim + k : 0;
    if (!a || nd > ST_MAX_DIMS || axes_of(args[1], nd, 1, axes) != k) return wrap_or_none(NULL);
    int64_t sizes[ST_MAX_DIMS], strides[ST_MAX_DIMS];
    int added[ST_MAX_DIMS] = {0};
    for (int i = 0; i < k; i++) added[axes[i]] = 1;
    for (int d = 0, src = 0; d < nd; d++) {
        if (added[d]) {
            sizes[d] = 1;
            strides[d] = 0;
        } else {
            sizes[d] = a->sizes[src];
            strides[d] = a->strides[src++];
        }
    }
    return wrap_or_none(core.view_new(a, a->offset, nd, sizes, strides));
}

/* squeeze(x, axis): the dims of an int or a tuple of ints dropped, each of
 * size 1 */
static PyObject *squeeze(PyObject *Py_UNUSED(mod), PyObject *const *args, Py_ssize_t nargs)
{
    if (!arity(nargs, 2, "squeeze(x, axis)")) return NULL;
    if (!ready()) return NULL;
    st_tensor *a = array_record(args[0]);
    int axes[ST_MAX_DIMS], k = a ? axes_of(args[1], a->ndim, 1, axes) : -1;
    if (k < 0) return wrap_or_none(NULL);
    int drop[ST_MAX_DIMS] = {0};
    for (int i = 0; i < k; i++) {
        if (a->sizes[axes[i]] != 1) return wrap_or_none(NULL);
        drop[axes[i]] = 1;
    }
    int64_t sizes[ST_MAX_DIMS], strides[ST_MAX_DIMS];
    int nd = 0;
    for (int d = 0; d < a->ndim; d++)
        if (!drop[d]) {
            sizes[nd] = a->sizes[d];
            strides[nd++] = a->strides[d];
        }
    return wrap_or_none(core.view_new(a, a->offset, nd, sizes, strides));
}

/* broadcast_to(x, shape): a tuple or list of non-negative ints that x's shape
 * broadcasts to (numpy's rules: aligned at the right, a size-1 dim
 * stretched with stride 0) */
static PyObject *broadcast_to(PyObject *Py_UNUSED(mod), PyObject *const *args, Py_ssize_t nargs)
{
    if (!arity(nargs, 2, "broadcast_to(x, shape)")) return NULL;
    if (!ready()) return NULL;
    st_tensor *a = array_record(args[0]);
    PyObject *shape = args[1];
    if (!a || shape_length(shape) < a->ndim) return wrap_or_none(NULL);
    int nd = (int)shape_length(shape), lead = nd - a->ndim;
    int64_t sizes[ST_MAX_DIMS], strides[ST_MAX_DIMS], count = 1;
    for (int d = 0; d < nd; d++) {
        PyObject *e = shape_item(shape, d);
        int overflow;
        long long n = PyLong_CheckExact(e) ? PyLong_AsLongLongAndOverflow(e, &overflow) : -1;
        if (!PyLong_CheckExact(e) || overflow || n < 0 || __builtin_mul_overflow(count, n, &count))
            return wrap_or_none(NULL);
        sizes[d] = n;
        if (d < lead) {
            strides[d] = 0;
        } else {
            int64_t have = a->sizes[d - lead];
            if (have == n)
                strides[d] = a->strides[d - lead];
            else if (have == 1)
                strides[d] = 0;
            else
                return wrap_or_none(NULL);
        }
    }
    return wrap_or_none(core.view_new(a, a->offset, nd, sizes, strides));
}

/* The bit mask of the dims `axis` names for a: None (every dim), an int or
 * a tuple of ints, each valid and distinct; 0 when it is none of these */
static int reduced_dims(PyObject *axis, const st_tensor *a, uint64_t *dims)
{
    *dims = 0;
    if (axis == Py_None) {
        for (int d = 0; d < a->ndim; d++) *dims |= (uint64_t)1 << d;
        return 1;
    }
    int axes[ST_MAX_DIMS], k = axes_of(axis, a->ndim, 1, axes);
    if (k < 0) return 0;
    for (int i = 0; i < k; i++) *dims |= (uint64_t)1 << axes[i];
    return 1;
}

/* reduce_new(op, mean, x, axis, keepdims): st_reduce_new for an Array x
 * and axis None (every dim), an int or a tuple of ints, each valid and
 * distinct; None when declined */
static PyObject *reduce_new(PyObject *Py_UNUSED(mod), PyObject *const *args, Py_ssize_t nargs)
{
    if (!arity(nargs, 5, "reduce_new(op, mean, x, axis, keepdims)")) return NULL;
    if (!ready()) return NULL;
    long op = PyLong_AsLong(args[0]);
    int mean = PyObject_IsTrue(args[1]), keepdims = PyObject_IsTrue(args[4]);
    if (PyErr_Occurred() || mean < 0 || keepdims < 0) return NULL;
    st_tensor *a = array_record(args[2]);
    uint64_t dims;
    if (!a || !reduced_dims(args[3], a, &dims)) return wrap_or_none(NULL);
    return wrap_or_none(core.reduce_new((int)op, mean, a, dims, keepdims));
}

/* var_new(x, axis, keepdims, correction, take_sqrt): st_var_new for an
 * Array x, axis as for reduce_new and a Python float or int correction;
 * None when declined */
static PyObject *var_new(PyObject *Py_UNUSED(mod), PyObject *const *args, Py_ssize_t nargs)
{
    if (!arity(nargs, 5, "var_new(x, axis, keepdims, correction, take_sqrt)")) return NULL;
    if (!ready()) return NULL;
    int keepdims = PyObject_IsTrue(args[2]), take_sqrt = PyObject_IsTrue(args[4]);
    if (keepdims < 0 || take_sqrt < 0) return NULL;
    int is_int;
    int64_t ivalue;
    double correction;
    st_tensor *a = array_record(args[0]);
    uint64_t dims;
    if (!a || !plain_number(args[3], &is_int, &ivalue, &correction) ||
        !reduced_dims(args[1], a, &dims))
        return wrap_or_none(NULL);
    if (is_int) correction = (double)ivalue;
    return wrap_or_none(core.var_new(a, dims, keepdims, correction, take_sqrt));
}

/* argreduce_new(is_max, x, axis, keepdims): st_argreduce_new for an Array
 * x and axis None or a valid int; None when declined */
static PyObject *argreduce_new(PyObject *Py_UNUSED(mod), PyObject *const *args, Py_ssize_t nargs)
{
    if (!arity(nargs, 4, "argreduce_new(is_max, x, axis, keepdims)")) return NULL;
    if (!ready()) return NULL;
    int is_max = PyObject_IsTrue(args[0]), keepdims = PyObject_IsTrue(args[3]);
    if (is_max < 0 || keepdims < 0) return NULL;
    st_tensor *a = array_record(args[1]);
    if (!a) return wrap_or_none(NULL);
    int dim = -1;
    if (args[2] != Py_None) {
        int axes[ST_MAX_DIMS];
        if (PyTuple_Check(args[2]) || axes_of(args[2], a->ndim, 0, axes) != 1)
            return wrap_or_none(NULL);
        dim = axes[0];
    }
    return wrap_or_none(core.argreduce_new(is_max, a, dim, keepdims));
}

/* take_new(x, indices, axis): st_take_new for Arrays x and indices and axis
 * None (x 1-D) or an int; None when declined */
static PyObject *take_new(PyObject *Py_UNUSED(mod), PyObject *const *args, Py_ssize_t nargs)
{
    if (!arity(nargs, 3, "take_new(x, indices, axis)")) return NULL;
    if (!ready()) return NULL;
    st_tensor *a = array_record(args[0]), *idx = array_record(args[1]);
    int axes[ST_MAX_DIMS] = {0};
    if (!a || !idx ||
        (args[2] == Py_None ? a->ndim != 1
                            : PyTuple_Check(args[2]) || axes_of(args[2], a->ndim, 0, axes) != 1))
        return wrap_or_none(NULL);
    return wrap_or_none(core.take_new(a, axes[0], idx));
}

/* where_new(cond, x1, x2): st_where_new for three Arrays; None when declined */
static PyObject *where_new(PyObject *Py_UNUSED(mod), PyObject *const *args, Py_ssize_t nargs)
{
    if (!arity(nargs, 3, "where_new(cond, x1, x2)")) return NULL;
    if (!ready()) return NULL;
    st_tensor *c = array_record(args[0]), *a = c ? array_record(args[1]) : NULL,
              *b = a ? array_record(args[2]) : NULL;
    if (!b) return wrap_or_none(NULL);
    return wrap_or_none(core.where_new(c, a, b));
}

/* alias(x): a new Array viewing all of Array x (asarray(x)) */
static PyObject *alias(PyObject *Py_UNUSED(mod), PyObject *x)
{
    if (!ready()) return NULL;
    st_tensor *a = array_record(x);
    return wrap_or_none(a ? core.view_new(a, a->offset, a->ndim, a->sizes, a->strides) : NULL);
}

/* from_capsule(capsule): an Array over the memory of an unconsumed DLPack
 * capsule ("dltensor_versioned" or "dltensor"), borrowed when aligned,
 * else copied (from_dlpack's copy=None), in one call: the Python consumer
 * (strided.core.dlpack.to_core) spends about 7 us on ctypes calls and
 * records, which asarray(a numpy array) pays in every SciPy function that
 * hands numpy's result back.  None when `capsule` is no such capsule (that
 * consumer then says why).  Consumed as it consumes one: renamed "used_...",
 * after which st_dlpack_import owns the managed tensor in every case;
 * BufferError with the core's reason when the import fails. */
static PyObject *from_capsule(PyObject *Py_UNUSED(mod), PyObject *capsule)
{
    if (!ready()) return NULL;
    int versioned = 1;
    if (!PyCapsule_IsValid(capsule, core.dlpack_capsule_name(1, 0))) {
        versioned = 0;
        if (!PyCapsule_IsValid(capsule, core.dlpack_capsule_name(0, 0))) Py_RETURN_NONE;
    }
    void *managed = PyCapsule_GetPointer(capsule, core.dlpack_capsule_name(versioned, 0));
    if (!managed) return NULL;
    st_tensor *t = core.tensor_new(); /* before the capsule is consumed: a failure leaves it */
    if (!t) return PyErr_NoMemory();
    if (PyCapsule_SetName(capsule, core.dlpack_capsule_name(versioned, 1)) < 0) {
        core.tensor_free(t);
        return NULL;
    }
    st_status rc = core.dlpack_import(t, managed, versioned, ST_DLPACK_COPY_IF_NEEDED);
    if (rc != ST_OK) {
        core.tensor_free(t);
        PyErr_Format(rc == ST_E_MEMORY ? PyExc_MemoryError : PyExc_BufferError, "from_dlpack: %s",
                     core.last_error());
        return NULL;
    }
    return wrap(t);
}

/* export_capsule(x): a "dltensor_versioned" capsule over Array x's memory
 * (read-only memory flagged so), what x.__dlpack__(max_version >= (1, 0))
 * with no other keyword gives, in one call: numpy's from_dlpack (so
 * np.asarray of an Array, in every SciPy function that computes in numpy)
 * asks for exactly that, and the Python exporter spends about 1.5 us on
 * checks and ctypes calls.  The capsule's destructor is the core's
 * (the deleter runs unless a consumer took the tensor); None when x is not
 * an Array of compat's class (the general path then). */
static PyObject *export_capsule(PyObject *Py_UNUSED(mod), PyObject *x)
{
    if (!ready()) return NULL;
    st_tensor *t = array_record(x);
    if (!t) {
        if (PyErr_Occurred()) return NULL;
        Py_RETURN_NONE;
    }
    DLManagedTensorVersioned *managed = core.dlpack_export_versioned(t, 0);
    if (!managed) {
        PyErr_Format(PyExc_BufferError, "__dlpack__: %s", core.last_error());
        return NULL;
    }
    PyObject *capsule = PyCapsule_New(managed, core.dlpack_capsule_name(1, 0),
                                      (PyCapsule_Destructor)core.dlpack_capsule_destructor);
    if (!capsule) managed->deleter(managed);
    return capsule;
}

/* item(x): the one element of Array x as a Python bool, int, float or
 * complex (compat's __bool__, __int__, __float__, __complex__ and the
 * core's item read it so); None when x has another element count or the
 * element type has no Python number here (float16: the general path). */
static PyObject *item(PyObject *Py_UNUSED(mod), PyObject *x)
{
    if (!ready()) return NULL;
    if (!PyObject_TypeCheck(x, record_type)) Py_RETURN_NONE;
    st_tensor *t = record(x);
    if (!t) return NULL;
    int64_t n = 1;
    for (int d = 0; d < t->ndim; d++) n *= t->sizes[d];
    if (n != 1 || !t->storage) Py_RETURN_NONE;
    const char *p = t->storage->data + t->offset * st_itemsize_fixed(t->dtype);
    switch (t->dtype) {
    case ST_BOOL:
        return PyBool_FromLong(*(const uint8_t *)p != 0);
    case ST_INT8:
        return PyLong_FromLong(*(const int8_t *)p);
    case ST_INT16:
        return PyLong_FromLong(*(const int16_t *)p);
    case ST_INT32:
        return PyLong_FromLong(*(const int32_t *)p);
    case ST_INT64:
        return PyLong_FromLongLong(*(const int64_t *)p);
    case ST_UINT8:
        return PyLong_FromLong(*(const uint8_t *)p);
    case ST_UINT16:
        return PyLong_FromLong(*(const uint16_t *)p);
    case ST_UINT32:
        return PyLong_FromUnsignedLong(*(const uint32_t *)p);
    case ST_UINT64:
        return PyLong_FromUnsignedLongLong(*(const uint64_t *)p);
    case ST_FLOAT32:
        return PyFloat_FromDouble(*(const float *)p);
    case ST_FLOAT64:
        return PyFloat_FromDouble(*(const double *)p);
    case ST_COMPLEX64:
        return PyComplex_FromDoubles(((const float *)p)[0], ((const float *)p)[1]);
    case ST_COMPLEX128:
        return PyComplex_FromDoubles(((const double *)p)[0], ((const double *)p)[1]);
    default:
        Py_RETURN_NONE;
    }
}

/* scalar(v): the 0-d Array of a Python float (float64), an int within
 * int64 (int64) or a bool (bool), asarray's defaults */
static PyObject *scalar(PyObject *Py_UNUSED(mod), PyObject *v)
{
    if (!ready()) return NULL;
    PyTypeObject *kind = Py_TYPE(v);
    int overflow = 0;
    long long i = kind == &PyLong_Type ? PyLong_AsLongLongAndOverflow(v, &overflow) : 0;
    int dtype = kind == &PyFloat_Type               ? ST_FLOAT64
                : kind == &PyBool_Type              ? ST_BOOL
                : kind == &PyLong_Type && !overflow ? ST_INT64
                                                    : -1;
    if (dtype < 0) Py_RETURN_NONE;
    st_tensor *t = core.tensor_new();
    if (t && core.tensor_alloc(t, dtype, 0, NULL)) {
        core.tensor_free(t);
        t = NULL;
    }
    if (!t) Py_RETURN_NONE;        /* out of memory: the general path says so */
    char *data = t->storage->data; /* fresh: element 0 */
    if (dtype == ST_FLOAT64)
        *(double *)data = PyFloat_AsDouble(v);
    else if (dtype == ST_BOOL)
        *(_Bool *)data = v == Py_True;
    else
        *(int64_t *)data = i;
    return wrap(t);
}

static PyMethodDef module_methods[] = {
    {"t7_setup", (PyCFunction)(void (*)(void))t7_setup, METH_FASTCALL,
     "t7_setup(functions, declined): the core functions of the Torch7 face's small calls."},
    {"t7_init", (PyCFunction)(void (*)(void))t7_init, METH_FASTCALL,
     "t7_init(self, sizes, dtype): Tensor(n1, n2, ...) in C; True when done."},
    {"t7_ndim", t7_ndim, METH_O, "x:dim()"},
    {"t7_sized", (PyCFunction)(void (*)(void))t7_sized, METH_FASTCALL,
     "t7_sized(kind, lock, sizes): torch.zeros/ones/rand/randn of int sizes in C."},
    {"t7_set_default", t7_set_default, METH_O, "t7_set_default(cls): torch.Tensor for t7_sized."},
    {"t7_nested", (PyCFunction)(void (*)(void))t7_nested, METH_FASTCALL,
     "t7_nested(self, obj, dtype, max_dims): Tensor(table) / Storage(table) in C."},
    {"t7_storage_setup", (PyCFunction)(void (*)(void))t7_storage_setup, METH_FASTCALL,
     "t7_storage_setup(LongStorage, own_storage, storage_address): the storages C makes."},
    {"t7_shape_storage", (PyCFunction)(void (*)(void))t7_shape_storage, METH_FASTCALL,
     "t7_shape_storage(x, strides): x:size() / x:stride(), a new LongStorage."},
    {"t7_assemble", (PyCFunction)(void (*)(void))t7_assemble, METH_FASTCALL,
     "t7_assemble(scan, classes, objects, referenced, open, cyclic, wrappers, table_key): "
     "the object of a C walk of .t7 data, or DECLINED."},
    {"t7_numel", t7_numel, METH_O, "x:nElement()"},
    {"t7_size", (PyCFunction)(void (*)(void))t7_size, METH_FASTCALL, "x:size(dim)"},
    {"t7_stride", (PyCFunction)(void (*)(void))t7_stride, METH_FASTCALL, "x:stride(dim)"},
    {"t7_narrow", (PyCFunction)(void (*)(void))t7_narrow, METH_FASTCALL, "x:narrow(dim, i, n)"},
    {"t7_select", (PyCFunction)(void (*)(void))t7_select, METH_FASTCALL, "x:select(dim, i)"},
    {"t7_sub", (PyCFunction)(void (*)(void))t7_sub, METH_FASTCALL, "x:sub(bounds)"},
    {"t7_t", (PyCFunction)(void (*)(void))t7_t, METH_FASTCALL, "x:t()"},
    {"t7_get", (PyCFunction)(void (*)(void))t7_get, METH_FASTCALL, "x[key]"},
    {"t7_set", (PyCFunction)(void (*)(void))t7_set, METH_FASTCALL, "x[key] = value"},
    {"t7_fill", (PyCFunction)(void (*)(void))t7_fill, METH_FASTCALL, "x:fill(value)"},
    {"t7_clone", (PyCFunction)(void (*)(void))t7_clone, METH_FASTCALL, "x:clone()"},
    {"t7_copy", (PyCFunction)(void (*)(void))t7_copy, METH_FASTCALL, "x:copy(src)"},
    {"t7_scalar_inplace", (PyCFunction)(void (*)(void))t7_scalar_inplace, METH_FASTCALL,
     "t7_scalar_inplace(code, x, value): x = x op value in C; True when done."},
    {"binary_inplace", (PyCFunction)(void (*)(void))binary_inplace, METH_FASTCALL,
     "binary_inplace(code, x, y): x = x op y in C when small and plain; True when done."},
    {"binary_new", (PyCFunction)(void (*)(void))binary_new, METH_FASTCALL,
     "binary_new(code, mask, x1, x2): the plain case in C, or None."},
    {"unary_new", (PyCFunction)(void (*)(void))unary_new, METH_FASTCALL,
     "unary_new(code, mask, x): the plain case in C, or None."},
    {"setup", setup, METH_VARARGS, "setup(make_core, address_of, functions)"},
    {"setup_operators", setup_operators, METH_VARARGS, "setup_operators(array_type, operators)"},
    {"from_list", from_list, METH_O, "The Array of a flat list of floats, ints or bools, or None."},
    {"filled", (PyCFunction)(void (*)(void))filled, METH_FASTCALL,
     "filled(shape, code, value): a new Array of zeros or value, or None."},
    {"matmul", (PyCFunction)(void (*)(void))matmul, METH_FASTCALL,
     "matmul(x1, x2): x1 @ x2 for 1-D or 2-D Arrays of one dtype, or None."},
    {"astype", (PyCFunction)(void (*)(void))astype, METH_FASTCALL,
     "astype(x, dtype): a contiguous copy of x as dtype, or None."},
    {"reshape", (PyCFunction)(void (*)(void))reshape, METH_FASTCALL,
     "reshape(x, shape, copy_ok): x with shape: a view, else a copy when copy_ok, else None."},
    {"permute", (PyCFunction)(void (*)(void))permute, METH_FASTCALL,
     "permute(x, axes): the view of x with its dims in the order of a tuple, or None."},
    {"expand_dims", (PyCFunction)(void (*)(void))expand_dims, METH_FASTCALL,
     "expand_dims(x, axis): the view of x with size-1 dims inserted, or None."},
    {"squeeze", (PyCFunction)(void (*)(void))squeeze, METH_FASTCALL,
     "squeeze(x, axis): the view of x without the given size-1 dims, or None."},
    {"broadcast_to", (PyCFunction)(void (*)(void))broadcast_to, METH_FASTCALL,
     "broadcast_to(x, shape): the view of x broadcast to a tuple shape, or None."},
    {"reduce_new", (PyCFunction)(void (*)(void))reduce_new, METH_FASTCALL,
     "reduce_new(op, mean, x, axis, keepdims): a reduction of x in C, or None."},
    {"argreduce_new", (PyCFunction)(void (*)(void))argreduce_new, METH_FASTCALL,
     "argreduce_new(is_max, x, axis, keepdims): argmax/argmin of x in C, or None."},
    {"where_new", (PyCFunction)(void (*)(void))where_new, METH_FASTCALL,
     "where_new(cond, x1, x2): cond ? x1 : x2 of three Arrays in C, or None."},
    {"take_new", (PyCFunction)(void (*)(void))take_new, METH_FASTCALL,
     "take_new(x, indices, axis): x's slices indices along axis in C, or None."},
    {"var_new", (PyCFunction)(void (*)(void))var_new, METH_FASTCALL,
     "var_new(x, axis, keepdims, correction, take_sqrt): var (std) of x in C, or None."},
    {"alias", alias, METH_O, "A new Array viewing all of Array x, or None."},
    {"concat", (PyCFunction)(void (*)(void))concat, METH_FASTCALL,
     "concat(arrays, axis): Arrays of one dtype joined along axis (an int), or None."},
    {"flip", (PyCFunction)(void (*)(void))flip, METH_FASTCALL,
     "flip(x, axis): the view of x reversed along axis (None: every dim), or None."},
    {"export_capsule", export_capsule, METH_O,
     "export_capsule(x): x.__dlpack__(max_version=(1, 0)) in one call (None: not an Array)."},
    {"from_capsule", from_capsule, METH_O,
     "An Array over an unconsumed DLPack capsule's memory (consumed), or None."},
    {"scalar", scalar, METH_O, "The 0-d Array of a Python float, int or bool, or None."},
    {"item", item, METH_O, "The one element of an Array as a Python number, or None."},
    {NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT,
    "strided._c._pyarray",
    "The C part of strided.compat's Array (see pyarray.c).",
    -1,
    module_methods,
    NULL,
    NULL,
    NULL,
    NULL,
};

PyMODINIT_FUNC PyInit__pyarray(void)
{
    PyObject *m = PyModule_Create(&module_def);
    if (!m) return NULL;
    record_type = (PyTypeObject *)PyType_FromSpec(&record_spec);
    base_type = record_type
                    ? (PyTypeObject *)PyType_FromSpecWithBases(&base_spec, (PyObject *)record_type)
                    : NULL;
    PyObject *names = PyTuple_New((Py_ssize_t)N_CORE), *opnames = PyTuple_New(N_OPS);
    if (names)
        for (size_t i = 0; i < N_CORE; i++)
            PyTuple_SetItem(names, (Py_ssize_t)i, PyUnicode_FromString(core_names[i]));
    if (opnames)
        for (int k = 0; k < N_OPS; k++)
            PyTuple_SetItem(opnames, k, PyUnicode_FromString(op_names[k]));
    Py_XINCREF(record_type); /* PyModule_AddObject steals one; record_type keeps another */
    if (!base_type || !names || !opnames || PyErr_Occurred() ||
        PyModule_AddObject(m, "RecordBase", (PyObject *)record_type) < 0 ||
        PyModule_AddObject(m, "ArrayBase", (PyObject *)base_type) < 0) {
        Py_XDECREF(names);
        Py_XDECREF(opnames);
        Py_DECREF(m);
        return NULL;
    }
    Py_INCREF(base_type); /* PyModule_AddObject stole one; base_type keeps another */
    PyObject *tensor_base = PyType_FromSpecWithBases(&t7_tensor_spec, (PyObject *)record_type);
    if (!tensor_base || PyModule_AddObject(m, "TensorBase", tensor_base) < 0) {
        Py_XDECREF(tensor_base);
        Py_DECREF(m);
        return NULL;
    }
    storage_type = (PyTypeObject *)PyType_FromSpec(&storage_spec);
    Py_XINCREF(storage_type); /* PyModule_AddObject steals one; storage_type keeps another */
    if (!storage_type || PyModule_AddObject(m, "StorageBase", (PyObject *)storage_type) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    PyObject *t7names = PyTuple_New((Py_ssize_t)N_T7CORE);
    if (t7names)
        for (size_t i = 0; i < N_T7CORE; i++)
            PyTuple_SetItem(t7names, (Py_ssize_t)i, PyUnicode_FromString(t7core_names[i]));
    if (!t7names || PyModule_AddObject(m, "T7_CORE_FUNCTIONS", t7names) < 0) {
        Py_XDECREF(t7names);
        Py_DECREF(m);
        return NULL;
    }
    if (PyModule_AddObject(m, "CORE_FUNCTIONS", names) < 0 ||
        PyModule_AddObject(m, "OPERATORS", opnames) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
