#!/usr/bin/env python3
"""Fuzzes the compiled core against the pure-Python engine with atheris (libFuzzer for Python).

    pip install atheris
    python tests/fuzz/fuzz_native.py -runs=20000 -max_len=4096 -len_control=0   # bounded run (libFuzzer flags)
    python tests/fuzz/fuzz_native.py -max_total_time=600    # ten minutes

Each input is decoded into one of seven targets:

* ``text``: a hypothesis and a reference (arbitrary Unicode) scored by both engines in the default
  configuration and in character mode: statistics, alignment and the score's values (score, precision,
  recall, fmean, penalty: the same doubles, or both NaN) must be identical;
* ``ascii``: printable-ASCII text and curly quotes, built from pieces the normalizer treats specially (what the
  compiled normalizer takes; ``text`` rarely draws it): identical tokens, statistics, alignment and values;
* ``tokens``: token sequences drawn from a small vocabulary with exact, stem, synonym and paraphrase
  matches (long, repetitive inputs reach the beam search's pruning): identical statistics and alignments;
* ``raw``: arbitrary bytes as the C entry points' buffers (``align``, ``count``), and arbitrary text, prefix
  tables and modes to ``normalize_ascii``: they may only raise ``ValueError``, never crash;
* ``wordnet``: a word (arbitrary text, or a table word with a suffix and characters changed) looked up in the
  compiled core's WordNet index and in the Python table: the same synset ids; and arbitrary bytes, starts and
  counts as the tables the index parses: it may only raise ``ValueError``;
* ``segments``: a hypothesis against one to four references (of the same few sentences) within a random
  candidate limit, through ``sentence_score`` (the core's ``segment``): the same result and best reference, or
  the same error;
* ``kept_pairs``: pairs of a few fixed token tuples (which the core keeps, finds again and evicts) within a
  random candidate limit: the pure-Python engine's statistics, alignment and candidate count, or the
  limit's refusal exactly where the Python count passes it.

A difference raises AssertionError, which atheris reports with the input that caused it. The counts of
inputs tried per target are printed every 1,000 inputs. ``tests/test_fuzz_native.py`` runs a short bounded session.
"""

from __future__ import annotations

import math
import struct
import sys
from collections import Counter

import atheris

# Not instrumented: atheris 2.3's bytecode instrumentation fails on this package under Python 3.11
# (AssertionError in instrument_bytecode.check_state), so inputs are mutated without coverage feedback.
from meteor_metric import Meteor  # noqa: E402
from meteor_metric.meteor15 import native_engine  # noqa: E402
from meteor_metric.meteor15.synonyms import MORPH_RULES, SynonymTable  # noqa: E402

VOCAB = ("the a of to in that is said says say told cat cats dog dogs house home big large run runs running ran "
         "however but because since result results order , . 's president chairman company firm percent").split()
SCORERS = {(impl, char): Meteor(impl=impl, char_based=char) for impl in ("python", "native") for char in (False, True)}
TRIED: Counter = Counter()


def same(nat, py) -> bool:
    """Two segment results agree: statistics, alignment, and each value the same double or both NaN."""
    def bits(result):
        values = (result.score, result.precision, result.recall, result.fmean, result.fragmentation_penalty)
        return tuple("nan" if math.isnan(v) else struct.pack("<d", v) for v in values)

    return (nat.stats, nat.alignment, bits(nat)) == (py.stats, py.alignment, bits(py))


def check_text(fdp: atheris.FuzzedDataProvider) -> None:
    char = fdp.ConsumeBool()
    hyp = fdp.ConsumeUnicodeNoSurrogates(fdp.ConsumeIntInRange(0, 400))
    ref = fdp.ConsumeUnicodeNoSurrogates(fdp.ConsumeIntInRange(0, 400))
    py = SCORERS["python", char].sentence_score(hyp, ref)
    nat = SCORERS["native", char].sentence_score(hyp, ref)
    assert same(nat, py), (hyp, ref)


PIECES = list("aAzZs09 .,'`-\"()$;:!?/\t\n\r") + ["U.S.", "e.g.", "Mr.", "No.", "DOTMULTI", "1,000", "''", "--",
                                                      "``", "'s", "the", "cats", "said",
                                                      "\u2018", "\u2019", "\u201c", "\u201d"]  # curly quotes too


def check_ascii(fdp: atheris.FuzzedDataProvider) -> None:
    char = fdp.ConsumeBool()
    hyp, ref = ("".join(PIECES[fdp.ConsumeIntInRange(0, len(PIECES) - 1)] for _ in range(fdp.ConsumeIntInRange(0, 80)))
                for _ in range(2))
    for text in (hyp, ref):
        assert SCORERS["native", char].tokens(text) == SCORERS["python", char].tokens(text), text
    py = SCORERS["python", char].sentence_score(hyp, ref)
    nat = SCORERS["native", char].sentence_score(hyp, ref)
    assert same(nat, py), (hyp, ref)


def check_tokens(fdp: atheris.FuzzedDataProvider) -> None:
    n_hyp, n_ref = fdp.ConsumeIntInRange(0, 120), fdp.ConsumeIntInRange(0, 120)
    hyp = tuple(VOCAB[fdp.ConsumeIntInRange(0, len(VOCAB) - 1)] for _ in range(n_hyp))
    ref = tuple(VOCAB[fdp.ConsumeIntInRange(0, len(VOCAB) - 1)] for _ in range(n_ref))
    char = fdp.ConsumeBool()
    assert SCORERS["native", char].align_tokens(hyp, ref) == SCORERS["python", char].align_tokens(hyp, ref), (hyp, ref)


def check_raw(fdp: atheris.FuzzedDataProvider) -> None:
    core = native_engine.meteor_core
    n_hyp, n_ref = fdp.ConsumeIntInRange(-2, 70), fdp.ConsumeIntInRange(-2, 70)
    beam = fdp.ConsumeIntInRange(-1, 50)
    exact = fdp.ConsumeBytes(fdp.ConsumeIntInRange(0, 5))
    data = fdp.ConsumeBytes(fdp.ConsumeIntInRange(0, 2000))
    try:
        core.align(n_hyp, n_ref, data, exact, beam, fdp.ConsumeIntInRange(-1, 100))
    except ValueError:
        pass
    flags = fdp.ConsumeBytes(fdp.ConsumeIntInRange(0, 40))
    try:
        core.count(data, flags, flags, fdp.ConsumeBytes(4 * len(flags)), fdp.ConsumeBytes(4 * len(flags)),
                   fdp.ConsumeIntInRange(0, 5))
    except ValueError:
        pass
    prefixes = {fdp.ConsumeUnicode(4): fdp.ConsumeBool() for _ in range(fdp.ConsumeIntInRange(0, 3))}
    try:
        core.normalize_ascii(fdp.ConsumeUnicode(fdp.ConsumeIntInRange(0, 300)), prefixes,
                             fdp.ConsumeIntInRange(-1, 3), fdp.ConsumeBool())
    except ValueError:
        pass


WORDNET = SynonymTable.english()
WORDNET_IDS = native_engine.wordnet_index(WORDNET).ids if native_engine.native_available() else None
WORDS = sorted(WORDNET)


def check_wordnet(fdp: atheris.FuzzedDataProvider) -> None:
    if fdp.ConsumeBool():
        word = fdp.ConsumeUnicodeNoSurrogates(fdp.ConsumeIntInRange(0, 40))
    else:
        word = WORDS[fdp.ConsumeIntInRange(0, len(WORDS) - 1)] + MORPH_RULES[fdp.ConsumeIntInRange(0, 19)][0]
        cut = fdp.ConsumeIntInRange(0, len(word))
        word = word[:cut] + fdp.ConsumeUnicodeNoSurrogates(fdp.ConsumeIntInRange(0, 2)) + word[cut + 1:]
    assert WORDNET_IDS(word) == tuple(sorted(WORDNET.lookup(word))), word
    tables = []
    for name in ("synsets", "exceptions"):
        data = fdp.ConsumeBytes(fdp.ConsumeIntInRange(0, 300))
        tables.append((data, fdp.ConsumeIntInRange(-1, len(data) + 1), fdp.ConsumeIntInRange(-1, 20), name))
    try:
        native_engine.meteor_core.WordNet(*tables, MORPH_RULES)
    except ValueError:
        pass


#: A few sentences, the same tuples every time: the core keeps their pairs, finds them again and evicts them.
KEPT = [tuple(VOCAB[(7 * k + 3 * j) % len(VOCAB)] for j in range(k % 17)) for k in range(48)]


def check_kept_pairs(fdp: atheris.FuzzedDataProvider) -> None:
    hyp, ref = (KEPT[fdp.ConsumeIntInRange(0, len(KEPT) - 1)] for _ in range(2))
    limit, used = fdp.ConsumeIntInRange(0, 60), fdp.ConsumeIntInRange(0, 3)
    python = SCORERS["python", False]
    stats, alignment = python.align_tokens(hyp, ref)
    found = sum(map(len, python._candidates(hyp, ref, None, "", 0)))
    try:
        got = SCORERS["native", False]._native.pair(hyp, ref, limit, "the pair", used)
    except ValueError:
        assert found + used > limit, (hyp, ref, limit, used)
    else:
        assert found + used <= limit and got[:3] == (stats, tuple(alignment), found), (hyp, ref, limit, used)


#: Scorers whose candidate limit each input sets (the segment's, over all its references).
LIMITED = {impl: Meteor(impl=impl) for impl in ("python", "native")}


def check_segments(fdp: atheris.FuzzedDataProvider) -> None:
    hyp = " ".join(KEPT[fdp.ConsumeIntInRange(0, len(KEPT) - 1)])
    refs = [" ".join(KEPT[fdp.ConsumeIntInRange(0, len(KEPT) - 1)]) for _ in range(fdp.ConsumeIntInRange(1, 4))]
    limit = fdp.ConsumeIntInRange(-1, 80)
    results = []
    for scorer in LIMITED.values():
        scorer.max_segment_candidates = None if limit < 0 else limit
        try:
            results.append(scorer.sentence_score(hyp, refs))
        except ValueError as exc:
            results.append(str(exc))
    py, nat = results
    if isinstance(py, str) or isinstance(nat, str):
        assert py == nat, (hyp, refs, limit, py, nat)
    else:
        assert same(nat, py) and nat.best_ref == py.best_ref, (hyp, refs, limit)


TARGETS = (check_text, check_ascii, check_tokens, check_raw, check_wordnet, check_kept_pairs, check_segments)


def one_input(data: bytes) -> None:
    fdp = atheris.FuzzedDataProvider(data)
    target = TARGETS[fdp.ConsumeIntInRange(0, len(TARGETS) - 1)]
    TRIED[target.__name__] += 1
    target(fdp)
    if sum(TRIED.values()) % 1000 == 0:
        print(f"fuzz_native: inputs tried per target: {dict(TRIED)}", file=sys.stderr, flush=True)


def main() -> None:
    if not native_engine.native_available():
        sys.exit(f"fuzz_native: the native engine is not built ({native_engine.LOAD_ERROR})")
    atheris.Setup(sys.argv, one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
