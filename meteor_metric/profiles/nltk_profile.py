"""The ``nltk`` profile: NLTK 3.10.4's ``meteor_score``, bit for bit, without nltk_data.

NLTK's METEOR (``nltk.translate.meteor_score``) differs from METEOR 1.5: tokens are lower-cased
with ``str.lower``; three greedy stages each walk the hypothesis from its last word to its first
and take the last still free reference position of an equal word: exact words, then Porter stems
(NLTK_EXTENSIONS mode), then WordNet synonyms of the *stems* left over (a reference stem matches if
it is a lemma name without "_" of a synset of the hypothesis stem). Then P = m/|hyp|,
R = m/|ref|, Fmean = PR/(alpha P + (1 - alpha) R), penalty = gamma (chunks/m)^beta and
score = (1 - penalty) Fmean, 0.0 wherever NLTK divides by zero; several references: the maximum.

Texts become tokens as Hugging Face's ``evaluate.load("meteor")`` makes them by default:
``nltk.word_tokenize(text)``, Punkt English sentences first (:mod:`meteor_metric.profiles.nltk_punkt`,
the model shipped with the package), then NLTK's Treebank words. WordNet comes from the packaged table
(:mod:`meteor_metric.meteor15.nltk_wordnet`); the stemmer and the tokenizers are NLTK's own code.
"""

from __future__ import annotations

import math
from array import array
from functools import lru_cache
from numbers import Real
from typing import Callable, Iterable, NamedTuple, Optional, Sequence

import numpy as np
from nltk.stem.porter import PorterStemmer
from nltk.tokenize import word_tokenize

from ..core.alignment import Match
from ..core.checks import References, check_corpus, check_refs, check_text
from ..core.results import CorpusResult, SegmentResult
from ..core.sampling import MeanModel
from ..core.scorer import Accumulator, Scorer, first_best
from ..core.stats import MeteorStats, StatsTotal
from ..meteor15.matcher import cached_map
from ..meteor15.nltk_wordnet import NltkWordNet
from .nltk_punkt import word_tokenize_punkt

__all__ = ["NltkMeteor", "NLTK_VERSION", "TOKENIZERS"]

NLTK_VERSION = "3.10.4"
TOKENIZERS = ("word_tokenize", "word_tokenize_line", "split")
#: Each tokenizer's name in the signature; a bare ``tok:word_tokenize`` was the line mode (no Punkt).
_TOKENIZER_TAGS = {"word_tokenize": "word_tokenize+punkt", "word_tokenize_line": "word_tokenize_line",
                   "split": "split"}
EXACT, STEM, WORDNET = 0, 1, 2  # module numbers in alignments and statistics
MODULES = ("exact", "stem", "wordnet")
_TEXT_CACHE_SIZE = 1 << 13
_STEM_CACHE_LIMIT = 1 << 16

Pairs = list[tuple[int, int, int]]  # (hypothesis index, reference index, stage)


class _Metrics(NamedTuple):
    score: float
    precision: float
    recall: float
    fmean: float
    fragmentation_penalty: float


class NltkMeteor(Scorer):
    r"""NLTK's METEOR (``nltk.translate.meteor_score.meteor_score``, NLTK 3.10.4) on raw texts.

    ``tokenizer`` is ``"word_tokenize"`` (default: ``nltk.word_tokenize(text)``, Punkt sentences then
    Treebank words, as HF's module runs it), ``"word_tokenize_line"``
    (``nltk.word_tokenize(text, preserve_line=True)``: no sentence splitting) or ``"split"``
    (``str.split()``). A scorer is safe to share between threads.

    >>> m = NltkMeteor()
    >>> m.sentence_score("the cat sat on the mat", "the cat sat on the mat").score
    0.9976851851851852
    >>> hyp = "It is a guide to action which ensures that the military always obeys the commands of the party"
    >>> ref = "It is a guide to action that ensures that the military will forever heed Party commands"
    >>> round(m.sentence_score(hyp, ref).score, 4)  # NLTK's docstring example
    0.6944
    """

    def __init__(self, alpha: float = 0.9, beta: float = 3.0, gamma: float = 0.5,
                 tokenizer: str = "word_tokenize"):
        self.alpha = _check_parameter(alpha, "alpha")
        self.beta = _check_parameter(beta, "beta")
        self.gamma = _check_parameter(gamma, "gamma")
        if tokenizer not in TOKENIZERS:
            raise ValueError(f"tokenizer must be one of {', '.join(map(repr, TOKENIZERS))}, got {tokenizer!r}")
        self.tokenizer = tokenizer
        self._split: Callable[[str], list[str]] = _SPLITTERS[tokenizer]
        self._stem_word = PorterStemmer().stem  # NLTK_EXTENSIONS, as meteor_score's default stemmer
        self._stems: dict[str, str] = {}
        self._wordnet: Optional[NltkWordNet] = None
        self._tokens = lru_cache(maxsize=_TEXT_CACHE_SIZE)(self._tokens_uncached)
        self._base_signature = "|".join((
            "meteor-nltk", f"nltk:{NLTK_VERSION}-compatible",
            f"a:{self.alpha!r},b:{self.beta!r},g:{self.gamma!r}", f"tok:{_TOKENIZER_TAGS[tokenizer]}", "wn:3.0"))

    # -- public API ----------------------------------------------------------------------------

    @property
    def modules(self) -> tuple[str, ...]:
        """Stage names; an alignment's ``Match.module`` indexes this."""
        return MODULES

    def tokens(self, text: str) -> tuple[str, ...]:
        """The lower-cased tokens NLTK's METEOR sees for a text."""
        return self._tokens(check_text(text, "text"))

    def sentence_score(self, hypothesis: str, references: References) -> SegmentResult:
        """Score one hypothesis against one reference or a list of references (the best one counts)."""
        hyp = check_text(hypothesis, "hypothesis")
        refs = check_refs(references, "references")
        return self._segment(self._tokens(hyp), [self._tokens(r) for r in refs])

    def score_tokens(self, hyp_tokens: Sequence[str], refs_tokens: Sequence[Sequence[str]]) -> float:
        """``meteor_score(refs_tokens, hyp_tokens)`` on pre-tokenized input (lower-cased here)."""
        hyp = _lower_tokens(hyp_tokens, "hyp_tokens")
        if isinstance(refs_tokens, str) or not isinstance(refs_tokens, Sequence) or not refs_tokens:
            raise TypeError("refs_tokens must be a non-empty list of token lists")
        refs = [_lower_tokens(r, f"refs_tokens[{k}]") for k, r in enumerate(refs_tokens)]
        return self._segment(hyp, refs).score

    def corpus_score(self, hypotheses: Sequence[str], references: Sequence[References]) -> CorpusResult:
        """Score a corpus: ``references[k]`` is a string or a list of strings for ``hypotheses[k]``.

        The corpus score is the mean of the segment scores, as Hugging Face's ``meteor`` metric
        reports it (``np.mean``); precision, recall, fmean and penalty are means too.
        """
        pairs = list(check_corpus(hypotheses, references))
        segments = [self._segment(self._tokens(h), [self._tokens(r) for r in refs]) for h, refs in pairs]
        return self.aggregate(segments, [len(r) for _, r in pairs])

    def accumulator(self) -> "NltkAccumulator":
        """A running corpus result: keeps 5 floats per segment (the means need every value)."""
        return NltkAccumulator(self)

    def sample_model(self) -> MeanModel:
        """Resamples are scored as the mean of their segment scores."""
        return MeanModel()

    # -- tokens and stems ----------------------------------------------------------------------

    def _tokens_uncached(self, text: str) -> tuple[str, ...]:
        return tuple(t.lower() for t in self._split(text))

    def _stem_all(self, left: list[tuple[int, str]]) -> list[tuple[int, str]]:
        """(index, Porter stem) for (index, word) pairs, through the bounded stem cache."""
        stems = cached_map([w for _, w in left], self._stems, self._stem_word, _STEM_CACHE_LIMIT)
        return [(i, stem) for (i, _), stem in zip(left, stems)]

    def _synonyms(self, word: str) -> frozenset[str]:
        wordnet = self._wordnet
        if wordnet is None:
            wordnet = self._wordnet = NltkWordNet.shipped()
        return wordnet.synonyms(word)

    # -- alignment and score -------------------------------------------------------------------

    def _segment(self, hyp: tuple[str, ...], refs: Sequence[tuple[str, ...]]) -> SegmentResult:
        def scored(ref: tuple[str, ...]) -> tuple[_Metrics, tuple[str, ...], Pairs, int]:
            pairs = self._align(hyp, ref)
            chunks = _count_chunks(pairs)
            return self._metrics(len(hyp), len(ref), len(pairs), chunks), ref, pairs, chunks

        # max(): the first maximal reference
        k, (metrics, ref, pairs, chunks) = first_best(map(scored, refs), lambda c: c[0].score)
        per_stage = [0, 0, 0]
        for _, _, stage in pairs:
            per_stage[stage] += 1
        counts, zeros = tuple(per_stage), (0, 0, 0)
        stats = MeteorStats(len(hyp), len(ref), 0, 0, counts, counts, zeros, zeros, chunks, len(pairs), len(pairs))
        alignment = tuple(sorted(Match(r, 1, h, 1, stage) for h, r, stage in pairs))
        return SegmentResult(*metrics, chunks, stats, k, alignment, hyp, ref, self.signature)

    def _align(self, hyp: Sequence[str], ref: Sequence[str]) -> Pairs:
        """NLTK's ``_enum_align_words``: (hyp index, ref index, stage), sorted by hypothesis index."""
        pairs: Pairs = []
        hyp_left, ref_left = _greedy(list(enumerate(hyp)), list(enumerate(ref)), EXACT, pairs)
        if hyp_left and ref_left:
            hyp_left, ref_left = _greedy(self._stem_all(hyp_left), self._stem_all(ref_left), STEM, pairs)
            if hyp_left and ref_left:
                self._synonym_stage(hyp_left, ref_left, pairs)
        pairs.sort()
        return pairs

    def _synonym_stage(self, hyp: list[tuple[int, str]], ref: list[tuple[int, str]], pairs: Pairs) -> None:
        """Each hypothesis stem, last first, takes the last free reference stem among its synonyms."""
        positions = _positions(ref)
        for i in range(len(hyp) - 1, -1, -1):
            synonyms = self._synonyms(hyp[i][1])
            best_j, best_word = -1, None
            if len(synonyms) <= len(positions):
                candidates: Iterable[str] = synonyms
            else:
                candidates = [w for w in positions if w in synonyms]
            for word in candidates:
                free = positions.get(word)
                if free and free[-1] > best_j:
                    best_j, best_word = free[-1], word
            if best_word is not None:
                positions[best_word].pop()
                pairs.append((hyp[i][0], ref[best_j][0], WORDNET))

    def _metrics(self, n_hyp: int, n_ref: int, matches: int, chunks: int) -> _Metrics:
        """NLTK's formula with its float operations in its order; 0.0 where it divides by zero."""
        precision = matches / n_hyp if n_hyp else 0.0
        recall = matches / n_ref if n_ref else 0.0
        denominator = self.alpha * precision + (1 - self.alpha) * recall
        fmean = precision * recall / denominator if denominator else 0.0
        penalty = self.gamma * (chunks / matches) ** self.beta if matches else 0.0
        if not (n_hyp and n_ref and denominator and matches):
            return _Metrics(0.0, precision, recall, fmean, penalty)
        return _Metrics((1 - penalty) * fmean, precision, recall, fmean, penalty)


class NltkAccumulator(Accumulator):
    """The segment scores and parts added so far; the corpus values are their ``np.mean``."""

    def __init__(self, scorer: NltkMeteor):
        self._scorer = scorer
        self._values = [array("d") for _ in _Metrics._fields]
        self._stats = StatsTotal()
        self._n_refs: set[int] = set()

    def add(self, segment: SegmentResult, n_refs: int) -> None:
        for values, field in zip(self._values, _Metrics._fields):
            values.append(getattr(segment, field))
        self._stats.add(segment.stats)
        self._n_refs.add(n_refs)

    def merge(self, other: Accumulator) -> None:
        if not isinstance(other, NltkAccumulator):
            raise TypeError(f"cannot merge a {type(other).__name__} into an NltkAccumulator")
        for values, more in zip(self._values, other._values):
            values.extend(more)
        self._stats.merge(other._stats)
        self._n_refs |= other._n_refs

    def result(self, segments: tuple[SegmentResult, ...] = ()) -> CorpusResult:
        if not self._stats.count:
            raise ValueError("cannot score an empty corpus: give at least one hypothesis")
        means = [float(np.mean(np.frombuffer(values, dtype=np.float64))) for values in self._values]
        total = self._stats.total
        return CorpusResult(*means, total.chunks, total, segments, self._scorer.corpus_signature(self._n_refs))


def _positions(side: list[tuple[int, str]]) -> dict[str, list[int]]:
    """Word -> its positions in ``side`` (ascending; the last free one is popped)."""
    positions: dict[str, list[int]] = {}
    for j, (_, word) in enumerate(side):
        positions.setdefault(word, []).append(j)
    return positions


def _greedy(hyp: list[tuple[int, str]], ref: list[tuple[int, str]], stage: int,
            pairs: Pairs) -> tuple[list[tuple[int, str]], list[tuple[int, str]]]:
    """NLTK's ``_match_enums``: equal words, hypothesis last first, each taking the last free
    reference position. Appends to ``pairs``; returns the unmatched (index, word) of both sides."""
    positions = _positions(ref)
    hyp_used: set[int] = set()
    ref_used: set[int] = set()
    for i in range(len(hyp) - 1, -1, -1):
        free = positions.get(hyp[i][1])
        if free:
            j = free.pop()
            hyp_used.add(i)
            ref_used.add(j)
            pairs.append((hyp[i][0], ref[j][0], stage))
    if not hyp_used:
        return hyp, ref
    return ([p for i, p in enumerate(hyp) if i not in hyp_used],
            [p for j, p in enumerate(ref) if j not in ref_used])


def _count_chunks(pairs: Pairs) -> int:
    """NLTK's ``_count_chunks`` on matches sorted by hypothesis index (1 for no match)."""
    chunks = 1
    for (h0, r0, _), (h1, r1, _) in zip(pairs, pairs[1:]):
        if h1 != h0 + 1 or r1 != r0 + 1:
            chunks += 1
    return chunks


def _word_tokenize_line(text: str) -> list[str]:
    return word_tokenize(text, preserve_line=True)  # no sentence splitting


_SPLITTERS: dict[str, Callable[[str], list[str]]] = {
    "word_tokenize": word_tokenize_punkt, "word_tokenize_line": _word_tokenize_line, "split": str.split}


def _lower_tokens(tokens: object, where: str) -> tuple[str, ...]:
    if isinstance(tokens, str) or not isinstance(tokens, Sequence):
        raise TypeError(f"{where} must be a list of tokens (pre-tokenized), got {type(tokens).__name__}")
    return tuple(check_text(t, f"{where}[{k}]").lower() for k, t in enumerate(tokens))


def _check_parameter(value: object, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, Real):
        raise TypeError(f"{name} must be a number, got {type(value).__name__}")
    if not math.isfinite(value):
        raise ValueError(f"{name} must be finite, got {value!r}")
    return float(value)
