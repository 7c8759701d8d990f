/* Kernels compiled once per ISA level (NumPy's dispatch model, oneDNN's
   level names). A kernel module's C file dnnl_c/kernels/isa/<module>_isa.c
   is compiled once per level by setup.py, with that level's flags and
   -DCYDNNL_ISA_SUFFIX=<level>; it defines one table of function pointers,
   named with CYDNNL_ISA_FN(name) -> name_<level>. The module's Cython code,
   compiled for baseline x86-64, picks a table with CYDNNL_ISA_SELECT when
   an implementation is initialised; levels the compiler could not build
   (CYDNNL_HAVE_<LEVEL> unset) select NULL. Tables hold pointers only: no
   vector type crosses from one level to another. */
#ifndef CYDNNL_ISA_H
#define CYDNNL_ISA_H
#include <stddef.h>

/* dnnl_cpu_isa_t values of the levels we compile for */
#define CYDNNL_ISA_SSE41 0x1
#define CYDNNL_ISA_AVX2 0x7
#define CYDNNL_ISA_AVX512_CORE 0x27
#define CYDNNL_ISA_AVX512_CORE_BF16 0xe7

#define CYDNNL_ISA_CAT_(a, b) a##_##b
#define CYDNNL_ISA_CAT(a, b) CYDNNL_ISA_CAT_(a, b)
#ifdef CYDNNL_ISA_SUFFIX
#define CYDNNL_ISA_FN(name) CYDNNL_ISA_CAT(name, CYDNNL_ISA_SUFFIX)
#endif

/* The tables of one kernel module, declared for every level built. */
#define CYDNNL_ISA_DECLARE(T, name)                                                  \
    extern const T name##_sse41, name##_avx2, name##_avx512_core,                    \
        name##_avx512_core_bf16;

#ifdef CYDNNL_HAVE_SSE41
#define CYDNNL_ISA_PICK_SSE41(name) &name##_sse41
#else
#define CYDNNL_ISA_PICK_SSE41(name) NULL
#endif
#ifdef CYDNNL_HAVE_AVX2
#define CYDNNL_ISA_PICK_AVX2(name) &name##_avx2
#else
#define CYDNNL_ISA_PICK_AVX2(name) NULL
#endif
#ifdef CYDNNL_HAVE_AVX512_CORE
#define CYDNNL_ISA_PICK_AVX512_CORE(name) &name##_avx512_core
#else
#define CYDNNL_ISA_PICK_AVX512_CORE(name) NULL
#endif
#ifdef CYDNNL_HAVE_AVX512_CORE_BF16
#define CYDNNL_ISA_PICK_AVX512_CORE_BF16(name) &name##_avx512_core_bf16
#else
#define CYDNNL_ISA_PICK_AVX512_CORE_BF16(name) NULL
#endif

/* The table for a dnnl_cpu_isa_t level; NULL for a level not built. */
#define CYDNNL_ISA_SELECT(name, level)                                               \
    ((level) == CYDNNL_ISA_AVX512_CORE_BF16 ? CYDNNL_ISA_PICK_AVX512_CORE_BF16(name)   \
     : (level) == CYDNNL_ISA_AVX512_CORE ? CYDNNL_ISA_PICK_AVX512_CORE(name)           \
     : (level) == CYDNNL_ISA_AVX2 ? CYDNNL_ISA_PICK_AVX2(name)                         \
     : (level) == CYDNNL_ISA_SSE41 ? CYDNNL_ISA_PICK_SSE41(name) : NULL)

#endif /* CYDNNL_ISA_H */
