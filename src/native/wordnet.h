/* WordNet's synonym table in C: meteor_metric/meteor15/synonyms.py (SynonymTable.lookup, morph, the parse of
 * the shipped tables), which stays the reference. meteor_core.c includes this file.
 *
 * Built from the two tables' bytes (the body after the header line, which Python checked), it looks words up
 * in two open-addressed indexes over those bytes (no object per word): the compiled engine's new words get
 * their synset ids here, and the tables need no Python dict (0.1 s at start-up). The table's words and forms
 * are ASCII, so a token that is not has no synsets (its morph candidates keep its other characters). */

#define WN_MAX_RULES 64
#define WN_MAX_AFFIX 15
#define WN_MAX_ID_DIGITS 18 /* an id fits an int64 */

typedef struct {
    uint32_t at, len;        /* a word (or an exception's form): its bytes in the table */
    uint32_t rest, rest_len; /* its id line (or the form's base forms, apart by single spaces) */
    uint32_t hash;
} WnEntry;

/* Entries in table order, found through a small array of slots (an entry's number + 1; 0: empty): on this
 * VM, slots holding the entries themselves (8 MiB) took 40 ms to fill, mostly in TLB misses. */
typedef struct {
    uint32_t *slots;
    WnEntry *entries;
    uint32_t n, mask;
    const char *text;
} WnIndex;

typedef struct {
    PyObject_HEAD
    PyObject *synsets_bytes, *exceptions_bytes; /* held: the indexes point into them */
    WnIndex words, forms;
    int n_rules;
    unsigned char suffix_len[WN_MAX_RULES], replacement_len[WN_MAX_RULES];
    char suffix[WN_MAX_RULES][WN_MAX_AFFIX], replacement[WN_MAX_RULES][WN_MAX_AFFIX];
} WordNet;

/* FNV-1a over the concatenation of two pieces, mixed (the slot comes from the low bits). */
static uint32_t wn_hash(const char *a, size_t na, const char *b, size_t nb) {
    uint64_t h = 1469598103934665603ULL;
    for (size_t i = 0; i < na; i++) h = (h ^ (unsigned char)a[i]) * 1099511628211ULL;
    for (size_t i = 0; i < nb; i++) h = (h ^ (unsigned char)b[i]) * 1099511628211ULL;
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    return (uint32_t)(h ^ (h >> 33));
}

/* The entry of the concatenation a + b, or NULL. */
static const WnEntry *wn_find(const WnIndex *x, const char *a, size_t na, const char *b, size_t nb) {
    const uint32_t hash = wn_hash(a, na, b, nb);
    for (uint32_t s = hash & x->mask;; s = (s + 1) & x->mask) {
        if (!x->slots[s]) return NULL;
        const WnEntry *e = &x->entries[x->slots[s] - 1];
        if (e->hash == hash && e->len == na + nb && memcmp(x->text + e->at, a, na) == 0 &&
            memcmp(x->text + e->at + na, b, nb) == 0)
            return e;
    }
}

/* Adds a word: 0, or 1 when it is there already. */
static int wn_put(WnIndex *x, uint32_t at, uint32_t len, uint32_t rest, uint32_t rest_len) {
    const char *w = x->text + at;
    const uint32_t hash = wn_hash(w, len, "", 0);
    uint32_t s = hash & x->mask;
    for (; x->slots[s]; s = (s + 1) & x->mask) {
        const WnEntry *e = &x->entries[x->slots[s] - 1];
        if (e->hash == hash && e->len == len && memcmp(x->text + e->at, w, len) == 0) return 1;
    }
    x->entries[x->n] = (WnEntry){at, len, rest, rest_len, hash};
    x->slots[s] = ++x->n;
    return 0;
}

static int wn_alloc(WnIndex *x, Py_ssize_t entries, const char *text) {
    uint64_t size = 16;
    while (size < (uint64_t)entries + (uint64_t)entries / 2 + 1) size <<= 1;
    if (size > ((uint64_t)1 << 31)) return -1; /* (entry numbers are uint32_t) */
    x->slots = (uint32_t *)calloc((size_t)size, sizeof(uint32_t));
    x->entries = (WnEntry *)malloc(((size_t)entries + 1) * sizeof(WnEntry));
    x->n = 0;
    x->mask = (uint32_t)(size - 1);
    x->text = text;
    return x->slots && x->entries ? 0 : -1;
}

static Py_ssize_t wn_count_lines(const char *s, Py_ssize_t n) {
    Py_ssize_t lines = 0;
    for (const char *p = s; (p = memchr(p, '\n', (size_t)(s + n - p))) != NULL; p++) lines++;
    return lines;
}

/* The synsets table's body: `count` words a line, then their id lines (synonyms._parse_synsets). */
static int wn_parse_synsets(WordNet *wn, PyObject *name, const char *text, Py_ssize_t start, Py_ssize_t end,
                            Py_ssize_t count) {
    const char *body = text + start;
    Py_ssize_t lines = wn_count_lines(body, end - start);
    if (lines != 2 * count) {
        PyErr_Format(PyExc_ValueError, "WordNet table %U: %zd lines for %zd words", name, lines, count);
        return -1;
    }
    if (wn_alloc(&wn->words, count, text)) {
        PyErr_NoMemory();
        return -1;
    }
    /* the id lines: only digits and spaces, none empty, no id past WN_MAX_ID_DIGITS */
    const char *ids = body;
    for (Py_ssize_t k = 0; k < count; k++) ids = (const char *)memchr(ids, '\n', (size_t)(text + end - ids)) + 1;
    const char *word = body, *id = ids;
    for (Py_ssize_t k = 0; k < count; k++) {
        const char *word_end = memchr(word, '\n', (size_t)(ids - word));
        const char *id_end = memchr(id, '\n', (size_t)(text + end - id));
        int bad = word_end == word || id_end == id;
        for (const char *c = id, *run = id; !bad && c < id_end; c++) {
            if (*c == ' ') {
                run = c + 1;
            } else if (*c < '0' || *c > '9' || c - run >= WN_MAX_ID_DIGITS) {
                bad = 1;
            }
        }
        if (bad || wn_put(&wn->words, (uint32_t)(word - text), (uint32_t)(word_end - word), (uint32_t)(id - text),
                          (uint32_t)(id_end - id))) {
            PyErr_Format(PyExc_ValueError, "WordNet table %U: duplicate or empty words, or malformed ids", name);
            return -1;
        }
        word = word_end + 1;
        id = id_end + 1;
    }
    return 0;
}

/* The exceptions table's body: `count` lines FORM BASE [BASE ...] (synonyms._parse_exceptions). */
static int wn_parse_exceptions(WordNet *wn, PyObject *name, const char *text, Py_ssize_t start, Py_ssize_t end,
                               Py_ssize_t count) {
    Py_ssize_t lines = wn_count_lines(text + start, end - start), forms = 0;
    if (wn_alloc(&wn->forms, lines, text)) {
        PyErr_NoMemory();
        return -1;
    }
    for (const char *line = text + start; line < text + end;) {
        const char *line_end = memchr(line, '\n', (size_t)(text + end - line));
        const char *space = memchr(line, ' ', (size_t)(line_end - line));
        int bad = space == NULL || space == line || line_end[-1] == ' ';
        for (const char *c = space; !bad && c + 1 < line_end; c++) bad = c[0] == ' ' && c[1] == ' ';
        if (bad) {
            PyObject *shown = PyUnicode_DecodeASCII(line, line_end - line > 80 ? 80 : line_end - line, "replace");
            if (shown) PyErr_Format(PyExc_ValueError, "WordNet table %U: malformed line %R", name, shown);
            Py_XDECREF(shown);
            return -1;
        }
        forms += !wn_put(&wn->forms, (uint32_t)(line - text), (uint32_t)(space - line), (uint32_t)(space + 1 - text),
                         (uint32_t)(line_end - space - 1));
        line = line_end + 1;
    }
    if (forms != count || lines != count) {
        PyErr_Format(PyExc_ValueError, "WordNet table %U: %zd forms, header says %zd", name, forms, count);
        return -1;
    }
    return 0;
}

static int wn_rules(WordNet *wn, PyObject *rules) {
    if (!PyTuple_Check(rules) || PyTuple_GET_SIZE(rules) > WN_MAX_RULES) {
        PyErr_SetString(PyExc_ValueError, "WordNet: rules must be a tuple of at most 64 (suffix, replacement)");
        return -1;
    }
    wn->n_rules = (int)PyTuple_GET_SIZE(rules);
    for (int r = 0; r < wn->n_rules; r++) {
        PyObject *rule = PyTuple_GET_ITEM(rules, r);
        PyObject *parts[2];
        if (!PyTuple_Check(rule) || PyTuple_GET_SIZE(rule) != 2) parts[0] = parts[1] = NULL;
        else parts[0] = PyTuple_GET_ITEM(rule, 0), parts[1] = PyTuple_GET_ITEM(rule, 1);
        for (int k = 0; k < 2; k++) {
            if (!parts[k] || !PyUnicode_Check(parts[k]) || !PyUnicode_IS_ASCII(parts[k]) ||
                PyUnicode_GET_LENGTH(parts[k]) > WN_MAX_AFFIX || (k == 0 && PyUnicode_GET_LENGTH(parts[k]) == 0)) {
                PyErr_SetString(PyExc_ValueError, "WordNet: a rule is two ASCII str (a suffix, not empty, and its "
                                                  "replacement) of at most 15 characters");
                return -1;
            }
            memcpy(k ? wn->replacement[r] : wn->suffix[r], PyUnicode_1BYTE_DATA(parts[k]),
                   (size_t)PyUnicode_GET_LENGTH(parts[k]));
            (k ? wn->replacement_len : wn->suffix_len)[r] = (unsigned char)PyUnicode_GET_LENGTH(parts[k]);
        }
    }
    return 0;
}

/* A table's bytes and where its body starts: checked, and held by the index. */
static int wn_text(PyObject *data, Py_ssize_t start, PyObject **held, const char **text, Py_ssize_t *end) {
    if (!PyBytes_Check(data)) {
        PyErr_SetString(PyExc_TypeError, "WordNet: the tables must be bytes");
        return -1;
    }
    *end = PyBytes_GET_SIZE(data);
    *text = PyBytes_AS_STRING(data);
    if (start < 0 || start > *end || *end >= (Py_ssize_t)UINT32_MAX || (*end > start && (*text)[*end - 1] != '\n')) {
        PyErr_SetString(PyExc_ValueError, "WordNet: a body must start inside its table, end with a newline, and "
                                          "the table be under 4 GiB");
        return -1;
    }
    Py_INCREF(data);
    *held = data;
    return 0;
}

/* WordNet((synsets, start, words, name), (exceptions, start, forms, name), rules) */
static int wordnet_init(WordNet *wn, PyObject *args, PyObject *kwds) {
    (void)kwds;
    PyObject *synsets, *exceptions, *rules, *syn_name, *exc_name;
    Py_ssize_t syn_start, words, exc_start, forms;
    if (wn->words.slots || wn->synsets_bytes) {
        PyErr_SetString(PyExc_RuntimeError, "WordNet: already initialized");
        return -1;
    }
    if (!PyArg_ParseTuple(args, "(OnnU)(OnnU)O:WordNet", &synsets, &syn_start, &words, &syn_name, &exceptions,
                          &exc_start, &forms, &exc_name, &rules))
        return -1;
    const char *syn_text, *exc_text;
    Py_ssize_t syn_end, exc_end;
    if (words < 0 || forms < 0) {
        PyErr_SetString(PyExc_ValueError, "WordNet: negative counts");
        return -1;
    }
    if (wn_rules(wn, rules) || wn_text(synsets, syn_start, &wn->synsets_bytes, &syn_text, &syn_end) ||
        wn_text(exceptions, exc_start, &wn->exceptions_bytes, &exc_text, &exc_end))
        return -1;
    if (wn_parse_synsets(wn, syn_name, syn_text, syn_start, syn_end, words)) return -1;
    return wn_parse_exceptions(wn, exc_name, exc_text, exc_start, exc_end, forms);
}

static void wordnet_dealloc(WordNet *wn) {
    free(wn->words.slots);
    free(wn->words.entries);
    free(wn->forms.slots);
    free(wn->forms.entries);
    Py_XDECREF(wn->synsets_bytes);
    Py_XDECREF(wn->exceptions_bytes);
    Py_TYPE(wn)->tp_free((PyObject *)wn);
}

typedef struct {
    int64_t *v;
    Py_ssize_t n, cap;
} IdList;

/* Appends the ids of the word a + b (none where it is not in the table). */
static int wn_add_ids(const WordNet *wn, const char *a, size_t na, const char *b, size_t nb, IdList *out) {
    const WnEntry *word = wn_find(&wn->words, a, na, b, nb);
    if (!word) return 0;
    const char *c = wn->words.text + word->rest, *end = c + word->rest_len;
    while (c < end) {
        if (*c == ' ') {
            c++;
            continue;
        }
        if (out->n == out->cap) {
            Py_ssize_t cap = out->cap ? 2 * out->cap : 16;
            int64_t *v = (int64_t *)realloc(out->v, (size_t)cap * sizeof(int64_t));
            if (!v) return -1;
            out->v = v;
            out->cap = cap;
        }
        int64_t id = 0;
        for (; c < end && *c != ' '; c++) id = id * 10 + (*c - '0');
        out->v[out->n++] = id;
    }
    return 0;
}

/* synonyms.SynonymTable.lookup of an ASCII word: its own ids, then those of its base forms (the exception
 * list's, else its morph), in `out` unsorted. */
static int wn_lookup(const WordNet *wn, const char *w, size_t n, IdList *out) {
    if (wn_add_ids(wn, w, n, "", 0, out)) return -1;
    const WnEntry *form = wn_find(&wn->forms, w, n, "", 0);
    if (form) {
        const char *b = wn->forms.text + form->rest, *end = b + form->rest_len;
        while (b < end) {
            const char *space = memchr(b, ' ', (size_t)(end - b));
            const char *base_end = space ? space : end;
            if (wn_add_ids(wn, b, (size_t)(base_end - b), "", 0, out)) return -1;
            b = base_end + 1;
        }
        return 0;
    }
    /* morph: a word ending in "ss" or of at most 2 characters is its own base; else the first candidate
     * (the word less a suffix, plus its replacement) in the table, if any */
    if (n <= 2 || (w[n - 1] == 's' && w[n - 2] == 's')) return wn_add_ids(wn, w, n, "", 0, out);
    for (int r = 0; r < wn->n_rules; r++) {
        size_t ls = wn->suffix_len[r];
        if (ls > n || memcmp(w + n - ls, wn->suffix[r], ls) != 0) continue;
        if (wn_find(&wn->words, w, n - ls, wn->replacement[r], wn->replacement_len[r]))
            return wn_add_ids(wn, w, n - ls, wn->replacement[r], wn->replacement_len[r], out);
    }
    return 0;
}

/* The synset ids of a token, sorted, each once, in `out` (a non-ASCII token has none). */
static int wn_token_ids(const WordNet *wn, PyObject *token, IdList *out) {
    out->n = 0;
    if (!PyUnicode_IS_ASCII(token)) return 0;
    if (wn_lookup(wn, (const char *)PyUnicode_DATA(token), (size_t)PyUnicode_GET_LENGTH(token), out)) return -1;
    out->n = sort_unique_ids(out->v, out->n);
    return 0;
}

static PyObject *wordnet_ids(WordNet *wn, PyObject *token) {
    if (!wn->words.slots || !wn->forms.slots) {
        PyErr_SetString(PyExc_RuntimeError, "WordNet: not initialized");
        return NULL;
    }
    if (!PyUnicode_Check(token)) {
        PyErr_SetString(PyExc_TypeError, "WordNet.ids: a str expected");
        return NULL;
    }
    IdList ids = {NULL, 0, 0};
    PyObject *result = NULL;
    if (wn_token_ids(wn, token, &ids)) {
        PyErr_NoMemory();
    } else if ((result = PyTuple_New(ids.n))) {
        for (Py_ssize_t k = 0; k < ids.n; k++) {
            PyObject *v = PyLong_FromLongLong(ids.v[k]);
            if (!v) {
                Py_CLEAR(result);
                break;
            }
            PyTuple_SET_ITEM(result, k, v);
        }
    }
    free(ids.v);
    return result;
}

static PyMethodDef wordnet_methods[] = {
    {"ids", (PyCFunction)wordnet_ids, METH_O,
     "ids(token) -> its synset ids, sorted, each once: SynonymTable.lookup (its own and its base forms')"},
    {NULL, NULL, 0, NULL}};

static PyTypeObject WordNetType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "meteor_core.WordNet",
    .tp_basicsize = sizeof(WordNet),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "WordNet((synsets, start, words, name), (exceptions, start, forms, name), rules): the synonym table "
              "of synonyms.SynonymTable over its two tables' bytes (each body from its start, the count its header "
              "gives, the name errors use; rules: MORPH_RULES)",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)wordnet_init,
    .tp_dealloc = (destructor)wordnet_dealloc,
    .tp_methods = wordnet_methods,
};
