/* dlpack.c -- DLPack export and import (DLPack 0.8 legacy and 1.x
 * versioned managed tensors), and the PyCapsule destructor of the Python
 * protocol.
 *
 * Export hands a consumer the address of our memory: the managed tensor
 * retains the view's storage, so the memory outlives every Python object
 * of ours, and marks it ST_STORAGE_EXPORTED so that it is never moved.
 * Import borrows the producer's memory through a storage whose release
 * calls the producer's deleter; no Python runs in that path, so a storage
 * can be dropped from any thread (deleters are callable anywhere, by the
 * protocol).  Every field of a foreign tensor is checked before one
 * element is read. */
#include <Python.h> /* first, as Python requires; only the capsule destructor uses it */
#include "st_internal.h"
#include <stdalign.h>
#include <stdlib.h>

/* ---- the ABI: our declarations must lay out exactly as the spec's ---- */
_Static_assert(sizeof(DLPackVersion) == 8 && sizeof(DLDevice) == 8 && sizeof(DLDataType) == 4,
               "DLPack scalar structs");
_Static_assert(sizeof(void *) != 8 ||
                   (offsetof(DLTensor, device) == 8 && offsetof(DLTensor, ndim) == 16 &&
                    offsetof(DLTensor, dtype) == 20 && offsetof(DLTensor, shape) == 24 &&
                    offsetof(DLTensor, strides) == 32 && offsetof(DLTensor, byte_offset) == 40 &&
                    sizeof(DLTensor) == 48),
               "DLTensor layout");
_Static_assert(sizeof(void *) != 8 ||
                   (offsetof(DLManagedTensor, manager_ctx) == 48 &&
                    offsetof(DLManagedTensor, deleter) == 56 && sizeof(DLManagedTensor) == 64),
               "DLManagedTensor layout");
_Static_assert(sizeof(void *) != 8 || (offsetof(DLManagedTensorVersioned, manager_ctx) == 8 &&
                                       offsetof(DLManagedTensorVersioned, deleter) == 16 &&
                                       offsetof(DLManagedTensorVersioned, flags) == 24 &&
                                       offsetof(DLManagedTensorVersioned, dl_tensor) == 32 &&
                                       sizeof(DLManagedTensorVersioned) == 80),
               "DLManagedTensorVersioned layout");

/* ---- counters for the tests: every deleter must run exactly once ---- */
static int64_t live_exports, live_imports;

int64_t st_dlpack_live_exports(void) { return __atomic_load_n(&live_exports, __ATOMIC_RELAXED); }
int64_t st_dlpack_live_imports(void) { return __atomic_load_n(&live_imports, __ATOMIC_RELAXED); }

/* ---- element types ---- */
/* clang-format off */
static const DLDataType dl_types[ST_NTYPES] = {
    [ST_BOOL] = {ST_DL_BOOL, 8, 1},
    [ST_INT8] = {ST_DL_INT, 8, 1},       [ST_INT16] = {ST_DL_INT, 16, 1},
    [ST_INT32] = {ST_DL_INT, 32, 1},     [ST_INT64] = {ST_DL_INT, 64, 1},
    [ST_UINT8] = {ST_DL_UINT, 8, 1},     [ST_UINT16] = {ST_DL_UINT, 16, 1},
    [ST_UINT32] = {ST_DL_UINT, 32, 1},   [ST_UINT64] = {ST_DL_UINT, 64, 1},
    [ST_FLOAT32] = {ST_DL_FLOAT, 32, 1}, [ST_FLOAT64] = {ST_DL_FLOAT, 64, 1},
    [ST_COMPLEX64] = {ST_DL_COMPLEX, 64, 1}, [ST_COMPLEX128] = {ST_DL_COMPLEX, 128, 1},
    [ST_FLOAT16] = {ST_DL_FLOAT, 16, 1}, [ST_BFLOAT16] = {ST_DL_BFLOAT, 16, 1},
};
/* clang-format on */

/* Kernels dereference typed pointers, and the compiler may vectorise them
 * with aligned loads once it has peeled to a vector boundary: memory that
 * is not aligned to its C type must be copied, never borrowed. */
/* clang-format off */
static const int64_t alignments[ST_NTYPES] = {
    [ST_BOOL] = alignof(_Bool),
    [ST_INT8] = alignof(int8_t),     [ST_INT16] = alignof(int16_t),
    [ST_INT32] = alignof(int32_t),   [ST_INT64] = alignof(int64_t),
    [ST_UINT8] = alignof(uint8_t),   [ST_UINT16] = alignof(uint16_t),
    [ST_UINT32] = alignof(uint32_t), [ST_UINT64] = alignof(uint64_t),
    [ST_FLOAT32] = alignof(float),   [ST_FLOAT64] = alignof(double),
    [ST_COMPLEX64] = alignof(st_c64), [ST_COMPLEX128] = alignof(st_c128),
    [ST_FLOAT16] = alignof(uint16_t), [ST_BFLOAT16] = alignof(uint16_t),
};
/* clang-format on */

static const char *dl_code_name(unsigned code)
{
    static const char *const names[] = {"int",
                                        "uint",
                                        "float",
                                        "opaque handle",
                                        "bfloat",
                                        "complex",
                                        "bool",
                                        "float8_e3m4",
                                        "float8_e4m3",
                                        "float8_e4m3b11fnuz",
                                        "float8_e4m3fn",
                                        "float8_e4m3fnuz",
                                        "float8_e5m2",
                                        "float8_e5m2fnuz",
                                        "float8_e8m0fnu",
                                        "float6_e2m3fn",
                                        "float6_e3m2fn",
                                        "float4_e2m1fn"};
    return code < sizeof names / sizeof *names ? names[code] : "unknown";
}

/* The core's dtype code of a DLPack type, or -1. */
static int dtype_from_dl(DLDataType d)
{
    if (d.lanes != 1) return -1;
    for (int dt = 0; dt < ST_NTYPES; dt++)
        if (dl_types[dt].code == d.code && dl_types[dt].bits == d.bits) return dt;
    return -1;
}

/* ============================================================== export */

static void delete_versioned(DLManagedTensorVersioned *self)
{
    if (!self) return;
    st_storage_release(self->manager_ctx);
    free(self);
    __atomic_sub_fetch(&live_exports, 1, __ATOMIC_RELAXED);
}

static void delete_legacy(DLManagedTensor *self)
{
    if (!self) return;
    st_storage_release(self->manager_ctx);
    free(self);
    __atomic_sub_fetch(&live_exports, 1, __ATOMIC_RELAXED);
}

/* One block: the managed struct (`head` bytes, a multiple of 8), then
 * shape[ndim], then strides[ndim], so that one free() undoes it. */
static void *export_block(const st_tensor *t, size_t head, DLTensor **dl_of, size_t dl_offset)
{
    if (t->dtype < 0 || t->dtype >= ST_NTYPES || t->ndim < 0 || t->ndim > ST_MAX_DIMS) {
        st_fail(ST_E_VALUE, "cannot export a view record with dtype %d and %d dims", t->dtype,
                t->ndim);
        return NULL;
    }
    size_t n = (size_t)t->ndim;
    char *block = malloc(head + 2 * n * sizeof(int64_t));
    if (!block) {
        st_fail(ST_E_MEMORY, "out of memory for a DLPack managed tensor");
        return NULL;
    }
    DLTensor *dl = (DLTensor *)(block + dl_offset);
    int64_t *shape = (int64_t *)(block + head), *strides = shape + n;
    memcpy(shape, t->sizes, n * sizeof(int64_t));
    memcpy(strides, t->strides, n * sizeof(int64_t));
    int64_t numel = st_tensor_numel(t);
    /* the spec: NULL data for a tensor without elements */
    dl->data = numel > 0 ? st_tensor_data(t) : NULL;
    dl->device.device_type = ST_DL_CPU;
    dl->device.device_id = 0;
    dl->ndim = t->ndim;
    dl->dtype = dl_types[t->dtype];
    dl->shape = shape;
    dl->strides = strides;
    dl->byte_offset = 0;
    *dl_of = dl;
    return block;
}

/* The storage the managed tensor keeps alive (NULL for a view without
 * memory), pinned against resizing while a consumer may hold its address. */
static st_storage *retain_exported(const st_tensor *t)
{
    st_storage *s = t->storage;
    if (!s) return NULL;
    st_storage_retain(s);
    if (st_tensor_numel(t) > 0) __atomic_or_fetch(&s->flags, ST_STORAGE_EXPORTED, __ATOMIC_RELAXED);
    return s;
}

static int is_readonly(const st_tensor *t)
{
    return t->storage && (t->storage->flags & ST_STORAGE_READONLY);
}

DLManagedTensorVersioned *st_dlpack_export_versioned(const st_tensor *t, uint64_t flags)
{
    DLTensor *dl;
    DLManagedTensorVersioned *m =
        export_block(t, sizeof *m, &dl, offsetof(DLManagedTensorVersioned, dl_tensor));
    if (!m) return NULL;
    m->version.major = ST_DLPACK_MAJOR;
    m->version.minor = ST_DLPACK_MINOR;
    m->flags = flags | (is_readonly(t) ? ST_DL_FLAG_READ_ONLY : 0);
    m->manager_ctx = retain_exported(t);
    m->deleter = delete_versioned;
    __atomic_add_fetch(&live_exports, 1, __ATOMIC_RELAXED);
    return m;
}

DLManagedTensor *st_dlpack_export_legacy(const st_tensor *t)
{
    if (is_readonly(t)) {
        st_fail(ST_E_READONLY, "a legacy DLPack capsule cannot mark memory read-only, so "
                               "read-only memory is not exported through one");
        return NULL;
    }
    DLTensor *dl;
    DLManagedTensor *m = export_block(t, sizeof *m, &dl, offsetof(DLManagedTensor, dl_tensor));
    if (!m) return NULL;
    m->manager_ctx = retain_exported(t);
    m->deleter = delete_legacy;
    __atomic_add_fetch(&live_exports, 1, __ATOMIC_RELAXED);
    return m;
}

/* ============================================================== import */

static void call_deleter(void *managed, int versioned)
{
    if (versioned) {
        DLManagedTensorVersioned *m = managed;
        if (m->deleter) m->deleter(m);
    } else {
        DLManagedTensor *m = managed;
        if (m->deleter) m->deleter(m);
    }
}

/* The release callbacks of borrowed storages: the producer's deleter, once
 * (the core calls release exactly once, when the last reference goes). */
static void release_versioned(void *managed)
{
    call_deleter(managed, 1);
    __atomic_sub_fetch(&live_imports, 1, __ATOMIC_RELAXED);
}

static void release_legacy(void *managed)
{
    call_deleter(managed, 0);
    __atomic_sub_fetch(&live_imports, 1, __ATOMIC_RELAXED);
}

/* What the checks learn about a foreign tensor. */
typedef struct {
    const DLTensor *dl;
    int dtype;
    int64_t item, numel;
    int64_t lo, hi; /* bytes reached, relative to element 0: [lo, hi) */
    char *elem0;    /* address of element 0 */
    int readonly, copied, ours;
} dl_info;

/* Element count and the byte extent [lo, hi) relative to element 0, every
 * product and sum checked for overflow. */
static st_status check_extent(dl_info *in)
{
    const DLTensor *dl = in->dl;
    int64_t n = 1, lo = 0, hi = 0;
    for (int d = 0; d < dl->ndim; d++) {
        if (dl->shape[d] < 0)
            return st_fail(ST_E_VALUE, "DLPack: size of dimension %d is %lld", d,
                           (long long)dl->shape[d]);
        if (__builtin_mul_overflow(n, dl->shape[d], &n))
            return st_fail(ST_E_OVERFLOW, "DLPack: number of elements overflows at dimension %d",
                           d);
    }
    if (n > 0 && dl->strides) {
        for (int d = 0; d < dl->ndim; d++) {
            int64_t reach;
            if (__builtin_mul_overflow(dl->shape[d] - 1, dl->strides[d], &reach) ||
                __builtin_add_overflow(reach < 0 ? lo : hi, reach, reach < 0 ? &lo : &hi))
                return st_fail(ST_E_OVERFLOW, "DLPack: the extent of dimension %d overflows", d);
        }
    } else if (n > 0) {
        hi = n - 1; /* NULL strides: C-contiguous */
    }
    int64_t span; /* hi - lo must fit too: it becomes the borrowed storage's size */
    if (__builtin_mul_overflow(lo, in->item, &lo) || __builtin_add_overflow(hi, 1, &hi) ||
        __builtin_mul_overflow(hi, in->item, &hi) || __builtin_sub_overflow(hi, lo, &span))
        return st_fail(ST_E_OVERFLOW, "DLPack: the byte extent of the tensor overflows");
    in->numel = n;
    in->lo = n > 0 ? lo : 0;
    in->hi = n > 0 ? hi : 0;
    return ST_OK;
}

/* Element 0's address, and that [elem0 + lo, elem0 + hi) does not wrap
 * around the address space. */
static st_status check_address(dl_info *in)
{
    const DLTensor *dl = in->dl;
    uintptr_t base = (uintptr_t)dl->data, elem0;
    if (in->numel == 0) {
        in->elem0 = NULL; /* nothing will be read: data may be anything, NULL included */
        return ST_OK;
    }
    if (!dl->data)
        return st_fail(ST_E_VALUE, "DLPack: data is NULL for %lld elements", (long long)in->numel);
    if (dl->byte_offset > UINTPTR_MAX - base)
        return st_fail(ST_E_OVERFLOW, "DLPack: data + byte_offset %llu overflows the address space",
                       (unsigned long long)dl->byte_offset);
    elem0 = base + (uintptr_t)dl->byte_offset;
    /* lo <= 0 <= hi; 0 - (uintptr_t)lo is |lo| without signed overflow */
    if ((uintptr_t)0 - (uintptr_t)in->lo > elem0 || (uintptr_t)in->hi > UINTPTR_MAX - elem0)
        return st_fail(ST_E_OVERFLOW, "DLPack: the strides reach outside the address space");
    in->elem0 = (char *)elem0;
    return ST_OK;
}

/* Everything that is read before any element is. */
static st_status check_foreign(dl_info *in, void *managed, int versioned)
{
    if (versioned) {
        DLManagedTensorVersioned *m = managed;
        /* a different major version may lay out everything after `flags`
         * differently: nothing else may be read (the deleter still may) */
        if (m->version.major != ST_DLPACK_MAJOR)
            return st_fail(ST_E_VALUE, "DLPack version %u.%u is not supported (strided reads %d.x)",
                           m->version.major, m->version.minor, ST_DLPACK_MAJOR);
        in->dl = &m->dl_tensor;
        in->readonly = (m->flags & ST_DL_FLAG_READ_ONLY) != 0;
        in->copied = (m->flags & ST_DL_FLAG_IS_COPIED) != 0;
        in->ours = m->deleter == delete_versioned;
    } else {
        DLManagedTensor *m = managed;
        in->dl = &m->dl_tensor;
        in->readonly = in->copied = 0;
        in->ours = m->deleter == delete_legacy;
    }
    const DLTensor *dl = in->dl;
    if (dl->device.device_type != ST_DL_CPU)
        return st_fail(ST_E_VALUE,
                       "DLPack device type %d (id %d) is not the CPU (kDLCPU = 1): "
                       "strided reads CPU memory only",
                       dl->device.device_type, dl->device.device_id);
    if (dl->ndim < 0 || dl->ndim > ST_MAX_DIMS)
        return st_fail(ST_E_VALUE, "DLPack: %d dimensions, strided holds 0 to %d", dl->ndim,
                       ST_MAX_DIMS);
    if (dl->ndim > 0 && !dl->shape)
        return st_fail(ST_E_VALUE, "DLPack: shape is NULL for %d dimensions", dl->ndim);
    in->dtype = dtype_from_dl(dl->dtype);
    if (in->dtype < 0)
        return st_fail(ST_E_TYPE,
                       "DLPack type %s%u (code %u, %u bits, %u lanes) has no strided "
                       "element type",
                       dl_code_name(dl->dtype.code), dl->dtype.bits, dl->dtype.code, dl->dtype.bits,
                       dl->dtype.lanes);
    in->item = st_itemsize(in->dtype);
    st_status rc = check_extent(in);
    return rc ? rc : check_address(in);
}

/* t = the view the tensor describes, over storage s whose data is the
 * lowest byte reached (element 0 at byte -lo of it). */
static st_status view_over(st_tensor *t, st_storage *s, const dl_info *in, int64_t elem0_in_s)
{
    return st_tensor_set(t, s, in->dtype, elem0_in_s / in->item, in->dl->ndim, in->dl->shape,
                         in->numel > 0 ? in->dl->strides : NULL);
}

/* The source view, without taking ownership of the producer's memory:
 * our own storage again, a borrowed storage with no release (the caller
 * decides who releases), or an aligned copy of the bytes reached. */
static st_status source_view(st_tensor *src, const dl_info *in, void *managed, int borrow_release,
                             int versioned, int *kept)
{
    st_storage *s;
    int64_t elem0_in_s;
    *kept = 0;
    if (in->numel == 0)
        return st_tensor_set(src, NULL, in->dtype, 0, in->dl->ndim, in->dl->shape, NULL);
    if (in->ours) {
        s = versioned ? ((DLManagedTensorVersioned *)managed)->manager_ctx
                      : ((DLManagedTensor *)managed)->manager_ctx;
        /* st_tensor_set checks the bounds against the storage */
        elem0_in_s = (int64_t)((uintptr_t)in->elem0 - (uintptr_t)s->data);
        if (elem0_in_s < 0 || elem0_in_s % in->item)
            return st_fail(ST_E_VALUE, "DLPack: element 0 lies outside its exporting storage");
        return view_over(src, s, in, elem0_in_s);
    }
    char *start = in->elem0 + in->lo;
    int64_t nbytes = in->hi - in->lo;
    if ((uintptr_t)in->elem0 % (uintptr_t)alignments[in->dtype]) {
        /* misaligned: an aligned copy of the bytes reached (memcpy has no
         * alignment needs), released by the caller */
        s = st_storage_new(nbytes);
        if (!s) return st_last_status();
        memcpy(s->data, start, (size_t)nbytes);
    } else {
        st_release_fn release = versioned ? release_versioned : release_legacy;
        s = st_storage_borrow(start, nbytes, in->readonly, borrow_release ? release : NULL,
                              borrow_release ? managed : NULL);
        if (!s) return st_last_status();
    }
    st_status rc = view_over(src, s, in, -in->lo);
    if (rc)
        s->release = NULL; /* never the producer's deleter from here on failure */
    else if (s->release) {
        *kept = 1;
        __atomic_add_fetch(&live_imports, 1, __ATOMIC_RELAXED);
    }
    st_storage_release(s); /* src holds the one reference now (or none) */
    return rc;
}

/* A C-contiguous owned copy of src into t. */
static st_status copy_into(st_tensor *t, const st_tensor *src)
{
    st_status rc = st_tensor_alloc(t, src->dtype, src->ndim, src->sizes);
    return rc ? rc : st_copy(t, src);
}

static st_status import_checked(st_tensor *t, void *managed, int versioned, int copy_mode,
                                int *kept)
{
    dl_info in = {0};
    *kept = 0;
    st_status rc = check_foreign(&in, managed, versioned);
    if (rc) return rc;
    int misaligned =
        in.numel > 0 && !in.ours && (uintptr_t)in.elem0 % (uintptr_t)alignments[in.dtype] != 0;
    int copy = copy_mode == ST_DLPACK_COPY_ALWAYS ? !in.copied : misaligned;
    if (misaligned && copy_mode == ST_DLPACK_COPY_NEVER)
        return st_fail(ST_E_VALUE,
                       "DLPack: element 0 at %p is not aligned to %lld bytes for %s, "
                       "and copy=False forbids the copy that would align it",
                       (void *)in.elem0, (long long)alignments[in.dtype], st_dtype_name(in.dtype));
    if (!copy) return source_view(t, &in, managed, 1, versioned, kept);
    st_tensor *src = st_tensor_new();
    if (!src) return st_last_status();
    int src_kept;
    rc = source_view(src, &in, managed, 0, versioned, &src_kept);
    if (!rc) rc = copy_into(t, src);
    st_tensor_free(src);
    return rc;
}

st_status st_dlpack_import(st_tensor *t, void *managed, int versioned, int copy_mode)
{
    if (!managed) return st_fail(ST_E_VALUE, "DLPack: the capsule holds a NULL pointer");
    if (copy_mode < ST_DLPACK_COPY_NEVER || copy_mode > ST_DLPACK_COPY_ALWAYS) {
        call_deleter(managed, versioned);
        return st_fail(ST_E_VALUE, "DLPack: unknown copy mode %d", copy_mode);
    }
    int kept;
    st_status rc = import_checked(t, managed, versioned, copy_mode, &kept);
    /* ownership ends here unless a borrowed storage now holds the tensor */
    if (!kept) call_deleter(managed, versioned);
    return rc;
}

/* ============================================================== capsules */

static const char name_legacy[] = "dltensor", name_versioned[] = "dltensor_versioned";
static const char used_legacy[] = "used_dltensor", used_versioned[] = "used_dltensor_versioned";

const char *st_dlpack_capsule_name(int versioned, int used)
{
    if (versioned) return used ? used_versioned : name_versioned;
    return used ? used_legacy : name_legacy;
}

void st_dlpack_capsule_destructor(void *capsule)
{
    PyObject *cap = capsule, *type, *value, *traceback;
    /* a capsule may die while an exception propagates: keep it intact */
    PyErr_Fetch(&type, &value, &traceback);
    if (PyCapsule_IsValid(cap, name_versioned)) {
        DLManagedTensorVersioned *m = PyCapsule_GetPointer(cap, name_versioned);
        if (m && m->deleter) m->deleter(m);
    } else if (PyCapsule_IsValid(cap, name_legacy)) {
        DLManagedTensor *m = PyCapsule_GetPointer(cap, name_legacy);
        if (m && m->deleter) m->deleter(m);
    }
    /* any other name ("used_..."): the consumer owns the tensor */
    PyErr_Restore(type, value, traceback);
}
