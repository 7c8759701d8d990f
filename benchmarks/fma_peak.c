/* The machine's f32 peak, measured: common.measure_peak() compiles this file at run
 * time with the system's gcc (flags for the vector width of the ISA level the
 * run is limited to) and calls fma_peak() through ctypes.
 *
 * Each thread runs NACC independent chains acc = acc * a + b in registers:
 * no loads, no stores, enough chains to cover the FMA latency on every port
 * (Zen 5: 4 cycles x 2 pipes = 8 in flight) and few enough to stay in the
 * registers (24 of 32 zmm, 12 of 16 ymm or xmm: a spilled chain would wait
 * on store-to-load forwarding and the figure would be too low), so the loop is
 * bound by the FMA (or, without FMA, multiply + add) throughput alone. This
 * is the bound on any f32 GEMM at that vector width, not a library's figure.
 */
#include <immintrin.h>
#include <omp.h>

#if defined(__AVX512F__)
typedef __m512 vec;
#define LANES 16
#define NACC 24
#define SET1 _mm512_set1_ps
#define STEP(x) x = _mm512_fmadd_ps(x, a, b)
#define ADD _mm512_add_ps
#define STORE _mm512_storeu_ps
#elif defined(__AVX__)
typedef __m256 vec;
#define LANES 8
#define NACC 12
#define SET1 _mm256_set1_ps
#if defined(__FMA__)
#define STEP(x) x = _mm256_fmadd_ps(x, a, b)
#else
#define STEP(x) x = _mm256_add_ps(_mm256_mul_ps(x, a), b)
#endif
#define ADD _mm256_add_ps
#define STORE _mm256_storeu_ps
#else
typedef __m128 vec;
#define LANES 4
#define NACC 12
#define SET1 _mm_set1_ps
#define STEP(x) x = _mm_add_ps(_mm_mul_ps(x, a), b)
#define ADD _mm_add_ps
#define STORE _mm_storeu_ps
#endif

/* Lanes of one vector (4, 8 or 16): what width the compiler flags chose. */
int fma_peak_lanes(void) { return LANES; }

/* 1 when a multiply-add is one fused instruction, 0 for mul + add. */
int fma_peak_fused(void)
{
#if defined(__AVX512F__) || defined(__FMA__)
    return 1;
#else
    return 0;
#endif
}

/* Runs `iters` rounds of NACC vector multiply-adds on each of `threads`
 * threads; returns the floating-point operations done (2 per lane and
 * multiply-add). The caller times the call. */
double fma_peak(int threads, long iters)
{
    volatile float sink = 0.f;
#pragma omp parallel num_threads(threads)
    {
        const vec a = SET1(0.999999f), b = SET1(1e-7f);
        vec acc[NACC];
        for (int k = 0; k < NACC; k++)
            acc[k] = SET1(1.f + 1e-3f * (k + omp_get_thread_num()));
        for (long i = 0; i < iters; i++) {
            /* fully unrolled so each chain lives in its own register */
#pragma GCC unroll 32
            for (int k = 0; k < NACC; k++)
                STEP(acc[k]);
        }
        vec s = acc[0];
        for (int k = 1; k < NACC; k++)
            s = ADD(s, acc[k]);
        float out[LANES];
        STORE(out, s);
        /* keeps the chains live: the compiler cannot drop the loop */
#pragma omp critical
        sink += out[0];
    }
    (void)sink;
    return 2.0 * LANES * NACC * (double)iters * threads;
}
