# The Python-level dnnl_sgemm, dnnl_gemm_bf16bf16f32 and the int8 GEMMs: A, B
# and C (and the int8 ones' co) are
# C-contiguous buffers (NumPy arrays) of the functions' element types, each
# big enough for the matrix its dims and leading dimension describe; the
# product runs without the GIL.

from cpython.buffer cimport (PyObject_GetBuffer, PyBuffer_Release, PyBuffer_IsContiguous,
                             PyBUF_WRITABLE, PyBUF_STRIDES, PyBUF_FORMAT)
from libc.stdint cimport int64_t, uint16_t, uint8_t, int8_t, int32_t

cimport dnnl_c.core as c
from dnnl_c.dnnl_types cimport *
from dnnl_c.api.handles cimport *
from dnnl_c.api.memory cimport _element, _element_str

from dnnl_c.api.handles import _BadArg


cdef class _matrix:
    """A buffer held open for one call: C-contiguous, of one element type,
    holding at least `need` elements."""
    cdef Py_buffer view
    cdef bint held

    def __cinit__(self, obj, str name, tuple accepted, str needs, bint writable,
                  int64_t need):
        cdef bint formatted = True
        cdef int flags = PyBUF_STRIDES | (PyBUF_WRITABLE if writable else 0)
        try:
            PyObject_GetBuffer(obj, &self.view, flags | PyBUF_FORMAT)
        except Exception:
            formatted = False       # NumPy cannot name bfloat16 in a buffer format
            try:
                PyObject_GetBuffer(obj, &self.view, flags)
            except Exception:
                raise _BadArg("%s must be a %sbuffer of %s (a NumPy array), not %s" % (
                    name, "writable " if writable else "", needs, _what(obj)))
        self.held = True
        if not PyBuffer_IsContiguous(&self.view, b"C"):
            raise _BadArg("%s must be C-contiguous" % name)
        e = _element(formatted, self.view.format, self.view.itemsize, obj)
        if e not in accepted:
            raise _BadArg("%s holds %s; it must hold %s" % (
                name, _element_str(e, self.view.format), needs))
        if self.view.len // self.view.itemsize < need:
            raise _BadArg("%s holds %d elements; its dims and leading dimension need %d" % (
                name, self.view.len // self.view.itemsize, need))

    def __dealloc__(self):
        if self.held:
            PyBuffer_Release(&self.view)


cdef char _trans(object t, str name) except 0:
    """'N', 'n', 'T' or 't' (a str or bytes of one character); anything else
    reaches C as a character it refuses."""
    if isinstance(t, str) and len(t) == 1 and ord(t) < 128:
        return ord(t)
    if isinstance(t, bytes) and len(t) == 1:
        return t[0] if t[0] != 0 else b'?'
    _fail("%s must be one character ('N' or 'T'), not %s" % (name, _what(t)))


cdef int64_t _extent(bint trans, int64_t rows, int64_t cols, int64_t ld):
    """Elements a row-major rows x cols matrix (stored transposed when trans)
    with leading dimension ld spans."""
    if trans:
        rows, cols = cols, rows
    if rows <= 0 or cols <= 0:
        return 0
    return (rows - 1) * ld + cols


cdef _gemm(bint bf16, transa, transb, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc):
    cdef char ta, tb
    cdef int64_t m, n, k, la, lb, lc
    cdef float al, be
    cdef _matrix a, b, cm
    cdef dnnl_status_t st
    c.cydnnl_clear_error()
    try:
        ta, tb = _trans(transa, "transa"), _trans(transb, "transb")
        m, n, k = _int(M, "M"), _int(N, "N"), _int(K, "K")
        la, lb, lc = _int(lda, "lda"), _int(ldb, "ldb"), _int(ldc, "ldc")
        al, be = _float(alpha, "alpha"), _float(beta, "beta")
        ok = (ta in b"NnTt" and tb in b"NnTt" and m >= 0 and n >= 0 and k >= 0
              and la >= max(1, m if ta in b"Tt" else k) and lb >= max(1, k if tb in b"Tt" else n)
              and lc >= max(1, n))
        if bf16:
            ab = (("u", 2), "bfloat16")
            ab_needs = "bf16 values (ml_dtypes.bfloat16 or uint16)"
        else:
            ab = (("f", 4),)
            ab_needs = "float32 values"
        # sizes are only meaningful for arguments C accepts; it rejects the others
        a = _matrix(A, "A", ab, ab_needs, False,
                    _extent(ta in b"Tt", m, k, la) if ok else 0)
        b = _matrix(B, "B", ab, ab_needs, False,
                    _extent(tb in b"Tt", k, n, lb) if ok else 0)
        cm = _matrix(C, "C", (("f", 4),), "float32 values", True,
                     _extent(False, m, n, lc) if ok else 0)
    except Exception as err:
        return _bad(err)
    with nogil:
        if bf16:
            st = c.dnnl_gemm_bf16bf16f32(ta, tb, m, n, k, al, <const uint16_t *>a.view.buf, la,
                                         <const uint16_t *>b.view.buf, lb, be,
                                         <float *>cm.view.buf, lc)
        else:
            st = c.dnnl_sgemm(ta, tb, m, n, k, al, <const float *>a.view.buf, la,
                              <const float *>b.view.buf, lb, be, <float *>cm.view.buf, lc)
    return st


def dnnl_sgemm(transa, transb, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc):
    """Row-major C = alpha * op(A) . op(B) + beta * C for float32 buffers;
    op(X) is X for 'N' and X^T for 'T'. With beta = 0, C is not read."""
    return _gemm(False, transa, transb, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc)


def dnnl_gemm_bf16bf16f32(transa, transb, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc):
    """The same with A and B bf16 (ml_dtypes.bfloat16 or uint16 arrays of
    the bits) and C float32."""
    return _gemm(True, transa, transb, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc)


cdef _igemm(bint a_signed, transa, transb, offsetc, M, N, K, alpha, A, lda, ao, B, ldb, bo,
            beta, C, ldc, co):
    cdef char ta, tb, oc
    cdef int64_t m, n, k, la, lb, lc
    cdef int a_off, b_off
    cdef float al, be
    cdef _matrix a, b, cm, off
    cdef dnnl_status_t st
    c.cydnnl_clear_error()
    try:
        ta, tb = _trans(transa, "transa"), _trans(transb, "transb")
        oc = _trans(offsetc, "offsetc")
        m, n, k = _int(M, "M"), _int(N, "N"), _int(K, "K")
        la, lb, lc = _int(lda, "lda"), _int(ldb, "ldb"), _int(ldc, "ldc")
        al, be = _float(alpha, "alpha"), _float(beta, "beta")
        a_off = _int32(ao, "ao")
        b_off = _int32(bo, "bo")
        if not (-128 <= a_off <= 127 if a_signed else 0 <= a_off <= 255):
            _fail("ao = %d does not fit in %s" % (a_off, "int8" if a_signed else "uint8"))
        if not -128 <= b_off <= 127:
            _fail("bo = %d does not fit in int8" % b_off)
        ok = (ta in b"NnTt" and tb in b"NnTt" and m >= 0 and n >= 0 and k >= 0
              and la >= max(1, m if ta in b"Tt" else k) and lb >= max(1, k if tb in b"Tt" else n)
              and lc >= max(1, n))
        # uint8's buffer format is that of raw bytes
        a = _matrix(A, "A", (("i", 1),) if a_signed else (("u", 1), "raw"),
                    "int8 values" if a_signed else "uint8 values", False,
                    _extent(ta in b"Tt", m, k, la) if ok else 0)
        b = _matrix(B, "B", (("i", 1),), "int8 values", False,
                    _extent(tb in b"Tt", k, n, lb) if ok else 0)
        cm = _matrix(C, "C", (("i", 4),), "int32 values", True,
                     _extent(False, m, n, lc) if ok else 0)
        need = {b"F": 1, b"C": m, b"R": n}.get(bytes([oc]).upper(), 0) if ok else 0
        off = _matrix(co, "co", (("i", 4),), "int32 values", False, need)
    except Exception as err:
        return _bad(err)
    with nogil:
        if a_signed:
            st = c.dnnl_gemm_s8s8s32(ta, tb, oc, m, n, k, al, <const int8_t *>a.view.buf, la,
                                     <int8_t>a_off, <const int8_t *>b.view.buf, lb,
                                     <int8_t>b_off, be, <int32_t *>cm.view.buf, lc,
                                     <const int32_t *>off.view.buf)
        else:
            st = c.dnnl_gemm_u8s8s32(ta, tb, oc, m, n, k, al, <const uint8_t *>a.view.buf, la,
                                     <uint8_t>a_off, <const int8_t *>b.view.buf, lb,
                                     <int8_t>b_off, be, <int32_t *>cm.view.buf, lc,
                                     <const int32_t *>off.view.buf)
    return st


def dnnl_gemm_u8s8s32(transa, transb, offsetc, M, N, K, alpha, A, lda, ao, B, ldb, bo, beta,
                      C, ldc, co):
    """Row-major C (int32) = alpha * (op(A) - ao) . (op(B) - bo) + beta * C + co,
    A uint8, B int8; offsetc 'F' (co holds 1 value), 'C' (M values, one per
    row of C) or 'R' (N values, one per column); rounded and saturated."""
    return _igemm(False, transa, transb, offsetc, M, N, K, alpha, A, lda, ao, B, ldb, bo, beta,
                  C, ldc, co)


def dnnl_gemm_s8s8s32(transa, transb, offsetc, M, N, K, alpha, A, lda, ao, B, ldb, bo, beta,
                      C, ldc, co):
    """The same with A int8."""
    return _igemm(True, transa, transb, offsetc, M, N, K, alpha, A, lda, ao, B, ldb, bo, beta,
                  C, ldc, co)


def cydnnl_gemm_isa(bf16):
    """The dnnl_cpu_isa_t level dnnl_sgemm (bf16 false) or
    dnnl_gemm_bf16bf16f32 (bf16 true) runs at; dnnl_cpu_isa_default: none."""
    try:
        return c.cydnnl_gemm_isa(1 if bf16 else 0)
    except Exception as err:
        _bad(err)
        return dnnl_cpu_isa_default
