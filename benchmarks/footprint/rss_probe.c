/* Linked into oneDNN's example programs by benchmarks/bench_footprint.py
   (-Wl,--wrap=dnnl_engine_create): the RSS when the program creates its
   engine (before any primitive) and its peak RSS at exit, on stderr. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oneapi/dnnl/dnnl.h"

static long base_kb = -1;

static long status_kb(const char *field) {
    char line[256];
    long kb = -1;
    size_t n = strlen(field);
    FILE *f = fopen("/proc/self/status", "r");
    if (!f) return -1;
    while (fgets(line, sizeof line, f))
        if (strncmp(line, field, n) == 0) { kb = atol(line + n); break; }
    fclose(f);
    return kb;
}

static void report(void) {
    fprintf(stderr, "FOOTPRINT base_kb=%ld peak_kb=%ld\n", base_kb, status_kb("VmHWM:"));
}

dnnl_status_t __real_dnnl_engine_create(dnnl_engine_t *, dnnl_engine_kind_t, size_t);

dnnl_status_t __wrap_dnnl_engine_create(
        dnnl_engine_t *engine, dnnl_engine_kind_t kind, size_t index) {
    if (base_kb < 0) {
        base_kb = status_kb("VmRSS:");
        atexit(report);
    }
    return __real_dnnl_engine_create(engine, kind, index);
}
