/* The compiled core of meteor-metric's METEOR 1.5 engine: the matchers, the jar's beam aligner, the statistics
 * count and the score's formula.
 *
 * A C port of meteor_metric/meteor15/aligner.py (align, _search, _settled_last, _settle, _branch, _moves),
 * statistics.py (StatsCounter.count, count_chunks), the matchers of matcher.py and paraphrase.py, and
 * formula.py (compute_metrics, fragmentation "chunks"), which stay the reference. Every quirk of the jar
 * those functions reproduce is reproduced here in the same way: int-truncated aligner gains, the distance
 * of a branch added to its parent, the skip mutating the parent, fixed matches, the stable sort, the beam.
 * The beam search is in beam_search.h: path keys are packed like aligner._search packs them, in 64-bit
 * integers where every key of a problem provably fits, else in 128-bit ones (no overflow for the sizes the
 * input checks admit). Every input is checked here again, whatever the Python glue checked before.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>


#define MAX_TOKENS (1 << 20)      /* tokens per side */
#define MAX_CANDIDATES (1 << 30)  /* candidates per pair */
#define MAX_BEAM (1 << 16)
#define MAX_MODULES 64


#define SKIP (-1)
#define CARRY (-2)

typedef struct {
    int32_t cand;
    int64_t prev;
} Hist;

typedef struct {
    int32_t n_hyp, n_ref, n_cand, n_modules, beam;
    const int32_t *c;          /* 5 ints per candidate: ref_start ref_len hyp_start hyp_len module */
    const unsigned char *exact;
    int32_t *first;            /* n_ref + 1 offsets: candidates at reference position j */
} Problem;

#define RS(p, i) ((p)->c[5 * (i)])
#define RL(p, i) ((p)->c[5 * (i) + 1])
#define HS(p, i) ((p)->c[5 * (i) + 2])
#define HL(p, i) ((p)->c[5 * (i) + 3])
#define MOD(p, i) ((p)->c[5 * (i) + 4])

/* Scratch memory for one call: pieces handed out by a bump pointer (16-byte aligned) and all given back at
 * once by arena_release, which keeps the block for the next call. What does not fit is taken from malloc
 * and freed at the release, after which the block is grown to hold it (up to ARENA_KEEP bytes). Built with
 * AddressSanitizer, every piece is its own malloc, so an access past a piece is caught. */
#if defined(__SANITIZE_ADDRESS__)
#define ARENA_KEEP ((size_t)0)
#else
#define ARENA_KEEP ((size_t)1 << 22)
#endif

typedef struct {
    char *base;
    size_t cap, used, spilled;
    void **spill; /* the pieces taken from malloc */
    size_t n_spill, cap_spill;
} Arena;

static void *arena_take(Arena *a, size_t size) {
    const size_t rounded = size ? (size + 15) & ~(size_t)15 : 16;
    if (rounded <= a->cap - a->used) {
        void *at = a->base + a->used;
        a->used += rounded;
        return at;
    }
    if (a->n_spill == a->cap_spill) {
        size_t cap = a->cap_spill ? 2 * a->cap_spill : 16;
        void **s = (void **)realloc(a->spill, cap * sizeof(void *));
        if (!s) return NULL;
        a->spill = s;
        a->cap_spill = cap;
    }
    void *piece = malloc(size ? size : 1); /* (exactly the size asked for: the sanitizer's bounds) */
    if (!piece) return NULL;
    a->spill[a->n_spill++] = piece;
    a->spilled += rounded;
    return piece;
}

/* realloc for a piece of the arena: `old` (NULL, or `old_size` bytes taken before) in a piece of `size`. */
static void *arena_grow(Arena *a, void *old, size_t old_size, size_t size) {
    void *piece = arena_take(a, size);
    if (piece && old) memcpy(piece, old, old_size < size ? old_size : size);
    return piece;
}

static void arena_release(Arena *a) {
    for (size_t k = 0; k < a->n_spill; k++) free(a->spill[k]);
    a->n_spill = 0;
    if (a->spilled && a->cap < ARENA_KEEP) {
        size_t cap = a->cap + a->spilled;
        cap = cap < ARENA_KEEP ? cap : ARENA_KEEP;
        free(a->base);
        a->base = (char *)malloc(cap);
        a->cap = a->base ? cap : 0;
    }
    a->used = 0;
    a->spilled = 0;
}

static void arena_free(Arena *a) {
    arena_release(a);
    free(a->base);
    free(a->spill);
    memset(a, 0, sizeof *a);
}

typedef struct {
    Hist *h;
    int64_t n, cap;
    Arena *arena;
} History;

static inline int64_t hist_push(History *hs, int32_t cand, int64_t prev) {
    if (hs->n == hs->cap) {
        int64_t cap = hs->cap ? 2 * hs->cap : 1024;
        Hist *h = (Hist *)arena_grow(hs->arena, hs->h, (size_t)hs->n * sizeof(Hist), (size_t)cap * sizeof(Hist));
        if (!h) return -2;
        hs->h = h;
        hs->cap = cap;
    }
    hs->h[hs->n].cand = cand;
    hs->h[hs->n].prev = prev;
    return hs->n++;
}

/* Room for `cap` entries (at most HIST_RESERVE_MAX) before the first push: the history of a search grew by
 * doubling, and each doubling copied it. 0 on memory exhaustion. */
#define HIST_RESERVE_MAX ((int64_t)1 << 16)
static int hist_reserve(History *hs, int64_t cap) {
    cap = cap < HIST_RESERVE_MAX ? cap : HIST_RESERVE_MAX;
    if (cap <= hs->cap) return 1;
    Hist *h = (Hist *)arena_grow(hs->arena, hs->h, (size_t)hs->n * sizeof(Hist), (size_t)cap * sizeof(Hist));
    if (!h) return 0;
    hs->h = h;
    hs->cap = cap;
    return 1;
}

static int span_used(const uint64_t *bits, int32_t start, int32_t len) {
    for (int32_t k = start; k < start + len; k++)
        if (bits[k >> 6] >> (k & 63) & 1) return 1;
    return 0;
}

/* Whether candidate i's hypothesis words are used in a path's bitset: one word and mask where its span lies
 * in one bitset word (span_mask[i] != 0), else bit by bit. */
static inline int span_blocked(const uint64_t *bits, const int32_t *span_word, const uint64_t *span_mask,
                               const Problem *p, int32_t i) {
    return span_mask[i] ? (bits[span_word[i]] & span_mask[i]) != 0 : span_used(bits, HS(p, i), HL(p, i));
}

static void span_set(uint64_t *bits, int32_t start, int32_t len) {
    for (int32_t k = start; k < start + len; k++) bits[k >> 6] |= (uint64_t)1 << (k & 63);
}



static int32_t gain_of(const Problem *p, int32_t i) {
    return p->exact[MOD(p, i)] ? HL(p, i) + RL(p, i) : HL(p, i) / 2 + RL(p, i) / 2;
}

static int32_t distance_of(const Problem *p, int32_t i) {
    int32_t d = RS(p, i) - HS(p, i);
    return d < 0 ? -d : d;
}

/* Several arrays in one allocation: carve() hands out 16-byte-aligned pieces of a block. Called once with
 * base NULL it only measures; carve_allocate() then gets the block and the same calls hand it out. */
typedef struct {
    char *base;
    size_t used;
} Carve;

static void *carve(Carve *c, size_t count, size_t size) {
    size_t at = (c->used + 15) & ~(size_t)15;
    c->used = at + count * size;
    return c->base ? c->base + at : NULL;
}

/* 1 with the block taken from the arena (and the measure reset), 0 without memory. */
static int carve_allocate(Carve *c, Arena *a) {
    c->base = (char *)arena_take(a, c->used);
    c->used = 0;
    return c->base != NULL;
}

#define KEY int64_t
#define NAMED(x) x##_64
#include "beam_search.h"
#undef KEY
#undef NAMED
#define KEY __int128
#define NAMED(x) x##_128
#include "beam_search.h"
#undef KEY
#undef NAMED

/* aligner._search with the narrowest keys that hold every key of the problem exactly: a key is at most
 * (n_hyp + n_ref + 2) * chunk_radix in size (gains of disjoint matches, one chunk per position, each
 * distance once), and the search also forms bound - key. */
static int64_t search(const Problem *p, const int32_t *fixed, const int32_t *ref_cover, History *hs,
                      Arena *arena) {
    __int128 dist_sum = 1;
    for (int32_t i = 0; i < p->n_cand; i++) dist_sum += distance_of(p, i);
    const __int128 size = (__int128)(p->n_hyp + p->n_ref + 4) * (p->n_ref + 2) * dist_sum;
    return size < ((__int128)1 << 62) ? search_64(p, fixed, ref_cover, hs, arena)
                                      : search_128(p, fixed, ref_cover, hs, arena);
}

/* aligner.align: writes the chosen candidates in reference order to out (n_ref slots); returns their
 * number, -1 on memory exhaustion. */
static int32_t align_problem(const Problem *p, int32_t *out, Arena *arena) {
    /* the hypothesis and reference cover counts (zeroed) and the fixed candidates, in one piece */
    const size_t n_ints = (size_t)p->n_hyp + 2 * (size_t)p->n_ref + 3;
    int32_t *hyp_cover = (int32_t *)arena_take(arena, n_ints * sizeof(int32_t));
    if (!hyp_cover) return -1;
    memset(hyp_cover, 0, n_ints * sizeof(int32_t));
    int32_t *ref_cover = hyp_cover + p->n_hyp + 1;
    int32_t *fixed = ref_cover + p->n_ref + 1;
    History hs = {NULL, 0, 0, arena};
    for (int32_t i = 0; i < p->n_cand; i++) {
        for (int32_t k = HS(p, i); k < HS(p, i) + HL(p, i); k++) hyp_cover[k]++;
        for (int32_t k = RS(p, i); k < RS(p, i) + RL(p, i); k++) ref_cover[k]++;
    }
    int ambiguous = 0;
    for (int32_t j = 0; j < p->n_ref; j++) {
        fixed[j] = -1;
        int32_t n_at = p->first[j + 1] - p->first[j];
        if (n_at == 1) {
            int32_t m = p->first[j], alone = 1;
            for (int32_t k = j; k < j + RL(p, m) && alone; k++) alone = ref_cover[k] == 1;
            for (int32_t k = HS(p, m); k < HS(p, m) + HL(p, m) && alone; k++) alone = hyp_cover[k] == 1;
            if (alone) {
                fixed[j] = m;
                continue;
            }
        }
        if (n_at) ambiguous = 1;
    }
    if (ambiguous) {
        int64_t h = search(p, fixed, ref_cover, &hs, arena);
        if (h == -2) return -1;
        for (; h >= 0; h = hs.h[h].prev) fixed[RS(p, hs.h[h].cand)] = hs.h[h].cand;
    }
    int32_t n_out = 0;
    for (int32_t j = 0; j < p->n_ref; j++)
        if (fixed[j] >= 0) out[n_out++] = fixed[j];
    return n_out;
}

/* Checks a problem's candidates (each span inside its sentence, a known module, reference starts in
 * order) and fills the per-position offsets. Sets a Python ValueError and returns -1 on bad input. */
static int check_problem(Problem *p) {
    if (p->n_hyp < 0 || p->n_ref < 0 || p->n_hyp > MAX_TOKENS || p->n_ref > MAX_TOKENS) {
        PyErr_Format(PyExc_ValueError, "token counts must be in 0..%d, got %d and %d", MAX_TOKENS, p->n_hyp,
                     p->n_ref);
        return -1;
    }
    if (p->beam < 1 || p->beam > MAX_BEAM) {
        PyErr_Format(PyExc_ValueError, "beam_size must be in 1..%d, got %d", MAX_BEAM, p->beam);
        return -1;
    }
    if (p->n_modules < 1 || p->n_modules > MAX_MODULES) {
        PyErr_Format(PyExc_ValueError, "1..%d modules expected, got %d", MAX_MODULES, p->n_modules);
        return -1;
    }
    int32_t j = 0;
    p->first[0] = 0;
    for (int32_t i = 0; i < p->n_cand; i++) {
        int32_t rs = RS(p, i), rl = RL(p, i), hst = HS(p, i), hl = HL(p, i), mod = MOD(p, i);
        if (rs < 0 || rl < 1 || rl > p->n_ref || rs > p->n_ref - rl || hst < 0 || hl < 1 || hl > p->n_hyp ||
            hst > p->n_hyp - hl || mod < 0 || mod >= p->n_modules || rs < j) {
            PyErr_Format(PyExc_ValueError,
                         "candidate %d (%d, %d, %d, %d, %d) is outside the sentences (%d hypothesis, %d reference "
                         "tokens, %d modules) or out of reference order",
                         i, rs, rl, hst, hl, mod, p->n_hyp, p->n_ref, p->n_modules);
            return -1;
        }
        while (j < rs) p->first[++j] = i;
    }
    while (j < p->n_ref) p->first[++j] = p->n_cand;
    return 0;
}

static PyObject *py_align(PyObject *self, PyObject *args) {
    (void)self;
    int n_hyp, n_ref, beam;
    long long max_candidates;
    Py_buffer cands = {0}, exact = {0};
    if (!PyArg_ParseTuple(args, "iiy*y*iL:align", &n_hyp, &n_ref, &cands, &exact, &beam, &max_candidates))
        return NULL;
    PyObject *result = NULL;
    int32_t *first = NULL, *out = NULL;
    if (cands.len % (5 * (Py_ssize_t)sizeof(int32_t)) || cands.len / (5 * (Py_ssize_t)sizeof(int32_t)) > MAX_CANDIDATES) {
        PyErr_SetString(PyExc_ValueError, "candidates must be whole 5-int32 records, at most 2**30 of them");
        goto done;
    }
    Problem p;
    p.n_hyp = n_hyp;
    p.n_ref = n_ref;
    p.n_cand = (int32_t)(cands.len / (5 * (Py_ssize_t)sizeof(int32_t)));
    p.n_modules = (int32_t)exact.len;
    p.beam = beam;
    p.c = (const int32_t *)cands.buf;
    p.exact = (const unsigned char *)exact.buf;
    if (max_candidates >= 0 && p.n_cand > max_candidates) {
        result = Py_None;  /* over the caller's limit: no alignment */
        Py_INCREF(result);
        goto done;
    }
    if (n_ref < 0 || n_ref > MAX_TOKENS) {
        PyErr_Format(PyExc_ValueError, "token counts must be in 0..%d, got %d", MAX_TOKENS, n_ref);
        goto done;
    }
    first = (int32_t *)malloc(((size_t)n_ref + 1) * sizeof(int32_t));
    out = (int32_t *)malloc(((size_t)n_ref + 1) * sizeof(int32_t));
    if (!first || !out) {
        PyErr_NoMemory();
        goto done;
    }
    p.first = first;
    if (check_problem(&p)) goto done;
    int32_t n_out;
    Arena arena = {0};
    Py_BEGIN_ALLOW_THREADS
    n_out = align_problem(&p, out, &arena);
    arena_free(&arena);
    Py_END_ALLOW_THREADS
    if (n_out < 0) {
        PyErr_NoMemory();
        goto done;
    }
    result = PyTuple_New(n_out);
    if (!result) goto done;
    for (int32_t k = 0; k < n_out; k++) {
        PyObject *v = PyLong_FromLong(out[k]);
        if (!v) {
            Py_CLEAR(result);
            goto done;
        }
        PyTuple_SET_ITEM(result, k, v);
    }
done:
    free(first);
    free(out);
    PyBuffer_Release(&cands);
    PyBuffer_Release(&exact);
    return result;
}

static PyObject *int_tuple(const int64_t *v, int n) {
    PyObject *t = PyTuple_New(n);
    if (!t) return NULL;
    for (int k = 0; k < n; k++) {
        PyObject *x = PyLong_FromLongLong(v[k]);
        if (!x) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, k, x);
    }
    PyObject_GC_UnTrack(t); /* ints only: what CPython's collector would do in its next pass, done now */
    return t;
}

typedef struct {
    int64_t t_len, r_len, t_fun, r_fun, chunks, hyp_words, ref_words;
    int64_t tc[MAX_MODULES], rc[MAX_MODULES], tf[MAX_MODULES], rf[MAX_MODULES];
} Counts;

/* statistics.StatsCounter.count (without crossings) and aligner.count_chunks. m: 5 ints per match, in
 * reference order. Returns -1 (nothing set) if a match lies outside the sentences or out of order. */
static int count_matches(const int32_t *m, Py_ssize_t n_match, const unsigned char *hfw, const unsigned char *rfw,
                         const int32_t *hsz, const int32_t *rsz, Py_ssize_t n_hyp, Py_ssize_t n_ref, int n_modules,
                         Counts *out) {
    memset(out, 0, sizeof(Counts));
    for (Py_ssize_t k = 0; k < n_hyp; k++) {
        out->t_len += hsz[k];
        if (hfw[k]) out->t_fun += hsz[k];
    }
    for (Py_ssize_t k = 0; k < n_ref; k++) {
        out->r_len += rsz[k];
        if (rfw[k]) out->r_fun += rsz[k];
    }
    int64_t last = -1, idx = 0, prev_ref = -1;
    for (Py_ssize_t i = 0; i < n_match; i++) {
        int32_t rs = m[5 * i], rl = m[5 * i + 1], hst = m[5 * i + 2], hl = m[5 * i + 3], mod = m[5 * i + 4];
        if (rs < 0 || rl < 1 || rl > n_ref || rs > n_ref - rl || hst < 0 || hl < 1 || hl > n_hyp ||
            hst > n_hyp - hl || mod < 0 || mod >= n_modules || rs < prev_ref)
            return -1;
        prev_ref = rs + rl;
        for (int32_t k = hst; k < hst + hl; k++) {
            if (hfw[k]) out->tf[mod] += hsz[k];
            else out->tc[mod] += hsz[k];
        }
        for (int32_t k = rs; k < rs + rl; k++) {
            if (rfw[k]) out->rf[mod] += rsz[k];
            else out->rc[mod] += rsz[k];
        }
        out->hyp_words += hl;
        out->ref_words += rl;
        if (rs != idx && last != -1) {
            out->chunks++;
            last = -1;
        }
        if (last != -1 && hst != last) out->chunks++;
        idx = rs + rl;
        last = hst + hl;
    }
    if (last != -1) out->chunks++;
    return 0;
}

/* formula.compute_metrics for fragmentation="chunks" (the jar's MeteorScorer.computeMetrics): the same double
 * operations in the same order. A division by zero is IEEE's, which is Java's and java_div's; pow is libm's,
 * which math.pow calls, and the fragmentations METEOR makes (>= 0, +inf or NaN) raise nothing there that
 * _java_pow would map otherwise (0 to a negative power: +inf in both). */
typedef struct {
    double weights[MAX_MODULES], alpha, beta, gamma, delta;
    int n_weights; /* at most the modules */
} Formula;

enum { M_PRECISION, M_RECALL, M_F1, M_FMEAN, M_FRAG, M_PENALTY, M_SCORE, N_METRICS };

static void formula_apply(const Formula *f, const Counts *c, int n_modules, double m[N_METRICS]) {
    const double delta = f->delta, rest = 1.0 - delta;
    const double t_wl = (delta * (double)(c->t_len - c->t_fun)) + (rest * (double)c->t_fun);
    const double r_wl = (delta * (double)(c->r_len - c->r_fun)) + (rest * (double)c->r_fun);
    double t_wm = 0.0, r_wm = 0.0;
    for (int k = 0; k < f->n_weights; k++) { /* content matches of every module first, as the jar */
        t_wm += (double)c->tc[k] * f->weights[k] * delta;
        r_wm += (double)c->rc[k] * f->weights[k] * delta;
    }
    for (int k = 0; k < f->n_weights; k++) {
        t_wm += (double)c->tf[k] * f->weights[k] * rest;
        r_wm += (double)c->rf[k] * f->weights[k] * rest;
    }
    const double precision = t_wm / t_wl, recall = r_wm / r_wl;
    const double f1 = 2.0 * precision * recall / (precision + recall);
    const double fmean = 1.0 / ((1.0 - f->alpha) / precision + f->alpha / recall);
    int64_t t_total = 0, r_total = 0;
    for (int k = 0; k < n_modules; k++) {
        t_total += c->tc[k] + c->tf[k];
        r_total += c->rc[k] + c->rf[k];
    }
    const int perfect = t_total == c->t_len && r_total == c->r_len && c->chunks == 1;
    const double frag = perfect ? 0.0 : (double)c->chunks / ((double)(c->hyp_words + c->ref_words) / 2.0);
    const double penalty = f->gamma * pow(frag, f->beta);
    double score = fmean * (1.0 - penalty);
    if (!(score > 0.0)) score = 0.0; /* NaN, and Math.max(score, 0.0) */
    m[M_PRECISION] = precision;
    m[M_RECALL] = recall;
    m[M_F1] = f1;
    m[M_FMEAN] = fmean;
    m[M_FRAG] = frag;
    m[M_PENALTY] = penalty;
    m[M_SCORE] = score;
}

/* A Formula from (weights, alpha, beta, gamma, delta), for n_modules modules. 0, or -1 with an error set. */
static int formula_parse(PyObject *spec, int n_modules, Formula *f) {
    PyObject *weights;
    if (!PyArg_ParseTuple(spec, "Odddd:formula", &weights, &f->alpha, &f->beta, &f->gamma, &f->delta)) return -1;
    PyObject *seq = PySequence_Fast(weights, "formula: weights must be a sequence of floats");
    if (!seq) return -1;
    const Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    int rc = 0;
    if (n > n_modules) {
        PyErr_Format(PyExc_ValueError, "formula: %zd weights but statistics for %d modules", n, n_modules);
        rc = -1;
    }
    for (Py_ssize_t k = 0; k < n && !rc; k++) {
        f->weights[k] = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(seq, k));
        if (f->weights[k] == -1.0 && PyErr_Occurred()) rc = -1;
    }
    f->n_weights = (int)n;
    Py_DECREF(seq);
    return rc;
}

/* The counts as a tuple in MeteorStats field order (without crossings). */
static PyObject *counts_tuple(const Counts *c, int n_modules) {
    PyObject *result = NULL;
    PyObject *t[4] = {int_tuple(c->tc, n_modules), int_tuple(c->rc, n_modules), int_tuple(c->tf, n_modules),
                      int_tuple(c->rf, n_modules)};
    if (t[0] && t[1] && t[2] && t[3])
        result = Py_BuildValue("(LLLLOOOOLLL)", (long long)c->t_len, (long long)c->r_len, (long long)c->t_fun,
                               (long long)c->r_fun, t[0], t[1], t[2], t[3], (long long)c->chunks,
                               (long long)c->hyp_words, (long long)c->ref_words);
    if (result) PyObject_GC_UnTrack(result); /* ints and the untracked tuples above */
    for (int k = 0; k < 4; k++) Py_XDECREF(t[k]);
    return result;
}

static PyObject *py_count(PyObject *self, PyObject *args) {
    (void)self;
    int n_modules;
    Py_buffer matches = {0}, hyp_fw = {0}, ref_fw = {0}, hyp_size = {0}, ref_size = {0};
    if (!PyArg_ParseTuple(args, "y*y*y*y*y*i:count", &matches, &hyp_fw, &ref_fw, &hyp_size, &ref_size, &n_modules))
        return NULL;
    PyObject *result = NULL;
    const Py_ssize_t n_hyp = hyp_fw.len, n_ref = ref_fw.len;
    if (matches.len % (5 * (Py_ssize_t)sizeof(int32_t)) || hyp_size.len != n_hyp * (Py_ssize_t)sizeof(int32_t) ||
        ref_size.len != n_ref * (Py_ssize_t)sizeof(int32_t) || n_modules < 1 || n_modules > MAX_MODULES ||
        n_hyp > MAX_TOKENS || n_ref > MAX_TOKENS) {
        PyErr_SetString(PyExc_ValueError, "count: inconsistent buffer sizes or module count");
        goto done;
    }
    Counts c;
    if (count_matches((const int32_t *)matches.buf, matches.len / (5 * (Py_ssize_t)sizeof(int32_t)),
                      (const unsigned char *)hyp_fw.buf, (const unsigned char *)ref_fw.buf,
                      (const int32_t *)hyp_size.buf, (const int32_t *)ref_size.buf, n_hyp, n_ref, n_modules, &c)) {
        PyErr_SetString(PyExc_ValueError, "count: a match is outside the sentences or out of order");
        goto done;
    }
    result = counts_tuple(&c, n_modules);
done:
    PyBuffer_Release(&matches);
    PyBuffer_Release(&hyp_fw);
    PyBuffer_Release(&ref_fw);
    PyBuffer_Release(&hyp_size);
    PyBuffer_Release(&ref_size);
    return result;
}

/* ---- The whole pair in C: a token table, the matchers and the paraphrase walk -------------------------- */

enum { K_EXACT = 0, K_STEM = 1, K_SYNONYM = 2, K_PARAPHRASE = 3 };
#define N_PARA_ARRAYS 5 /* tok, child, start, para, levels of a paraphrase index (paraphrase.py) */

/* A slot of the token table's index: a token's str hash, its id and its text (inline when it is 1-byte text of at
 * most INLINE_TEXT characters, else compared with the held key). One cache line holds two slots: a lookup
 * reads one slot and, for most tokens, nothing else (a dict of str read the entry, the key's text and the
 * id's int object: 8.7 % of the time on pairs with unique references went to those lookups). */
#define INLINE_TEXT 15
typedef struct {
    Py_hash_t hash;
    int32_t id; /* -1: an empty slot */
    int32_t length;
    unsigned char kind;
    unsigned char text[INLINE_TEXT];
} TokenSlot;

/* A scoring configuration and its token table: per distinct token (an id given by add_token) its Java
 * hash, stem hash, sorted synset ids, paraphrase vocabulary id, function-word flag and UTF-16 length, all
 * computed once by the Python engine's own functions. */
typedef struct {
    PyObject_HEAD
    int32_t n_tok, cap_tok;
    int32_t *hash, *stem, *para_id, *u16;
    unsigned char *fw;
    int64_t *syn_first; /* cap_tok + 1 offsets into syn */
    int64_t *syn;
    int64_t n_syn, cap_syn;
    int n_modules, beam, char_based, has_para;
    unsigned char kinds[MAX_MODULES], exact[MAX_MODULES];
    Py_buffer para_buf[N_PARA_ARRAYS];
    const uint32_t *para_arr[N_PARA_ARRAYS];
    Py_ssize_t para_len[N_PARA_ARRAYS];
    PyObject *match_type; /* a tuple subclass built with 5 items (core.alignment.Match) */
    TokenSlot *slots;     /* token (str) -> its id: an open-addressed index ... */
    uint64_t slot_mask;   /* ... of slot_mask + 1 slots (0: none yet), at most half of them full */
    PyObject **keys;      /* each id's token, an exact str (held) */
    PyObject *vocab;      /* the paraphrase vocabulary: word (str) -> id (NULL: no paraphrase module) */
    Formula formula;      /* the score's formula, ... */
    int has_formula;      /* ... if given (fragmentation "chunks") */
    struct Sentence *sentences; /* the sentences scored last, by their token tuple (sentence_slot) ... */
    size_t sentence_bytes;      /* ... and the memory they hold */
    struct PairSlot *pairs;     /* the pairs scored last, by their two token tuples (pair_slot) */
    struct MatchSlot *matches;  /* Matches made lately, shared (match_of); NULL: a match type with a dict */
    PyObject *stats_type, *stats_fields;     /* segment(): the classes of its results and their fields' ... */
    PyObject *segment_type, *segment_fields; /* ... names (held; NULL: not given, no segment()) ... */
    PyObject *signature;                     /* ... and the signature each segment result carries */
    Arena arena;          /* scratch memory of a call ... */
    int arena_busy;       /* ... unless a call re-entered (through a finalizer run by an allocation) */
} Core;

enum { P_TOK = 0, P_CHILD = 1, P_START = 2, P_PARA = 3, P_LEVELS = 4 };

typedef struct {
    int32_t *c;
    int64_t n, cap, limit; /* limit < 0: none */
    int over;
    Arena *arena;
} CandVec;

static int cand_push(CandVec *v, int32_t rs, int32_t rl, int32_t hs, int32_t hl, int32_t mod) {
    if (v->limit >= 0 && v->n >= v->limit) {
        v->over = 1;
        return 1;
    }
    if (v->n >= MAX_CANDIDATES) {
        v->over = 1;
        return 1;
    }
    if (v->n == v->cap) {
        int64_t cap = v->cap ? 2 * v->cap : 256;
        int32_t *c = (int32_t *)arena_grow(v->arena, v->c, (size_t)v->n * 5 * sizeof(int32_t),
                                           (size_t)cap * 5 * sizeof(int32_t));
        if (!c) return -1;
        v->c = c;
        v->cap = cap;
    }
    int32_t *r = v->c + 5 * v->n++;
    r[0] = rs;
    r[1] = rl;
    r[2] = hs;
    r[3] = hl;
    r[4] = mod;
    return 0;
}

typedef struct {
    int32_t node, pos;
} Occ;

typedef struct {
    int32_t start, len;
    uint32_t a, b;
} PPath;

/* A walk's nodes as bits of a 1,024-bit set (node + 1 hashed): a node whose bit is clear is not in it. */
#define WALK_SEEN_WORDS 16
static inline uint32_t walk_seen_bit(uint32_t key) {
    return (key * 0x9E3779B1u) >> 22;
}

typedef struct {
    Occ *occ;
    PPath *path;
    int64_t n_occ, cap_occ, n_path, cap_path;
    uint32_t *slot_node; /* an open-addressed index of the walk: node + 1 (0: empty) ... */
    int64_t *slot_first; /* ... its first occurrence (by position), ... */
    int64_t *slot_last;  /* ... its last, */
    int64_t *next;       /* and each occurrence's next one of the same node (-1: none) */
    uint64_t mask;
    uint64_t seen[WALK_SEEN_WORDS]; /* bit walk_seen_bit(node) set for each node in it: most look-ups miss */
    Arena *arena; /* where its arrays are */
} Walk;

static uint64_t slot_of(uint64_t key, uint64_t mask) {
    return (key * 0x9E3779B97F4A7C15ull >> 32) & mask;
}

/* Indexes the walk by node: each node's occurrences chained in the order found (ascending positions).
 * 0, or -1: no memory. */
static int walk_index(Walk *w) {
    uint64_t size = 16;
    while (size < 2 * (uint64_t)w->n_occ) size *= 2;
    Carve block = {NULL, 0};
    for (int pass = 0; pass < 2; pass++) {
        w->slot_node = (uint32_t *)carve(&block, size, sizeof(uint32_t));
        w->slot_first = (int64_t *)carve(&block, size, sizeof(int64_t));
        w->slot_last = (int64_t *)carve(&block, size, sizeof(int64_t));
        w->next = (int64_t *)carve(&block, (size_t)w->n_occ + 1, sizeof(int64_t));
        if (pass == 0 && !carve_allocate(&block, w->arena)) return -1;
    }
    memset(w->slot_node, 0, size * sizeof(uint32_t));
    memset(w->seen, 0, sizeof w->seen);
    w->mask = size - 1;
    for (int64_t k = 0; k < w->n_occ; k++) {
        uint32_t key = (uint32_t)w->occ[k].node + 1;
        const uint32_t bit = walk_seen_bit(key);
        w->seen[bit >> 6] |= (uint64_t)1 << (bit & 63);
        uint64_t at = slot_of(key, w->mask);
        while (w->slot_node[at] && w->slot_node[at] != key) at = (at + 1) & w->mask;
        w->next[k] = -1;
        if (w->slot_node[at]) {
            w->next[w->slot_last[at]] = k;
        } else {
            w->slot_node[at] = key;
            w->slot_first[at] = k;
        }
        w->slot_last[at] = k;
    }
    return 0;
}

/* paraphrase.ParaphraseTable._walk: every trie node a phrase starting at each position reaches, and the
 * phrases with paraphrases. Every index read from the file is checked. 0: done, -1: no memory, -2: the
 * index points outside its arrays. */
static int para_walk(const Core *core, const int32_t *ids, int32_t n, Walk *w) {
    const uint32_t *tok = core->para_arr[P_TOK], *child = core->para_arr[P_CHILD], *start = core->para_arr[P_START];
    const Py_ssize_t n_tok = core->para_len[P_TOK], n_child = core->para_len[P_CHILD],
                     n_start = core->para_len[P_START], n_para = core->para_len[P_PARA];
    for (int32_t s = 0; s < n; s++) {
        int32_t t = core->para_id[ids[s]];
        if (t < 0) continue;
        int64_t node = (int64_t)t + 1;
        int32_t end = s + 1;
        for (;;) {
            if (node + 1 >= n_child || node + 1 >= n_start || node > INT32_MAX) return -2;
            if (w->n_occ == w->cap_occ) {
                int64_t cap = w->cap_occ ? 2 * w->cap_occ : 64;
                Occ *o = (Occ *)arena_grow(w->arena, w->occ, (size_t)w->n_occ * sizeof(Occ), (size_t)cap * sizeof(Occ));
                if (!o) return -1;
                w->occ = o;
                w->cap_occ = cap;
            }
            w->occ[w->n_occ].node = (int32_t)node;
            w->occ[w->n_occ++].pos = s;
            uint32_t a = start[node], b = start[node + 1];
            if (a > b || b > n_para) return -2;
            if (a != b) {
                if (w->n_path == w->cap_path) {
                    int64_t cap = w->cap_path ? 2 * w->cap_path : 64;
                    PPath *pp = (PPath *)arena_grow(w->arena, w->path, (size_t)w->n_path * sizeof(PPath),
                                                    (size_t)cap * sizeof(PPath));
                    if (!pp) return -1;
                    w->path = pp;
                    w->cap_path = cap;
                }
                PPath *pp = &w->path[w->n_path++];
                pp->start = s;
                pp->len = end - s;
                pp->a = a;
                pp->b = b;
            }
            if (end >= n) break;
            t = core->para_id[ids[end]];
            if (t < 0) break;
            uint32_t lo = child[node], hi = child[node + 1];
            if (lo > hi || hi > n_tok) return -2;
            if (lo == hi) break;
            /* bisect_left(tok, t, lo, hi) without a branch on the comparisons (each a conditional move) */
            const uint32_t *base = tok + lo;
            for (uint32_t len = hi - lo; len > 1;) {
                const uint32_t half = len / 2;
                base = base[half] < (uint32_t)t ? base + half : base;
                len -= half;
            }
            const uint32_t l = (uint32_t)(base - tok) + (*base < (uint32_t)t);
            if (l == hi || tok[l] != (uint32_t)t) break;
            node = l;
            end++;
        }
    }
    return walk_index(w);
}

/* A sentence scored lately: its token tuple (a reference held: so the same object while it is here), its
 * token ids and, once walked, its paraphrase walk. A reference scored against many hypotheses (sorted
 * system outputs: 87.5 % of the WMT21 pairs of benchmarks/bench_loops.py follow a pair with the same
 * reference) or a candidate of an MBR matrix is looked up and walked once. Only exact tuples of exact str
 * of at most SENTENCE_TOKENS tokens are kept (their release runs no Python code), in SENTENCES slots chosen
 * by the tuple's address: a sentence evicts the one in its slot. Walks are kept while all the slots hold at
 * most SENTENCE_BYTES. */
#define SENTENCES 256
#define SENTENCE_TOKENS 256
#define SENTENCE_BYTES ((size_t)1 << 22)

typedef struct Sentence {
    PyObject *tokens; /* NULL: an empty slot */
    int32_t *ids;     /* its n token ids, then its walk's arrays: one block ... */
    size_t bytes;     /* ... of this size */
    int32_t n;
    int seen_again; /* looked up since it was kept: its walk is kept from then on */
    int walked;
    Walk walk;
} Sentence;

static Sentence *sentence_slot(const Core *core, PyObject *tokens) {
    return &core->sentences[slot_of((uint64_t)(uintptr_t)tokens >> 4, SENTENCES - 1)];
}

/* Whether a sentence can be kept: an exact tuple of at most SENTENCE_TOKENS exact str. */
static int sentence_keepable(PyObject *tokens, int32_t n) {
    if (!PyTuple_CheckExact(tokens) || n > SENTENCE_TOKENS) return 0;
    for (int32_t k = 0; k < n; k++)
        if (!PyUnicode_CheckExact(PyTuple_GET_ITEM(tokens, k))) return 0;
    return 1;
}

static void sentence_clear(Core *core, Sentence *s) {
    PyObject *tokens = s->tokens;
    core->sentence_bytes -= s->bytes;
    free(s->ids);
    memset(s, 0, sizeof *s);
    Py_XDECREF(tokens);
}

/* Keeps a sentence's ids (n of them) in its slot `s`, evicting the one there. The tuple's items are exact str
 * (checked by the caller). 0, or -1: no memory (nothing kept). */
static int sentence_keep(Core *core, Sentence *s, PyObject *tokens, const int32_t *ids, int32_t n) {
    sentence_clear(core, s);
    s->ids = (int32_t *)malloc(((size_t)n + 1) * sizeof(int32_t));
    if (!s->ids) return -1;
    memcpy(s->ids, ids, (size_t)n * sizeof(int32_t));
    s->n = n;
    s->bytes = ((size_t)n + 1) * sizeof(int32_t);
    core->sentence_bytes += s->bytes;
    Py_INCREF(tokens);
    s->tokens = tokens;
    return 0;
}

/* Keeps a sentence's walk (made in the arena) with it, in one block with its ids. 0, or -1: no memory (or
 * over SENTENCE_BYTES). */
static int sentence_keep_walk(Core *core, Sentence *s, const Walk *w) {
    const size_t slots = (size_t)w->mask + 1, n_occ = (size_t)w->n_occ, n_path = (size_t)w->n_path;
    Carve block = {NULL, 0};
    Walk kept = {0};
    int32_t *ids = NULL;
    for (int pass = 0; pass < 2; pass++) {
        ids = (int32_t *)carve(&block, (size_t)s->n + 1, sizeof(int32_t)); /* first: the block */
        kept.occ = (Occ *)carve(&block, n_occ + 1, sizeof(Occ));
        kept.path = (PPath *)carve(&block, n_path + 1, sizeof(PPath));
        kept.slot_node = (uint32_t *)carve(&block, slots, sizeof(uint32_t));
        kept.slot_first = (int64_t *)carve(&block, slots, sizeof(int64_t));
        kept.slot_last = (int64_t *)carve(&block, slots, sizeof(int64_t));
        kept.next = (int64_t *)carve(&block, n_occ + 1, sizeof(int64_t));
        if (pass == 0) {
            if (core->sentence_bytes - s->bytes + block.used > SENTENCE_BYTES) return -1;
            block.base = (char *)malloc(block.used);
            if (!block.base) return -1;
            block.used = 0;
        }
    }
    memcpy(ids, s->ids, (size_t)s->n * sizeof(int32_t));
    if (n_occ) memcpy(kept.occ, w->occ, n_occ * sizeof(Occ)); /* (an empty walk's arrays may be NULL) */
    if (n_path) memcpy(kept.path, w->path, n_path * sizeof(PPath));
    memcpy(kept.slot_node, w->slot_node, slots * sizeof(uint32_t));
    memcpy(kept.slot_first, w->slot_first, slots * sizeof(int64_t));
    memcpy(kept.slot_last, w->slot_last, slots * sizeof(int64_t));
    memcpy(kept.next, w->next, (n_occ + 1) * sizeof(int64_t));
    kept.n_occ = kept.cap_occ = w->n_occ;
    kept.n_path = kept.cap_path = w->n_path;
    kept.mask = w->mask;
    memcpy(kept.seen, w->seen, sizeof kept.seen);
    core->sentence_bytes += block.used - s->bytes;
    free(s->ids);
    s->ids = ids;
    s->bytes = block.used;
    s->walk = kept;
    s->walked = 1;
    return 0;
}

/* The walk of a sentence: its kept one, else made in `w` (and kept when the sentence is kept and was seen
 * again: the walks of sentences seen once are not copied). 0, -1, -2 as para_walk. */
static int sentence_walk(Core *core, Sentence *s, const int32_t *ids, int32_t n, Walk *w,
                         const Walk **walk) {
    if (s && s->walked) {
        *walk = &s->walk;
        return 0;
    }
    int rc = para_walk(core, ids, n, w);
    if (!rc && s && s->seen_again) sentence_keep_walk(core, s, w); /* (without memory: not kept) */
    *walk = w;
    return rc;
}

/* A pair scored lately: its two token tuples (references held: the same objects while they are here) and
 * score_pair's result for them. A pair scored again (the same hypothesis against the same reference: 10.6 %
 * of the WMT21 pairs of benchmarks/bench_loops.py, most of them two pairs apart) or scored against a
 * growing candidate limit is found without a dict keyed by the tuples, which hashed every token on each
 * lookup. PAIRS slots chosen by the two addresses; a pair evicts the one in its slot. Only pairs of
 * sentences that could be kept (sentence_keepable) are kept: what the slots hold stays bounded. */
#define PAIRS 1024

typedef struct PairSlot {
    PyObject *hyp, *ref; /* NULL: an empty slot */
    PyObject *result;    /* (alignment, fields, candidate count, values) */
    int64_t n_candidates;
} PairSlot;

static PairSlot *pair_slot(const Core *core, PyObject *hyp, PyObject *ref) {
    uint64_t key = (uint64_t)(uintptr_t)hyp >> 4 ^ ((uint64_t)(uintptr_t)ref >> 4) * 0xD6E8FEB86659FD93ull;
    return &core->pairs[slot_of(key, PAIRS - 1)];
}

/* Keeps a pair's result in its slot, evicting the one there (released last: the slot is consistent first). */
static void pair_keep(PairSlot *slot, PyObject *hyp, PyObject *ref, PyObject *result, int64_t n_candidates) {
    PairSlot old = *slot;
    Py_INCREF(hyp);
    Py_INCREF(ref);
    Py_INCREF(result);
    slot->hyp = hyp;
    slot->ref = ref;
    slot->result = result;
    slot->n_candidates = n_candidates;
    Py_XDECREF(old.hyp);
    Py_XDECREF(old.ref);
    Py_XDECREF(old.result);
}

static void pair_clear(PairSlot *slot) {
    PairSlot old = *slot;
    memset(slot, 0, sizeof *slot);
    Py_XDECREF(old.hyp);
    Py_XDECREF(old.ref);
    Py_XDECREF(old.result);
}

/* The first occurrence of node q in a walk (the next ones: w->next), or -1. */
static int64_t occ_find(const Walk *w, uint32_t q) {
    if (q == UINT32_MAX) return -1;
    const uint32_t bit = walk_seen_bit(q + 1);
    if (!(w->seen[bit >> 6] >> (bit & 63) & 1)) return -1;
    for (uint64_t at = slot_of(q + 1, w->mask); w->slot_node[at]; at = (at + 1) & w->mask)
        if (w->slot_node[at] == q + 1) return w->slot_first[at];
    return -1;
}

/* The phrase length of node q: bisect_right(levels, q) - 1 (-2: outside the index, or the root). */
static int32_t para_depth(const Core *core, uint32_t q) {
    const uint32_t *levels = core->para_arr[P_LEVELS];
    Py_ssize_t lo = 0, hi = core->para_len[P_LEVELS];
    if ((Py_ssize_t)q + 1 >= core->para_len[P_CHILD]) return -2;
    while (lo < hi) {
        Py_ssize_t mid = lo + (hi - lo) / 2;
        if (q < levels[mid]) hi = mid;
        else lo = mid + 1;
    }
    return lo - 1 >= 1 && lo - 1 <= MAX_TOKENS ? (int32_t)(lo - 1) : -2;
}

/* paraphrase.ParaphraseTable.matches for module `mod`. 0, 1 (over the candidate limit), -1, -2 as walk. */
static int para_matches(Core *core, const int32_t *hyp, int32_t n_hyp, const int32_t *ref, int32_t n_ref,
                        Sentence *const kept[2], int mod, CandVec *out) {
    Walk hw = {0}, rw = {0};
    const Walk *hwp = NULL, *rwp = NULL;
    hw.arena = rw.arena = out->arena;
    int rc = sentence_walk(core, kept[0], hyp, n_hyp, &hw, &hwp);
    if (!rc) rc = sentence_walk(core, kept[1], ref, n_ref, &rw, &rwp);
    const uint32_t *para = core->para_arr[P_PARA];
    for (int side = 0; side < 2 && !rc; side++) {
        const Walk *from = side ? hwp : rwp, *into = side ? rwp : hwp;
        for (int64_t k = 0; k < from->n_path && !rc; k++) {
            const PPath *pp = &from->path[k];
            for (uint32_t x = pp->a; x < pp->b && !rc; x++) {
                uint32_t q = para[x];
                int64_t at = occ_find(into, q);
                if (at < 0) continue;
                int32_t d = para_depth(core, q);
                if (d < 0) {
                    rc = -2;
                    break;
                }
                for (; at >= 0 && !rc; at = into->next[at]) {
                    int32_t pos = into->occ[at].pos;
                    /* the phrase found must fit its sentence (a damaged index could claim more) */
                    if (side == 0 && pos > n_hyp - d) rc = -2;
                    else if (side == 1 && pos > n_ref - d) rc = -2;
                    else if (side == 0) rc = cand_push(out, pp->start, pp->len, pos, d, mod);
                    else rc = cand_push(out, pos, d, pp->start, pp->len, mod);
                }
            }
        }
    }
    return rc;
}

/* Hypothesis positions by key (a word's hash, its stem's hash, a synset id): an open-addressed table from
 * a key to the chain of the positions added with it, the last added first; for the matchers' per-pair
 * indexes. */
typedef struct {
    int64_t *key;
    int32_t *head;       /* per slot: the first entry of its key's chain, -1: an empty slot */
    int32_t *pos, *next; /* per entry: its position, the next entry of its chain (-1: none) */
    int32_t n;
    uint64_t mask;
} ChainIndex;

/* An empty index for up to `entries` entries, in the arena. 0, or -1: no memory. */
static int chain_index_init(ChainIndex *x, int64_t entries, Arena *arena) {
    uint64_t size = 16;
    while (size < 2 * (uint64_t)entries) size *= 2;
    if (entries > INT32_MAX) return -1;
    Carve block = {NULL, 0};
    for (int pass = 0; pass < 2; pass++) {
        x->key = (int64_t *)carve(&block, size, sizeof(int64_t));
        x->head = (int32_t *)carve(&block, size, sizeof(int32_t));
        x->pos = (int32_t *)carve(&block, (size_t)entries + 1, sizeof(int32_t));
        x->next = (int32_t *)carve(&block, (size_t)entries + 1, sizeof(int32_t));
        if (pass == 0 && !carve_allocate(&block, arena)) return -1;
    }
    x->n = 0;
    x->mask = size - 1;
    memset(x->head, 0xff, size * sizeof(int32_t));
    return 0;
}

static uint64_t chain_index_slot(const ChainIndex *x, int64_t key) {
    uint64_t at = slot_of((uint64_t)key, x->mask);
    while (x->head[at] >= 0 && x->key[at] != key) at = (at + 1) & x->mask;
    return at;
}

/* Adds `pos` at the head of the chain of `key` (within the entries the index was made for). */
static void chain_index_add(ChainIndex *x, int64_t key, int32_t pos) {
    uint64_t at = chain_index_slot(x, key);
    x->key[at] = key;
    x->pos[x->n] = pos;
    x->next[x->n] = x->head[at];
    x->head[at] = x->n++;
}

/* The first entry of the chain of `key`, or -1 (the next ones: x->next; their positions: x->pos). */
static int32_t chain_index_first(const ChainIndex *x, int64_t key) {
    return x->head[chain_index_slot(x, key)];
}

/* The positions of each value (hashes or stem hashes), each chain in ascending order. 0, or -1: no memory. */
static int value_index_build(const int32_t *values, int32_t n, ChainIndex *x, Arena *arena) {
    if (chain_index_init(x, n, arena)) return -1;
    for (int32_t i = n - 1; i >= 0; i--) chain_index_add(x, values[i], i); /* added last first: ascending */
    return 0;
}

/* The positions of each synset of the hypothesis' words. 0, or -1: no memory. */
static int syn_index_build(const Core *core, const int32_t *hyp, int32_t n_hyp, ChainIndex *x, Arena *arena) {
    int64_t total = 0;
    for (int32_t i = 0; i < n_hyp; i++) total += core->syn_first[hyp[i] + 1] - core->syn_first[hyp[i]];
    if (chain_index_init(x, total, arena)) return -1;
    for (int32_t i = 0; i < n_hyp; i++)
        for (int64_t s = core->syn_first[hyp[i]]; s < core->syn_first[hyp[i] + 1]; s++)
            chain_index_add(x, core->syn[s], i);
    return 0;
}

/* The hypothesis positions sharing a synset with token t, each once (stamp[i] = mark), into `marked`
 * (unordered); their number. */
static int32_t syn_index_mark(const Core *core, const ChainIndex *x, int32_t t, int32_t *stamp, int32_t mark,
                              int32_t *marked) {
    int32_t n = 0;
    for (int64_t s = core->syn_first[t]; s < core->syn_first[t + 1]; s++)
        for (int32_t e = chain_index_first(x, core->syn[s]); e >= 0; e = x->next[e])
            if (stamp[x->pos[e]] != mark) {
                stamp[x->pos[e]] = mark;
                marked[n++] = x->pos[e];
            }
    return n;
}

/* aligner.find_candidates with the matchers of matcher.py, in the jar's order, into `out` (appended
 * module by module, each by reference position, then hypothesis position); 0, 1 (over the limit), -1
 * (memory), -2 (damaged paraphrase index). */
static int find_all(Core *core, const int32_t *hyp, int32_t n_hyp, const int32_t *ref, int32_t n_ref,
                    Sentence *const kept[2], CandVec *out) {
    Arena *arena = out->arena;
    int32_t *hh = (int32_t *)arena_take(arena, ((size_t)n_hyp + n_ref + 1) * 2 * sizeof(int32_t));
    int32_t *stamp = (int32_t *)arena_take(arena, ((size_t)n_hyp + 1) * sizeof(int32_t));
    int32_t *marked = (int32_t *)arena_take(arena, ((size_t)n_hyp + 1) * sizeof(int32_t));
    ChainIndex syn = {0}, by_hash = {0}, by_stem = {0};
    int rc = 0;
    if (!hh || !stamp || !marked) return -1;
    memset(stamp, 0, ((size_t)n_hyp + 1) * sizeof(int32_t));
    int32_t *rh = hh + n_hyp, *hs = rh + n_ref, *rs = hs + n_hyp; /* hashes, then stem hashes */
    for (int32_t k = 0; k < n_hyp; k++) {
        hh[k] = core->hash[hyp[k]];
        hs[k] = core->stem[hyp[k]];
    }
    for (int32_t k = 0; k < n_ref; k++) {
        rh[k] = core->hash[ref[k]];
        rs[k] = core->stem[ref[k]];
    }
    int identical = n_hyp == n_ref;
    for (int32_t k = 0; k < n_hyp && identical; k++) identical = hh[k] == rh[k];
    int n_mod = identical ? 1 : core->n_modules;
    for (int mod = 0; mod < n_mod && !rc; mod++) {
        int kind = core->kinds[mod];
        if (kind == K_PARAPHRASE) {
            rc = para_matches(core, hyp, n_hyp, ref, n_ref, kept, mod, out);
        } else if (kind == K_EXACT || kind == K_STEM) {
            ChainIndex *index = kind == K_EXACT ? &by_hash : &by_stem;
            if (!index->key && value_index_build(kind == K_EXACT ? hh : hs, n_hyp, index, arena)) {
                rc = -1;
                break;
            }
            for (int32_t j = 0; j < n_ref && !rc; j++) {
                const int32_t r = rh[j];
                for (int32_t e = chain_index_first(index, kind == K_EXACT ? r : rs[j]); e >= 0 && !rc;
                     e = index->next[e]) {
                    const int32_t i = index->pos[e];
                    if (kind == K_EXACT || hh[i] != r) rc = cand_push(out, j, 1, i, 1, mod);
                }
            }
        } else {
            if (!syn.key && syn_index_build(core, hyp, n_hyp, &syn, arena)) {
                rc = -1;
                break;
            }
            for (int32_t j = 0; j < n_ref && !rc; j++) {
                const int32_t r = rh[j];
                int32_t n_marked = syn_index_mark(core, &syn, ref[j], stamp, j + 1, marked);
                if (n_marked > 32) { /* ascending positions: a scan of the stamps when many ... */
                    n_marked = 0;
                    for (int32_t i = 0; i < n_hyp; i++)
                        if (stamp[i] == j + 1) marked[n_marked++] = i;
                } else { /* ... an insertion sort when few */
                    for (int32_t k = 1; k < n_marked; k++) {
                        int32_t v = marked[k], at = k;
                        for (; at > 0 && marked[at - 1] > v; at--) marked[at] = marked[at - 1];
                        marked[at] = v;
                    }
                }
                for (int32_t k = 0; k < n_marked && !rc; k++)
                    if (hh[marked[k]] != r) rc = cand_push(out, j, 1, marked[k], 1, mod);
            }
        }
    }
    return rc;
}

static int core_grow(Core *core) {
    int32_t cap = core->cap_tok ? 2 * core->cap_tok : 1024;
    if (core->cap_tok > (1 << 29)) return -1;
    int32_t *p;
    unsigned char *f;
    int64_t *sf;
#define GROW(field, type)                                                       \
    p = (int32_t *)realloc(core->field, (size_t)cap * sizeof(type));            \
    if (!p) return -1;                                                          \
    core->field = p;
    GROW(hash, int32_t)
    GROW(stem, int32_t)
    GROW(para_id, int32_t)
    GROW(u16, int32_t)
#undef GROW
    f = (unsigned char *)realloc(core->fw, (size_t)cap);
    if (!f) return -1;
    core->fw = f;
    sf = (int64_t *)realloc(core->syn_first, ((size_t)cap + 1) * sizeof(int64_t));
    if (!sf) return -1;
    core->syn_first = sf;
    PyObject **keys = (PyObject **)realloc(core->keys, (size_t)cap * sizeof(PyObject *));
    if (!keys) return -1;
    core->keys = keys;
    core->cap_tok = cap;
    return 0;
}

/* Room in the synset array for n more ids. 0, or -1: no memory. */
static int core_reserve_synsets(Core *core, Py_ssize_t n) {
    if (core->n_syn + n <= core->cap_syn) return 0;
    int64_t cap = core->cap_syn ? core->cap_syn : 4096;
    while (cap < core->n_syn + n) cap *= 2;
    int64_t *grown = (int64_t *)realloc(core->syn, (size_t)cap * sizeof(int64_t));
    if (!grown) return -1;
    core->syn = grown;
    core->cap_syn = cap;
    return 0;
}

/* The exact str a token is looked up by: a new reference to the token, or to an exact copy of a str subclass's
 * text (whose own __hash__ and __eq__ are not called); and its hash. NULL: an error. */
static PyObject *token_key(PyObject *token, Py_hash_t *hash) {
    PyObject *key = PyUnicode_CheckExact(token)
                        ? (Py_INCREF(token), token)
                        : PyUnicode_FromKindAndData(PyUnicode_KIND(token), PyUnicode_DATA(token),
                                                    PyUnicode_GET_LENGTH(token));
    if (key && (*hash = PyObject_Hash(key)) == -1) Py_CLEAR(key);
    return key;
}

static int slot_holds(const Core *core, const TokenSlot *slot, PyObject *key, Py_hash_t hash) {
    Py_ssize_t length = PyUnicode_GET_LENGTH(key);
    unsigned int kind = PyUnicode_KIND(key);
    if (slot->hash != hash || slot->length != length || slot->kind != kind) return 0;
    if (kind == PyUnicode_1BYTE_KIND && length <= INLINE_TEXT)
        return memcmp(slot->text, PyUnicode_1BYTE_DATA(key), (size_t)length) == 0;
    PyObject *held = core->keys[slot->id];
    return held == key || memcmp(PyUnicode_DATA(held), PyUnicode_DATA(key), (size_t)length * kind) == 0;
}

/* The id of the token whose exact str `key` has this hash, or -1: not in the table. */
static int32_t token_find(const Core *core, PyObject *key, Py_hash_t hash) {
    if (!core->slots) return -1;
    for (uint64_t at = slot_of((uint64_t)hash, core->slot_mask);; at = (at + 1) & core->slot_mask) {
        const TokenSlot *slot = &core->slots[at];
        if (slot->id < 0) return -1;
        if (slot_holds(core, slot, key, hash)) return slot->id;
    }
}

static void slot_put(TokenSlot *slots, uint64_t mask, const TokenSlot *slot) {
    uint64_t at = slot_of((uint64_t)slot->hash, mask);
    while (slots[at].id >= 0) at = (at + 1) & mask;
    slots[at] = *slot;
}

/* Indexes the token of id `id` (core->keys[id], of at most INT32_MAX characters) under its hash, doubling the
 * index when it would be more than half full. 0, or -1: no memory (nothing changed). */
static int token_index(Core *core, int32_t id, Py_hash_t hash) {
    uint64_t size = core->slots ? core->slot_mask + 1 : 0;
    if (2 * ((uint64_t)id + 1) > size) {
        uint64_t grown = size ? 2 * size : 2048;
        TokenSlot *slots = (TokenSlot *)malloc(grown * sizeof(TokenSlot));
        if (!slots) return -1;
        for (uint64_t k = 0; k < grown; k++) slots[k].id = -1;
        for (uint64_t k = 0; k < size; k++)
            if (core->slots[k].id >= 0) slot_put(slots, grown - 1, &core->slots[k]);
        free(core->slots);
        core->slots = slots;
        core->slot_mask = grown - 1;
    }
    PyObject *key = core->keys[id];
    TokenSlot slot = {.hash = hash, .id = id, .length = (int32_t)PyUnicode_GET_LENGTH(key),
                      .kind = (unsigned char)PyUnicode_KIND(key)};
    if (slot.kind == PyUnicode_1BYTE_KIND && slot.length <= INLINE_TEXT)
        memcpy(slot.text, PyUnicode_1BYTE_DATA(key), (size_t)slot.length);
    slot_put(core->slots, core->slot_mask, &slot);
    return 0;
}

static int cmp_i64(const void *x, const void *y) {
    int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
    return (a > b) - (a < b);
}

/* Sorts n synset ids and keeps each once (a word and its base forms may share a synset); their new number. */
static Py_ssize_t sort_unique_ids(int64_t *v, Py_ssize_t n) {
    if (n > 1) qsort(v, (size_t)n, sizeof(int64_t), cmp_i64);
    Py_ssize_t unique = 0;
    for (Py_ssize_t k = 0; k < n; k++)
        if (k == 0 || v[k] != v[unique - 1]) v[unique++] = v[k];
    return unique;
}

#include "wordnet.h" /* (add_token looks a token's synsets up in a WordNet it is given) */

/* Java's String.hashCode (as int32) and length() of a str: over its UTF-16 code units (javafmt.py). */
static void java_hash_length(PyObject *s, int32_t *hash, int32_t *length) {
    const int kind = PyUnicode_KIND(s);
    const void *data = PyUnicode_DATA(s);
    const Py_ssize_t n = PyUnicode_GET_LENGTH(s);
    uint32_t h = 0;
    int64_t units = 0;
    for (Py_ssize_t k = 0; k < n; k++) {
        Py_UCS4 c = PyUnicode_READ(kind, data, k);
        if (c > 0xFFFF) { /* a surrogate pair */
            h = 31 * h + (0xD800 + ((c - 0x10000) >> 10));
            c = 0xDC00 + ((c - 0x10000) & 0x3FF);
            units++;
        }
        h = 31 * h + c;
        units++;
    }
    *hash = (int32_t)h;
    *length = units > INT32_MAX ? INT32_MAX : (int32_t)units;
}

/* 0 for a core its __init__ made, else -1 with a RuntimeError (Core.__new__ alone leaves it empty). */
static int core_ready(const Core *core) {
    if (core->match_type) return 0;
    PyErr_SetString(PyExc_RuntimeError, "Core is not initialised: call Core(...), not Core.__new__");
    return -1;
}

/* add_token(token, stem, synsets, function_word) -> token id (its id if it is in the table already). The
 * token's Java hash, UTF-16 length and paraphrase vocabulary id, and its stem's Java hash (0 without a
 * stem: None), are computed here. */

/* add_token's work for one token (a str, its stem a str or None: checked by the caller): its id, or NULL with an
 * error set. */
static PyObject *add_one(Core *core, PyObject *token, PyObject *stem_text, PyObject *synsets, int fw) {
    int32_t hash, stem = 0, u16, unused, para_id = -1;
    if (PyUnicode_GET_LENGTH(token) > INT32_MAX) {
        PyErr_SetString(PyExc_ValueError, "add_token: a token of more than 2**31 - 1 characters");
        return NULL;
    }
    Py_hash_t key_hash;
    PyObject *key = token_key(token, &key_hash), *seq = NULL, *result = NULL;
    int64_t *ids = NULL;
    Py_ssize_t n = 0;
    if (!key) return NULL;
    java_hash_length(key, &hash, &u16);
    if (stem_text != Py_None) java_hash_length(stem_text, &stem, &unused);
    if (core->vocab) {
        PyObject *v = PyDict_GetItemWithError(core->vocab, key);
        if (!v && PyErr_Occurred()) goto done;
        long id = v ? PyLong_AsLong(v) : -1;
        if (id == -1 && PyErr_Occurred()) goto done;
        if (id < -1 || (id >= 0 && (Py_ssize_t)id + 2 >= core->para_len[P_CHILD])) {
            PyErr_Format(PyExc_ValueError, "add_token: paraphrase vocabulary id %ld is outside the index", id);
            goto done;
        }
        para_id = (int32_t)id;
    }
    /* synsets: a sequence of ints, a str of decimal ids apart by spaces, or a WordNet to look the token up in
     * (its ids sorted, each once); read into `ids` before the table changes (reading a sequence's items can run
     * Python code, which can call add_token) */
    const int from_wordnet = PyObject_TypeCheck(synsets, &WordNetType);
    if (from_wordnet) {
        const WordNet *wn = (const WordNet *)synsets;
        if (!wn->words.slots || !wn->forms.slots) {
            PyErr_SetString(PyExc_RuntimeError, "add_token: the WordNet is not initialized");
            goto done;
        }
        IdList found = {NULL, 0, 0};
        if (wn_token_ids(wn, token, &found)) {
            free(found.v);
            PyErr_NoMemory();
            goto done;
        }
        ids = found.v;
        n = found.n;
    } else if (PyUnicode_Check(synsets)) {
        Py_ssize_t text_len;
        const char *text = PyUnicode_AsUTF8AndSize(synsets, &text_len);
        if (!text) goto done;
        for (Py_ssize_t k = 0; k < text_len; k++) {
            if (text[k] != ' ' && (text[k] < '0' || text[k] > '9')) {
                PyErr_SetString(PyExc_ValueError, "add_token: synset text must hold decimal ids apart by spaces");
                goto done;
            }
            n += text[k] != ' ' && (k == 0 || text[k - 1] == ' ');
        }
        if (!(ids = (int64_t *)malloc(((size_t)n + 1) * sizeof(int64_t)))) {
            PyErr_NoMemory();
            goto done;
        }
        Py_ssize_t k = -1;
        for (Py_ssize_t at = 0; at < text_len; at++) {
            if (text[at] == ' ') continue;
            if (at == 0 || text[at - 1] == ' ') ids[++k] = 0;
            if (ids[k] > (INT64_MAX - 9) / 10) {
                PyErr_SetString(PyExc_ValueError, "add_token: a synset id is too large");
                goto done;
            }
            ids[k] = ids[k] * 10 + (text[at] - '0');
        }
    } else {
        if (!PySequence_Check(synsets)) {
            PyErr_SetString(PyExc_TypeError, "add_token: synsets must be a sequence of ints or a str of decimal ids");
            goto done;
        }
        seq = PySequence_Tuple(synsets); /* a copy: an item's __index__ cannot change it */
        if (!seq) goto done;
        n = PyTuple_GET_SIZE(seq);
        if (!(ids = (int64_t *)malloc(((size_t)n + 1) * sizeof(int64_t)))) {
            PyErr_NoMemory();
            goto done;
        }
        for (Py_ssize_t k = 0; k < n; k++) {
            long long v = PyLong_AsLongLong(PyTuple_GET_ITEM(seq, k));
            if (v == -1 && PyErr_Occurred()) goto done;
            ids[k] = v;
        }
    }
    if (!from_wordnet) n = sort_unique_ids(ids, n); /* (a WordNet's come sorted, each once) */
    /* from here on no Python code runs: the table is changed in one go, unless the token is there already (added
     * by another thread since it was found missing, or by a call from the code run above) */
    int32_t known = token_find(core, key, key_hash);
    if (known >= 0) {
        result = PyLong_FromLong(known);
        goto done;
    }
    if ((core->n_tok == core->cap_tok && core_grow(core)) || core_reserve_synsets(core, n)) {
        PyErr_NoMemory();
        goto done;
    }
    int32_t id = core->n_tok;
    if (!(result = PyLong_FromLong(id))) goto done;
    core->keys[id] = key;
    if (token_index(core, id, key_hash)) {
        core->keys[id] = NULL;
        Py_CLEAR(result);
        PyErr_NoMemory();
        goto done;
    }
    key = NULL; /* held by the table */
    if (n) memcpy(core->syn + core->n_syn, ids, (size_t)n * sizeof(int64_t));
    if (id == 0) core->syn_first[0] = 0;
    core->hash[id] = hash;
    core->stem[id] = stem;
    core->para_id[id] = core->has_para ? para_id : -1;
    core->fw[id] = (unsigned char)fw;
    core->u16[id] = u16;
    core->n_syn += n;
    core->syn_first[id + 1] = core->n_syn;
    core->n_tok++;
done:
    free(ids);
    Py_XDECREF(seq);
    Py_XDECREF(key);
    return result;
}

static PyObject *core_add_token(Core *core, PyObject *args) {
    if (core_ready(core)) return NULL;
    int fw;
    PyObject *token, *stem_text, *synsets;
    if (!PyArg_ParseTuple(args, "UOOp:add_token", &token, &stem_text, &synsets, &fw)) return NULL;
    if (stem_text != Py_None && !PyUnicode_Check(stem_text)) {
        PyErr_SetString(PyExc_TypeError, "add_token: stem must be a str or None");
        return NULL;
    }
    return add_one(core, token, stem_text, synsets, fw);
}

/* add_tokens(tokens, stems, wordnet, function_words): add_token of each token (a call per token cost more than its
 * WordNet look-up). The three sequences are copied first, so nothing run meanwhile can change them. */
static PyObject *core_add_tokens(Core *core, PyObject *args) {
    if (core_ready(core)) return NULL;
    PyObject *tokens, *stems, *wordnet, *flags, *copies[3] = {NULL, NULL, NULL}, *result = NULL;
    unsigned char *fws = NULL;
    if (!PyArg_ParseTuple(args, "OOO!O:add_tokens", &tokens, &stems, &WordNetType, &wordnet, &flags)) return NULL;
    if (PyUnicode_Check(tokens) || PyUnicode_Check(stems)) { /* (a str is a sequence: of its characters) */
        PyErr_SetString(PyExc_TypeError, "add_tokens: the tokens and stems must be sequences of str, not a str");
        return NULL;
    }
    if (!(copies[0] = PySequence_Tuple(tokens)) || (stems != Py_None && !(copies[1] = PySequence_Tuple(stems))) ||
        !(copies[2] = PySequence_Tuple(flags)))
        goto done;
    const Py_ssize_t n = PyTuple_GET_SIZE(copies[0]);
    if ((copies[1] && PyTuple_GET_SIZE(copies[1]) != n) || PyTuple_GET_SIZE(copies[2]) != n) {
        PyErr_Format(PyExc_ValueError, "add_tokens: %zd tokens, %zd stems and %zd function-word flags (one each "
                     "expected)", n, copies[1] ? PyTuple_GET_SIZE(copies[1]) : n, PyTuple_GET_SIZE(copies[2]));
        goto done;
    }
    /* every item checked (and each flag read) before the first token is added: a malformed batch adds none */
    if (!(fws = (unsigned char *)malloc((size_t)n + 1))) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t k = 0; k < n; k++) {
        PyObject *token = PyTuple_GET_ITEM(copies[0], k);
        PyObject *stem = copies[1] ? PyTuple_GET_ITEM(copies[1], k) : Py_None;
        const int bad_token = !PyUnicode_Check(token);
        if (bad_token || (stem != Py_None && !PyUnicode_Check(stem))) {
            PyErr_Format(PyExc_TypeError, "add_tokens: %s %zd is a %.100s, not a str", bad_token ? "token" : "stem", k,
                         Py_TYPE(bad_token ? token : stem)->tp_name);
            goto done;
        }
        const int fw = PyObject_IsTrue(PyTuple_GET_ITEM(copies[2], k));
        if (fw < 0) goto done;
        fws[k] = (unsigned char)fw;
    }
    for (Py_ssize_t k = 0; k < n; k++) {
        PyObject *stem = copies[1] ? PyTuple_GET_ITEM(copies[1], k) : Py_None;
        PyObject *id = add_one(core, PyTuple_GET_ITEM(copies[0], k), stem, wordnet, fws[k]);
        if (!id) goto done;
        Py_DECREF(id);
    }
    result = Py_None;
    Py_INCREF(result);
done:
    free(fws);
    for (int k = 0; k < 3; k++) Py_XDECREF(copies[k]);
    return result;
}

/* Token ids of a pair, checked against the table. */
static int check_ids(const Core *core, const Py_buffer *b, const char *what) {
    if (b->len % (Py_ssize_t)sizeof(int32_t) || b->len / (Py_ssize_t)sizeof(int32_t) > MAX_TOKENS) {
        PyErr_Format(PyExc_ValueError, "score: %s must be int32 token ids, at most %d", what, MAX_TOKENS);
        return -1;
    }
    const int32_t *ids = (const int32_t *)b->buf;
    for (Py_ssize_t k = 0; k < b->len / (Py_ssize_t)sizeof(int32_t); k++)
        if (ids[k] < 0 || ids[k] >= core->n_tok) {
            PyErr_Format(PyExc_ValueError, "score: %s token id %d is not in the table", what, ids[k]);
            return -1;
        }
    return 0;
}

static PyObject *make_match(PyTypeObject *type, const int32_t *r) {
    PyObject *m = type->tp_alloc(type, 5);
    if (!m) return NULL;
    for (int k = 0; k < 5; k++) {
        PyObject *v = PyLong_FromLong(r[k]);
        if (!v) {
            Py_DECREF(m);
            return NULL;
        }
        PyTuple_SET_ITEM(m, k, v);
    }
    /* five ints in an immutable tuple without an instance dict: in no reference cycle, ever. Untracked, the
     * alignments a scorer caches and returns cost the cyclic collector nothing (as CPython untracks plain
     * tuples of ints itself) */
    if (type->tp_dictoffset == 0 && PyObject_GC_IsTracked(m)) PyObject_GC_UnTrack(m);
    return m;
}

/* Matches made lately, by their five values packed in a key (match_of); a direct-mapped table of MATCHES. */
#define MATCH_BITS 10
#define MATCHES (1 << MATCH_BITS)
typedef struct MatchSlot {
    uint64_t key;
    PyObject *match; /* held; NULL: an empty slot */
} MatchSlot;

/* A Match of the five values at r: the one made last for them where the table still has it (a Match is an
 * immutable tuple without an instance dict, so one object serves every alignment that holds it), else a new
 * one, kept. Values past the key's fields (starts of 2^20 and more, lengths or module of 256 and more) are
 * never kept. */
static PyObject *match_of(Core *core, const int32_t *r) {
    PyTypeObject *type = (PyTypeObject *)core->match_type;
    if (!core->matches || (uint32_t)r[0] >= (1u << 20) || (uint32_t)r[2] >= (1u << 20) || (uint32_t)r[1] >= 256 ||
        (uint32_t)r[3] >= 256 || (uint32_t)r[4] >= 256)
        return make_match(type, r);
    const uint64_t key = (uint64_t)r[0] | (uint64_t)r[2] << 20 | (uint64_t)r[1] << 40 | (uint64_t)r[3] << 48 |
                         (uint64_t)r[4] << 56;
    MatchSlot *slot = &core->matches[(key * 0x9E3779B97F4A7C15ull) >> (64 - MATCH_BITS)];
    if (slot->match && slot->key == key) {
        Py_INCREF(slot->match);
        return slot->match;
    }
    PyObject *m = make_match(type, r);
    if (!m) return NULL;
    PyObject *old = slot->match;
    Py_INCREF(m);
    slot->match = m;
    slot->key = key;
    Py_XDECREF(old); /* last: a finalizer its freeing runs (a match type's __del__) finds the table whole */
    return m;
}

/* A pair's score values, (score, precision, recall, fmean, fragmentation penalty) by the core's formula, or
 * None without one (a new reference; NULL with an error set). */
static PyObject *score_values(const Core *core, const Counts *c) {
    if (!core->has_formula) {
        Py_INCREF(Py_None);
        return Py_None;
    }
    double m[N_METRICS];
    formula_apply(&core->formula, c, core->n_modules, m);
    PyObject *values = Py_BuildValue("(ddddd)", m[M_SCORE], m[M_PRECISION], m[M_RECALL], m[M_FMEAN], m[M_PENALTY]);
    if (values) PyObject_GC_UnTrack(values); /* floats only */
    return values;
}

/* The (alignment: tuple of Match, MeteorStats fields without crossings, candidate count, score values: (score,
 * precision, recall, fmean, fragmentation penalty) or None without a formula) of a pair of token-id sequences
 * already checked against the table, or None when the pair has more than max_candidates (>= 0) candidate
 * matches. */
static PyObject *score_pair(Core *core, const int32_t *hyp, int32_t n_hyp, const int32_t *ref, int32_t n_ref,
                            Sentence *const kept[2], long long max_candidates, Arena *arena) {
    PyObject *result = NULL, *alignment = NULL, *stats = NULL;
    CandVec found = {NULL, 0, 0, max_candidates, 0, arena};
    int32_t *grouped = NULL, *first = NULL, *chosen = NULL, *sizes = NULL, *picked = NULL;
    unsigned char *flags = NULL;
    /* (`kept` is not used past here: once Python objects are made, a finalizer scoring may evict them) */
    int rc = find_all(core, hyp, n_hyp, ref, n_ref, kept, &found);
    if (rc == -1) {
        PyErr_NoMemory();
        goto done;
    }
    if (rc == -2) {
        PyErr_SetString(PyExc_ValueError, "the paraphrase index points outside its arrays (damaged); rebuild it");
        goto done;
    }
    if (rc == 1) {
        result = Py_None;
        Py_INCREF(result);
        goto done;
    }
    /* candidates[j] in the order they were appended: a stable counting sort by reference start; the arrays
     * of this pair in one block */
    Carve block = {NULL, 0};
    for (int pass = 0; pass < 2; pass++) {
        grouped = (int32_t *)carve(&block, ((size_t)found.n + 1) * 5, sizeof(int32_t)); /* first: freed last */
        first = (int32_t *)carve(&block, (size_t)n_ref + 2, sizeof(int32_t));
        chosen = (int32_t *)carve(&block, (size_t)n_ref + 1, sizeof(int32_t));
        picked = (int32_t *)carve(&block, ((size_t)n_ref + 1) * 5, sizeof(int32_t));
        sizes = (int32_t *)carve(&block, (size_t)n_hyp + n_ref + 1, sizeof(int32_t));
        flags = (unsigned char *)carve(&block, (size_t)n_hyp + n_ref + 1, 1);
        if (pass == 0 && !carve_allocate(&block, arena)) {
            PyErr_NoMemory();
            goto done;
        }
    }
    memset(first, 0, ((size_t)n_ref + 2) * sizeof(int32_t));
    for (int64_t i = 0; i < found.n; i++) first[found.c[5 * i] + 1]++;
    for (int32_t j = 0; j < n_ref; j++) first[j + 1] += first[j];
    for (int64_t i = 0; i < found.n; i++) {
        int32_t at = first[found.c[5 * i]]++;
        memcpy(grouped + 5 * (int64_t)at, found.c + 5 * i, 5 * sizeof(int32_t));
    }
    Problem p = {n_hyp, n_ref, (int32_t)found.n, core->n_modules, core->beam, grouped, core->exact, first};
    if (check_problem(&p)) goto done;
    int32_t n_chosen = align_problem(&p, chosen, arena);
    if (n_chosen < 0) {
        PyErr_NoMemory();
        goto done;
    }
    alignment = PyTuple_New(n_chosen);
    if (!alignment) goto done;
    for (int32_t k = 0; k < n_chosen; k++) {
        memcpy(picked + 5 * k, grouped + 5 * (int64_t)chosen[k], 5 * sizeof(int32_t));
        PyObject *m = match_of(core, picked + 5 * k);
        if (!m) goto done;
        PyTuple_SET_ITEM(alignment, k, m);
    }
    /* a tuple of untracked Matches, in no cycle either; the collector would keep it tracked (it does not
     * untrack a tuple holding instances of a tuple subclass) */
    if (((PyTypeObject *)core->match_type)->tp_dictoffset == 0 && PyObject_GC_IsTracked(alignment))
        PyObject_GC_UnTrack(alignment);
    for (int32_t k = 0; k < n_hyp; k++) {
        sizes[k] = core->char_based ? core->u16[hyp[k]] : 1;
        flags[k] = core->fw[hyp[k]];
    }
    for (int32_t k = 0; k < n_ref; k++) {
        sizes[n_hyp + k] = core->char_based ? core->u16[ref[k]] : 1;
        flags[n_hyp + k] = core->fw[ref[k]];
    }
    Counts c;
    if (count_matches(picked, n_chosen, flags, flags + n_hyp, sizes, sizes + n_hyp, n_hyp, n_ref, core->n_modules,
                      &c)) {
        PyErr_SetString(PyExc_SystemError, "score: the alignment does not fit its sentences");
        goto done;
    }
    stats = counts_tuple(&c, core->n_modules);
    PyObject *values = stats ? score_values(core, &c) : NULL;
    if (values) result = Py_BuildValue("(OOLN)", alignment, stats, (long long)found.n, values);
done:
    Py_XDECREF(alignment);
    Py_XDECREF(stats);
    return result;
}

/* The core's arena for a call, or `spare` (empty) while another call of this core uses it. */
static Arena *arena_acquire(Core *core, Arena *spare) {
    if (core->arena_busy) return spare;
    core->arena_busy = 1;
    return &core->arena;
}

static void arena_return(Core *core, Arena *a) {
    if (a == &core->arena) {
        arena_release(a);
        core->arena_busy = 0;
    } else {
        arena_free(a);
    }
}

/* score(hyp_ids, ref_ids, max_candidates) -> score_pair's result for int32 token ids of the table. */
static PyObject *core_score(Core *core, PyObject *args) {
    if (core_ready(core)) return NULL;
    Py_buffer hb = {0}, rb = {0};
    long long max_candidates;
    if (!PyArg_ParseTuple(args, "y*y*L:score", &hb, &rb, &max_candidates)) return NULL;
    PyObject *result = NULL;
    if (!check_ids(core, &hb, "hypothesis") && !check_ids(core, &rb, "reference")) {
        Arena spare = {0}, *arena = arena_acquire(core, &spare);
        Sentence *const none[2] = {NULL, NULL};
        result = score_pair(core, (const int32_t *)hb.buf, (int32_t)(hb.len / 4), (const int32_t *)rb.buf,
                            (int32_t)(rb.len / 4), none, max_candidates, arena);
        arena_return(core, arena);
    }
    PyBuffer_Release(&hb);
    PyBuffer_Release(&rb);
    return result;
}

/* The table ids of a sequence of tokens (str) into *out (n_out of them, in the arena); a token not in the
 * table is put in *missing (a dict used as an ordered set, made at the first). 0, or -1 with a Python error
 * set. */
static int token_ids(Core *core, PyObject *tokens, const char *what, int32_t **out, int32_t *n_out,
                     PyObject **missing, Arena *arena) {
    PyObject *seq = PySequence_Fast(tokens, "tokens must be a sequence of str");
    if (!seq) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    int rc = -1;
    if (n > MAX_TOKENS) {
        PyErr_Format(PyExc_ValueError, "the native engine takes at most %d tokens per side, the %s has %zd", MAX_TOKENS,
                     what, n);
        goto done;
    }
    *out = (int32_t *)arena_take(arena, ((size_t)n + 1) * sizeof(int32_t));
    if (!*out) {
        PyErr_NoMemory();
        goto done;
    }
    *n_out = (int32_t)n;
    PyObject **items = PySequence_Fast_ITEMS(seq);
    for (Py_ssize_t k = 0; k < n; k++) {
        if (!PyUnicode_Check(items[k])) {
            PyErr_Format(PyExc_TypeError, "%s token %zd is %s, not str", what, k,
                         Py_TYPE(items[k])->tp_name);
            goto done;
        }
        Py_hash_t hash;
        PyObject *key = token_key(items[k], &hash);
        if (!key) goto done;
        int32_t id = token_find(core, key, hash);
        Py_DECREF(key);
        if (id >= 0) {
            (*out)[k] = id;
        } else if ((!*missing && !(*missing = PyDict_New())) || PyDict_SetItem(*missing, items[k], Py_None)) {
            goto done;
        }
    }
    rc = 0;
done:
    Py_DECREF(seq);
    return rc;
}

/* score_pair's result for two token sequences, or a list of the tokens not yet in the table (each once, in
 * order of appearance); a new reference, NULL with an error set. */
static PyObject *pair_result(Core *core, PyObject *hyp_tokens, PyObject *ref_tokens, long long max_candidates) {
    PairSlot *pair = PyTuple_CheckExact(hyp_tokens) && PyTuple_CheckExact(ref_tokens)
                         ? pair_slot(core, hyp_tokens, ref_tokens) : NULL;
    if (pair && pair->hyp == hyp_tokens && pair->ref == ref_tokens) { /* scored lately */
        if (max_candidates >= 0 && pair->n_candidates > max_candidates) Py_RETURN_NONE;
        Py_INCREF(pair->result);
        return pair->result;
    }
    PyObject *result = NULL, *missing = NULL, *const sides[2] = {hyp_tokens, ref_tokens};
    const char *const names[2] = {"hypothesis", "reference"};
    int32_t *ids[2] = {NULL, NULL}, n[2] = {0, 0};
    Sentence *kept[2]; /* each side's slot (an exact tuple's), then where it is kept */
    Arena spare = {0}, *arena = arena_acquire(core, &spare);
    for (int k = 0; k < 2; k++) { /* a kept sentence's ids (copied: it may be evicted), else looked up */
        Sentence *s = kept[k] = PyTuple_CheckExact(sides[k]) ? sentence_slot(core, sides[k]) : NULL;
        if (s && s->tokens == sides[k]) {
            s->seen_again = 1;
            ids[k] = (int32_t *)arena_take(arena, ((size_t)s->n + 1) * sizeof(int32_t));
            if (!ids[k]) {
                PyErr_NoMemory();
                goto done;
            }
            memcpy(ids[k], s->ids, (size_t)s->n * sizeof(int32_t));
            n[k] = s->n;
        } else if (token_ids(core, sides[k], names[k], &ids[k], &n[k], &missing, arena)) {
            goto done;
        }
    }
    if (missing) {
        result = PyDict_Keys(missing);
        goto done;
    }
    int keep_pair = pair != NULL;
    for (int k = 0; k < 2; k++) {
        Sentence *s = kept[k];
        if (!s || s->tokens == sides[k]) continue;
        if (!sentence_keepable(sides[k], n[k])) {
            kept[k] = NULL;
            keep_pair = 0;
        } else if (sentence_keep(core, s, sides[k], ids[k], n[k])) {
            kept[k] = NULL; /* no memory */
        }
    }
    if (kept[0] && kept[0]->tokens != hyp_tokens) kept[0] = NULL; /* the reference took its slot */
    result = score_pair(core, ids[0], n[0], ids[1], n[1], kept, max_candidates, arena);
    if (result && result != Py_None && keep_pair)
        pair_keep(pair, hyp_tokens, ref_tokens, result, PyLong_AsLongLong(PyTuple_GET_ITEM(result, 2)));
done:
    Py_XDECREF(missing);
    arena_return(core, arena);
    return result;
}

/* score_tokens(hyp_tokens, ref_tokens, max_candidates) -> score_pair's result, or a list of the tokens not
 * yet in the table (each once, in order of appearance: add them, then call again). */
static PyObject *core_score_tokens(Core *core, PyObject *args) {
    if (core_ready(core)) return NULL;
    PyObject *hyp_tokens, *ref_tokens;
    long long max_candidates;
    if (!PyArg_ParseTuple(args, "OOL:score_tokens", &hyp_tokens, &ref_tokens, &max_candidates)) return NULL;
    return pair_result(core, hyp_tokens, ref_tokens, max_candidates);
}

/* A new instance of the class `type` made as object.__new__(type) makes it (no __init__ runs), with names[k]
 * set to values[k] for the n names as object.__setattr__ sets them (past a frozen dataclass's __setattr__: its
 * instance attributes, kept without a dict object until one is asked for); the values are new references,
 * released here (NULL among them: an error already set). NULL with an error set. */
static PyObject *instance_of(PyObject *type, PyObject *names, PyObject **values, Py_ssize_t n) {
    PyObject *obj = NULL;
    for (Py_ssize_t k = 0; k < n; k++)
        if (!values[k]) goto done;
    PyObject *no_args = PyTuple_New(0);
    if (!no_args) goto done;
    obj = PyBaseObject_Type.tp_new((PyTypeObject *)type, no_args, NULL);
    Py_DECREF(no_args);
    for (Py_ssize_t k = 0; obj && k < n; k++)
        if (PyObject_GenericSetAttr(obj, PyTuple_GET_ITEM(names, k), values[k])) Py_CLEAR(obj);
done:
    for (Py_ssize_t k = 0; k < n; k++) Py_XDECREF(values[k]);
    return obj;
}

static PyObject *new_ref(PyObject *o) {
    Py_INCREF(o);
    return o;
}

/* The segment result (segment_type) of a hypothesis against its best reference, from score_pair's result
 * against it (k: its index in refs). */
static PyObject *segment_of(const Core *core, PyObject *hyp_tokens, PyObject *ref_tokens, Py_ssize_t k,
                            PyObject *pair) {
    PyObject *fields = PyTuple_GET_ITEM(pair, 1), *values = PyTuple_GET_ITEM(pair, 3);
    PyObject *stats_values[13];
    for (int f = 0; f < 11; f++) stats_values[f] = new_ref(PyTuple_GET_ITEM(fields, f));
    stats_values[11] = PyLong_FromLong(0); /* no crossings: fragmentation "chunks" */
    stats_values[12] = PyLong_FromLong(0);
    PyObject *stats = instance_of(core->stats_type, core->stats_fields, stats_values, 13);
    PyObject *segment_values[12] = {new_ref(PyTuple_GET_ITEM(values, 0)), new_ref(PyTuple_GET_ITEM(values, 1)),
                                    new_ref(PyTuple_GET_ITEM(values, 2)), new_ref(PyTuple_GET_ITEM(values, 3)),
                                    new_ref(PyTuple_GET_ITEM(values, 4)), new_ref(PyTuple_GET_ITEM(fields, 8)),
                                    stats, PyLong_FromSsize_t(k), new_ref(PyTuple_GET_ITEM(pair, 0)),
                                    new_ref(hyp_tokens), new_ref(ref_tokens), new_ref(core->signature)};
    return instance_of(core->segment_type, core->segment_fields, segment_values, 12);
}

/* segment(hyp_tokens, refs_tokens, max_candidates) -> the segment result against the best reference (the
 * first of the best scores), or the list of tokens not yet in the table (add them, then call again), or the
 * index (an int) of the reference whose candidate matches take the segment's past max_candidates (>= 0). */
static PyObject *core_segment(Core *core, PyObject *args) {
    if (core_ready(core)) return NULL;
    PyObject *hyp_tokens, *refs;
    long long max_candidates;
    if (!PyArg_ParseTuple(args, "OOL:segment", &hyp_tokens, &refs, &max_candidates)) return NULL;
    if (!core->segment_type || !core->has_formula) {
        PyErr_SetString(PyExc_RuntimeError, "segment: the core was made without result classes or formula");
        return NULL;
    }
    if (!PyList_Check(refs) && !PyTuple_Check(refs)) {
        PyErr_SetString(PyExc_TypeError, "segment: the references must be a list or tuple of token sequences");
        return NULL;
    }
    PyObject *seq = PySequence_Tuple(refs); /* (a copy: scoring may run Python code, which could change a list) */
    if (!seq) return NULL;
    const Py_ssize_t n_refs = PyTuple_GET_SIZE(seq);
    PyObject *best = NULL, *result = NULL;
    Py_ssize_t best_k = -1;
    double best_score = 0;
    long long used = 0;
    if (n_refs == 0) {
        PyErr_SetString(PyExc_ValueError, "segment: no references (a segment needs at least one)");
        goto done;
    }
    for (Py_ssize_t k = 0; k < n_refs; k++) {
        const long long limit = max_candidates < 0 ? -1 : max_candidates - used;
        if (max_candidates >= 0 && limit < 0) {
            result = PyLong_FromSsize_t(k);
            goto done;
        }
        PyObject *pair = pair_result(core, hyp_tokens, PyTuple_GET_ITEM(seq, k), limit);
        if (!pair || !PyTuple_Check(pair)) { /* an error, the missing tokens, or None: past the limit */
            result = pair == Py_None ? PyLong_FromSsize_t(k) : pair;
            if (pair == Py_None) Py_DECREF(pair);
            goto done;
        }
        used += PyLong_AsLongLong(PyTuple_GET_ITEM(pair, 2));
        const double score = PyFloat_AS_DOUBLE(PyTuple_GET_ITEM(PyTuple_GET_ITEM(pair, 3), 0));
        if (best_k < 0 || score > best_score) {
            Py_XSETREF(best, pair);
            best_k = k;
            best_score = score;
        } else {
            Py_DECREF(pair);
        }
    }
    result = segment_of(core, hyp_tokens, PyTuple_GET_ITEM(seq, best_k), best_k, best);
done:
    Py_XDECREF(best);
    Py_DECREF(seq);
    return result;
}

static void core_dealloc(Core *core) {
    free(core->hash);
    free(core->stem);
    free(core->para_id);
    free(core->u16);
    free(core->fw);
    free(core->syn_first);
    free(core->syn);
    arena_free(&core->arena);
    if (core->sentences)
        for (int k = 0; k < SENTENCES; k++) sentence_clear(core, &core->sentences[k]);
    free(core->sentences);
    if (core->pairs)
        for (int k = 0; k < PAIRS; k++) pair_clear(&core->pairs[k]);
    free(core->pairs);
    if (core->matches)
        for (int k = 0; k < MATCHES; k++) Py_XDECREF(core->matches[k].match);
    free(core->matches);
    for (int k = 0; k < N_PARA_ARRAYS; k++)
        if (core->para_arr[k]) PyBuffer_Release(&core->para_buf[k]);
    Py_XDECREF(core->match_type);
    Py_XDECREF(core->stats_type);
    Py_XDECREF(core->stats_fields);
    Py_XDECREF(core->segment_type);
    Py_XDECREF(core->segment_fields);
    Py_XDECREF(core->signature);
    for (int32_t k = 0; k < core->n_tok; k++) Py_XDECREF(core->keys[k]);
    free(core->keys);
    free(core->slots);
    Py_XDECREF(core->vocab);
    Py_TYPE(core)->tp_free((PyObject *)core);
}

/* Whether `names` is a tuple of n str. */
static int str_tuple(PyObject *names, Py_ssize_t n) {
    if (!PyTuple_CheckExact(names) || PyTuple_GET_SIZE(names) != n) return 0;
    for (Py_ssize_t k = 0; k < n; k++)
        if (!PyUnicode_CheckExact(PyTuple_GET_ITEM(names, k))) return 0;
    return 1;
}

/* Keeps segment()'s (stats_type, stats_fields, segment_type, segment_fields, signature): two classes whose
 * instances have a __dict__, their 13 and 12 field names, and a str. 0, or -1 with an error set. */
static int core_results(Core *core, PyObject *results) {
    PyObject *stats_type, *stats_fields, *segment_type, *segment_fields, *signature;
    if (!PyTuple_Check(results) ||
        !PyArg_ParseTuple(results, "O!O!O!O!U", &PyType_Type, &stats_type, &PyTuple_Type, &stats_fields, &PyType_Type,
                          &segment_type, &PyTuple_Type, &segment_fields, &signature) ||
        !str_tuple(stats_fields, 13) || !str_tuple(segment_fields, 12) ||
        !((PyTypeObject *)stats_type)->tp_dictoffset || !((PyTypeObject *)segment_type)->tp_dictoffset) {
        PyErr_Clear();
        PyErr_SetString(PyExc_TypeError, "Core: results must be (stats class, its 13 field names, segment class, its 12 "
                                         "field names, signature), classes whose instances have a __dict__");
        return -1;
    }
    PyObject *kept[5] = {stats_type, stats_fields, segment_type, segment_fields, signature};
    for (int k = 0; k < 5; k++) Py_INCREF(kept[k]);
    core->stats_type = stats_type;
    core->stats_fields = stats_fields;
    core->segment_type = segment_type;
    core->segment_fields = segment_fields;
    core->signature = signature;
    return 0;
}

/* Core(kinds, exact_type, beam_size, char_based, match_type, paraphrase_arrays or None, paraphrase_vocabulary
 * or None, formula or None, results or None) */
static int core_init(Core *core, PyObject *args, PyObject *kwds) {
    (void)kwds;
    Py_buffer kinds = {0}, exact = {0};
    int beam, char_based;
    PyObject *match_type, *para, *vocab, *formula = Py_None, *results = Py_None;
    if (core->match_type) {
        PyErr_SetString(PyExc_RuntimeError, "Core is initialised once");
        return -1;
    }
    if (!PyArg_ParseTuple(args, "y*y*ipOOO|OO:Core", &kinds, &exact, &beam, &char_based, &match_type, &para, &vocab,
                          &formula, &results))
        return -1;
    int ok = 0;
    if (kinds.len < 1 || kinds.len > MAX_MODULES || exact.len != kinds.len || beam < 1 || beam > MAX_BEAM) {
        PyErr_SetString(PyExc_ValueError, "Core: 1..64 modules with one exact_type byte each, beam_size 1..65536");
        goto done;
    }
    if (!PyType_Check(match_type) || !PyType_IsSubtype((PyTypeObject *)match_type, &PyTuple_Type)) {
        PyErr_SetString(PyExc_TypeError, "Core: match_type must be a tuple subclass");
        goto done;
    }
    core->n_modules = (int)kinds.len;
    if (formula != Py_None) {
        if (!PyTuple_Check(formula)) {
            PyErr_SetString(PyExc_TypeError, "Core: formula must be (weights, alpha, beta, gamma, delta) or None");
            goto done;
        }
        if (formula_parse(formula, core->n_modules, &core->formula)) goto done;
        core->has_formula = 1;
    }
    int need_para = 0;
    for (int k = 0; k < core->n_modules; k++) {
        core->kinds[k] = ((unsigned char *)kinds.buf)[k];
        core->exact[k] = ((unsigned char *)exact.buf)[k] != 0;
        if (core->kinds[k] > K_PARAPHRASE) {
            PyErr_Format(PyExc_ValueError, "Core: unknown module kind %d", core->kinds[k]);
            goto done;
        }
        need_para |= core->kinds[k] == K_PARAPHRASE;
    }
    if (need_para) {
        if (!PyTuple_Check(para) || PyTuple_GET_SIZE(para) != N_PARA_ARRAYS) {
            PyErr_SetString(PyExc_ValueError, "Core: a paraphrase module needs the index's 5 arrays");
            goto done;
        }
        for (int k = 0; k < N_PARA_ARRAYS; k++) {
            if (PyObject_GetBuffer(PyTuple_GET_ITEM(para, k), &core->para_buf[k], PyBUF_C_CONTIGUOUS | PyBUF_FORMAT))
                goto done;
            core->para_arr[k] = (const uint32_t *)core->para_buf[k].buf;
            if (core->para_buf[k].itemsize != 4 || !core->para_buf[k].format ||
                strcmp(core->para_buf[k].format, "I")) {
                PyErr_SetString(PyExc_ValueError, "Core: paraphrase arrays must be uint32 ('I') buffers");
                goto done;
            }
            core->para_len[k] = core->para_buf[k].len / 4;
        }
        if (core->para_len[P_CHILD] < 2 || core->para_len[P_START] < 2 || core->para_len[P_LEVELS] < 1) {
            PyErr_SetString(PyExc_ValueError, "Core: the paraphrase index is empty");
            goto done;
        }
        if (!PyDict_Check(vocab)) {
            PyErr_SetString(PyExc_TypeError, "Core: a paraphrase module needs the index's vocabulary (a dict)");
            goto done;
        }
        Py_INCREF(vocab);
        core->vocab = vocab;
        core->has_para = 1;
    }
    core->sentences = (Sentence *)calloc(SENTENCES, sizeof(Sentence));
    core->pairs = (PairSlot *)calloc(PAIRS, sizeof(PairSlot));
    if (!core->sentences || !core->pairs) {
        PyErr_NoMemory();
        goto done;
    }
    if (((PyTypeObject *)match_type)->tp_dictoffset == 0 &&
        !(core->matches = (MatchSlot *)calloc(MATCHES, sizeof(MatchSlot)))) {
        PyErr_NoMemory();
        goto done;
    }
    if (results != Py_None && core_results(core, results)) goto done;
    core->beam = beam;
    core->char_based = char_based;
    Py_INCREF(match_type);
    core->match_type = match_type;
    ok = 1;
done:
    PyBuffer_Release(&kinds);
    PyBuffer_Release(&exact);
    return ok ? 0 : -1;
}

static PyObject *core_size(Core *core, PyObject *unused) {
    (void)unused;
    return PyLong_FromLong(core->n_tok);
}

static PyObject *core_kept(Core *core, PyObject *unused) {
    (void)unused;
    int n = 0, pairs = 0;
    for (int k = 0; core->sentences && k < SENTENCES; k++) n += core->sentences[k].tokens != NULL;
    for (int k = 0; core->pairs && k < PAIRS; k++) pairs += core->pairs[k].hyp != NULL;
    return Py_BuildValue("(ini)", n, (Py_ssize_t)core->sentence_bytes, pairs);
}

#include "normalize_ascii.h"

/* The str objects of tokens made lately, shared by the tuples normalize_ascii returns: a token seen before
 * (most are: a corpus's words recur) costs a look-up here instead of a new object, and its hash, once
 * computed, is cached on the object the token table and the dicts then hash. TOKEN_CACHE slots chosen by a hash
 * of the token's bytes (a token evicts the one in its slot), tokens of at most TOKEN_CACHE_LEN bytes; released
 * with the module. Only ever touched with the GIL held. */
#define TOKEN_CACHE 4096
#define TOKEN_CACHE_LEN 32

static PyObject *token_cache[TOKEN_CACHE];

static void token_cache_clear(void *unused) {
    (void)unused;
    for (size_t k = 0; k < TOKEN_CACHE; k++) Py_CLEAR(token_cache[k]);
}

static inline char ascii_lower(char c) { return (char)(c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c); }

/* A new reference to the token at s, the bytes up to the first space or to end, lowercased (ASCII); its length
 * in *n. NULL with an exception set. */
static PyObject *lower_token(const char *s, const char *end, size_t *n) {
    char low[TOKEN_CACHE_LEN];
    uint32_t h = 2166136261u; /* FNV-1a */
    size_t len = 0;
    for (; s + len < end && s[len] != ' '; len++) {
        if (len == TOKEN_CACHE_LEN) { /* too long to keep: a new str */
            while (s + len < end && s[len] != ' ') len++;
            *n = len;
            PyObject *token = PyUnicode_New((Py_ssize_t)len, 127); /* ASCII: no decoding needed */
            if (!token) return NULL;
            Py_UCS1 *to = PyUnicode_1BYTE_DATA(token);
            for (size_t i = 0; i < len; i++) to[i] = (Py_UCS1)ascii_lower(s[i]);
            return token;
        }
        low[len] = ascii_lower(s[len]);
        h = (h ^ (unsigned char)low[len]) * 16777619u;
    }
    *n = len;
    PyObject **slot = &token_cache[(h ^ (h >> 16)) & (TOKEN_CACHE - 1)];
    PyObject *kept = *slot;
    if (kept && (size_t)PyUnicode_GET_LENGTH(kept) == len && !memcmp(PyUnicode_1BYTE_DATA(kept), low, len)) {
        Py_INCREF(kept);
        return kept;
    }
    PyObject *token = PyUnicode_New((Py_ssize_t)len, 127);
    if (!token) return NULL;
    memcpy(PyUnicode_1BYTE_DATA(token), low, len);
    Py_INCREF(token);
    *slot = token;
    Py_XDECREF(kept); /* (a str: its release runs no Python code) */
    return token;
}

/* The tokens of a text of tokens joined by single spaces, lowercased: a tuple of str. */
static PyObject *token_tuple(const char *s, size_t n) {
    PyObject *some[256], **tokens = some;
    const size_t most = n + 1; /* (at most a token more than spaces) */
    if (most > sizeof some / sizeof some[0] && !(tokens = (PyObject **)malloc(most * sizeof(PyObject *))))
        return PyErr_NoMemory();
    PyObject *result = NULL;
    size_t count = 0;
    for (const char *at = s, *end = s + n; at < end; count++) {
        size_t len;
        if (!(tokens[count] = lower_token(at, end, &len))) goto done;
        at += len + 1;
    }
    if ((result = PyTuple_New((Py_ssize_t)count)) != NULL) {
        for (size_t k = 0; k < count; k++) PyTuple_SET_ITEM(result, (Py_ssize_t)k, tokens[k]);
        count = 0; /* (the tuple holds them now) */
        /* a tuple of str cannot be part of a cycle: untracked, the collector skips it (its first pass read
         * every token of every tuple a corpus keeps alive: 3-4 us a pair) */
        PyObject_GC_UnTrack(result);
    }
done:
    for (size_t k = 0; k < count; k++) Py_DECREF(tokens[k]);
    if (tokens != some) free(tokens);
    return result;
}

/* normalize_ascii(line, prefixes, apostrophes, keep_punct) -> the tokens of normalize_line(line), lowercased
 * (a tuple of str), or None for a line the port does not take (see normalize_ascii.h). */
static PyObject *py_normalize_ascii(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs != 4) {
        PyErr_Format(PyExc_TypeError, "normalize_ascii() takes exactly 4 arguments (%zd given)", nargs);
        return NULL;
    }
    PyObject *line = args[0], *prefixes = args[1];
    if (!PyUnicode_Check(line) || !PyDict_Check(prefixes)) {
        PyErr_Format(PyExc_TypeError, "normalize_ascii() takes a str and a dict, not %.100s and %.100s",
                     Py_TYPE(line)->tp_name, Py_TYPE(prefixes)->tp_name);
        return NULL;
    }
    const long apostrophes = PyLong_AsLong(args[2]);
    if (apostrophes == -1 && PyErr_Occurred()) return NULL;
    const int keep_punct = PyObject_IsTrue(args[3]);
    if (keep_punct < 0) return NULL;
    if (apostrophes < APOSTROPHES_EN || apostrophes > APOSTROPHES_SPLIT) {
        PyErr_SetString(PyExc_ValueError, "normalize_ascii: apostrophes must be 0 (en), 1 (fr) or 2 (split)");
        return NULL;
    }
#if PY_VERSION_HEX < 0x030C0000
    if (PyUnicode_READY(line) < 0) return NULL; /* (every str is ready from 3.12 on) */
#endif
    if (!PyUnicode_IS_ASCII(line)) Py_RETURN_NONE;
    Text a = {0}, b = {0};
    const char *text = NULL;
    size_t text_n = 0;
    PyObject *result = NULL;
    int rc = normalize_ascii_c((const char *)PyUnicode_1BYTE_DATA(line), (size_t)PyUnicode_GET_LENGTH(line), prefixes,
                               (int)apostrophes, keep_punct, &a, &b, &text, &text_n);
    if (rc == 1) {
        result = Py_None;
        Py_INCREF(result);
    } else if (rc == -1) {
        PyErr_NoMemory();
    } else if (rc == 0) {
        result = token_tuple(text, text_n);
    }
    free(a.s);
    free(b.s);
    return result;
}

static PyMethodDef core_methods[] = {
    {"add_token", (PyCFunction)core_add_token, METH_VARARGS,
     "add_token(token, stem, synsets, function_word) -> token id (stem: a str, or None without a stem module; "
     "synsets: ints, a str of decimal ids, or a WordNet to look the token up in; a token in the table already keeps "
     "its id)"},
    {"add_tokens", (PyCFunction)core_add_tokens, METH_VARARGS,
     "add_tokens(tokens, stems, wordnet, function_words) -> None: add_token of each token (stems: a str each, or "
     "None without a stem module; function_words: a flag each) with its synsets looked up in the WordNet"},
    {"score_tokens", (PyCFunction)core_score_tokens, METH_VARARGS,
     "score_tokens(hyp_tokens, ref_tokens, max_candidates) -> score's result, or the list of tokens not yet in "
     "the table (add them, then call again)"},
    {"segment", (PyCFunction)core_segment, METH_VARARGS,
     "segment(hyp_tokens, refs_tokens, max_candidates) -> the segment result against the best reference, or the "
     "list of tokens not yet in the table (add them, then call again), or the index of the reference past "
     "max_candidates (>= 0) (needs the core's formula and results)"},
    {"score", (PyCFunction)core_score, METH_VARARGS,
     "score(hyp_ids, ref_ids, max_candidates) -> (alignment, stats fields, candidate count, (score, precision, "
     "recall, fmean, fragmentation penalty) or None without a formula) or None past "
     "max_candidates (>= 0)"},
    {"size", (PyCFunction)core_size, METH_NOARGS, "size() -> number of tokens in the table"},
    {"kept", (PyCFunction)core_kept, METH_NOARGS,
     "kept() -> (sentences kept, bytes they hold, pairs kept): at most 256 sentences, their walks only while\n"
     "under 4 MiB; at most 1024 pairs"},
    {NULL, NULL, 0, NULL}};

static PyTypeObject CoreType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "meteor_core.Core",
    .tp_basicsize = sizeof(Core),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A scoring configuration with its token table: matching, alignment and statistics of a pair in C.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)core_init,
    .tp_dealloc = (destructor)core_dealloc,
    .tp_methods = core_methods,
};

/* metrics(fields, (weights, alpha, beta, gamma, delta)) -> (precision, recall, f1, fmean, fragmentation,
 * penalty, score): formula_apply on MeteorStats fields (without crossings; the core's stats fields). */
static PyObject *py_metrics(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *fields, *spec, *mods[4];
    long long v[7];
    if (!PyArg_ParseTuple(args, "O!O!:metrics", &PyTuple_Type, &fields, &PyTuple_Type, &spec)) return NULL;
    if (!PyArg_ParseTuple(fields, "LLLLOOOOLLL:metrics fields", &v[0], &v[1], &v[2], &v[3], &mods[0], &mods[1],
                          &mods[2], &mods[3], &v[4], &v[5], &v[6]))
        return NULL;
    Counts c = {v[0], v[1], v[2], v[3], v[4], v[5], v[6], {0}, {0}, {0}, {0}};
    int64_t *slots[4] = {c.tc, c.rc, c.tf, c.rf};
    const Py_ssize_t n_modules = PyTuple_Check(mods[0]) ? PyTuple_GET_SIZE(mods[0]) : -1;
    if (n_modules < 1 || n_modules > MAX_MODULES) {
        PyErr_SetString(PyExc_ValueError, "metrics: 1..64 module slots (tuples of ints) expected");
        return NULL;
    }
    for (int s = 0; s < 4; s++) {
        if (!PyTuple_Check(mods[s]) || PyTuple_GET_SIZE(mods[s]) != n_modules) {
            PyErr_SetString(PyExc_ValueError, "metrics: the four module slots must be tuples of one length");
            return NULL;
        }
        for (Py_ssize_t k = 0; k < n_modules; k++) {
            slots[s][k] = PyLong_AsLongLong(PyTuple_GET_ITEM(mods[s], k));
            if (slots[s][k] == -1 && PyErr_Occurred()) return NULL;
        }
    }
    Formula f;
    if (formula_parse(spec, (int)n_modules, &f)) return NULL;
    double m[N_METRICS];
    formula_apply(&f, &c, (int)n_modules, m);
    return Py_BuildValue("(ddddddd)", m[0], m[1], m[2], m[3], m[4], m[5], m[6]);
}

static PyMethodDef methods[] = {
    {"align", py_align, METH_VARARGS,
     "align(n_hyp, n_ref, candidates, exact_type, beam_size, max_candidates) -> tuple of candidate indices "
     "(the jar's alignment, in reference order), or None when there are more than max_candidates (>= 0) "
     "candidates. candidates: int32 records (ref_start, ref_len, hyp_start, hyp_len, module) in reference "
     "order; exact_type: one byte per module."},
    {"normalize_ascii", (PyCFunction)(void (*)(void))py_normalize_ascii, METH_FASTCALL,
     "normalize_ascii(line, nonbreaking_prefixes, apostrophes, keep_punct) -> the lowercased tokens of the jar's "
     "normalizeLine (apostrophes: 0 English, 1 French, 2 split), or None for a line it does not take (not "
     "printable ASCII, or with dot runs)."},
    {"metrics", py_metrics, METH_VARARGS,
     "metrics(fields, (weights, alpha, beta, gamma, delta)) -> (precision, recall, f1, fmean, fragmentation, "
     "penalty, score) of MeteorStats fields without crossings: formula.compute_metrics with fragmentation "
     "'chunks', in C."},
    {"count", py_count, METH_VARARGS,
     "count(matches, hyp_function, ref_function, hyp_size, ref_size, n_modules) -> the MeteorStats fields "
     "(without crossings) of an alignment."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "meteor_core",
                                    "The compiled core of the METEOR 1.5 engine (aligner, statistics).", -1,
                                    methods, NULL, NULL, NULL, token_cache_clear};

PyMODINIT_FUNC PyInit_meteor_core(void) {
    if (PyType_Ready(&CoreType) < 0 || PyType_Ready(&WordNetType) < 0) return NULL;
    char_class_init();
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    PyTypeObject *types[] = {&CoreType, &WordNetType};
    const char *names[] = {"Core", "WordNet"};
    for (int k = 0; k < 2; k++) {
        Py_INCREF(types[k]);
        if (PyModule_AddObject(m, names[k], (PyObject *)types[k]) < 0) {
            Py_DECREF(types[k]);
            Py_DECREF(m);
            return NULL;
        }
    }
    return m;
}
