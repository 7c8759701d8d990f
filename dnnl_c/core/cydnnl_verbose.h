/* The C side of verbose output: a bounded string builder the lines are
   formatted into (printf-style appends that truncate, never overflow), the
   wall clock oneDNN's timestamps use, and a one-shot flag for the header. */
#ifndef CYDNNL_VERBOSE_H
#define CYDNNL_VERBOSE_H
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <pthread.h>
#include <regex.h>
#include <sys/time.h>

typedef struct {
    char *buf;
    size_t cap;     /* bytes at buf, the terminating NUL included */
    size_t len;     /* characters written so far */
} cydnnl_vstr;

static inline void cydnnl_vs_init(cydnnl_vstr *s, char *buf, size_t cap) {
    s->buf = buf;
    s->cap = cap;
    s->len = 0;
    if (cap > 0) buf[0] = 0;
}

static inline void cydnnl_vs_printf(cydnnl_vstr *s, const char *fmt, ...)
        __attribute__((format(printf, 2, 3)));

static inline void cydnnl_vs_printf(cydnnl_vstr *s, const char *fmt, ...) {
    va_list ap;
    int n;
    if (s->cap == 0 || s->len + 1 >= s->cap) return;
    va_start(ap, fmt);
    n = vsnprintf(s->buf + s->len, s->cap - s->len, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    s->len += (size_t)n;
    if (s->len >= s->cap) s->len = s->cap - 1;
}

/* Milliseconds since the epoch, as oneDNN's get_msec (timestamps). */
static inline double cydnnl_wall_ms(void) {
    struct timeval tv;
    gettimeofday(&tv, NULL);
    return 1e3 * (double)tv.tv_sec + 1e-3 * (double)tv.tv_usec;
}

/* Runs init once per process, whichever thread comes first (the verbose
   settings read from the environment). Only verbose.pyx calls it. */
static inline void cydnnl_verbose_once(void (*init)(void)) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, init);
}

/* ONEDNN_VERBOSE's filter=REGEX: 1 when the extended regular expression
   matches somewhere in text, 0 when not, -1 when it does not compile. */
static inline int cydnnl_regex_search(const char *pattern, const char *text) {
    regex_t re;
    int r;
    if (regcomp(&re, pattern, REG_EXTENDED | REG_NOSUB) != 0) return -1;
    r = regexec(&re, text, 0, NULL, 0) == 0;
    regfree(&re);
    return r;
}

/* Sets *flag and returns what it was: the first caller gets 0. */
static inline int cydnnl_test_and_set(int *flag) {
    return __atomic_exchange_n(flag, 1, __ATOMIC_ACQ_REL);
}
#endif
