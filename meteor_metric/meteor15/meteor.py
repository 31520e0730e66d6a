"""The METEOR 1.5 scorer, :class:`Meteor`: a thin coordinator of the engine's stages.

Text -> tokens (:mod:`.normalize`, :mod:`.normalize_ext`) -> candidate matches (:mod:`.matcher`) ->
alignment (:mod:`.aligner`, many pairs at once in :mod:`.batch_aligner`) -> statistics
(:mod:`.statistics`) -> score (:mod:`.formula`); the best reference counts for a segment.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from operator import itemgetter
from typing import TYPE_CHECKING, Callable, Optional, Sequence

from ..core.alignment import Match
from ..core.background import Background
from ..core.checks import (References, check_corpus, check_pairs, check_pairwise, check_refs,
                           check_text)
from ..core.gcpause import gc_paused
from ..core.javafmt import java_split_lines
from ..core.languages import LANGUAGE_NAMES
from ..core.results import CorpusResult, Metrics, SegmentResult, make_segment
from ..core.scorer import SummedStatsScorer, first_best, pairwise_matrix
from ..core.stats import MeteorStats, make_stats, stats_values
from .aligner import align, find_candidates
from .formula import compute_metrics
from .limits import MAX_SEGMENT_CANDIDATES, MAX_SEGMENT_CHARS, check_candidates, check_chars, check_limit
from .native_engine import NativeEngine, ascii_normalizer, raise_over_candidate_limit, resolve_engine
from .matcher import (ExactMatcher, LemmaMatcher, Matcher, ParaphraseMatcher, SimilarityMatcher, StemMatcher,
                      SynonymMatcher, token_keys)
from .names import (DEFAULT_SIMILARITY_THRESHOLD, EXTENSION_MODULES, EXTENSION_NORMALIZATIONS, METEOR_VERSION,
                    MODULE_SHORT)
from .normalize import java_lower, load_function_words, normalize_line, tokenize
from .normalize_ext import ext_tokens
from .params import MeteorParams, resolve_params
from .statistics import StatsCounter

if TYPE_CHECKING:
    import numpy as np

    from .paraphrase import ParaphraseTable
    from .sampling import StatsModel

__all__ = ["Meteor", "MeteorParams", "SegmentResult", "CorpusResult", "References", "check_corpus",
           "BATCH_SIZE", "MAX_SEGMENT_TOKENS", "MAX_SEGMENT_CANDIDATES", "MAX_SEGMENT_CHARS"]


_TEXT_CACHE_SIZE = 1 << 13  # texts repeat locally (references of a caption set); keep memory small
_PAIR_CACHE_SIZE = 1 << 12  # token-sequence pairs repeat locally (systems giving the same output)
#: Segments scored together by :meth:`Meteor.score_pairs` callers (corpus scoring, the CLI): their
#: alignments are searched in one :func:`~meteor_metric.meteor15.batch_aligner.align_batch` call.
BATCH_SIZE = 1024
#: Default longest segment (tokens after normalisation, either side): the alignment is quadratic in length.
MAX_SEGMENT_TOKENS = 2_500
#: Candidate matches aligned together in one batch (their successor rows too): bounds a batch's memory.
BATCH_CANDIDATES = 500_000
_BATCH_ALIGN_FROM = 20_000  # candidates from which one pair is aligned by the (numpy) batch aligner

#: A segment's (score, precision, recall, fmean, fragmentation penalty) against one reference.
ScoreValues = tuple[float, float, float, float, float]
#: A pair's statistics, alignment, candidate count and score values (None: left to compute_metrics).
PairResult = tuple[MeteorStats, tuple[Match, ...], int, Optional[ScoreValues]]
#: What _best takes for each reference of a segment: a PairResult without the candidate count.
ReferenceEntry = tuple[MeteorStats, tuple[Match, ...], Optional[ScoreValues]]


class Meteor(SummedStatsScorer):
    r"""A METEOR 1.5 scorer; the defaults equal the jar's ``-l en -norm``.

    >>> m = Meteor()
    >>> m.sentence_score("the cat sat on the mat", ["the cat sat on the mat"]).score
    1.0
    >>> hyp = 'The U.S.-based company\'s profits rose 3,000 dollars... "It\'s great," he said.'
    >>> ref = 'The US based company \'s profits rose 3,000 dollars ... " It \'s great , " he said .'
    >>> m.sentence_score(hyp, ref).score  # the jar: 0.5208243865476501
    0.5208243865476501

    Keyword options mirror the jar's flags: ``task`` (``-t``), ``modules``
    (``-m``), ``weights`` (``-w``), ``parameters`` (``-p``: alpha beta gamma
    delta), ``normalization`` (``norm``, ``norm_nopunct``, ``lc_only``,
    ``no_norm``), ``char_based`` (``-ch``), ``beam_size`` (``-x``),
    ``function_words`` (``-s``, a file) and ``paraphrase_table`` (``-a``).
    ``max_segment_tokens`` bounds a segment's length (a ``ValueError`` beyond it; ``None``: no
    limit), because the alignment's time grows with the square of the length.
    ``max_segment_candidates`` bounds the candidate matches of a hypothesis against all its references, and
    ``max_segment_chars`` the characters of each text (``ValueError`` beyond; ``None``: no limit;
    docs/limits.md): together they bound a segment's time and memory.
    Extensions beyond the jar (named in the signature): ``normalization=``
    ``"norm_ext"``/``"norm_ext_nopunct"`` (``-norm`` for languages the jar refuses),
    ``"cjk_char"`` (one token per CJK character), ``synonyms="omw"``, the modules ``"lemma"`` (equal
    WordNet lemmas) and ``"wn_similarity"`` (WordNet path similarity >= ``similarity_threshold``), and
    ``fragmentation="crossings"`` (the order penalty from crossing match pairs instead of chunks).
    ``task="mqm"`` and ``task="caption"`` are presets tuned on human judgments (English);
    ``params_file`` reads a preset written by ``meteor-metric tune``.
    ``impl`` picks the engine (``"python"``, ``"native"``, ``"auto"``; default ``$METEOR_METRIC_IMPL``, else
    ``"auto"``: the compiled core where it is built); :attr:`engine` says which one runs. Both give the same
    statistics; the native one runs the matchers, the beam search, the statistics count and (for
    printable-ASCII text) the normalization in C, the rest in Python.
    A scorer is safe to share between threads.
    """

    def __init__(
        self,
        language: str = "en",
        task: Optional[str] = None,
        *,
        modules: Optional[Sequence[str]] = None,
        weights: Optional[Sequence[float]] = None,
        parameters: Optional[Sequence[float]] = None,
        normalization: str = "norm",
        char_based: bool = False,
        beam_size: int = 40,
        function_words: Optional[str] = None,
        paraphrase_table: Optional[str] = None,
        synonyms: Optional[str] = None,
        params_file: Optional[str] = None,
        cache_dir: Optional[str] = None,
        max_segment_tokens: Optional[int] = MAX_SEGMENT_TOKENS,
        max_segment_candidates: Optional[int] = MAX_SEGMENT_CANDIDATES,
        max_segment_chars: Optional[int] = MAX_SEGMENT_CHARS,
        fragmentation: str = "chunks",
        similarity_threshold: float = DEFAULT_SIMILARITY_THRESHOLD,
        impl: Optional[str] = None,
    ):
        params = resolve_params(
            language, task, parameters=parameters, weights=weights, modules=modules,
            normalization=normalization, char_based=char_based, beam_size=beam_size,
            function_words=function_words, paraphrase_table=paraphrase_table, synonyms=synonyms,
            params_file=params_file, fragmentation=fragmentation, similarity_threshold=similarity_threshold)
        self._init(params, cache_dir, max_segment_tokens, max_segment_candidates, max_segment_chars, impl)

    @classmethod
    def from_params(cls, params: MeteorParams, cache_dir: Optional[str] = None,
                    max_segment_tokens: Optional[int] = MAX_SEGMENT_TOKENS,
                    max_segment_candidates: Optional[int] = MAX_SEGMENT_CANDIDATES,
                    max_segment_chars: Optional[int] = MAX_SEGMENT_CHARS, impl: Optional[str] = None) -> "Meteor":
        """A scorer for an already resolved configuration (``impl``: as for :class:`Meteor`)."""
        if not isinstance(params, MeteorParams):
            raise TypeError(f"params must be a MeteorParams, got {type(params).__name__}")
        self = cls.__new__(cls)
        self._init(params, cache_dir, max_segment_tokens, max_segment_candidates, max_segment_chars, impl)
        return self

    def _init(self, params: MeteorParams, cache_dir: Optional[str], max_segment_tokens: Optional[int],
              max_segment_candidates: Optional[int], max_segment_chars: Optional[int],
              impl: Optional[str] = None) -> None:
        if max_segment_tokens is not None and (not isinstance(max_segment_tokens, int) or max_segment_tokens < 1):
            raise ValueError(f"max_segment_tokens must be a positive integer or None, got {max_segment_tokens!r}")
        self.max_segment_tokens = max_segment_tokens
        self.max_segment_candidates = check_limit(max_segment_candidates, "max_segment_candidates")
        self.max_segment_chars = check_limit(max_segment_chars, "max_segment_chars")
        self.params = params
        #: The engine that scores: ``"native"`` (the compiled core) or ``"python"``.
        self.engine = resolve_engine(impl)
        self._resource_ids: list[str] = []
        # the paraphrase table loads in a thread while the other matchers load (its checksum and mapping run
        # without the interpreter lock): Meteor() 0.025-0.03 s sooner with the default modules
        paraphrases = None
        if "paraphrase" in params.modules and len(params.modules) > 1:
            from .paraphrase import load_paraphrase_table

            paraphrases = Background(load_paraphrase_table, params.language, params.paraphrase_table, cache_dir)
        try:
            self._matchers: list[Matcher] = [self._make_matcher(m, cache_dir, paraphrases) for m in params.modules]
        finally:
            if paraphrases is not None:  # its thread is done before an error leaves (its own error then dropped)
                paraphrases.join()
        self._exact_type = [m == "exact" for m in params.modules]
        if params.function_words is None:
            function_words = load_function_words("en")  # the jar always uses English (spec §10)
            fw_id = "english"
        else:
            function_words, digest = _read_word_file(params.function_words)
            fw_id = f"file-{digest}"
        self._counter = StatsCounter(function_words, len(params.modules), params.char_based,
                                     params.fragmentation == "crossings")
        self._base_signature = "|".join((
            f"meteor-{METEOR_VERSION}",
            f"lang:{params.language}",
            f"task:{params.task}",
            f"norm:{params.normalization}",
            f"unit:{'char' if params.char_based else 'word'}",
            "mods:" + "_".join(MODULE_SHORT[m] for m in params.modules),
            "w:" + ",".join(repr(w) for w in params.weights),
            "p:" + ",".join(repr(p) for p in params.parameters),
            f"beam:{params.beam_size}",
            f"fw:{fw_id}",
        ) + tuple(self._resource_ids) + _extension_ids(params)
            + ((f"preset:{params.preset}",) if params.preset else ()))
        # the formula goes to the compiled core too, which then scores each pair it aligns (not with crossings,
        # which are counted in Python)
        formula = ((params.weights, params.alpha, params.beta, params.gamma, params.delta)
                   if params.fragmentation == "chunks" and len(params.weights) <= len(params.modules) else None)
        self._native = (NativeEngine(self._matchers, self._exact_type, params.beam_size, self._counter,
                                     params.char_based, self._candidates, formula, self.signature)
                        if self.engine == "native" else None)
        self._ascii_tokens = (ascii_normalizer(params.language, params.normalization == "norm")
                              if self._native is not None and params.normalization in ("norm", "norm_nopunct")
                              else None)
        self._preprocess = lru_cache(maxsize=_TEXT_CACHE_SIZE)(self._preprocess_uncached)
        # (the statistics' fields..., alignment, candidate count, score values or None): one flat tuple of ints,
        # tuples of ints and floats and (native) untracked Matches, which the garbage collector untracks in its
        # first pass and then never scans again; a MeteorStats is made from the fields on a hit
        self._pair_cache: dict[tuple[tuple[str, ...], tuple[str, ...]], tuple] = {}

    def _make_matcher(self, module: str, cache_dir: Optional[str],
                      paraphrases: Optional[Background[ParaphraseTable]] = None) -> Matcher:
        lang = self.params.language
        if module == "exact":
            return ExactMatcher()
        if module == "stem":
            from .stemmers import get_stemmer

            return StemMatcher(get_stemmer(LANGUAGE_NAMES[lang]))
        if module == "synonym" and self.params.synonyms is not None:
            from .omw import omw_language, omw_synsets

            code = omw_language(lang, self.params.synonyms)
            self._resource_ids.append(f"syn:omw-1.4-{code}")
            return SynonymMatcher(omw_synsets(code))
        if module in EXTENSION_MODULES:
            from .nltk_wordnet import NltkWordNet

            wordnet = NltkWordNet.shipped()
            if module == "lemma":
                return LemmaMatcher(wordnet.lemmas)
            from .wn_similarity import SimilarityIndex

            return SimilarityMatcher(SimilarityIndex.shipped(wordnet), self.params.similarity_threshold)
        if module == "synonym":
            from .synonyms import SynonymTable

            self._resource_ids.append("syn:wn30")
            table = SynonymTable.english()
            return SynonymMatcher(table.synsets, table.lookup)
        if paraphrases is not None:
            table = paraphrases.result()
        else:
            from .paraphrase import load_paraphrase_table

            table = load_paraphrase_table(lang, self.params.paraphrase_table, cache_dir)
        self._resource_ids.append(f"para:{table.fingerprint}")
        return ParaphraseMatcher(table)

    # -- preprocessing -------------------------------------------------------------------------

    def _preprocess_uncached(self, text: str) -> tuple[str, ...]:
        if self._ascii_tokens is not None:
            tokens = self._ascii_tokens(text)
            if tokens is not None:
                return tokens
        mode = self.params.normalization
        if mode in EXTENSION_NORMALIZATIONS:
            return tuple(ext_tokens(text, mode))
        if mode in ("norm", "norm_nopunct"):
            text = normalize_line(text, self.params.language, keep_punct=mode == "norm")
        if mode != "no_norm":
            text = java_lower(text)
        return tuple(tokenize(text))

    def tokens(self, text: str) -> tuple[str, ...]:
        """The tokens METEOR aligns for a text under this configuration."""
        return self._preprocess(check_chars(check_text(text, "text"), self.max_segment_chars, "the text"))

    # -- scoring -------------------------------------------------------------------------------

    @property
    def modules(self) -> tuple[str, ...]:
        """Module names; an alignment's ``Match.module`` indexes this."""
        return self.params.modules

    def sentence_score(self, hypothesis: str, references: References) -> SegmentResult:
        """Score one hypothesis against one reference or a list of references."""
        hyp = check_text(hypothesis, "hypothesis")
        refs = check_refs(references, "references")
        return self._segment(hyp, refs)

    def corpus_score(self, hypotheses: Sequence[str], references: Sequence[References]) -> CorpusResult:
        """Score a corpus: ``references[k]`` is a string or a list of strings for ``hypotheses[k]``."""
        pairs = list(check_corpus(hypotheses, references))
        segments = []
        # paused across the batches: resumed after each, the collector rescanned the segments kept so far
        # (16 collections for 5,000 pairs)
        with gc_paused():
            for k in range(0, len(pairs), BATCH_SIZE):
                segments += self._score_checked(pairs[k:k + BATCH_SIZE], k)
            return self.aggregate(segments, [len(r) for _, r in pairs])

    def score_pairs(self, pairs: Sequence[tuple[str, Sequence[str]]], first: int = 0) -> list[SegmentResult]:
        """``sentence_score`` of each (hypothesis, references) pair, with the alignments of all pairs
        searched together (:func:`~meteor_metric.meteor15.batch_aligner.align_batch`: the same alignments, in
        less time); a ``ValueError`` names its segment as ``segment {first + index}``."""
        return self._score_checked(check_pairs(pairs, first), first)

    def _score_checked(self, pairs: Sequence[tuple[str, Sequence[str]]], first: int) -> list[SegmentResult]:
        """:meth:`score_pairs` of pairs already checked (by ``check_corpus`` or ``score_pairs``)."""
        # a batch keeps the candidates of BATCH_SIZE pairs alive at once; with the collector running,
        # finding candidates for the 44,804 WMT21 pairs of benchmarks/bench_vs_jar.py took 29 s, not 11 s
        with gc_paused():
            tokenized = []
            for j, (hyp, refs) in enumerate(pairs):
                try:
                    tokenized.append(self._segment_tokens(hyp, refs))
                except ValueError as exc:
                    raise ValueError(f"segment {first + j}: {exc}") from None
            native = self._native
            if native is not None and native.makes_segments:  # each segment's result made in C
                segment, limit, out = native.segment, self.max_segment_candidates, []
                for j, (hyp, refs) in enumerate(tokenized):
                    done = segment(hyp, refs, limit)
                    if type(done) is int:
                        raise_over_candidate_limit(limit, f"segment {first + j}: " + _pairs_named(done))
                    out.append(done)
                return out
            aligned = self._align_segments(tokenized, lambda j: f"segment {first + j}: ")
            return [self._best(h, refs, segment) for (h, refs), segment in zip(tokenized, aligned)]

    def pairwise(self, candidates: Sequence[str], references: Optional[Sequence[str]] = None) -> "np.ndarray":
        """The matrix of ``sentence_score(candidates[i], references[j]).score`` (float64, candidates by
        references; ``references=None``: the candidates against each other, the diagonal included), for
        minimum-Bayes-risk decoding. Each text is normalized and tokenized once and its word lookups are shared
        by its row or column; the pairs are aligned in batches (:meth:`score_pairs`' path).

        >>> Meteor().pairwise(["the cat sat on the mat", "a cat sat on a mat"]).round(4).tolist()
        [[1.0, 0.3981], [0.3981, 1.0]]
        """
        cands, refs = check_pairwise(candidates, references)
        rows = self._pairwise_tokens(cands, "candidates")
        columns = rows if references is None else self._pairwise_tokens(refs, "references")
        segments = [(h, (r,)) for h in rows for r in columns]  # each entry a segment of one reference
        column_name = "candidates" if references is None else "references"
        width = len(columns)
        scores: list[float] = []
        with gc_paused():
            for k in range(0, len(segments), BATCH_SIZE):
                aligned = self._align_segments(
                    segments[k:k + BATCH_SIZE],
                    lambda s, k=k: f"candidates[{(k + s) // width}] and {column_name}[{(k + s) % width}]: ")
                # (each segment has one reference: one entry)
                scores += [(values or self._score_values(stats))[0] for (stats, _, values), in aligned]
        return pairwise_matrix(scores, len(rows), len(columns))

    def _pairwise_tokens(self, texts: Sequence[str], name: str) -> list[tuple[str, ...]]:
        out = []
        for i, text in enumerate(texts):
            try:
                out.append(self._check_length(self._preprocess(check_chars(text, self.max_segment_chars, "text")),
                                              "text"))
            except ValueError as exc:
                raise ValueError(f"{name}[{i}]: {exc}") from None
        return out

    def sample_model(self) -> "StatsModel":
        """Resamples are scored from their summed statistics with the jar's formula (vectorized)."""
        from .sampling import StatsModel  # numpy: imported only for significance tests

        return StatsModel(self.params)

    def score_stats(self, stats: MeteorStats) -> Metrics:
        """Score statistics (of a segment, or summed over a corpus) with this configuration."""
        p = self.params
        if len(stats.test_content_matches) != len(p.modules):
            raise ValueError(f"statistics have {len(stats.test_content_matches)} module slots, "
                             f"this configuration has {len(p.modules)} modules")
        return compute_metrics(stats, p.weights, p.alpha, p.beta, p.gamma, p.delta, p.fragmentation)

    def _check_length(self, tokens: tuple[str, ...], where: str) -> tuple[str, ...]:
        limit = self.max_segment_tokens
        if limit is not None and len(tokens) > limit:
            raise ValueError(
                f"the {where} has {len(tokens):,} tokens, more than max_segment_tokens={limit:,}: the alignment's "
                "time grows with the square of a segment's length (the Java jar takes over a minute for one "
                "3,000-token segment). Split long documents into sentences, or raise max_segment_tokens")
        return tokens

    def _segment(self, hyp: str, refs: Sequence[str]) -> SegmentResult:
        hyp_tokens, ref_tokens = self._segment_tokens(hyp, refs)
        native = self._native
        if native is not None and native.makes_segments:  # the result made in C
            done = native.segment(hyp_tokens, ref_tokens, self.max_segment_candidates)
            if type(done) is int:
                raise_over_candidate_limit(self.max_segment_candidates, _pairs_named(done))
            return done
        used = 0  # candidate matches against the references before this one (the limit is the segment's)
        aligned = []
        for k, ref in enumerate(ref_tokens):
            stats, alignment, found, values = self._align_pair(hyp_tokens, ref, _pairs_named(k), used)
            used += found
            aligned.append((stats, alignment, values))
        return self._best(hyp_tokens, ref_tokens, aligned)

    def _segment_tokens(self, hyp: str, refs: Sequence[str]) -> tuple[tuple[str, ...], list[tuple[str, ...]]]:
        """The tokens of a segment's hypothesis and references, each within ``max_segment_chars`` (checked
        first) and ``max_segment_tokens``."""
        chars, preprocess, check_length = self.max_segment_chars, self._preprocess, self._check_length
        hyp_tokens = check_length(preprocess(check_chars(hyp, chars, "the hypothesis")), "hypothesis")
        ref_tokens = []  # (a loop, not a comprehension: in Python 3.11 that made a function and its cells a call)
        try:
            for ref in refs:
                ref_tokens.append(check_length(preprocess(check_chars(ref, chars, "")), ""))
            return hyp_tokens, ref_tokens
        except ValueError:  # again, naming the reference (not named above: a name per reference took time)
            return hyp_tokens, [check_length(preprocess(check_chars(ref, chars, f"reference {k}")), f"reference {k}")
                                for k, ref in enumerate(refs)]

    def _best(self, hyp_tokens: tuple[str, ...], refs: Sequence[tuple[str, ...]],
              aligned: Sequence[ReferenceEntry]) -> SegmentResult:
        """The segment result against its best reference (the first of the best scores, as the jar), from the
        statistics, alignment and score values (None: not computed yet) against each reference."""
        if len(aligned) == 1:
            k, values = 0, aligned[0][2] or self._score_values(aligned[0][0])
        else:
            k, values = first_best([v or self._score_values(stats) for stats, _, v in aligned], itemgetter(0))
        stats, alignment, _ = aligned[k]
        return make_segment(*values, stats.chunks, stats, k, alignment, hyp_tokens, refs[k], self.signature)

    def _score_values(self, stats: MeteorStats) -> ScoreValues:
        """(score, precision, recall, fmean, fragmentation penalty) of a segment's statistics (this engine's:
        as many module slots as modules, unlike score_stats' input)."""
        p = self.params
        m = compute_metrics(stats, p.weights, p.alpha, p.beta, p.gamma, p.delta, p.fragmentation)
        return m.score, m.precision, m.recall, m.fmean, m.fragmentation_penalty

    def align_tokens(self, hyp: tuple[str, ...], ref: tuple[str, ...]) -> tuple[MeteorStats, tuple[Match, ...]]:
        """Statistics and alignment of a hypothesis and a reference already tokenized (:meth:`tokens`)."""
        return self._align_pair(hyp, ref, "the hypothesis and reference", 0)[:2]

    def _align_pair(self, hyp: tuple[str, ...], ref: tuple[str, ...], where: str, used: int) -> PairResult:
        """Statistics, alignment, number of candidate matches and score values (where the compiled core scored
        the pair; else None) of a token-sequence pair (a pure function of the two, so cached); past
        ``max_segment_candidates`` with ``used`` (the segment's candidates against its earlier references) the
        limit's ``ValueError`` naming ``where``."""
        native = self._native
        if native is not None and native.whole_pair:  # (the compiled core keeps the pairs it scored lately)
            return native.pair(hyp, ref, self.max_segment_candidates, where, used)
        done = self._cached((hyp, ref))
        if done is None:
            if native is not None:
                done = self._store((hyp, ref), native.pair(hyp, ref, self.max_segment_candidates, where, used))
            else:
                candidates = self._candidates(hyp, ref, self.max_segment_candidates, where, used)
                if sum(map(len, candidates)) < _BATCH_ALIGN_FROM:
                    matches = align(len(hyp), candidates, self._exact_type, self.params.beam_size)
                else:  # the same alignment, several times faster for a large pair
                    from .batch_aligner import align_batch

                    matches = align_batch([(len(hyp), candidates, self._exact_type)], self.params.beam_size)[0]
                done = self._remember((hyp, ref), matches, candidates)
        else:
            check_candidates(used + done[2], self.max_segment_candidates, where)
        return done

    def _align_segments(self, segments: Sequence[tuple[tuple[str, ...], Sequence[tuple[str, ...]]]],
                        prefix: Callable[[int], str]) -> list[list[ReferenceEntry]]:
        """Statistics, alignment and score values (or None) of each segment's hypothesis against each of its
        references, within the segment's candidate limit (``prefix(s)`` starts the names of segment ``s`` in
        errors). The Python engine aligns the uncached pairs in batches of at most ``BATCH_CANDIDATES``
        candidates and positions (one larger pair alone), the native engine one by one."""
        native, limit = self._native, self.max_segment_candidates
        if native is not None and native.whole_pair:  # (segments named only on an error)
            whole, entries = native.whole, []
            for s, (hyp, refs) in enumerate(segments):
                used, segment = 0, []
                for k, ref in enumerate(refs):
                    done = whole(hyp, ref, limit, used)
                    if done is None:
                        raise_over_candidate_limit(limit, prefix(s) + _pairs_named(k))
                    used += done[2]
                    segment.append((done[0], done[1], done[3]))
                entries.append(segment)
            return entries
        if native is not None:
            entries = []
            for s, (hyp, refs) in enumerate(segments):
                used, segment = 0, []
                for k, ref in enumerate(refs):
                    pair = self._align_pair(hyp, ref, prefix(s) + _pairs_named(k), used)
                    used += pair[2]
                    segment.append(_segment_entry(pair))
                entries.append(segment)
            return entries
        done: dict[tuple[tuple[str, ...], tuple[str, ...]], PairResult] = {}
        from .batch_aligner import align_batch  # numpy: imported only where batches are scored
        found: dict[tuple[tuple[str, ...], tuple[str, ...]], list[list[Match]]] = {}  # found, not yet aligned
        todo: list[tuple[tuple[str, ...], tuple[str, ...]]] = []
        size = 0

        def align_todo() -> None:
            problems = [(len(pair[0]), found[pair], self._exact_type) for pair in todo]
            for pair, matches in zip(todo, align_batch(problems, self.params.beam_size)):
                done[pair] = self._remember(pair, matches, found.pop(pair))
            todo.clear()

        for s, (hyp, refs) in enumerate(segments):
            used = 0
            for k, ref in enumerate(refs):
                pair, where = (hyp, ref), prefix(s) + _pairs_named(k)
                known = done.get(pair) or self._cached(pair)
                if known is not None:
                    done[pair] = known
                    used += known[2]
                    check_candidates(used, self.max_segment_candidates, where)
                    continue
                candidates = found.get(pair)
                if candidates is None:
                    candidates = self._candidates(hyp, ref, self.max_segment_candidates, where, used)
                    cost = len(ref) + sum(map(len, candidates))
                    if size + cost > BATCH_CANDIDATES and todo:
                        align_todo()
                        size = 0
                    found[pair] = candidates
                    todo.append(pair)
                    size += cost
                used += sum(map(len, candidates))
                check_candidates(used, self.max_segment_candidates, where)
        align_todo()
        return [[_segment_entry(done[hyp, ref]) for ref in refs] for hyp, refs in segments]

    def _candidates(self, hyp: tuple[str, ...], ref: tuple[str, ...], limit: Optional[int], where: str,
                    used: int) -> list[list[Match]]:
        return find_candidates(hyp, ref, token_keys(hyp), token_keys(ref), self._matchers, limit, where, used)

    def _remember(self, pair: tuple[tuple[str, ...], tuple[str, ...]], matches: Sequence[Match],
                  candidates: Sequence[Sequence[Match]]) -> PairResult:
        """Statistics and alignment of an aligned pair and the number of its candidates (no score values), kept
        in a cache of at most ``_PAIR_CACHE_SIZE``."""
        return self._store(pair, (self._counter.count(pair[0], pair[1], matches), tuple(matches),
                                  sum(map(len, candidates)), None))

    def _store(self, pair: tuple[tuple[str, ...], tuple[str, ...]], done: PairResult) -> PairResult:
        """Keeps a pair's statistics, alignment, candidate count and score values (at most
        ``_PAIR_CACHE_SIZE`` pairs)."""
        if len(self._pair_cache) >= _PAIR_CACHE_SIZE:
            self._pair_cache.clear()
        stats, alignment, found, values = done
        self._pair_cache[pair] = stats_values(stats) + (alignment, found, values)
        return done

    def _cached(self, pair: tuple[tuple[str, ...], tuple[str, ...]]) -> Optional[PairResult]:
        """What :meth:`_store` kept for a pair, or None."""
        kept = self._pair_cache.get(pair)
        return None if kept is None else (make_stats(*kept[:-3]), kept[-3], kept[-2], kept[-1])


#: A PairResult's ReferenceEntry
_segment_entry = itemgetter(0, 1, 3)


def _pairs_named(k: int) -> str:
    """How errors name a segment's hypothesis with its references up to ``k``: the candidate limit counts
    their candidate matches together."""
    return "the hypothesis and reference 0" if k == 0 else f"the hypothesis and references 0-{k}"


def _extension_ids(params: MeteorParams) -> tuple[str, ...]:
    """``ext:...`` naming what goes beyond METEOR 1.5 (empty for every jar configuration)."""
    used = [params.normalization] if params.normalization in EXTENSION_NORMALIZATIONS else []
    if params.synonyms is not None:
        used.append(params.synonyms)
    used += [m for m in params.modules if m in EXTENSION_MODULES]
    if "wn_similarity" in params.modules:
        used.append(f"sim>={params.similarity_threshold!r}")
    if params.fragmentation != "chunks":
        used.append(params.fragmentation)
    return ("ext:" + ",".join(used),) if used else ()


def _read_word_file(path: str) -> tuple[frozenset[str], str]:
    """A function-word list: one word per line, taken verbatim (Java ``readLine``)."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as exc:
        raise FileNotFoundError(f"cannot read function-word list {path!r}: {exc.strerror}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ValueError(f"function-word list {path!r} is not UTF-8 (byte {exc.start})") from None
    return frozenset(java_split_lines(text)), hashlib.sha256(data).hexdigest()[:12]
