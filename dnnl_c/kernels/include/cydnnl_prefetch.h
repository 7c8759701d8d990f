/* Software prefetch of the next block's operands while this block computes
   (kernels/prefetch.pxd declares it to Cython). A loop that reads a block
   from memory and then computes on it for long leaves the memory idle while
   it computes, and the next block's reads stall: asking for the next block
   a slice at a time during the computation overlaps the two. Spans are
   rows of bytes, `stride` apart; prefetching never faults, so rows need no
   alignment or bounds care. */
#ifndef CYDNNL_PREFETCH_H
#define CYDNNL_PREFETCH_H
#include <stdint.h>

#define CYDNNL_PREFETCH_SPANS 4

typedef struct {
    const char *base[CYDNNL_PREFETCH_SPANS];
    int64_t row_lines[CYDNNL_PREFETCH_SPANS], rows[CYDNNL_PREFETCH_SPANS];
    int64_t stride[CYDNNL_PREFETCH_SPANS];
    int n, s;           /* spans; the cursor's span */
    int64_t r, l;       /* the cursor's row and line in it */
    int64_t left;       /* lines not yet asked for */
} cydnnl_prefetch_t;

static inline void cydnnl_prefetch_init(cydnnl_prefetch_t *pf) {
    pf->n = pf->s = 0;
    pf->r = pf->l = pf->left = 0;
}

/* rows rows of `bytes` bytes, the first at p, `stride` bytes apart */
static inline void cydnnl_prefetch_add(cydnnl_prefetch_t *pf, const void *p, int64_t bytes,
                                       int64_t rows, int64_t stride) {
    if (pf->n == CYDNNL_PREFETCH_SPANS || bytes <= 0 || rows <= 0)
        return;
    pf->base[pf->n] = (const char *)p;
    pf->row_lines[pf->n] = (bytes + 63) / 64 + 1;   /* a row's ends may split lines */
    pf->rows[pf->n] = rows;
    pf->stride[pf->n] = stride;
    pf->left += pf->row_lines[pf->n] * rows;
    pf->n++;
}

/* The next `lines` lines (all that are left when lines < 0), into L1 (into
   L2 only, the bf16 weight gradient on 2 Zen 5 cores ran 3% slower; Zen 4
   measured no difference). */
static inline void cydnnl_prefetch_step(cydnnl_prefetch_t *pf, int64_t lines) {
    if (lines < 0 || lines > pf->left)
        lines = pf->left;
    pf->left -= lines;
    while (lines-- > 0 && pf->s < pf->n) {
        __builtin_prefetch(pf->base[pf->s] + pf->r * pf->stride[pf->s] + pf->l * 64, 0, 3);
        if (++pf->l == pf->row_lines[pf->s]) {
            pf->l = 0;
            if (++pf->r == pf->rows[pf->s]) {
                pf->r = 0;
                pf->s++;
            }
        }
    }
}
/* The lines of rows of bytes bytes, ld bytes apart, to be written: into L1
   for writing (a tile of C, written at the tile's end) */
static inline void cydnnl_prefetch_rows_w(void *p, int64_t rows, int64_t bytes, int64_t ld) {
    for (int64_t r = 0; r < rows; r++) {
        char *c = (char *)((uintptr_t)((char *)p + r * ld) & ~(uintptr_t)63);
        char *end = (char *)p + r * ld + bytes;
        for (; c < end; c += 64)
            __builtin_prefetch(c, 1, 3);
    }
}
#endif
