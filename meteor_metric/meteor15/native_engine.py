"""Which engine scores, and the glue to the compiled core (``meteor_core``, built from ``src/native/``).

Two engines give identical statistics: ``"python"`` (the reference: :mod:`.matcher`, :mod:`.aligner`,
:mod:`.statistics`) and ``"native"`` (:class:`NativeEngine`: the same matching, beam search and statistics
count in C, from per-token data the Python functions compute once per distinct token; the normalization of
printable-ASCII lines in C too, :func:`ascii_normalizer`). ``METEOR_METRIC_IMPL=python|native|auto`` or
``Meteor(impl=...)`` chooses; ``auto`` (the default) takes the native engine when its extension loads, else
the Python one, saying so once on the ``meteor_metric`` logger. Everything reaching the C code is checked
here first (types, token counts, spans inside the sentences) and again in C.
"""

from __future__ import annotations

import logging
import os
import sys
import threading
import weakref
from array import array
from dataclasses import fields
from itertools import chain, count, repeat
from pathlib import Path
from typing import Callable, Optional, Sequence

from ..core.alignment import Match
from ..core.javafmt import utf16_len
from ..core.languages import normalize_language
from ..core.results import SegmentResult
from ..core.stats import MeteorStats, make_stats
from .limits import check_candidates
from .matcher import ExactMatcher, Matcher, ParaphraseMatcher, StemMatcher, SynonymMatcher
from .normalize import nonbreaking_prefixes
from .statistics import StatsCounter, count_crossings
from .synonyms import MORPH_RULES, SynonymTable, SynonymTableError

try:
    from . import meteor_core
except ImportError as exc:  # not built (no compiler, or METEOR_METRIC_BUILD_NATIVE=0) or not loadable
    meteor_core = None
    LOAD_ERROR: Optional[str] = str(exc)
else:
    LOAD_ERROR = None

ENGINES = ("python", "native")
ENV_VAR = "METEOR_METRIC_IMPL"
#: Tokens per side the compiled core accepts (its packed path keys stay exact below this).
MAX_NATIVE_TOKENS = 1 << 20
#: Distinct tokens kept in a scorer's C-side token table before it starts afresh (bounds its memory).
MAX_TABLE_TOKENS = 1 << 21
#: The matchers the compiled core runs itself, by module kind (others: Python matching, C alignment).
NATIVE_KINDS = {ExactMatcher: 0, StemMatcher: 1, SynonymMatcher: 2, ParaphraseMatcher: 3}

log = logging.getLogger("meteor_metric")
_announced: list[bool] = []  # whether the fallback to pure Python has been logged in this process
_wordnet_indexes: "weakref.WeakKeyDictionary[SynonymTable, object]" = weakref.WeakKeyDictionary()
_wordnet_lock = threading.Lock()


def native_available() -> bool:
    """Whether the compiled core is built and loads."""
    return meteor_core is not None


def resolve_engine(impl: Optional[str] = None) -> str:
    """``"python"`` or ``"native"``: ``impl``, else ``$METEOR_METRIC_IMPL``, else ``"auto"``."""
    choice = impl if impl is not None else os.environ.get(ENV_VAR, "auto") or "auto"
    if not isinstance(choice, str) or choice not in ENGINES + ("auto",):
        source = "impl" if impl is not None else f"${ENV_VAR}"
        raise ValueError(f"{source} must be 'python', 'native' or 'auto', got {choice!r}")
    if choice == "python":
        return "python"
    if meteor_core is not None:
        return "native"
    if choice == "native":
        raise RuntimeError(
            f"the native engine was asked for ({'impl' if impl is not None else ENV_VAR}='native') but its "
            f"extension meteor_metric.meteor15.meteor_core is not available ({LOAD_ERROR}); reinstall with a C "
            "compiler (pip install --force-reinstall --no-deps meteor-metric), or use impl='python'")
    if not _announced:
        _announced.append(True)
        shadowed = shadowed_core()
        if shadowed is None:
            log.info("meteor_metric: the compiled core is not available (%s); scoring in pure Python", LOAD_ERROR)
        else:  # python started in a clone after `pip install .`: the clone's package shadows the installed one
            log.warning("meteor_metric: imported from %s, where the compiled core is not built; it shadows the "
                        "installed package, which has it (%s). Scoring in pure Python: run from another directory "
                        "to use the installed package, or build the core here with: pip install -e .",
                        Path(__file__).resolve().parents[1], shadowed)
    return "python"


def shadowed_core() -> Optional[Path]:
    """The compiled core of another copy of this package further along ``sys.path`` (one ``pip install .``
    put in site-packages), which this copy shadows, if there is one."""
    here = Path(__file__).resolve().parents[1]
    for entry in sys.path:
        package = Path(entry or ".").resolve() / "meteor_metric"
        if package != here:
            found = [f for f in package.glob("meteor15/meteor_core*") if f.suffix in (".so", ".pyd")]
            if found:
                return found[0]
    return None


#: Curly quotes and the ASCII quotes the normalizer turns them into (step 5 of the jar's normalizer: ‘ ’ -> ',
#: “ ” -> " with spaces around, and before that steps 2-4 treat ‘ ’ as ' and separate “ ” as they do ").
#: Replaced first, they leave the tokens as they are and the line to the compiled port; 17 % of the WMT21
#: zh-en sentences have one (the commonest characters outside ASCII there).
ASCII_QUOTES = (("\u2018", "'"), ("\u2019", "'"), ("\u201c", '"'), ("\u201d", '"'))


def wordnet_index(table: SynonymTable) -> Optional[object]:
    """The compiled core's ``WordNet`` index of a table loaded from files (made once per table: no Python dict
    of WordNet's 147,306 words, 0.1 s less at start-up), else None. ``Core.add_token`` takes it in place of a
    token's synset ids and looks them up itself; its ``ids(token)`` is :meth:`SynonymTable.lookup`'s ids,
    sorted (0.55 us for a table word, against 1.54 us for ``id_text``)."""
    texts = table.texts
    if texts is None:
        return None
    with _wordnet_lock:
        index = _wordnet_indexes.get(table)
        if index is None:
            try:
                index = meteor_core.WordNet(*((t.data, t.start, t.count, str(t.path)) for t in texts), MORPH_RULES)
            except ValueError as exc:
                raise SynonymTableError(str(exc)) from None
            _wordnet_indexes[table] = index
    return index


def replace_quotes(line: str) -> str:
    """``line`` with its curly quotes replaced by :data:`ASCII_QUOTES` (str.replace: a dict given to
    str.translate takes 16 us for a 220-character line, these four 1 us)."""
    for curly, ascii_quote in ASCII_QUOTES:
        line = line.replace(curly, ascii_quote)
    return line


def ascii_normalizer(language: str, keep_punct: bool) -> Callable[[str], Optional[tuple[str, ...]]]:
    """The compiled port (src/native/normalize_ascii.h) of ``tokenize(java_lower(normalize_line(line,
    language, keep_punct)))`` for a language the jar normalizes: a function of a line giving its tokens, or
    None for a line the port does not take (not printable ASCII once curly quotes are mapped to
    :data:`ASCII_QUOTES`, or with a run of dots), which the Python functions normalize."""
    if meteor_core is None:
        raise RuntimeError(f"the native engine is not available: {LOAD_ERROR}")
    short = normalize_language(language)
    prefixes = nonbreaking_prefixes(short)
    apostrophes = {"en": 0, "fr": 1}.get(short, 2)
    normalize = meteor_core.normalize_ascii

    def tokens(line: str) -> Optional[tuple[str, ...]]:
        return normalize(line if line.isascii() else replace_quotes(line), prefixes, apostrophes, keep_punct)

    return tokens


def raise_over_candidate_limit(limit: int, where: str) -> None:
    """The error for a pair (named by ``where``) with more candidate matches than ``limit``: the policy of
    :mod:`.limits`, the same as the pure-Python engine's."""
    check_candidates(limit + 1, limit, where)


class NativeAligner:
    """:func:`.aligner.align` for one configuration, in C (the same alignments)."""

    def __init__(self, exact_type: Sequence[bool], beam_size: int):
        if meteor_core is None:
            raise RuntimeError(f"the native engine is not available: {LOAD_ERROR}")
        if isinstance(beam_size, bool) or not isinstance(beam_size, int) or not 1 <= beam_size <= 1 << 16:
            raise ValueError(f"beam_size must be an int in 1..65536 for the native engine, got {beam_size!r}")
        self.exact = bytes(bool(e) for e in exact_type)
        self._beam_size = beam_size

    def align(self, n_hyp: int, candidates: Sequence[Sequence[Match]],
              max_candidates: Optional[int] = None, where: str = "the hypothesis and reference") -> list[Match]:
        """The jar's best alignment of ``candidates`` (per reference position, as
        :func:`.aligner.find_candidates` builds them); past ``max_candidates`` the limit's ValueError."""
        n_ref = len(candidates)
        if not 0 <= n_hyp <= MAX_NATIVE_TOKENS or n_ref > MAX_NATIVE_TOKENS:
            raise ValueError(f"the native engine takes at most {MAX_NATIVE_TOKENS:,} tokens per side, "
                             f"got {n_hyp:,} and {n_ref:,}")
        flat = list(chain.from_iterable(candidates))
        for j, cands in enumerate(candidates):  # C checks spans and order; here each list's position
            for m in cands:
                if m[0] != j:
                    raise ValueError(f"candidate {tuple(m)} is listed at reference position {j}")
        chosen = meteor_core.align(n_hyp, n_ref, array("i", chain.from_iterable(flat)), self.exact,
                                   self._beam_size, -1 if max_candidates is None else max_candidates)
        if chosen is None:
            raise_over_candidate_limit(max_candidates, where)
        return [flat[i] for i in chosen]


class NativeEngine:
    """A pair's statistics and alignment in C, for one configuration.

    Where every module is exact, stem, synonym (WordNet or OMW) or paraphrase, the whole pair runs in C
    (:meth:`pair`): a token table maps each distinct token to what the matchers need (its Java hash and
    UTF-16 length, its stem's hash and its paraphrase vocabulary id, computed in C; its synsets and
    function-word flag, from the Python functions), filled once per token, and the paraphrase walk reads
    the memory-mapped index; given the ``formula`` (weights, alpha, beta, gamma, delta), the core also scores
    the pair as formula.compute_metrics does, and given the scorer's ``signature`` too, makes a segment's
    result against its best reference (:meth:`segment`). Other modules (``lemma``, ``wn_similarity``) and
    tables with an empty paraphrase are matched by the Python matchers, then aligned and counted in C. The
    crossings of ``fragmentation="crossings"`` are counted in Python."""

    def __init__(self, matchers: Sequence[Matcher], exact_type: Sequence[bool], beam_size: int,
                 counter: StatsCounter, char_based: bool, candidates, formula: Optional[tuple] = None,
                 signature: Optional[str] = None):
        self._aligner = NativeAligner(exact_type, beam_size)
        self._matchers = list(matchers)
        self._exact_type = list(exact_type)
        self._beam_size = beam_size
        self._counter = counter
        self._char_based = char_based
        self._crossings = counter.crossings
        self._candidates = candidates
        kinds = [NATIVE_KINDS.get(type(m)) for m in matchers]
        self.whole_pair = None not in kinds and not any(
            isinstance(m, ParaphraseMatcher) and m.table.empty_paraphrase for m in matchers)
        self._kinds = bytes(kinds) if self.whole_pair else b""
        self._stems = next((m.uncached_stems for m in matchers if type(m) is StemMatcher), None)
        self._synsets = next((m.lookup for m in matchers if type(m) is SynonymMatcher), None)
        # WordNet's synset ids are ints (byte offsets) the core takes as the table's text holds them (and looks
        # up itself in the compiled index where there is one); others (OMW's names) are numbered per table
        wordnet = getattr(self._synsets, "__self__", None)
        self._numbered = not isinstance(wordnet, SynonymTable)
        self._wordnet = None
        if not self._numbered and self.whole_pair:
            self._wordnet = wordnet_index(wordnet)
            self._synsets = wordnet.id_text if self._wordnet is None else None
        table = next((m.table for m in matchers if type(m) is ParaphraseMatcher), None)
        self._vocabulary = table.vocabulary if table is not None else None
        self._para_arrays = table.index_arrays() if table is not None else None
        self._formula = formula
        #: Whether :meth:`segment` makes segment results in C (the whole pair in C, a formula, a signature).
        self.makes_segments = self.whole_pair and formula is not None and signature is not None and not self._crossings
        self._results = ((MeteorStats, tuple(f.name for f in fields(MeteorStats)), SegmentResult,
                          tuple(f.name for f in fields(SegmentResult)), signature) if self.makes_segments else None)
        self._new_table()

    def _new_table(self) -> None:
        """A fresh token table (the core), with the numbering of synset ids its tokens share (OMW names as
        small ints; only equality matters to the matcher). Replaced as one value, so a thread scoring with the
        old table keeps the old numbering."""
        core = (meteor_core.Core(self._kinds, bytes(self._aligner.exact), self._beam_size, self._char_based,
                                 Match, self._para_arrays, self._vocabulary, self._formula, self._results)
                if self.whole_pair else None)
        self._table: tuple = (core, {}, count())

    def _add_tokens(self, table: tuple, tokens: Sequence[str]) -> None:
        """Puts tokens in a table (each if another thread has not): their stems (all in one call), synsets
        and function-word flags from the Python functions, or the synsets from the compiled WordNet index (the
        core computes their Java hashes, lengths and paraphrase vocabulary ids). The core keeps what it needs
        of them: the Python caches do not gain the tokens."""
        core, numbers, fresh = table
        synsets_of, wordnet = self._synsets, self._wordnet
        stems = self._stems(tokens) if self._stems else None
        flags = self._counter.function_flags_uncached(tokens)
        if wordnet is not None:  # C looks each token up in the index, all in one call
            core.add_tokens(tokens, stems, wordnet, flags)
            return
        for token, stem, flag in zip(tokens, repeat(None) if stems is None else stems, flags):
            synsets = synsets_of(token) if synsets_of else ()  # (ids: C sorts them and drops repeats)
            if self._numbered:  # each synset's number: the first one given to it (setdefault is atomic; a
                synsets = list(map(numbers.setdefault, synsets, fresh))  # number drawn and not kept is skipped)
            core.add_token(token, stem, synsets, flag)

    def pair(self, hyp: tuple[str, ...], ref: tuple[str, ...], max_candidates: Optional[int] = None,
             where: str = "the hypothesis and reference", used: int = 0
             ) -> tuple[MeteorStats, tuple[Match, ...], int, Optional[tuple[float, ...]]]:
        """Statistics, alignment and number of candidate matches of a token-sequence pair (as the Python
        engine computes them), and where the core scored it with the ``formula`` it was given, (score,
        precision, recall, fmean, fragmentation penalty) (as formula.compute_metrics computes them; else
        None); past ``max_candidates`` with ``used`` (the segment's candidates against its earlier
        references) the limit's ``ValueError``."""
        if self.whole_pair:
            done = self.whole(hyp, ref, max_candidates, used)
            if done is None:
                raise_over_candidate_limit(max_candidates, where)
            return done
        self._check_sizes(hyp, ref)
        if max_candidates is not None and used > max_candidates:
            raise_over_candidate_limit(max_candidates, where)
        candidates = self._candidates(hyp, ref, max_candidates, where, used)
        matches = self._aligner.align(len(hyp), candidates, None, where)
        return self.count(hyp, ref, matches), tuple(matches), sum(map(len, candidates)), None

    @staticmethod
    def _check_sizes(hyp: Sequence[str], ref: Sequence[str]) -> None:
        if len(hyp) > MAX_NATIVE_TOKENS or len(ref) > MAX_NATIVE_TOKENS:
            raise ValueError(f"the native engine takes at most {MAX_NATIVE_TOKENS:,} tokens per side, "
                             f"got {len(hyp):,} and {len(ref):,}")

    def whole(self, hyp: tuple[str, ...], ref: tuple[str, ...], max_candidates: Optional[int], used: int
              ) -> Optional[tuple[MeteorStats, tuple[Match, ...], int, Optional[tuple[float, ...]]]]:
        """:meth:`pair` where the core scores the whole pair (:attr:`whole_pair`), with None past the
        candidate limit instead of its error (for callers naming the pair only then). The core keeps the
        pairs of token tuples it scored lately: the same tuples again are not scored again."""
        self._check_sizes(hyp, ref)
        limit = -1 if max_candidates is None else max_candidates - used
        if max_candidates is not None and limit < 0:  # (-1 is no limit to the core)
            return None
        core = self._table[0]
        done = core.score_tokens(hyp, ref, limit)
        while type(done) is list:  # tokens the table does not have yet: their data once, then the pair
            core = self._learn(done)
            done = core.score_tokens(hyp, ref, limit)
        if done is None:
            return None
        alignment, fields, n_candidates, values = done
        stats = make_stats(*fields, *(count_crossings(alignment) if self._crossings else (0, 0)))
        return stats, alignment, n_candidates, values

    def segment(self, hyp: tuple[str, ...], refs: Sequence[tuple[str, ...]], max_candidates: Optional[int]
                ) -> "SegmentResult | int":
        """Where :attr:`makes_segments`: the segment result of a hypothesis against its best reference (the first of
        the best scores), as the scorer makes it from :meth:`pair`'s results, made in C; or past
        ``max_candidates`` (the segment's candidates against its references so far), the index of the
        reference that passed it (for the caller to name in the limit's error)."""
        limit = -1 if max_candidates is None else max_candidates
        core = self._table[0]
        done = core.segment(hyp, refs, limit)
        while type(done) is list:  # tokens the table does not have yet
            core = self._learn(done)
            done = core.segment(hyp, refs, limit)
        return done

    def _learn(self, tokens: Sequence[str]) -> "meteor_core.Core":
        """Puts tokens the table lacks in it, or past ``MAX_TABLE_TOKENS`` starts a fresh table instead (which
        bounds its memory; asked again, it lacks them too); the core to score with now."""
        table = self._table
        if table[0].size() + len(tokens) > MAX_TABLE_TOKENS:
            self._new_table()
            return self._table[0]
        self._add_tokens(table, tokens)
        return table[0]

    def count(self, hyp: Sequence[str], ref: Sequence[str], matches: Sequence[Match]) -> MeteorStats:
        """:meth:`.statistics.StatsCounter.count`, in C."""
        counter = self._counter
        if self._char_based:
            hyp_size, ref_size = array("i", map(utf16_len, hyp)), array("i", map(utf16_len, ref))
        else:
            hyp_size, ref_size = array("i", [1]) * len(hyp), array("i", [1]) * len(ref)
        fields = meteor_core.count(array("i", chain.from_iterable(matches)), bytes(counter.function_flags(hyp)),
                                   bytes(counter.function_flags(ref)), hyp_size, ref_size, len(self._exact_type))
        crossings = count_crossings(matches) if self._crossings else (0, 0)
        return MeteorStats(*fields, *crossings)
