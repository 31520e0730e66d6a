/* The jar's Normalizer.normalizeLine, lowercasing and tokenizing, for printable-ASCII lines: a port of
 * meteor_metric/meteor15/normalize.py (normalize_line, sub_around, _split_apostrophes, _split_dots,
 * java_lower, tokenize), which stays the reference. meteor_core.c includes this file.
 *
 * Only lines of printable ASCII, tab, newline and carriage return, without ".." or "DOTMULTI", are taken
 * (the jar's dot-run escapes then never apply); a result that would contain "DOTMULTI" (dots removed from
 * an abbreviation such as D.O.T.M.U.L.T.I.) is refused too. A refused line is normalized by the Python code.
 */

typedef struct {
    char *s;
    size_t n, cap;
} Text;

static int text_reserve(Text *t, size_t extra) {
    if (t->n + extra <= t->cap) return 0;
    size_t cap = t->cap ? t->cap : 256;
    while (cap < t->n + extra) cap *= 2;
    char *s = (char *)realloc(t->s, cap);
    if (!s) return -1;
    t->s = s;
    t->cap = cap;
    return 0;
}

static int text_add(Text *t, const char *s, size_t n) {
    if (text_reserve(t, n)) return -1;
    memcpy(t->s + t->n, s, n);
    t->n += n;
    return 0;
}

static int text_has(const Text *t, char c) { return t->n && memchr(t->s, c, t->n) != NULL; }

/* Character classes, one table look-up each (a chain of comparisons per character took a third of the
 * port's instructions): CH_OK a character the port takes; CH_KEEP one that step 2 leaves in place (letters,
 * digits, whitespace and . ' ` , -); CH_DELIM StringTokenizer's delimiters; CH_ODD the two characters the first
 * pass looks further at ('.' for a dot run, 'D' for DOTMULTI); CH_DOT the dot, for sub_around's classes. */
enum { CH_OK = 1, CH_KEEP = 2, CH_DIGIT = 4, CH_ALPHA = 8, CH_DELIM = 16, CH_ODD = 32, CH_DOT = 64 };
#define CH_ALNUM (CH_DIGIT | CH_ALPHA)

static unsigned char char_class[256];

static void char_class_init(void) {
    for (int c = 0x20; c <= 0x7e; c++) char_class[c] = CH_OK;
    for (const char *k = "\t\n\r"; *k; k++) char_class[(unsigned char)*k] = CH_OK;
    for (const char *k = " \t\n\r.'`,-"; *k; k++) char_class[(unsigned char)*k] |= CH_KEEP;
    for (int c = '0'; c <= '9'; c++) char_class[c] |= CH_KEEP | CH_DIGIT;
    for (int c = 'a'; c <= 'z'; c++) char_class[c] |= CH_KEEP | CH_ALPHA;
    for (int c = 'A'; c <= 'Z'; c++) char_class[c] |= CH_KEEP | CH_ALPHA;
    for (const char *k = " \t\n\r\f"; *k; k++) char_class[(unsigned char)*k] |= CH_DELIM;
    char_class['.'] |= CH_ODD | CH_DOT;
    char_class['D'] |= CH_ODD;
}

static inline int char_is(char c, int cls) { return (char_class[(unsigned char)c] & cls) != 0; }
static inline int is_digit(char c) { return char_is(c, CH_DIGIT); }
static inline int is_alpha(char c) { return char_is(c, CH_ALPHA); }
static inline int is_alnum(char c) { return char_is(c, CH_ALNUM); }

/* The first `sep` at or after `from` in t, or -1. */
static ptrdiff_t text_find(const Text *t, char sep, ptrdiff_t from) {
    if (from < 0 || (size_t)from >= t->n) return -1;
    const char *at = (const char *)memchr(t->s + from, sep, t->n - (size_t)from);
    return at ? at - t->s : -1;
}

/* normalize.sub_around into out (t unchanged): re.sub(f"([L]){sep}([R])", rf"\1{repl}\2", t), the classes
 * L and R given as char_class bits (left_in, right_in: whether the character is in it or not). */
static int sub_around_c(const Text *t, char sep, int left, int left_in, int right, int right_in, const char *repl,
                        Text *out) {
    out->n = 0;
    size_t pos = 0, repl_n = strlen(repl);
    ptrdiff_t last = (ptrdiff_t)t->n - 1, i = text_find(t, sep, 1);
    while (0 < i && i < last) {
        if (char_is(t->s[i - 1], left) == left_in && char_is(t->s[i + 1], right) == right_in) {
            if (text_add(out, t->s + pos, (size_t)i - pos) || text_add(out, repl, repl_n)) return -1;
            pos = (size_t)i + 1;
            i = text_find(t, sep, i + 3);
        } else {
            i = text_find(t, sep, i + 1);
        }
    }
    return text_add(out, t->s + pos, t->n - pos);
}

/* str.replace(old, new) (non-overlapping, left to right) into out. */
static int replace_c(const Text *t, const char *old, const char *new_s, Text *out) {
    out->n = 0;
    size_t old_n = strlen(old), new_n = strlen(new_s), pos = 0;
    for (size_t i = 0; i + old_n <= t->n;) {
        const char *at = (const char *)memchr(t->s + i, old[0], t->n - i - old_n + 1); /* old's first char */
        if (!at) break;
        i = (size_t)(at - t->s);
        if (!memcmp(at, old, old_n)) {
            if (text_add(out, t->s + pos, i - pos) || text_add(out, new_s, new_n)) return -1;
            i += old_n;
            pos = i;
        } else {
            i++;
        }
    }
    return text_add(out, t->s + pos, t->n - pos);
}

/* Whether t contains `sub` (at least one character). */
static int text_contains(const Text *t, const char *sub) {
    size_t n = strlen(sub);
    for (size_t i = 0; i + n <= t->n;) {
        const char *at = (const char *)memchr(t->s + i, sub[0], t->n - i - n + 1);
        if (!at) return 0;
        if (!memcmp(at, sub, n)) return 1;
        i = (size_t)(at - t->s) + 1;
    }
    return 0;
}

/* normalize._split_apostrophes into out. */
static int split_apostrophes_c(const Text *t, int english, Text *out) {
    out->n = 0;
    size_t pos = 0;
    ptrdiff_t last = (ptrdiff_t)t->n - 1, prev_i = -9, i = text_find(t, '\'', 1);
    int prev_rule = -9;
    while (0 < i && i < last) {
        char left = t->s[i - 1], right = t->s[i + 1];
        int rule;
        if (is_alpha(left)) rule = is_alpha(right) ? 4 : 3;
        else if (!is_alpha(right)) rule = 1;
        else if (!english || !is_digit(left)) rule = 2;
        else rule = right == 's' ? 5 : 0;
        if (rule && !(i - prev_i == 2 && rule == prev_rule)) {
            const char *repl = rule < 4 ? " ' " : english ? " '" : "' ";
            if (text_add(out, t->s + pos, (size_t)i - pos) || text_add(out, repl, strlen(repl))) return -1;
            pos = (size_t)i + 1;
            prev_i = i;
            prev_rule = rule;
        }
        i = text_find(t, '\'', i + 1);
    }
    return text_add(out, t->s + pos, t->n - pos);
}

static inline int is_delimiter(char c) { return char_is(c, CH_DELIM); }

/* StringTokenizer's tokens of t joined by single spaces, into out. */
static int join_tokens(const Text *t, Text *out) {
    out->n = 0;
    if (text_reserve(out, t->n)) return -1; /* never longer than t */
    char *to = out->s;
    for (size_t i = 0; i < t->n;) {
        while (i < t->n && is_delimiter(t->s[i])) i++;
        size_t start = i;
        while (i < t->n && !is_delimiter(t->s[i])) i++;
        if (i > start) {
            if (to != out->s) *to++ = ' ';
            memcpy(to, t->s + start, i - start);
            to += i - start;
        }
    }
    out->n = (size_t)(to - out->s);
    return 0;
}

/* normalize._split_dots into out, with the language's nonbreaking prefixes (str -> bool). 0, -1: no
 * memory, -2: a Python error. */
static int split_dots_c(const Text *t, PyObject *prefixes, Text *out) {
    out->n = 0;
    size_t pos = 0;
    for (ptrdiff_t dot = text_find(t, '.', 0); dot >= 0; dot = text_find(t, '.', dot + 1)) {
        /* the ends: after each ". ", and the end of a text ending with '.' */
        const size_t end = (size_t)dot + 1;
        if (end < t->n && t->s[end] != ' ') continue;
        size_t start = end - 1;
        while (start > 0 && t->s[start - 1] != ' ') start--;
        if (end - start < 2) continue;
        const char *word = t->s + start, *pre_end = t->s + end - 1;
        int dotted = memchr(word, '.', (size_t)(pre_end - word)) != NULL, alpha = 0;
        for (const char *c = word; c < pre_end && !alpha; c++) alpha = is_alpha(*c);
        if (dotted && alpha) { /* U.S. -> US */
            if (text_add(out, t->s + pos, start - pos)) return -1;
            for (const char *c = word; c < t->s + end; c++)
                if (*c != '.' && text_add(out, c, 1)) return -1;
        } else {
            PyObject *key = PyUnicode_FromStringAndSize(word, pre_end - word);
            if (!key) return -2;
            PyObject *numeric_only = PyDict_GetItemWithError(prefixes, key);
            Py_DECREF(key);
            if (!numeric_only && PyErr_Occurred()) return -2;
            char next = end + 1 < t->n ? t->s[end + 1] : 0;
            if (numeric_only == Py_False || (next >= 'a' && next <= 'z') ||
                (numeric_only == Py_True && is_digit(next)))
                continue;
            if (text_add(out, t->s + pos, start - pos) || text_add(out, word, (size_t)(pre_end - word)) ||
                text_add(out, " .", 2))
                return -1;
        }
        pos = end;
    }
    return text_add(out, t->s + pos, t->n - pos);
}

enum { APOSTROPHES_EN = 0, APOSTROPHES_FR = 1, APOSTROPHES_SPLIT = 2 };

/* normalize_line(line, language, keep_punct) and tokenize for a line the port takes (java_lower is left to
 * the caller): 0 with the tokens' text (joined by single spaces) at *out, *out_n bytes inside a or b, 1 for a
 * line it does not take, -1: no memory, -2: a Python error. */
static int normalize_ascii_c(const char *line, size_t n, PyObject *prefixes, int apostrophes, int keep_punct,
                             Text *a, Text *b, const char **out, size_t *out_n) {
    /* 1-2. wrap in spaces; separate symbols (and refuse, in the same pass, what the port does not take) */
    a->n = 0;
    if (n > (SIZE_MAX - 2) / 3 || text_reserve(a, 3 * n + 2)) return -1; /* (3 n + 2 must not wrap) */
    char *to = a->s;
    *to++ = ' ';
    for (size_t i = 0; i < n; i++) {
        const char c = line[i];
        const int cls = char_class[(unsigned char)c];
        if (cls & CH_KEEP) {
            *to++ = c;
            if ((cls & CH_ODD) && (c == '.' ? i + 1 < n && line[i + 1] == '.'
                                            : n - i >= 8 && !memcmp(line + i, "DOTMULTI", 8)))
                return 1;
        } else if (cls & CH_OK) {
            *to++ = ' ';
            *to++ = c;
            *to++ = ' ';
        } else {
            return 1;
        }
    }
    *to++ = ' ';
    a->n = (size_t)(to - a->s);
    Text *w = a, *o = b, *swap;
#define STEP(call)            \
    do {                      \
        if (call) return -1;  \
        swap = w;             \
        w = o;                \
        o = swap;             \
    } while (0)
    /* 4. commas, except inside numbers */
    if (text_has(w, ',')) {
        STEP(sub_around_c(w, ',', CH_DIGIT, 0, CH_DIGIT, 0, " , ", o));
        STEP(sub_around_c(w, ',', CH_DIGIT, 1, CH_DIGIT, 0, " , ", o));
        STEP(sub_around_c(w, ',', CH_DIGIT, 0, CH_DIGIT, 1, " , ", o));
    }
    /* 5. quotes */
    for (char *tick = w->n ? (char *)memchr(w->s, '`', w->n) : NULL; tick;
         tick = (char *)memchr(tick + 1, '`', w->n - (size_t)(tick + 1 - w->s)))
        *tick = '\'';
    if (text_contains(w, "''")) STEP(replace_c(w, "''", " \" ", o));
    /* 6-7. dashes; hyphens between words */
    if (text_has(w, '-')) {
        if (text_contains(w, "--")) STEP(replace_c(w, "--", "-", o));
        STEP(sub_around_c(w, '-', CH_ALNUM | CH_DOT, 1, CH_ALNUM, 1, " ", o));
    }
    /* 8. apostrophes */
    if (text_has(w, '\'')) {
        if (apostrophes == APOSTROPHES_SPLIT) STEP(replace_c(w, "'", " ' ", o));
        else STEP(split_apostrophes_c(w, apostrophes == APOSTROPHES_EN, o));
    }
    /* 9. tokens joined by single spaces; dots split off words unless nonbreaking */
    STEP(join_tokens(w, o));
    if (text_has(w, '.')) {
        int rc = split_dots_c(w, prefixes, o);
        if (rc) return rc;
        swap = w;
        w = o;
        o = swap;
    }
#undef STEP
    /* 10. the jar would unescape dot runs here */
    if (text_contains(w, "DOTMULTI")) return 1;
    /* 11. optional punctuation removal: the runs of ALNUM, joined by single spaces */
    if (!keep_punct) {
        o->n = 0;
        for (size_t i = 0; i < w->n;) {
            while (i < w->n && !is_alnum(w->s[i])) i++;
            size_t start = i;
            while (i < w->n && is_alnum(w->s[i])) i++;
            if (i > start && ((o->n && text_add(o, " ", 1)) || text_add(o, w->s + start, i - start))) return -1;
        }
        swap = w;
        w = o;
        o = swap;
    }
    /* 12. Java trim() (the text has single spaces only); the caller lowercases */
    size_t lo = 0, hi = w->n;
    while (lo < hi && w->s[lo] == ' ') lo++;
    while (hi > lo && w->s[hi - 1] == ' ') hi--;
    *out = w->s + lo;
    *out_n = hi - lo;
    return 0;
}
