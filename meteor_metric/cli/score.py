"""``meteor-metric score``: corpus and segment scores as text, JSON or TSV."""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import tempfile
from array import array
from typing import Optional, TextIO

from tqdm import tqdm

from ..analysis.significance import paired_bootstrap, sample_model
from ..core.javafmt import java_double_str
from ..integrations.coco import TOKENIZE_OPTIONS, pretokenize, tokenized_signature
from ..meteor15.meteor import CorpusResult, SegmentResult
from ..profiles.registry import Scorer
from .coco import coco_file_kind
from .common import (EXIT_HELP, INPUT_HELP, CorpusInput, InputError, add_config_args, add_input_args, configured_scorer,
                     digits, positive, score_stream, seed, slim)

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


class ScoreWriter:
    """Writes segment scores as they come and the system score at the end: text, JSON or TSV.

    ``width`` digits after the point in text and TSV (None: the jar's full digits); ``details`` adds
    each segment's precision, recall, fmean, penalty and chunks (JSON and TSV); ``score_only`` prints
    the system score alone. Memory: JSON keeps 8 bytes per segment (the scores) and spools the rest
    to a temporary file."""

    def __init__(self, fmt: str, out: TextIO, width: Optional[int] = None, details: bool = False,
                 score_only: bool = False):
        self.fmt, self.out, self.width, self.details, self.score_only = fmt, out, width, details, score_only
        self.count = 0
        self._scores = array("d")
        self._spool = tempfile.TemporaryFile("w+", encoding="utf-8") if fmt == "json" and not score_only else None
        if fmt == "tsv" and not score_only:
            out.write("segment\tscore\tstats" + "".join(f"\t{n}" for n in SEGMENT_FIGURES if details) + "\n")

    def _num(self, value: float) -> str:
        return number_text(value, self.width)

    def segment(self, s: SegmentResult) -> None:
        self.count += 1
        if self.score_only:
            return
        if self.fmt == "json":
            self._scores.append(s.score)
            details = {"segment": self.count, "score": s.score, **_figures(s)} if self.details else None
            # two JSON texts a line, apart by a tab (JSON escapes tabs in strings): written out as they are
            self._spool.write(f"{json.dumps(s.stats.to_line())}\t{json.dumps(details)}\n")
        elif self.fmt == "tsv":
            extra = "".join(f"\t{v if isinstance(v, int) else self._num(v)}" for v in _figures(s).values()) \
                if self.details else ""
            self.out.write(f"{self.count}\t{self._num(s.score)}\t{s.stats.to_line()}{extra}\n")
        else:
            self.out.write(f"Segment {self.count} score:\t{self._num(s.score)}\n")

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
        out.write(", ".join(json.dumps(x) for x in self._scores))
        for key, column in (("segment_stats", 0), ("segments", 1)):
            if column and not self.details:
                continue
            out.write(f'], "{key}": [')
            self._spool.seek(0)
            for k, line in enumerate(self._spool):
                out.write((", " if k else "") + line.rstrip("\n").split("\t", 1)[column])
        self._spool.close()
        out.write(f'], "signature": {json.dumps(corpus.signature, ensure_ascii=False)}}}\n')


def confidence_interval(segments: list[SegmentResult], scorer: Scorer, n_samples: int,
                        seed: int) -> tuple[float, float]:
    """The bootstrap 95% CI of the system score over the segments (the significance module's
    resampling of segment statistics, one system)."""
    if len(segments) < 2:
        raise InputError(f"--confidence needs at least 2 segments, got {len(segments)}")
    result = paired_bootstrap({"system": segments}, "system", scorer, n_samples, seed)
    return result.systems["system"].ci


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
    spec, scorer = configured_scorer(args)
    if args.confidence:
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
        with tqdm(total=corpus.n_segments, unit="seg", file=sys.stderr, disable=not show, mininterval=0.5,
                  desc="METEOR") as bar:
            try:
                pairs = (pretokenize(h, r, args.tokenize) for h, r in corpus.pairs())
                for segment, n_refs in score_stream(spec, scorer, pairs, args.workers):
                    totals.add(segment, n_refs)
                    writer.segment(segment)
                    if args.confidence:
                        kept.append(slim(segment))
                    bar.update()
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
