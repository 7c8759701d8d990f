/* What oneDNN's C example (cpu_cnn_training_f32.c) takes from its
   examples/example_utils.h, written for benchmarks/bench_footprint.py: the
   status check and the copy of user data into a memory object. */
#ifndef BENCH_EXAMPLE_UTILS_H
#define BENCH_EXAMPLE_UTILS_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oneapi/dnnl/dnnl.h"

#define CHECK(f)                                                              \
    do {                                                                      \
        dnnl_status_t s_ = (f);                                               \
        if (s_ != dnnl_success) {                                             \
            printf("[%s:%d] error: %s returns %d\n", __FILE__, __LINE__, #f,  \
                   (int)s_);                                                  \
            exit(2);                                                          \
        }                                                                     \
    } while (0)

static inline void write_to_dnnl_memory(void *handle, dnnl_memory_t mem) {
    const_dnnl_memory_desc_t md;
    void *ptr = NULL;
    CHECK(dnnl_memory_get_memory_desc(mem, &md));
    CHECK(dnnl_memory_get_data_handle(mem, &ptr));
    if (ptr && handle) memcpy(ptr, handle, dnnl_memory_desc_get_size(md));
}
#endif
