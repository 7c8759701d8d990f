/* The CPU's instruction sets and oneDNN's ISA controls (oneDNN's
 * cpu_isa_traits.hpp/.cpp): detection with cpuid and xgetbv, the ISA limit
 * (ONEDNN_MAX_CPU_ISA, dnnl_set_max_cpu_isa) and the ISA hints
 * (ONEDNN_CPU_ISA_HINTS, dnnl_set_cpu_isa_hints).
 *
 * Included by dnnl_c/core/cpu_isa.pyx only: the settings below are static,
 * and there must be one copy of them in the process. */
#ifndef CYDNNL_CPU_ISA_H
#define CYDNNL_CPU_ISA_H

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#define CYDNNL_X86 1
#else
#define CYDNNL_X86 0
#endif

/* oneDNN's internal ISA bits. The public dnnl_cpu_isa_t values do not order
 * the levels the way oneDNN does (avx10_1_512_amx_fp16 is not a bit subset
 * of avx10_2_amx_2 there), so the limit is kept in this form: a level is
 * allowed when the limit has all its feature bits and an AVX10 version at
 * least as high (oneDNN's mayiuse). */
enum {
    CY_AVX10_VERSION = 0xfu,
    CY_XMM = 1u << 4, CY_YMM = 1u << 5, CY_ZMM = 1u << 6, CY_AMX_TILE = 1u << 7,
    CY_EVEX_CORE = 1u << 8, CY_AVX2 = 1u << 9, CY_VEX_VNNI = 1u << 10,
    CY_VEX_VNNI_2 = 1u << 11, CY_EVEX_VNNI = 1u << 12, CY_EVEX_BF16 = 1u << 13,
    CY_EVEX_FP16 = 1u << 14, CY_AMX_INT8 = 1u << 15, CY_AMX_BF16 = 1u << 16,
    CY_AMX_FP16 = 1u << 17, CY_AMX_2 = 1u << 18,
    CY_AVX10 = CY_AVX2 | CY_VEX_VNNI | CY_EVEX_CORE | CY_EVEX_VNNI | CY_EVEX_BF16
            | CY_EVEX_FP16,
    CY_ISA_ALL = ~0u >> 1 /* oneDNN's isa_all: every bit but the prefer_ymm hint */
};

#define CY_SSE41 (CY_XMM)
#define CY_AVX (CY_YMM | CY_SSE41)
#define CY_AVX2_L (CY_AVX2 | CY_AVX)
#define CY_AVX2_VNNI (CY_VEX_VNNI | CY_AVX2_L)
#define CY_AVX2_VNNI_2 (CY_AVX2_VNNI | CY_VEX_VNNI_2)
#define CY_AVX512_CORE (CY_EVEX_CORE | CY_ZMM | CY_AVX2_L)
#define CY_AVX512_CORE_VNNI (CY_EVEX_VNNI | CY_AVX512_CORE)
#define CY_AVX512_CORE_BF16 (CY_EVEX_BF16 | CY_AVX512_CORE_VNNI)
#define CY_AVX10_1_512 (1u | CY_AVX10 | CY_ZMM | CY_YMM | CY_XMM)
#define CY_AVX10_1_512_AMX (CY_AVX10_1_512 | CY_AMX_TILE | CY_AMX_INT8 | CY_AMX_BF16)
#define CY_AVX10_1_512_AMX_FP16 (CY_AVX10_1_512_AMX | CY_AMX_FP16)
#define CY_AVX10_2 (2u | CY_AVX10 | CY_VEX_VNNI_2 | CY_XMM | CY_YMM | CY_ZMM)
#define CY_AVX10_2_AMX_2 \
    (CY_AVX10_2 | CY_AMX_TILE | CY_AMX_INT8 | CY_AMX_BF16 | CY_AMX_FP16 | CY_AMX_2)

typedef struct {
    int pub;            /* the dnnl_cpu_isa_t value */
    unsigned mask;      /* oneDNN's internal bits */
    const char *env;    /* the ONEDNN_MAX_CPU_ISA value naming it (lower case) */
    const char *alias;  /* the older name oneDNN also accepts there, or NULL */
    const char *info;   /* oneDNN's description (get_isa_info) */
} cydnnl_isa_level_t;

/* Highest first: the effective ISA is the first the limit and the CPU allow
 * (oneDNN's get_isa_info_t order). */
#define CYDNNL_N_ISA_LEVELS 13
static const cydnnl_isa_level_t cydnnl_isa_levels[CYDNNL_N_ISA_LEVELS] = {
    {0x22fff, CY_AVX10_2_AMX_2, "avx10_2_amx_2", "avx10_2_512_amx_2",
     "Intel AVX10.2 with float16, Intel DL Boost and Intel AMX with bfloat16, "
     "float16, float8 and 8-bit integer support"},
    {0x201ff, CY_AVX10_2, "avx10_2", "avx10_2_512", "Intel AVX10.2"},
    {0x1fef, CY_AVX10_1_512_AMX_FP16, "avx10_1_512_amx_fp16", "avx512_core_amx_fp16",
     "Intel AVX-512 with float16, Intel DL Boost and bfloat16 support and "
     "Intel AMX with bfloat16, float16 and 8-bit integer support"},
    {0xfef, CY_AVX10_1_512_AMX, "avx10_1_512_amx", "avx512_core_amx",
     "Intel AVX-512 with float16, Intel DL Boost and bfloat16 support and "
     "Intel AMX with bfloat16 and 8-bit integer support"},
    {0x1ef, CY_AVX10_1_512, "avx10_1_512", "avx512_core_fp16",
     "Intel AVX-512 with float16, Intel DL Boost and bfloat16 support"},
    {0xe7, CY_AVX512_CORE_BF16, "avx512_core_bf16", NULL,
     "Intel AVX-512 with Intel DL Boost and bfloat16 support"},
    {0x67, CY_AVX512_CORE_VNNI, "avx512_core_vnni", NULL, "Intel AVX-512 with Intel DL Boost"},
    {0x27, CY_AVX512_CORE, "avx512_core", NULL,
     "Intel AVX-512 with AVX512BW, AVX512VL, and AVX512DQ extensions"},
    {0x1f, CY_AVX2_VNNI_2, "avx2_vnni_2", NULL,
     "Intel AVX2 with Intel DL Boost, float16 and bfloat16 support"},
    {0xf, CY_AVX2_VNNI, "avx2_vnni", NULL, "Intel AVX2 with Intel DL Boost"},
    {0x7, CY_AVX2_L, "avx2", NULL, "Intel AVX2"},
    {0x3, CY_AVX, "avx", NULL, "Intel AVX"},
    {0x1, CY_SSE41, "sse41", NULL, "Intel SSE4.1"},
};

static int cydnnl_isa_index(int pub) {
    int i;
    for (i = 0; i < CYDNNL_N_ISA_LEVELS; i++)
        if (cydnnl_isa_levels[i].pub == pub) return i;
    return -1;
}

static int cydnnl_isa_allows(unsigned limit, unsigned level) {
    unsigned features = level & ~CY_AVX10_VERSION;
    return (limit & features) == features
            && (limit & CY_AVX10_VERSION) >= (level & CY_AVX10_VERSION);
}

/* ------------------------------------------------------------ detection */

/* One bit per level: whether this CPU and its OS support it. */
static unsigned cydnnl_cpu_levels_cache;
static int cydnnl_cpu_levels_done;

#if CYDNNL_X86
static unsigned long long cydnnl_xgetbv0(void) {
    unsigned eax, edx;
    __asm__ volatile("xgetbv" : "=a"(eax), "=d"(edx) : "c"(0));
    return ((unsigned long long)edx << 32) | eax;
}

#define CY_BIT(r, n) (((r) >> (n)) & 1u)

static unsigned cydnnl_detect_levels(void) {
    unsigned a, b, c, d, max_leaf, sub7 = 0;
    unsigned c1 = 0, b7 = 0, c7 = 0, d7 = 0, a71 = 0, d71 = 0, a1e = 0, avx10_ver = 0;
    unsigned long long xcr0 = 0;
    int os_avx, os_avx512, os_amx, os_apx;
    int sse41, avx, avx2, avx2_vnni, avx2_vnni_2, core, core_vnni, core_bf16, fp16;
    int amx_tile, amx, amx_fp16, avx10_2, amx_2;
    unsigned levels = 0;
    if (!__get_cpuid(0, &max_leaf, &b, &c, &d)) return 0;
    __get_cpuid(1, &a, &b, &c1, &d);
    if (max_leaf >= 7) {
        __get_cpuid_count(7, 0, &sub7, &b7, &c7, &d7);
        if (sub7 >= 1) __get_cpuid_count(7, 1, &a71, &b, &c, &d71);
    }
    if (max_leaf >= 0x1e) __get_cpuid_count(0x1e, 1, &a1e, &b, &c, &d);
    if (CY_BIT(d71, 19) && max_leaf >= 0x24) {
        __get_cpuid_count(0x24, 0, &a, &b, &c, &d);
        avx10_ver = b & 0xff;
    }
    /* The OS must save a register state before code may use it (XCR0):
     * SSE+AVX (bits 1-2), AVX-512 opmask and zmm (5-7), AMX tiles (17-18),
     * APX (19). We never run AMX code, so AMX only needs the OS to support
     * it; oneDNN also asks Linux for permission before its AMX kernels. */
    if (CY_BIT(c1, 27)) xcr0 = cydnnl_xgetbv0();
    os_avx = (xcr0 & 0x6) == 0x6;
    os_avx512 = os_avx && (xcr0 & 0xe0) == 0xe0;
    os_amx = (xcr0 & 0x60000) == 0x60000;
    os_apx = os_avx && CY_BIT(xcr0, 19);

    sse41 = CY_BIT(c1, 19);
    avx = os_avx && CY_BIT(c1, 28);
    /* our AVX2 code may use FMA; every AVX2 CPU has it */
    avx2 = avx && CY_BIT(b7, 5) && CY_BIT(c1, 12);
    avx2_vnni = avx2 && CY_BIT(a71, 4);
    avx2_vnni_2 = avx2_vnni && CY_BIT(d71, 4) && CY_BIT(d71, 5);
    core = os_avx512 && CY_BIT(b7, 16) && CY_BIT(b7, 17) && CY_BIT(b7, 30) && CY_BIT(b7, 31);
    core_vnni = core && CY_BIT(c7, 11);
    core_bf16 = core_vnni && CY_BIT(a71, 5);
    fp16 = core_bf16 && avx2_vnni && CY_BIT(d7, 23);
    amx_tile = os_amx && CY_BIT(d7, 24);
    amx = fp16 && amx_tile && CY_BIT(d7, 25) && CY_BIT(d7, 22);
    amx_fp16 = amx && CY_BIT(a71, 21);
    avx10_2 = os_avx512 && avx10_ver >= 2 && avx2_vnni_2 && CY_BIT(b7, 16)
            && os_apx && CY_BIT(d71, 21) && CY_BIT(a71, 31);
    amx_2 = avx10_2 && amx_tile && CY_BIT(a1e, 6) && CY_BIT(a1e, 7) && CY_BIT(a1e, 8)
            && CY_BIT(a1e, 4);

    {
        const int has[CYDNNL_N_ISA_LEVELS] = {amx_2, avx10_2, amx_fp16, amx, fp16, core_bf16,
                core_vnni, core, avx2_vnni_2, avx2_vnni, avx2, avx, sse41};
        int i;
        for (i = 0; i < CYDNNL_N_ISA_LEVELS; i++)
            if (has[i]) levels |= 1u << i;
    }
    return levels;
}
#else
static unsigned cydnnl_detect_levels(void) { return 0; }
#endif

/* Racing first calls compute the same value: no lock needed. */
static unsigned cydnnl_cpu_levels(void) {
    if (!__atomic_load_n(&cydnnl_cpu_levels_done, __ATOMIC_ACQUIRE)) {
        cydnnl_cpu_levels_cache = cydnnl_detect_levels();
        __atomic_store_n(&cydnnl_cpu_levels_done, 1, __ATOMIC_RELEASE);
    }
    return cydnnl_cpu_levels_cache;
}

/* The highest level both the limit and the CPU allow (dnnl_cpu_isa_t). */
static int cydnnl_isa_highest(unsigned limit) {
    unsigned levels = cydnnl_cpu_levels();
    int i;
    for (i = 0; i < CYDNNL_N_ISA_LEVELS; i++)
        if (((levels >> i) & 1u) && cydnnl_isa_allows(limit, cydnnl_isa_levels[i].mask))
            return cydnnl_isa_levels[i].pub;
    return 0;
}

/* ------------------------------------------------------------ settings */

/* oneDNN's set_once_before_first_get_setting_t: the initial value comes from
 * the environment when the setting is first touched; set() succeeds once and
 * only before the first get(); get() locks. */
enum { CY_SETTING_UNREAD = 0, CY_SETTING_IDLE = 1, CY_SETTING_LOCKED = 2 };
typedef struct {
    unsigned value;
    int state;
} cydnnl_setting_t;

static cydnnl_setting_t cydnnl_isa_limit = {CY_ISA_ALL, CY_SETTING_UNREAD};
static cydnnl_setting_t cydnnl_isa_hints = {0, CY_SETTING_UNREAD};
static char cydnnl_settings_lock;

static void cydnnl_settings_acquire(void) {
    while (__atomic_test_and_set(&cydnnl_settings_lock, __ATOMIC_ACQUIRE)) {}
}

static void cydnnl_settings_release(void) {
    __atomic_clear(&cydnnl_settings_lock, __ATOMIC_RELEASE);
}

/* oneDNN's getenv_string_user: ONEDNN_<name>, else DNNL_<name>; a value
 * empty or of 128 characters or more counts as unset; lower case. */
static void cydnnl_getenv_user(const char *name, char *out) {
    static const char *prefixes[2] = {"ONEDNN_", "DNNL_"};
    char full[64];
    int i;
    out[0] = '\0';
    for (i = 0; i < 2; i++) {
        const char *v;
        size_t n, k;
        strcpy(full, prefixes[i]);
        strcat(full, name);
        v = getenv(full);
        n = v == NULL ? 0 : strlen(v);
        if (n == 0 || n >= 128) continue;
        for (k = 0; k <= n; k++) out[k] = (char)tolower((unsigned char)v[k]);
        return;
    }
}

/* An unknown name leaves the limit off, as in oneDNN. */
static unsigned cydnnl_isa_limit_from_env(void) {
    char v[128];
    int i;
    cydnnl_getenv_user("MAX_CPU_ISA", v);
    for (i = 0; i < CYDNNL_N_ISA_LEVELS; i++) {
        const cydnnl_isa_level_t *l = &cydnnl_isa_levels[i];
        if (strcmp(v, l->env) == 0 || (l->alias != NULL && strcmp(v, l->alias) == 0))
            return l->mask;
    }
    return CY_ISA_ALL; /* "default" included */
}

static unsigned cydnnl_isa_hints_from_env(void) {
    char v[128];
    cydnnl_getenv_user("CPU_ISA_HINTS", v);
    return strcmp(v, "prefer_ymm") == 0 ? 1u : 0u;
}

/* Called under the lock; state is also read without it, hence atomics. */
static void cydnnl_setting_touch(cydnnl_setting_t *s, unsigned (*from_env)(void)) {
    if (__atomic_load_n(&s->state, __ATOMIC_RELAXED) == CY_SETTING_UNREAD) {
        s->value = from_env();
        __atomic_store_n(&s->state, CY_SETTING_IDLE, __ATOMIC_RELAXED);
    }
}

/* 1 when set, 0 when the setting was already set or read. */
static int cydnnl_setting_set(cydnnl_setting_t *s, unsigned (*from_env)(void), unsigned v) {
    int ok = 0;
    cydnnl_settings_acquire();
    cydnnl_setting_touch(s, from_env);
    if (__atomic_load_n(&s->state, __ATOMIC_RELAXED) != CY_SETTING_LOCKED) {
        s->value = v;
        ok = 1;
        __atomic_store_n(&s->state, CY_SETTING_LOCKED, __ATOMIC_RELEASE);
    }
    cydnnl_settings_release();
    return ok;
}

static unsigned cydnnl_setting_get(cydnnl_setting_t *s, unsigned (*from_env)(void)) {
    unsigned v;
    if (__atomic_load_n(&s->state, __ATOMIC_ACQUIRE) == CY_SETTING_LOCKED) return s->value;
    cydnnl_settings_acquire();
    cydnnl_setting_touch(s, from_env);
    v = s->value;
    __atomic_store_n(&s->state, CY_SETTING_LOCKED, __ATOMIC_RELEASE);
    cydnnl_settings_release();
    return v;
}

/* --------------------------------------------------- what cpu_isa.pyx calls */

enum { CY_ISA_OK = 0, CY_ISA_BAD_VALUE = 1, CY_ISA_LOCKED = 2, CY_ISA_NOT_X86 = 3 };

static int cydnnl_set_max_isa(int pub) {
    unsigned mask;
    int i;
    if (!CYDNNL_X86) return CY_ISA_NOT_X86;
    if (pub == 0) {
        mask = CY_ISA_ALL;
    } else {
        i = cydnnl_isa_index(pub);
        if (i < 0) return CY_ISA_BAD_VALUE;
        mask = cydnnl_isa_levels[i].mask;
    }
    return cydnnl_setting_set(&cydnnl_isa_limit, cydnnl_isa_limit_from_env, mask)
            ? CY_ISA_OK : CY_ISA_LOCKED;
}

/* Reading the effective ISA locks the limit, as oneDNN's mayiuse does, and
 * the hints, which oneDNN reads with it on AVX-512 bf16 CPUs. */
static int cydnnl_isa_effective(void) {
    cydnnl_setting_get(&cydnnl_isa_hints, cydnnl_isa_hints_from_env);
    return cydnnl_isa_highest(cydnnl_setting_get(&cydnnl_isa_limit, cydnnl_isa_limit_from_env));
}

static int cydnnl_isa_detected(void) {
    return cydnnl_isa_highest(CY_ISA_ALL);
}

/* oneDNN's mayiuse(level): the limit allows it and the CPU has it. */
static int cydnnl_isa_has(int pub) {
    unsigned limit = cydnnl_setting_get(&cydnnl_isa_limit, cydnnl_isa_limit_from_env);
    int i = cydnnl_isa_index(pub);
    if (pub == 0) return 1;
    if (i < 0) return 0;
    return ((cydnnl_cpu_levels() >> i) & 1u) && cydnnl_isa_allows(limit, cydnnl_isa_levels[i].mask);
}

static const char *cydnnl_isa_info(int pub) {
    int i = cydnnl_isa_index(pub);
    return i < 0 ? "Intel 64" : cydnnl_isa_levels[i].info;
}

/* oneDNN's short name of a level ("avx2"), as implementation names use it. */
static const char *cydnnl_isa_name(int pub) {
    int i = cydnnl_isa_index(pub);
    return i < 0 ? "any" : cydnnl_isa_levels[i].env;
}

static int cydnnl_set_isa_hints(int hints) {
    if (!CYDNNL_X86) return CY_ISA_NOT_X86;
    if (hints != 0 && hints != 1) return CY_ISA_BAD_VALUE;
    return cydnnl_setting_set(&cydnnl_isa_hints, cydnnl_isa_hints_from_env, (unsigned)hints)
            ? CY_ISA_OK : CY_ISA_LOCKED;
}

static int cydnnl_get_isa_hints(void) {
    return (int)cydnnl_setting_get(&cydnnl_isa_hints, cydnnl_isa_hints_from_env);
}

#endif
