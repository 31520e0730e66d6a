"""``meteor-metric score``: corpus and segment scores as text, JSON or TSV."""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import json
import sys
import tempfile
from array import array
from dataclasses import dataclass
from functools import partial
from typing import Optional, Sequence, TextIO

from ..core.javafmt import java_double_str
from ..core.scorer import Accumulator
from ..integrations.coco import TOKENIZE_OPTIONS, pretokenize, tokenized_signature
from ..meteor15.meteor import CorpusResult, SegmentResult
from ..profiles.registry import Scorer
from .coco import coco_file_kind
from .common import (EXIT_HELP, INPUT_HELP, CorpusInput, InputError, WorkerPool, add_config_args, add_input_args,
                     build_scorer, digits, positive, score_batches, scorer_spec, seed, slim, worker_pool)

SCORE_EPILOG = f"""\
examples:
  meteor-metric score --hyp system.txt --ref ref.txt
  meteor-metric score --hyp system.txt --ref ref1.txt --ref ref2.txt --format json
  meteor-metric score --hyp pairs.jsonl --format tsv --workers 2
  cat system.txt | meteor-metric score --hyp - --ref ref.txt
  meteor-metric score --hyp system.txt --ref ref.txt --profile nltk
  meteor-metric score --hyp system.txt --ref ref.txt --profile nltk --params 0.85,0.2,0.6 --normalization split
  meteor-metric score --hyp de.txt --ref de.ref --lang de --modules exact,stem --weights 1.0,0.8

score takes one system (one --hyp); to compare systems, use 'meteor-metric compare --hyp A --hyp B'.

The defaults equal the jar's `-l en -norm`; the flags after --profile mirror the jar's
(-l -t -norm -lower -noPunct -m -w -p -x -ch -s -a) and apply to the meteor-1.5 profile.
Output (--format): text (the jar's "Segment N score:" lines and a summary), json (one object:
score, segment_scores, segment_stats = the jar's -ssOut lines, signature), tsv (segment, score,
stats per line; last line "system", score, signature).

{INPUT_HELP}
{EXIT_HELP}"""

def add_parser(commands) -> argparse.ArgumentParser:
    """Register ``score``."""
    score = commands.add_parser(
        "score", usage="meteor-metric score --hyp FILE --ref FILE [--ref FILE ...] [options]",
        help="score hypotheses against references (corpus and segment scores)",
        description="Score hypotheses against line-aligned references.",
        epilog=SCORE_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_input_args(score)
    score.add_argument("--format", choices=("text", "json", "tsv"), default="text", help="output format")
    score.add_argument("--json", dest="format", action="store_const", const="json", help="same as --format json")
    score.add_argument("-w", "--width", type=digits, metavar="N",
                       help="digits after the point in text and TSV (default: all, as the jar prints them)")
    score.add_argument("-b", "--score-only", action="store_true", help="print only the system score")
    score.add_argument("--details", action="store_true",
                       help="per segment also precision, recall, fmean, penalty and chunks (json, tsv)")
    score.add_argument("--confidence", action="store_true",
                       help="add the bootstrap 95%% confidence interval of the system score (resampled segments)")
    score.add_argument("--confidence-n", type=positive, default=1000, metavar="N",
                       help="bootstrap resamples for --confidence (default 1000)")
    score.add_argument("--seed", type=seed, default=12345, metavar="S",
                       help="random seed of --confidence (default 12345; in the signature)")
    score.add_argument("--workers", type=positive, default=1, metavar="N",
                       help="score in N processes (identical results; default 1)")
    score.add_argument("--tokenize", choices=TOKENIZE_OPTIONS, default="none",
                       help="ptb: pycocoevalcap's PTB tokenization first (COCO-style METEOR, pure Python)")
    progress = score.add_mutually_exclusive_group()
    progress.add_argument("--progress", dest="progress", action="store_true", default=None,
                          help="show a progress bar on stderr (default: for 1,000+ segments on a terminal)")
    progress.add_argument("--no-progress", dest="progress", action="store_false", help="never show one")
    add_config_args(score)
    return score


SEGMENT_FIGURES = ("precision", "recall", "fmean", "fragmentation_penalty", "chunks")


def number_text(value: float, width: Optional[int]) -> str:
    """A score as the jar prints it (``width`` None) or with ``width`` digits after the point."""
    return java_double_str(value) if width is None else f"{value:.{width}f}"


def _figures(result) -> dict:
    """Precision, recall, fmean, penalty and chunks of a segment or corpus result."""
    return {name: getattr(result, name) for name in SEGMENT_FIGURES}


@dataclass(frozen=True)
class RenderedBatch:
    """A batch of segments as the writer outputs them: ``text`` for the output stream, ``spool`` for the
    JSON spool (a stats line and the details a line), ``scores`` (JSON keeps them for ``segment_scores``)."""

    count: int
    text: str
    spool: str
    scores: array


@dataclass(frozen=True)
class SegmentFormat:
    """How ``score`` prints segments (``--format``, ``--width``, ``--details``, ``--score-only``); it pickles,
    so workers render their own batches."""

    fmt: str
    width: Optional[int] = None
    details: bool = False
    score_only: bool = False

    def render(self, first: int, segments: Sequence[SegmentResult]) -> RenderedBatch:
        """The segments numbered from ``first`` (1-based)."""
        scores = array("d")
        if self.score_only:
            return RenderedBatch(len(segments), "", "", scores)
        num = partial(number_text, width=self.width)
        if self.fmt == "json":
            scores.extend(s.score for s in segments)
            # two JSON texts a line, apart by a tab (JSON escapes tabs in strings): written out as they are
            spool = "".join(
                f'"{s.stats.to_line()}"\t'
                f'{json.dumps({"segment": n, "score": s.score, **_figures(s)}) if self.details else "null"}\n'
                for n, s in enumerate(segments, first))
            return RenderedBatch(len(segments), "", spool, scores)
        if self.fmt == "tsv":
            text = "".join(
                f"{n}\t{num(s.score)}\t{s.stats.to_line()}"
                + ("".join(f"\t{v if isinstance(v, int) else num(v)}" for v in _figures(s).values())
                   if self.details else "") + "\n"
                for n, s in enumerate(segments, first))
        else:
            text = "".join(f"Segment {n} score:\t{num(s.score)}\n" for n, s in enumerate(segments, first))
        return RenderedBatch(len(segments), text, "", scores)


@dataclass(frozen=True)
class ScoredBatch:
    """What a batch of scored pairs gives ``score`` (from a worker, or in process): the rendered segments, a
    corpus accumulator of the batch (to merge) and, with ``keep``, the segments slimmed (for
    ``--confidence``)."""

    rendered: RenderedBatch
    totals: Accumulator
    kept: Optional[list[SegmentResult]]


@dataclass(frozen=True)
class BatchDigest:
    """The digest (:func:`~.common.score_batches`) that ``score`` runs where a batch was scored."""

    layout: SegmentFormat
    keep: bool = False

    def __call__(self, scorer: Scorer, first: int, pairs: list[tuple[str, list[str]]],
                 segments: list[SegmentResult]) -> ScoredBatch:
        totals = scorer.accumulator()
        totals.add_many(segments, [len(refs) for _, refs in pairs])
        return ScoredBatch(self.layout.render(first + 1, segments), totals,
                           [slim(s) for s in segments] if self.keep else None)


class ScoreWriter:
    """Writes segment scores as they come and the system score at the end: text, JSON or TSV.

    ``width`` digits after the point in text and TSV (None: the jar's full digits); ``details`` adds
    each segment's precision, recall, fmean, penalty and chunks (JSON and TSV); ``score_only`` prints
    the system score alone. Memory: JSON keeps 8 bytes per segment (the scores) and spools the rest
    to a temporary file."""

    def __init__(self, fmt: str, out: TextIO, width: Optional[int] = None, details: bool = False,
                 score_only: bool = False):
        self.layout = SegmentFormat(fmt, width, details, score_only)
        self.fmt, self.out, self.width, self.details, self.score_only = fmt, out, width, details, score_only
        self.count = 0
        self._scores = array("d")
        self._spool = tempfile.TemporaryFile("w+", encoding="utf-8") if fmt == "json" and not score_only else None
        if fmt == "tsv" and not score_only:
            out.write("segment\tscore\tstats" + "".join(f"\t{n}" for n in SEGMENT_FIGURES if details) + "\n")

    def _num(self, value: float) -> str:
        return number_text(value, self.width)

    def write(self, batch: RenderedBatch) -> None:
        """Write segments rendered by :attr:`layout` (numbered after those written)."""
        self.count += batch.count
        self._scores.extend(batch.scores)
        if batch.spool:
            self._spool.write(batch.spool)
        if batch.text:
            self.out.write(batch.text)

    def finish(self, corpus: CorpusResult, ci: Optional[tuple[float, float]] = None) -> None:
        """The system score (with its 95% confidence interval when ``ci`` is given)."""
        out, num = self.out, self._num
        if self.score_only:
            out.write(num(corpus.score) + (f" [{num(ci[0])}, {num(ci[1])}]" if ci else "") + "\n")
        elif self.fmt == "json":
            self._finish_json(corpus, ci)
        elif self.fmt == "tsv":
            if ci:
                out.write(f"ci95\t{num(ci[0])}\t{num(ci[1])}\n")
            out.write(f"system\t{num(corpus.score)}\t{corpus.signature}\n")
        else:
            out.write(f"\nPrecision:\t{num(corpus.precision)}\n"
                      f"Recall:\t\t{num(corpus.recall)}\n"
                      f"Fmean:\t\t{num(corpus.fmean)}\n"
                      f"Penalty:\t{num(corpus.fragmentation_penalty)}\n"
                      f"Chunks:\t\t{corpus.chunks}\n"
                      f"Final score:\t{num(corpus.score)}\n"
                      + (f"95% CI:\t\t[{num(ci[0])}, {num(ci[1])}]\n" if ci else "")
                      + f"Signature:\t{corpus.signature}\n")

    def _finish_json(self, corpus: CorpusResult, ci: Optional[tuple[float, float]]) -> None:
        out = self.out
        head = {"score": corpus.score, **_figures(corpus)}
        if ci:
            head["ci95"] = list(ci)
        out.write(json.dumps(head)[:-1] + ', "segment_scores": [')
        out.write(", ".join(map(float.__repr__, self._scores)))  # json.dumps of a finite float
        for key, column in (("segment_stats", 0), ("segments", 1)):
            if column and not self.details:
                continue
            out.write(f'], "{key}": [')
            self._spool.seek(0)
            for k, lines in enumerate(iter(lambda: self._spool.readlines(1 << 20), [])):
                out.write((", " if k else "") + ", ".join(line.rstrip("\n").split("\t", 1)[column] for line in lines))
        self._spool.close()
        out.write(f'], "signature": {json.dumps(corpus.signature, ensure_ascii=False)}}}\n')


def confidence_interval(segments: list[SegmentResult], scorer: Scorer, n_samples: int,
                        seed: int) -> tuple[float, float]:
    """The bootstrap 95% CI of the system score over the segments (the significance module's
    resampling of segment statistics, one system)."""
    if len(segments) < 2:
        raise InputError(f"--confidence needs at least 2 segments, got {len(segments)}")
    from ..analysis.significance import paired_bootstrap  # numpy: only for --confidence

    result = paired_bootstrap({"system": segments}, "system", scorer, n_samples, seed)
    return result.systems["system"].ci


class _NoBar(contextlib.AbstractContextManager):
    """A progress bar not shown."""

    def __exit__(self, *exc) -> None:
        return None

    def update(self, n: int) -> None:
        pass


def progress_bar(total: int, show: bool):
    """tqdm's bar of ``total`` segments on stderr, or (not shown) a stand-in: tqdm takes 34 ms to import."""
    if not show:
        return _NoBar()
    from tqdm import tqdm

    return tqdm(total=total, unit="seg", file=sys.stderr, mininterval=0.5, desc="METEOR")


def _refuse_coco_file(hyp: str) -> None:
    """A COCO captioning JSON file given to --hyp: say to use ``coco``."""
    kind = coco_file_kind(hyp) if hyp != "-" else None
    if kind == "results":
        raise InputError(f"{hyp} is a COCO results file (a JSON list of image_id and caption): score it with "
                         f"meteor-metric coco --annotations CAPTIONS.json --results {hyp}")
    if kind == "annotations":
        raise InputError(f"{hyp} is a COCO annotations file (references): score results against it with "
                         f"meteor-metric coco --annotations {hyp} --results RESULTS.json")


def run(args, out: TextIO) -> None:
    _refuse_coco_file(args.hyp)
    spec = scorer_spec(args)
    scorer = build_scorer(spec)
    with worker_pool(spec, args.workers) as pool:  # forked helpers inherit the scorer (and share its pages)
        _score(args, out, scorer, pool)


def _score(args, out: TextIO, scorer: Scorer, pool: Optional[WorkerPool]) -> None:
    if args.confidence:
        from ..analysis.significance import sample_model

        try:
            sample_model(scorer)  # fail before any output if the configuration has no bootstrap
        except (TypeError, ValueError) as exc:
            raise InputError(f"--confidence: {exc}") from None
    corpus = CorpusInput(args)
    try:
        show = args.progress if args.progress is not None else (corpus.n_segments >= 1000 and sys.stderr.isatty())
        writer = ScoreWriter(args.format, out, args.width, args.details, args.score_only)
        totals = scorer.accumulator()
        kept: list[SegmentResult] = []
        digest = BatchDigest(writer.layout, keep=args.confidence)
        with progress_bar(corpus.n_segments, show) as bar:
            try:
                transform = None if args.tokenize == "none" else partial(pretokenize, tokenize=args.tokenize)
                pairs = corpus.pairs() if transform is None else (transform(h, r) for h, r in corpus.pairs())
                for batch in score_batches(scorer, pairs, digest, pool, total=corpus.n_segments,
                                           line_batches=partial(corpus.line_batches, transform=transform)):
                    totals.merge(batch.totals)
                    writer.write(batch.rendered)
                    if batch.kept is not None:
                        kept += batch.kept
                    bar.update(batch.rendered.count)
            except ValueError as exc:  # a segment the scorer refuses (the message names it)
                raise InputError(str(exc)) from None
        result = totals.result()
        signature = tokenized_signature(result.signature, args.tokenize)
        ci = None
        if args.confidence:
            ci = confidence_interval(kept, scorer, args.confidence_n, args.seed)
            signature += f"|ci:bs-{args.confidence_n}|seed:{args.seed}"
        writer.finish(dataclasses.replace(result, signature=signature), ci)
    finally:
        corpus.close()
