/* The compiled core of meteor-metric's METEOR 1.5 engine: the jar's beam aligner and the statistics count.
 *
 * A C port of meteor_metric/meteor15/aligner.py (align, _search, _settled_last, _settle, _branch, _moves)
 * and statistics.py (StatsCounter.count, count_chunks), which stay the reference. Every quirk of the jar
 * those functions reproduce is reproduced here in the same way: int-truncated aligner gains, the distance
 * of a branch added to its parent, the skip mutating the parent, fixed matches, the stable sort, the beam.
 * Path keys are packed like aligner._search packs them, in 128-bit integers (no overflow for the sizes the
 * input checks admit). Every input is checked here again, whatever the Python glue checked before.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef __int128 mkey;

#define MAX_TOKENS (1 << 20)      /* tokens per side */
#define MAX_CANDIDATES (1 << 30)  /* candidates per pair */
#define MAX_BEAM (1 << 16)
#define MAX_MODULES 64

typedef struct {
    mkey key;
    int32_t last;     /* hypothesis end of the open chunk, -1: none */
    int32_t ref_end;  /* reference end of the path's last chosen match */
    int64_t hist;     /* its last chosen match in the history, -1: none */
    int32_t slot;     /* its used hypothesis words: a bitset slot of the generation's pool */
} Path;

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

typedef struct {
    uint64_t *bits;  /* cap slots of words 64-bit words */
    int32_t *free;   /* stack of free slots */
    int32_t n_free;
    int32_t cap;
} Pool;

typedef struct {
    Hist *h;
    int64_t n, cap;
} History;

static int pool_init(Pool *pool, int32_t cap, int32_t words) {
    pool->bits = (uint64_t *)calloc((size_t)cap * (size_t)words, sizeof(uint64_t));
    pool->free = (int32_t *)malloc((size_t)cap * sizeof(int32_t));
    pool->cap = cap;
    if (!pool->bits || !pool->free) return -1;
    return 0;
}

static void pool_reset(Pool *pool) {
    for (int32_t i = 0; i < pool->cap; i++) pool->free[i] = pool->cap - 1 - i;
    pool->n_free = pool->cap;
}

static void pool_free(Pool *pool) {
    free(pool->bits);
    free(pool->free);
}

static int64_t hist_push(History *hs, int32_t cand, int64_t prev) {
    if (hs->n == hs->cap) {
        int64_t cap = hs->cap ? 2 * hs->cap : 1024;
        Hist *h = (Hist *)realloc(hs->h, (size_t)cap * sizeof(Hist));
        if (!h) return -2;
        hs->h = h;
        hs->cap = cap;
    }
    hs->h[hs->n].cand = cand;
    hs->h[hs->n].prev = prev;
    return hs->n++;
}

static int span_used(const uint64_t *bits, int32_t start, int32_t len) {
    for (int32_t k = start; k < start + len; k++)
        if (bits[k >> 6] >> (k & 63) & 1) return 1;
    return 0;
}

static void span_set(uint64_t *bits, int32_t start, int32_t len) {
    for (int32_t k = start; k < start + len; k++) bits[k >> 6] |= (uint64_t)1 << (k & 63);
}

/* Stable merge sort of paths by key (Java's and Python's sorts are stable). */
static void sort_paths(Path *a, Path *tmp, int32_t n) {
    for (int32_t width = 1; width < n; width *= 2) {
        for (int32_t lo = 0; lo < n; lo += 2 * width) {
            int32_t mid = lo + width < n ? lo + width : n;
            int32_t hi = lo + 2 * width < n ? lo + 2 * width : n;
            int32_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi) tmp[k++] = a[j].key < a[i].key ? a[j++] : a[i++];
            while (i < mid) tmp[k++] = a[i++];
            while (j < hi) tmp[k++] = a[j++];
        }
        memcpy(a, tmp, (size_t)n * sizeof(Path));
    }
}

static int32_t gain_of(const Problem *p, int32_t i) {
    return p->exact[MOD(p, i)] ? HL(p, i) + RL(p, i) : HL(p, i) / 2 + RL(p, i) / 2;
}

static int32_t distance_of(const Problem *p, int32_t i) {
    int32_t d = RS(p, i) - HS(p, i);
    return d < 0 ? -d : d;
}

/* aligner._search: the best path's history entry (-1: no match chosen), -2 on memory exhaustion.
 * fixed[j]: the fixed candidate at reference position j, -1: none. */
static int64_t search(const Problem *p, const int32_t *fixed, const int32_t *ref_cover, History *hs) {
    const int32_t n_ref = p->n_ref, beam = p->beam;
    const int32_t words = p->n_hyp > 0 ? (p->n_hyp + 63) / 64 : 1;
    int64_t dist_sum = 1;
    int32_t max_at = 0;
    for (int32_t i = 0; i < p->n_cand; i++) dist_sum += distance_of(p, i);
    for (int32_t j = 0; j < n_ref; j++)
        if (p->first[j + 1] - p->first[j] > max_at) max_at = p->first[j + 1] - p->first[j];
    const mkey dist_radix = dist_sum;
    const mkey chunk_radix = (mkey)(n_ref + 2) * dist_radix;
    /* successors before a cut: under 2 * beam, plus the paths passing `cur` (no cut check after
     * those, as in aligner._branch: at most beam), plus one path's branches and skip */
    if ((int64_t)3 * beam + max_at + 2 > INT32_MAX / 2) return -2;
    const int32_t cap = 3 * beam + max_at + 2;

    int64_t result = -2;
    Pool pools[2] = {{0}, {0}};
    Path *cur_paths = (Path *)malloc((size_t)cap * sizeof(Path));
    Path *next_paths = (Path *)malloc((size_t)cap * sizeof(Path));
    Path *tmp = (Path *)malloc((size_t)cap * sizeof(Path));
    unsigned char *inside = (unsigned char *)calloc((size_t)n_ref + 1, 1);
    int32_t *last_after = (int32_t *)malloc(((size_t)n_ref + 1) * sizeof(int32_t));
    if (!cur_paths || !next_paths || !tmp || !inside || !last_after || pool_init(&pools[0], cap, words) ||
        pool_init(&pools[1], cap, words))
        goto done;
    int cur_pool = 0;
    pool_reset(&pools[0]);
    int32_t n_paths = 1;
    cur_paths[0].key = 0;
    cur_paths[0].last = -1;
    cur_paths[0].ref_end = 0;
    cur_paths[0].hist = -1;
    cur_paths[0].slot = pools[0].free[--pools[0].n_free];
    uint64_t *init = pools[0].bits + (size_t)cur_paths[0].slot * words;
    memset(init, 0, (size_t)words * sizeof(uint64_t));
    for (int32_t j = 0; j < n_ref; j++) {
        int32_t f = fixed[j];
        if (f < 0) continue;
        span_set(init, HS(p, f), HL(p, f));
        for (int32_t k = j + 1; k < j + RL(p, f); k++) inside[k] = 1;
    }
    /* aligner._settled_last; a position with a choice is marked by `have = 0` */
    {
        int have = 1;
        int32_t after = -1;
        for (int32_t c = n_ref - 1; c >= 0; c--) {
            last_after[c] = -1;
            if (inside[c]) continue;
            int32_t f = fixed[c];
            if (f < 0 && ref_cover[c]) {
                have = 0;
                continue;
            }
            if (!have) {
                after = f < 0 ? -1 : HS(p, f) + HL(p, f);
                have = 1;
            }
            last_after[c] = after;
        }
    }
    int settled = 0;
    for (int32_t c = 0; c < n_ref; c++) {
        if (inside[c]) continue;
        int32_t f = fixed[c];
        if (f >= 0 || !ref_cover[c]) {
            if (!settled) {
                sort_paths(cur_paths, tmp, n_paths);
                if (n_paths > beam) n_paths = beam;
                int32_t hyp_start = f < 0 ? -1 : HS(p, f);
                for (int32_t k = 0; k < n_paths; k++) {
                    Path *q = &cur_paths[k];
                    if (q->last != -1 && q->last != hyp_start) q->key += dist_radix;
                    q->last = last_after[c];
                }
                settled = 1;
            }
            continue;
        }
        settled = 0;
        sort_paths(cur_paths, tmp, n_paths);
        if (n_paths > beam) n_paths = beam;
        /* aligner._branch and _moves */
        const int32_t lo = p->first[c], hi = p->first[c + 1];
        mkey floor = 0;
        for (int32_t i = lo; i < hi; i++) {
            mkey g = -(mkey)gain_of(p, i) * chunk_radix;
            if (g < floor) floor = g;
        }
        Pool *src = &pools[cur_pool], *dst = &pools[1 - cur_pool];
        pool_reset(dst);
        mkey bound = chunk_radix;
        int32_t cut = beam, n_next = 0;
        for (int32_t k = 0; k < n_paths; k++) {
            const Path *q = &cur_paths[k];
            const mkey limit = bound - q->key;
            if (floor >= limit) break;
            const uint64_t *qbits = src->bits + (size_t)q->slot * words;
            if (q->ref_end > c) {
                Path *r = &next_paths[n_next++];
                *r = *q;
                r->slot = dst->free[--dst->n_free];
                memcpy(dst->bits + (size_t)r->slot * words, qbits, (size_t)words * sizeof(uint64_t));
                continue;
            }
            mkey parent_distance = 0;
            for (int32_t i = lo; i < hi; i++) {
                if (span_used(qbits, HS(p, i), HL(p, i))) continue;
                mkey delta = -(mkey)gain_of(p, i) * chunk_radix + parent_distance +
                             (q->last != -1 && HS(p, i) != q->last ? dist_radix : 0);
                if (delta < limit) {
                    int64_t h = hist_push(hs, i, q->hist);
                    if (h < 0) goto done;
                    Path *r = &next_paths[n_next++];
                    r->key = q->key + delta;
                    r->last = HS(p, i) + HL(p, i);
                    r->ref_end = RS(p, i) + RL(p, i);
                    r->hist = h;
                    r->slot = dst->free[--dst->n_free];
                    uint64_t *rbits = dst->bits + (size_t)r->slot * words;
                    memcpy(rbits, qbits, (size_t)words * sizeof(uint64_t));
                    span_set(rbits, HS(p, i), HL(p, i));
                }
                parent_distance += distance_of(p, i);
            }
            mkey skip = parent_distance + (q->last != -1 ? dist_radix : 0);
            if (skip < limit) {
                Path *r = &next_paths[n_next++];
                *r = *q;
                r->key = q->key + skip;
                r->last = -1;
                r->slot = dst->free[--dst->n_free];
                memcpy(dst->bits + (size_t)r->slot * words, qbits, (size_t)words * sizeof(uint64_t));
            }
            if (n_next >= cut) {
                sort_paths(next_paths, tmp, n_next);
                for (int32_t d = beam; d < n_next; d++) dst->free[dst->n_free++] = next_paths[d].slot;
                n_next = beam;
                bound = next_paths[beam - 1].key;
                cut = 2 * beam;
            }
        }
        Path *swap = cur_paths;
        cur_paths = next_paths;
        next_paths = swap;
        n_paths = n_next;
        cur_pool = 1 - cur_pool;
    }
    sort_paths(cur_paths, tmp, n_paths);
    if (n_paths > beam) n_paths = beam;
    {
        int32_t best = 0;
        mkey best_key = 0;
        for (int32_t k = 0; k < n_paths; k++) {
            mkey key = cur_paths[k].key + (cur_paths[k].last != -1 ? dist_radix : 0);
            if (k == 0 || key < best_key) {
                best = k;
                best_key = key;
            }
        }
        result = n_paths > 0 ? cur_paths[best].hist : -1;
    }
done:
    free(cur_paths);
    free(next_paths);
    free(tmp);
    free(inside);
    free(last_after);
    pool_free(&pools[0]);
    pool_free(&pools[1]);
    return result;
}

/* aligner.align: writes the chosen candidates in reference order to out (n_ref slots); returns their
 * number, -1 on memory exhaustion. */
static int32_t align_problem(const Problem *p, int32_t *out) {
    int32_t n_out = -1;
    int32_t *hyp_cover = (int32_t *)calloc((size_t)p->n_hyp + 1, sizeof(int32_t));
    int32_t *ref_cover = (int32_t *)calloc((size_t)p->n_ref + 1, sizeof(int32_t));
    int32_t *fixed = (int32_t *)malloc(((size_t)p->n_ref + 1) * sizeof(int32_t));
    History hs = {NULL, 0, 0};
    if (!hyp_cover || !ref_cover || !fixed) goto done;
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
        int64_t h = search(p, fixed, ref_cover, &hs);
        if (h == -2) goto done;
        for (; h >= 0; h = hs.h[h].prev) fixed[RS(p, hs.h[h].cand)] = hs.h[h].cand;
    }
    n_out = 0;
    for (int32_t j = 0; j < p->n_ref; j++)
        if (fixed[j] >= 0) out[n_out++] = fixed[j];
done:
    free(hyp_cover);
    free(ref_cover);
    free(fixed);
    free(hs.h);
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
    Py_BEGIN_ALLOW_THREADS
    n_out = align_problem(&p, out);
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
    return t;
}

/* statistics.StatsCounter.count (without crossings): the counts of an alignment, as a tuple in
 * MeteorStats field order. sizes: per token 1 (words) or its UTF-16 length (characters). */
static PyObject *py_count(PyObject *self, PyObject *args) {
    (void)self;
    int n_modules;
    Py_buffer matches = {0}, hyp_fw = {0}, ref_fw = {0}, hyp_size = {0}, ref_size = {0};
    if (!PyArg_ParseTuple(args, "y*y*y*y*y*i:count", &matches, &hyp_fw, &ref_fw, &hyp_size, &ref_size, &n_modules))
        return NULL;
    PyObject *result = NULL;
    const Py_ssize_t n_hyp = hyp_fw.len, n_ref = ref_fw.len;
    const Py_ssize_t n_match = matches.len / (5 * (Py_ssize_t)sizeof(int32_t));
    if (matches.len % (5 * (Py_ssize_t)sizeof(int32_t)) || hyp_size.len != n_hyp * (Py_ssize_t)sizeof(int32_t) ||
        ref_size.len != n_ref * (Py_ssize_t)sizeof(int32_t) || n_modules < 1 || n_modules > MAX_MODULES ||
        n_hyp > MAX_TOKENS || n_ref > MAX_TOKENS) {
        PyErr_SetString(PyExc_ValueError, "count: inconsistent buffer sizes or module count");
        goto done;
    }
    const int32_t *m = (const int32_t *)matches.buf, *hsz = (const int32_t *)hyp_size.buf,
                  *rsz = (const int32_t *)ref_size.buf;
    const unsigned char *hfw = (const unsigned char *)hyp_fw.buf, *rfw = (const unsigned char *)ref_fw.buf;
    int64_t tc[MAX_MODULES] = {0}, rc[MAX_MODULES] = {0}, tf[MAX_MODULES] = {0}, rf[MAX_MODULES] = {0};
    int64_t t_len = 0, r_len = 0, t_fun = 0, r_fun = 0, hyp_words = 0, ref_words = 0, chunks = 0;
    for (Py_ssize_t k = 0; k < n_hyp; k++) {
        t_len += hsz[k];
        if (hfw[k]) t_fun += hsz[k];
    }
    for (Py_ssize_t k = 0; k < n_ref; k++) {
        r_len += rsz[k];
        if (rfw[k]) r_fun += rsz[k];
    }
    int64_t last = -1, idx = 0, prev_ref = -1;
    for (Py_ssize_t i = 0; i < n_match; i++) {
        int32_t rs = m[5 * i], rl = m[5 * i + 1], hst = m[5 * i + 2], hl = m[5 * i + 3], mod = m[5 * i + 4];
        if (rs < 0 || rl < 1 || rl > n_ref || rs > n_ref - rl || hst < 0 || hl < 1 || hl > n_hyp ||
            hst > n_hyp - hl || mod < 0 || mod >= n_modules || rs < prev_ref) {
            PyErr_Format(PyExc_ValueError, "count: match %zd is outside the sentences or out of order", i);
            goto done;
        }
        prev_ref = rs + rl;
        for (int32_t k = hst; k < hst + hl; k++) {
            if (hfw[k]) tf[mod] += hsz[k];
            else tc[mod] += hsz[k];
        }
        for (int32_t k = rs; k < rs + rl; k++) {
            if (rfw[k]) rf[mod] += rsz[k];
            else rc[mod] += rsz[k];
        }
        hyp_words += hl;
        ref_words += rl;
        /* aligner.count_chunks */
        if (rs != idx && last != -1) {
            chunks++;
            last = -1;
        }
        if (last != -1 && hst != last) chunks++;
        idx = rs + rl;
        last = hst + hl;
    }
    if (last != -1) chunks++;
    PyObject *t[4] = {int_tuple(tc, n_modules), int_tuple(rc, n_modules), int_tuple(tf, n_modules),
                      int_tuple(rf, n_modules)};
    if (t[0] && t[1] && t[2] && t[3])
        result = Py_BuildValue("(LLLLOOOOLLL)", (long long)t_len, (long long)r_len, (long long)t_fun,
                               (long long)r_fun, t[0], t[1], t[2], t[3], (long long)chunks, (long long)hyp_words,
                               (long long)ref_words);
    for (int k = 0; k < 4; k++) Py_XDECREF(t[k]);
done:
    PyBuffer_Release(&matches);
    PyBuffer_Release(&hyp_fw);
    PyBuffer_Release(&ref_fw);
    PyBuffer_Release(&hyp_size);
    PyBuffer_Release(&ref_size);
    return result;
}

static PyMethodDef methods[] = {
    {"align", py_align, METH_VARARGS,
     "align(n_hyp, n_ref, candidates, exact_type, beam_size, max_candidates) -> tuple of candidate indices "
     "(the jar's alignment, in reference order), or None when there are more than max_candidates (>= 0) "
     "candidates. candidates: int32 records (ref_start, ref_len, hyp_start, hyp_len, module) in reference "
     "order; exact_type: one byte per module."},
    {"count", py_count, METH_VARARGS,
     "count(matches, hyp_function, ref_function, hyp_size, ref_size, n_modules) -> the MeteorStats fields "
     "(without crossings) of an alignment."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "meteor_core",
                                    "The compiled core of the METEOR 1.5 engine (aligner, statistics).", -1,
                                    methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit_meteor_core(void) { return PyModule_Create(&module); }
