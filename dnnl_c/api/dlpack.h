/* The DLPack ABI (https://dmlc.github.io/dlpack/latest/), the tensor
 * exchange format of NumPy, PyTorch, JAX and the Python array API, as
 * version 1.0 of the specification lays it out, and the block an exported
 * memory's tensor lives in. Field order and widths are the ABI: do not
 * reorder. */
#ifndef CYDNNL_DLPACK_H
#define CYDNNL_DLPACK_H

#include <stdint.h>
#include <Python.h>

enum { CYDNNL_DLPACK_MAJOR = 1, CYDNNL_DLPACK_MINOR = 0 };

/* device types (DLDeviceType) and type codes (DLDataTypeCode) we use */
enum { kDLCPU = 1 };
enum { kDLInt = 0, kDLUInt = 1, kDLFloat = 2, kDLBfloat = 4, kDLBool = 6 };
/* DLManagedTensorVersioned.flags */
#define DLPACK_FLAG_BITMASK_READ_ONLY (1ULL << 0)
#define DLPACK_FLAG_BITMASK_IS_COPIED (1ULL << 1)

typedef struct {
    int32_t device_type;      /* a DLDeviceType, an enum of int size */
    int32_t device_id;
} DLDevice;

typedef struct {
    uint8_t code;             /* a DLDataTypeCode */
    uint8_t bits;
    uint16_t lanes;
} DLDataType;

typedef struct {
    void *data;
    DLDevice device;
    int32_t ndim;
    DLDataType dtype;
    int64_t *shape;
    int64_t *strides;         /* in elements; NULL: compact row-major */
    uint64_t byte_offset;
} DLTensor;

typedef struct DLManagedTensor {
    DLTensor dl_tensor;
    void *manager_ctx;
    void (*deleter)(struct DLManagedTensor *self);
} DLManagedTensor;

typedef struct {
    uint32_t major;
    uint32_t minor;
} DLPackVersion;

typedef struct DLManagedTensorVersioned {
    DLPackVersion version;
    void *manager_ctx;
    void (*deleter)(struct DLManagedTensorVersioned *self);
    uint64_t flags;
    DLTensor dl_tensor;
} DLManagedTensorVersioned;

/* What cydnnl hands out: one allocation holding either form of the managed
 * tensor, its shape and strides, and a reference to the Python object that
 * keeps the memory's buffer alive (dropped by the deleter). */
typedef struct {
    DLManagedTensor legacy;
    DLManagedTensorVersioned versioned;
    int64_t shape[12];
    int64_t strides[12];
    PyObject *owner;
} cydnnl_dlpack_export_t;

#endif
