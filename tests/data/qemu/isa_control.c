/* A control for test_qemu_smoke.py: runs one instruction of the level named
 * on the command line ("avx2": an FMA on ymm registers, "avx512": an add on
 * zmm registers), so that the test can check QEMU's CPU model refuses
 * (SIGILL) the levels it lacks: a smoke run without SIGILL then means the
 * library never ran them. Built without -m flags; each function carries
 * its own target. */
#include <immintrin.h>
#include <stdio.h>
#include <string.h>

/* Whole vectors through memory: the compiler cannot shrink them to scalar
 * (or SSE) instructions. */
float buf[16];

__attribute__((target("avx2,fma"), noinline)) void run_avx2(void) {
    __m256 v = _mm256_loadu_ps(buf);
    _mm256_storeu_ps(buf, _mm256_fmadd_ps(v, v, v));
}

__attribute__((target("avx512f"), noinline)) void run_avx512(void) {
    __m512 v = _mm512_loadu_ps(buf);
    _mm512_storeu_ps(buf, _mm512_add_ps(v, v));
}

int main(int argc, char **argv) {
    int i, n;
    if (argc != 2) return 2;
    for (i = 0; i < 16; i++) buf[i] = 3.0f;
    if (strcmp(argv[1], "avx2") == 0) {
        run_avx2();         /* 3 * 3 + 3 in 8 lanes */
        n = 8;
    } else if (strcmp(argv[1], "avx512") == 0) {
        run_avx512();       /* 3 + 3 in 16 lanes */
        for (i = 0; i < 16; i++) buf[i] += 6.0f;
        n = 16;
    } else {
        return 2;
    }
    for (i = 0; i < n; i++)
        if (buf[i] != 12.0f) return 1;
    printf("ok\n");
    return 0;
}
