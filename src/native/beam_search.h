/* The jar's beam search (aligner._search), for one width of path keys: meteor_core.c includes this file
 * twice, with KEY int64_t (when the keys of a problem provably fit) and __int128, and NAMED(x) naming each
 * copy's functions and types. Path keys are packed like aligner._search packs them. */

typedef struct {
    KEY key;
    int32_t last;     /* hypothesis end of the open chunk, -1: none */
    int32_t ref_end;  /* reference end of the path's last chosen match */
    int64_t hist;     /* its last chosen match in the history, -1: none */
    int32_t slot;     /* its used hypothesis words: a bitset slot of the generation's bits */
} NAMED(Path);

/* A successor not yet built: its key, its parent's index in the beam and what it does there. */
typedef struct {
    KEY key;
    int32_t parent;
    int32_t cand; /* the candidate it chooses; SKIP: the parent with its chunk closed; CARRY: the parent as is */
} NAMED(Succ);

/* Stable sort of paths by key (Java's and Python's sorts are stable). The beam is kept sorted, so this
 * only reorders what a settle changed: an insertion sort. */
static void NAMED(sort_paths)(NAMED(Path) *a, int32_t n) {
    for (int32_t i = 1; i < n; i++) {
        if (!(a[i].key < a[i - 1].key)) continue;
        NAMED(Path) v = a[i];
        int32_t j = i;
        while (j > 0 && v.key < a[j - 1].key) {
            a[j] = a[j - 1];
            j--;
        }
        a[j] = v;
    }
}

/* Offers a successor to the beam: `best` holds the first `beam` successors of a stable sort of all those
 * offered so far (by key, ties in the order offered), which is what aligner._branch's sort and cut keeps.
 * Successors come roughly in key order (their parents do), so an insertion from the end moves little.
 * best[-1] is a sentinel whose key is below every key: the insertions stop there without counting. */
static inline void NAMED(beam_offer)(NAMED(Succ) *best, int32_t *n_best, int32_t beam, KEY key, int32_t parent,
                              int32_t cand) {
    int32_t n = *n_best;
    if (n == beam) {
        if (!(key < best[n - 1].key)) return; /* a later successor loses every tie */
        n--;
    }
    int32_t at = n;
    while (key < best[at - 1].key) {
        best[at] = best[at - 1];
        at--;
    }
    best[at].key = key;
    best[at].parent = parent;
    best[at].cand = cand;
    *n_best = n + 1;
}

/* Offers a parent's skip (or carry) after every candidate successor was offered: it goes before a successor
 * with a smaller key, or the same key and a later parent (those came after it in aligner._branch's order;
 * the candidates of its own and earlier parents came before it), and before nothing else. */
static inline void NAMED(skip_offer)(NAMED(Succ) *best, int32_t *n_best, int32_t beam, KEY key, int32_t parent,
                                     int32_t cand) {
#define GOES_BEFORE(e) (key < (e).key || (key == (e).key && parent < (e).parent))
    int32_t n = *n_best;
    if (n == beam) {
        if (!GOES_BEFORE(best[n - 1])) return;
        n--;
    }
    int32_t at = n;
    while (GOES_BEFORE(best[at - 1])) {
        best[at] = best[at - 1];
        at--;
    }
#undef GOES_BEFORE
    best[at].key = key;
    best[at].parent = parent;
    best[at].cand = cand;
    *n_best = n + 1;
}

/* aligner._search: the best path's history entry (-1: no match chosen), -2 on memory exhaustion.
 * fixed[j]: the fixed candidate at reference position j, -1: none. */
static int64_t NAMED(search)(const Problem *p, const int32_t *fixed, const int32_t *ref_cover, History *hs,
                             Arena *arena) {
    const int32_t n_ref = p->n_ref, beam = p->beam;
    const int32_t words = p->n_hyp > 0 ? (p->n_hyp + 63) / 64 : 1;
    int64_t dist_sum = 1;
    for (int32_t i = 0; i < p->n_cand; i++) dist_sum += distance_of(p, i);
    const KEY dist_radix = dist_sum;
    const KEY chunk_radix = (KEY)(n_ref + 2) * dist_radix;
    const size_t n_cand = (size_t)p->n_cand + 1, n_slots = (size_t)beam, n_pos = (size_t)n_ref + 1;
    KEY *gain_key, *distance, *skip_key;
    int32_t *span_word, *hyp_start, *hyp_end, *ref_end, *last_after;
    uint64_t *span_mask, *cur_bits, *next_bits;
    NAMED(Path) *cur_paths, *next_paths;
    NAMED(Succ) *best;
    unsigned char *inside;
    Carve block = {NULL, 0}; /* every array in one piece of the arena: measured, then handed out */
    for (int pass = 0; pass < 2; pass++) {
        gain_key = (KEY *)carve(&block, n_cand, sizeof(KEY)); /* -gain * chunk_radix */
        distance = (KEY *)carve(&block, n_cand, sizeof(KEY));
        /* a candidate's hypothesis words as one bitset word and mask (mask 0: a span across words) */
        span_word = (int32_t *)carve(&block, n_cand, sizeof(int32_t));
        /* its hypothesis start and its spans' ends, read for every path (not from the records) */
        hyp_start = (int32_t *)carve(&block, n_cand, sizeof(int32_t));
        hyp_end = (int32_t *)carve(&block, n_cand, sizeof(int32_t));
        ref_end = (int32_t *)carve(&block, n_cand, sizeof(int32_t));
        span_mask = (uint64_t *)carve(&block, n_cand, sizeof(uint64_t));
        cur_paths = (NAMED(Path) *)carve(&block, n_slots, sizeof(NAMED(Path)));
        next_paths = (NAMED(Path) *)carve(&block, n_slots, sizeof(NAMED(Path)));
        best = (NAMED(Succ) *)carve(&block, n_slots + 1, sizeof(NAMED(Succ))); /* best[0]: the sentinel */
        skip_key = (KEY *)carve(&block, n_slots, sizeof(KEY)); /* each parent's skip, found with its candidates */
        cur_bits = (uint64_t *)carve(&block, n_slots * (size_t)words, sizeof(uint64_t));
        next_bits = (uint64_t *)carve(&block, n_slots * (size_t)words, sizeof(uint64_t));
        inside = (unsigned char *)carve(&block, n_pos, 1);
        last_after = (int32_t *)carve(&block, n_pos, sizeof(int32_t));
        if (pass == 0 && !carve_allocate(&block, arena)) return -2;
    }
    best[0].key = -((KEY)1 << (8 * sizeof(KEY) - 2)); /* below every key (search() bounds them) */
    best[0].parent = -1;
    best[0].cand = SKIP;
    best++;
    memset(cur_bits, 0, (size_t)words * sizeof(uint64_t)); /* the first path's words */
    memset(inside, 0, n_pos);
    for (int32_t i = 0; i < p->n_cand; i++) {
        gain_key[i] = -(KEY)gain_of(p, i) * chunk_radix;
        distance[i] = distance_of(p, i);
        const int32_t start = HS(p, i), len = HL(p, i);
        span_word[i] = start >> 6;
        hyp_start[i] = start;
        hyp_end[i] = start + len;
        ref_end[i] = RS(p, i) + RL(p, i);
        span_mask[i] = (start & 63) + len <= 64 ? (~(uint64_t)0 >> (64 - len)) << (start & 63) : 0;
    }
    int32_t n_paths = 1;
    cur_paths[0].key = 0;
    cur_paths[0].last = -1;
    cur_paths[0].ref_end = 0;
    cur_paths[0].hist = -1;
    cur_paths[0].slot = 0;
    for (int32_t j = 0; j < n_ref; j++) {
        int32_t f = fixed[j];
        if (f < 0) continue;
        span_set(cur_bits, HS(p, f), HL(p, f));
        for (int32_t k = j + 1; k < j + RL(p, f); k++) inside[k] = 1;
    }
    /* aligner._settled_last; a position with a choice is marked by `have = 0` */
    int64_t n_choices = 0;
    {
        int have = 1;
        int32_t after = -1;
        for (int32_t c = n_ref - 1; c >= 0; c--) {
            last_after[c] = -1;
            if (inside[c]) continue;
            int32_t f = fixed[c];
            if (f < 0 && ref_cover[c]) {
                have = 0;
                n_choices++;
                continue;
            }
            if (!have) {
                after = f < 0 ? -1 : HS(p, f) + HL(p, f);
                have = 1;
            }
            last_after[c] = after;
        }
    }
    if (!hist_reserve(hs, n_choices * beam)) return -2; /* a position adds at most `beam` entries */
    int settled = 0, in_order = 1; /* in_order: the paths are sorted by key */
    for (int32_t c = 0; c < n_ref; c++) {
        if (inside[c]) continue;
        int32_t f = fixed[c];
        if (f >= 0 || !ref_cover[c]) {
            if (!settled) {
                if (!in_order) NAMED(sort_paths)(cur_paths, n_paths);
                int32_t hyp_start = f < 0 ? -1 : HS(p, f);
                for (int32_t k = 0; k < n_paths; k++) {
                    NAMED(Path) *q = &cur_paths[k];
                    if (q->last != -1 && q->last != hyp_start) q->key += dist_radix;
                    q->last = last_after[c];
                }
                settled = 1;
                in_order = 0;
            }
            continue;
        }
        settled = 0;
        if (!in_order) NAMED(sort_paths)(cur_paths, n_paths);
        /* aligner._branch and _moves: the successors' keys first, the best `beam` of them built after */
        const int32_t lo = p->first[c], hi = p->first[c + 1];
        KEY floor = 0;
        for (int32_t i = lo; i < hi; i++)
            if (gain_key[i] < floor) floor = gain_key[i];
        /* The candidate successors first, parent by parent (kept among themselves as the sort keeps them), then
         * the skips and carries: a skip is worse than its parent's candidates by about a match's gain, so
         * offered in between, each candidate successor moved past the skips of the parents before it. */
        int32_t n_best = 0, n_branched = 0; /* n_branched: parents whose candidates were offered */
        for (int32_t k = 0; k < n_paths; k++) {
            const NAMED(Path) *q = &cur_paths[k];
            /* every candidate successor of this path and of the later ones is >= q->key + floor */
            const KEY bound = n_best == beam ? best[beam - 1].key : chunk_radix;
            if (floor >= bound - q->key) break;
            n_branched = k + 1;
            if (q->ref_end > c) { /* inside a multi-word match this path chose earlier: carried as it is */
                skip_key[k] = q->key;
                continue;
            }
            const uint64_t *qbits = cur_bits + (size_t)q->slot * words;
            /* (read once: the offers' stores could alias them, so the compiler read them again after each) */
            const KEY q_key = q->key;
            const int32_t q_last = q->last;
            KEY parent_distance = 0; /* the jar adds each branch's distance to the parent path */
            for (int32_t i = lo; i < hi; i++) {
                if (span_blocked(qbits, span_word, span_mask, p, i)) continue;
                const KEY jump = q_last != -1 && hyp_start[i] != q_last ? dist_radix : 0;
                NAMED(beam_offer)(best, &n_best, beam, q_key + gain_key[i] + parent_distance + jump, k, i);
                parent_distance += distance[i];
            }
            /* the skip: the parent itself, its open chunk closed */
            skip_key[k] = q_key + parent_distance + (q_last != -1 ? dist_radix : 0);
        }
        for (int32_t k = 0; k < n_paths; k++) {
            const NAMED(Path) *q = &cur_paths[k];
            /* a skip or carry is >= its parent's key, and the parents are sorted */
            if (n_best == beam && q->key > best[beam - 1].key) break;
            const int carry = q->ref_end > c;
            KEY key = q->key;
            if (k < n_branched) {
                key = skip_key[k];
            } else if (!carry) {
                const uint64_t *qbits = cur_bits + (size_t)q->slot * words;
                for (int32_t i = lo; i < hi; i++)
                    if (!span_blocked(qbits, span_word, span_mask, p, i)) key += distance[i];
                if (q->last != -1) key += dist_radix;
            }
            NAMED(skip_offer)(best, &n_best, beam, key, k, carry ? CARRY : SKIP);
        }
        for (int32_t k = 0; k < n_best; k++) {
            const NAMED(Succ) *s = &best[k];
            const NAMED(Path) *q = &cur_paths[s->parent];
            NAMED(Path) *r = &next_paths[k];
            uint64_t *rbits = next_bits + (size_t)k * words;
            if (words == 1) {
                *rbits = cur_bits[q->slot];
            } else if (words == 2) {
                rbits[0] = cur_bits[2 * (size_t)q->slot];
                rbits[1] = cur_bits[2 * (size_t)q->slot + 1];
            } else {
                memcpy(rbits, cur_bits + (size_t)q->slot * words, (size_t)words * sizeof(uint64_t));
            }
            *r = *q;
            r->key = s->key;
            r->slot = k;
            if (s->cand == SKIP) {
                r->last = -1;
            } else if (s->cand != CARRY) {
                const int32_t i = s->cand;
                r->last = hyp_end[i];
                r->ref_end = ref_end[i];
                r->hist = hist_push(hs, i, q->hist);
                if (r->hist < 0) return -2;
                if (span_mask[i]) rbits[span_word[i]] |= span_mask[i];
                else span_set(rbits, HS(p, i), HL(p, i));
            }
        }
        NAMED(Path) *swap = cur_paths;
        cur_paths = next_paths;
        next_paths = swap;
        uint64_t *swap_bits = cur_bits;
        cur_bits = next_bits;
        next_bits = swap_bits;
        n_paths = n_best;
        in_order = 1;
    }
    if (!in_order) NAMED(sort_paths)(cur_paths, n_paths);
    int32_t winner = 0; /* the first path of the least key once the open chunks close */
    KEY winner_key = 0;
    for (int32_t k = 0; k < n_paths; k++) {
        KEY key = cur_paths[k].key + (cur_paths[k].last != -1 ? dist_radix : 0);
        if (k == 0 || key < winner_key) {
            winner = k;
            winner_key = key;
        }
    }
    return n_paths > 0 ? cur_paths[winner].hist : -1;
}
