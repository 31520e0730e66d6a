r"""The ``original`` profile: METEOR as first published (Banerjee & Lavie, 2005).

Definition (every number :class:`OriginalMeteor` returns follows from it):

* **Tokens** -- the default :class:`~meteor_metric.Meteor` preprocessing: the jar's English
  ``-norm`` normaliser, then lowercasing, then splitting on spaces.
* **Staged matching** -- stage 1 *exact* (equal strings), stage 2 *stem* (equal stems of NLTK's
  Porter stemmer in ``ORIGINAL_ALGORITHM`` mode, the 1980 algorithm the 2005 paper used), stage 3
  *synonym* (the WordNet 3.0 synonym sets of the shipped table intersect:
  :meth:`~meteor_metric.meteor15.synonyms.SynonymTable.synsets`). Each stage sees only the words earlier
  stages left unmatched; every word is matched at most once (1:1).
* **Choice within a stage** -- the most matches; among those the fewest chunks of the whole
  alignment so far (a chunk is a maximal run of matches adjacent and in the same order in both
  sentences, as :func:`~meteor_metric.meteor15.aligner.count_chunks` counts them); among those, the
  lexicographically smallest vector of hypothesis positions taken by the stage's reference words
  in reference order, an unmatched word counting as +infinity. The optimum is found exactly
  (:mod:`meteor_metric.profiles.original_align`). The 2005 paper breaks ties between equally large
  alignments by fewest *crossings*; this profile uses fewest chunks, the quantity the penalty
  measures.
* **Score** -- with ``m`` matches, ``P = m/|hyp|``, ``R = m/|ref|``,
  ``Fmean = 10PR/(R + 9P)``, ``Penalty = 0.5 (chunks/m)^3`` and ``score = Fmean (1 - Penalty)``;
  ``m = 0`` gives 0 (and P or R of an empty side is 0). There is no function-word weighting and no
  special case for perfect matches: an identical sentence of ``m`` words scores
  ``1 - 0.5/m^3``.
* **Several references** -- the best score; the first reference reaching it is reported.
* **Corpus** -- the formula applied to statistics summed over segments (matches, lengths and
  chunks; no segment is excluded), not a mean of segment scores.

>>> m = OriginalMeteor()
>>> round(m.sentence_score("the cat was sat on the mat", "the cat sat on the mat").score, 6)
0.965392
"""

from __future__ import annotations

from functools import lru_cache
from typing import Iterable, Sequence

import numpy as np
from nltk.stem.porter import PorterStemmer

from ..core.alignment import Match
from ..core.checks import References, check_corpus, check_refs, check_text
from ..core.results import CorpusResult, Metrics, SegmentResult
from ..core.scorer import SummedStatsScorer, first_best
from ..core.stats import MeteorStats, StatsTotal
from ..meteor15.aligner import count_chunks
from ..meteor15.normalize import java_lower, normalize_line, tokenize
from ..meteor15.synonyms import SynonymTable
from .original_align import DEFAULT_SEARCH_BUDGET, PAIR_STEPS, Pair, SearchBudget, align_stage

MODULES = ("exact", "stem", "synonym")
_CACHE_SIZE = 1 << 13


class OriginalMeteor(SummedStatsScorer):
    """METEOR as in Banerjee & Lavie (2005); the module docstring gives the exact definition.

    A scorer is safe to share between threads.
    """

    _corpus_tag = "|corpus:summed"
    _exclude_perfect_chunks = False  # a plain sum of the statistics: every segment's chunks count

    def __init__(self, search_budget: int = DEFAULT_SEARCH_BUDGET) -> None:
        """``search_budget``: most steps of exact alignment work one segment may take (all its
        references, stages and word groups together) before scoring it raises
        :class:`~meteor_metric.profiles.original_align.SearchBudgetExceeded`; see
        :data:`~meteor_metric.profiles.original_align.DEFAULT_SEARCH_BUDGET` for the time a step takes."""
        SearchBudget(search_budget)  # checks the value
        self._search_budget = search_budget
        self._porter = PorterStemmer(mode=PorterStemmer.ORIGINAL_ALGORITHM)
        self._synsets = SynonymTable.english().synsets
        self._stem = lru_cache(maxsize=1 << 16)(self._porter.stem)
        self._tokens = lru_cache(maxsize=_CACHE_SIZE)(_preprocess)
        self._base_signature = ("meteor-original|banerjee-lavie-2005|mods:ex_st(porter-original)_sy(wn30)"
                                "|align:max-matches,min-chunks,lexmin|a:10PR/(R+9P)|pen:0.5*frac^3|norm:norm")

    def tokens(self, text: str) -> tuple[str, ...]:
        """The tokens the profile aligns (normalised, lowercased)."""
        return self._tokens(check_text(text, "text"))

    def align(self, hyp: Sequence[str], ref: Sequence[str]) -> list[Match]:
        """The staged alignment of two token sequences, in reference order, within one search budget."""
        for name, tokens in (("hyp", hyp), ("ref", ref)):
            if isinstance(tokens, str) or not all(isinstance(t, str) for t in tokens):
                raise TypeError(f"{name} must be a sequence of token strings (see tokens())")
        return self._align(hyp, ref, SearchBudget(self._search_budget))

    def _align(self, hyp: Sequence[str], ref: Sequence[str], budget: SearchBudget) -> list[Match]:
        """:meth:`align` charging its work to ``budget`` (shared by a segment's references)."""
        matched: dict[int, int] = {}
        module_of: dict[int, int] = {}
        for module in range(len(MODULES)):
            taken = set(matched.values())
            free_ref = [i for i in range(len(ref)) if i not in matched]
            free_hyp = [j for j in range(len(hyp)) if j not in taken]
            for i, j in align_stage(self._candidates(module, hyp, ref, free_hyp, free_ref, budget), matched,
                                    budget).items():
                matched[i] = j
                module_of[i] = module
        return [Match(i, 1, j, 1, module_of[i]) for i, j in sorted(matched.items())]

    def _candidates(self, module: int, hyp: Sequence[str], ref: Sequence[str], free_hyp: list[int],
                    free_ref: list[int], budget: SearchBudget) -> list[Pair]:
        """The stage's candidate pairs; building them is charged to ``budget`` first."""
        if module == 0:
            return _pairs_by_key({i: ref[i] for i in free_ref}, {j: hyp[j] for j in free_hyp}, budget)
        if module == 1:
            stem = self._stem
            return _pairs_by_key({i: stem(ref[i]) for i in free_ref}, {j: stem(hyp[j]) for j in free_hyp}, budget)
        hyp_sets = [(j, s) for j, s in ((j, self._synsets(hyp[j])) for j in free_hyp) if s]
        budget.charge(len(free_ref) * len(hyp_sets))  # one set comparison a step
        pairs = []
        for i in free_ref:
            ref_set = self._synsets(ref[i])
            pairs += [(i, j) for j, s in hyp_sets if not ref_set.isdisjoint(s)]
        return pairs

    def sentence_score(self, hypothesis: str, references: References) -> SegmentResult:
        """Score one hypothesis against one reference or a list of references (best one wins)."""
        return self._segment(check_text(hypothesis, "hypothesis"), check_refs(references, "references"))

    def corpus_score(self, hypotheses: Sequence[str], references: Sequence[References]) -> CorpusResult:
        """Score a corpus from its summed statistics; ``references[k]`` belongs to ``hypotheses[k]``.

        A segment over the search budget is named in the error (``segment k``, from 0, as in :class:`Meteor`)."""
        pairs = list(check_corpus(hypotheses, references))
        segments = self.score_pairs(pairs)
        return self.aggregate(segments, [len(r) for _, r in pairs])

    def sample_model(self) -> "OriginalModel":
        """Resamples are scored from their plainly summed statistics with the 2005 formula."""
        return OriginalModel()

    @property
    def modules(self) -> tuple[str, ...]:
        """Stage names; an alignment's ``Match.module`` indexes this."""
        return MODULES

    def score_stats(self, stats: MeteorStats) -> Metrics:
        """Precision, recall, Fmean, penalty and score of segment or summed statistics."""
        if not isinstance(stats, MeteorStats):
            raise TypeError(f"stats must be a MeteorStats, got {type(stats).__name__}")
        if len(stats.test_content_matches) != len(MODULES):
            raise ValueError(f"original-profile statistics have {len(MODULES)} module slots, "
                             f"got {len(stats.test_content_matches)}")
        m = stats.test_total_matches
        if m != stats.ref_total_matches or not 0 <= stats.chunks <= m \
                or m > min(stats.test_length, stats.ref_length):
            raise ValueError("inconsistent statistics: hypothesis and reference matches must be equal, "
                             "at most both lengths, with 0 <= chunks <= matches")
        if m == 0:
            return Metrics(0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
        p = m / stats.test_length
        r = m / stats.ref_length
        fmean = 10 * p * r / (r + 9 * p)
        frag = stats.chunks / m
        penalty = 0.5 * frag ** 3
        return Metrics(p, r, 2 * p * r / (p + r), fmean, frag, penalty, fmean * (1 - penalty))

    def _segment(self, hyp: str, refs: Sequence[str]) -> SegmentResult:
        hyp_tokens = self._tokens(hyp)
        budget = SearchBudget(self._search_budget)  # one budget for all references

        def scored(ref: str) -> tuple[Metrics, tuple[str, ...], MeteorStats, list[Match]]:
            ref_tokens = self._tokens(ref)
            alignment = self._align(hyp_tokens, ref_tokens, budget)
            stats = _stats(len(hyp_tokens), len(ref_tokens), alignment)
            return self.score_stats(stats), ref_tokens, stats, alignment

        k, (metrics, ref_tokens, stats, alignment) = first_best(map(scored, refs), lambda c: c[0].score)
        return SegmentResult(metrics.score, metrics.precision, metrics.recall, metrics.fmean,
                             metrics.fragmentation_penalty, stats.chunks, stats, k, tuple(alignment),
                             hyp_tokens, ref_tokens, self.signature)


class OriginalModel:
    """``original``: plain sums of lengths, matches and chunks, scored with the 2005 formula
    (:meth:`OriginalMeteor.score_stats`, in its operation order), for significance tests."""

    def rows(self, segments: Sequence[SegmentResult]) -> np.ndarray:
        return np.array([(s.stats.test_length, s.stats.ref_length, s.stats.test_total_matches, s.stats.chunks)
                         for s in segments], dtype=np.float64).reshape(len(segments), 4)

    def scores(self, sums: np.ndarray, n: int) -> np.ndarray:
        t_len, r_len, matches, chunks = sums[:, 0], sums[:, 1], sums[:, 2], sums[:, 3]
        with np.errstate(divide="ignore", invalid="ignore"):
            p = matches / t_len
            r = matches / r_len
            fmean = 10 * p * r / (r + 9 * p)
            penalty = 0.5 * np.power(chunks / matches, 3)
            score = fmean * (1 - penalty)
        return np.where(matches > 0, score, 0.0)


def sum_stats(items: Iterable[MeteorStats]) -> MeteorStats:
    """Field-by-field sum of statistics (unlike :meth:`MeteorStats.sum`, no segment is excluded)."""
    running = StatsTotal(exclude_perfect_chunks=False)
    for s in items:
        running.add(s)
    return running.total


def _preprocess(text: str) -> tuple[str, ...]:
    return tuple(tokenize(java_lower(normalize_line(text, "en", keep_punct=True))))


def _pairs_by_key(ref_keys: dict[int, str], hyp_keys: dict[int, str], budget: SearchBudget) -> list[Pair]:
    """Pairs of positions with equal keys, charged to ``budget`` before they are built."""
    by_key: dict[str, list[int]] = {}
    for j, key in hyp_keys.items():
        by_key.setdefault(key, []).append(j)
    budget.charge(PAIR_STEPS * sum(len(by_key.get(key, ())) for key in ref_keys.values()))
    return [(i, j) for i, key in ref_keys.items() for j in by_key.get(key, ())]


def _stats(n_hyp: int, n_ref: int, alignment: Sequence[Match]) -> MeteorStats:
    per_module = tuple(sum(1 for a in alignment if a.module == k) for k in range(len(MODULES)))
    zeros = (0,) * len(MODULES)
    m = len(alignment)
    return MeteorStats(n_hyp, n_ref, 0, 0, per_module, per_module, zeros, zeros,
                       count_chunks(alignment), m, m)
