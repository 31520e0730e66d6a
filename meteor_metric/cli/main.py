"""Command line: ``meteor-metric score`` and ``meteor-metric align``."""

from __future__ import annotations

import argparse
import dataclasses
import difflib
import json
import multiprocessing
import os
import re
import shutil
import sys
import tempfile
import warnings
from array import array
from collections import deque
from typing import Iterable, Iterator, Optional, Sequence, TextIO

from tqdm import tqdm

from ..version import __version__
from ..analysis import compare
from ..analysis.alignment_view import alignment_text, chunk_ids
from ..core.corpus_io import FORMATS, CorpusFormatError, LineCountError, iter_lines, iter_pairs, line_count_hints
from ..core.javafmt import java_double_str
from ..meteor15.meteor import BATCH_SIZE, MAX_SEGMENT_TOKENS, CorpusResult, Meteor, SegmentResult
from ..meteor15.params import LANGUAGE_NAMES, TASKS, normalization_mode, resolve_params
from ..profiles.registry import Scorer, scorer_for
from ..profiles.original import DEFAULT_SEARCH_BUDGET
from ..profiles.spec import DEFAULT_PROFILE, NORMALIZATIONS, PROFILES, ScorerSpec
from . import tune as tune_cli
from ..integrations.coco import TOKENIZE_OPTIONS, pretokenize, tokenized_signature
from ..analysis.significance import paired_bootstrap
from ..analysis.tuning import TuningWarning
from .messages import cli_message

EXIT_OK = 0
EXIT_ERROR = 1  # a resource could not be loaded or another runtime failure
EXIT_USAGE = 2  # bad flags or bad input files

INPUT_HELP = """\
input: --hyp FILE (or - for standard input) and one --ref FILE per reference set, line-aligned;
  or one JSONL/TSV file that holds both (--input-format, guessed from the file name):
    text   one segment per line; lines end at \\n, \\r or \\r\\n (as Java reads them)
    jsonl  {"hypothesis": "...", "references": ["...", "..."]} per line (or a JSON string per
           line, with references from --ref files holding a string or a list per line)
    tsv    hypothesis<TAB>reference[<TAB>reference ...] per line
  Files are UTF-8; a byte-order mark at the start is dropped.
"""
EXIT_HELP = """\
exit status: 0 success; 1 runtime failure (e.g. a resource could not be loaded);
2 bad usage or bad input (the message on stderr names the file and line).
"""
SCORE_EPILOG = f"""\
examples:
  meteor-metric score --hyp system.txt --ref ref.txt
  meteor-metric score --hyp system.txt --ref ref1.txt --ref ref2.txt --format json
  meteor-metric score --hyp pairs.jsonl --format tsv --workers 2
  cat system.txt | meteor-metric score --hyp - --ref ref.txt
  meteor-metric score --hyp system.txt --ref ref.txt --profile nltk
  meteor-metric score --hyp de.txt --ref de.ref --lang de --modules exact,stem --weights 1.0,0.8

The defaults equal the jar's `-l en -norm`; the flags after --profile mirror the jar's
(-l -t -norm -lower -noPunct -m -w -p -x -ch -s -a) and apply to the meteor-1.5 profile.
Output (--format): text (the jar's "Segment N score:" lines and a summary), json (one object:
score, segment_scores, segment_stats = the jar's -ssOut lines, signature), tsv (segment, score,
stats per line; last line "system", score, signature).

{INPUT_HELP}
{EXIT_HELP}"""
ALIGN_EPILOG = f"""\
examples:
  meteor-metric align --hyp system.txt --ref ref.txt | less
  meteor-metric align --hyp pairs.tsv --segments 3-5 --format json

Each segment shows its score and parts, the tokens METEOR aligned, and one line per match:
its chunk (a run of matches adjacent in both sentences), module, positions and words; then the
words left unmatched (the information of the jar's -writeAlignments, readable).

{INPUT_HELP}
{EXIT_HELP}"""



class InputError(Exception):
    """A problem with the user's files or flags; reported without a traceback."""


def _csv(value: str) -> list[str]:
    items = [v.strip() for v in value.split(",")]
    if not all(items):
        raise argparse.ArgumentTypeError(f"expected a comma-separated list, got {value!r}")
    return items


def _floats(value: str) -> list[float]:
    try:
        return [float(v) for v in _csv(value)]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected comma-separated numbers, got {value!r}") from None


def _positive(value: str) -> int:
    try:
        n = int(value)
    except ValueError:
        n = 0
    if n < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number >= 1, got {value!r}")
    return n


def _digits(value: str) -> int:
    try:
        n = int(value)
    except ValueError:
        n = -1
    if not 0 <= n <= 17:
        raise argparse.ArgumentTypeError(f"expected a number of digits from 0 to 17, got {value!r}")
    return n


def _seed(value: str) -> int:
    try:
        seed = int(value)
    except ValueError:
        seed = -1
    if seed < 0:
        raise argparse.ArgumentTypeError(f"expected a whole number >= 0, got {value!r}")
    return seed


def _add_input_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--hyp", required=True, metavar="FILE", help="hypotheses (- for standard input)")
    p.add_argument("--ref", action="append", default=[], metavar="FILE",
                   help="references, line-aligned with --hyp; repeat for several reference sets")
    p.add_argument("--input-format", choices=("auto",) + FORMATS, default="auto",
                   help="text, jsonl or tsv (default: from the --hyp file name, else text)")


def _add_config_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--profile", choices=PROFILES, default=DEFAULT_PROFILE,
                   help="meteor-1.5 (default, the jar), nltk (NLTK / HF evaluate 'meteor'), "
                        "original (Banerjee & Lavie 2005); the flags below are for meteor-1.5")
    p.add_argument("--lang", metavar="LANG",
                   help=f"language (-l): {', '.join(sorted(LANGUAGE_NAMES))} (default en)")
    p.add_argument("--task", choices=[t for t in TASKS if t != "custom"],
                   help="task preset (-t); default rank for en cz fr es de ru, li otherwise")
    norm = p.add_mutually_exclusive_group()
    norm.add_argument("--norm", dest="norm", action="store_true", default=None,
                      help="tokenize and lowercase like the jar's -norm (default)")
    norm.add_argument("--no-norm", dest="norm", action="store_false", help="no tokenization")
    p.add_argument("--lower", action="store_true", help="lowercase only (-lower; with --no-norm)")
    p.add_argument("--no-punct", action="store_true", help="drop punctuation (-noPunct; needs --norm)")
    p.add_argument("--normalization", choices=sorted({m for modes in NORMALIZATIONS.values() for m in modes}),
                   metavar="MODE", help="any normalization by name instead of the jar-style flags above: "
                   + "; ".join(f"{profile}: {', '.join(modes)}" for profile, modes in NORMALIZATIONS.items())
                   + " (norm_ext, norm_ext_nopunct, cjk_char: extensions for languages the jar cannot -norm)")
    p.add_argument("--synonyms", metavar="SOURCE",
                   help="omw or omw:<iso-639-3>: Open Multilingual Wordnet synonyms for other languages (extension)")
    p.add_argument("--modules", type=_csv, metavar="LIST", help="matchers (-m), e.g. exact,stem,synonym,paraphrase")
    p.add_argument("--weights", type=_floats, metavar="LIST", help="one weight per module (-w)")
    p.add_argument("--params", type=_floats, metavar="A,B,G,D",
                   help="alpha,beta,gamma,delta (-p); makes the task custom")
    p.add_argument("--beam", type=int, metavar="N", help="beam size (-x, default 40)")
    p.add_argument("--char", action="store_true", help="character-based lengths (-ch)")
    p.add_argument("--function-words", metavar="FILE", help="function-word list (-s)")
    p.add_argument("--paraphrase-table", metavar="FILE",
                   help="paraphrase table in METEOR's format (-a); default: found automatically")
    p.add_argument("--max-tokens", type=int, metavar="N",
                   help=f"longest segment in tokens (default {MAX_SEGMENT_TOKENS:,}; 0: no limit); alignment time "
                        "grows with the square of the length")
    p.add_argument("--params-file", metavar="FILE", help="a preset file from 'meteor-metric tune'")
    p.add_argument("--fragmentation", choices=("chunks", "crossings"),
                   help="order penalty from chunks (default, METEOR) or crossing match pairs (extension)")
    p.add_argument("--similarity-threshold", type=float, metavar="X",
                   help="least WordNet path similarity of the wn_similarity module (default 0.85)")
    p.add_argument("--search-budget", type=_positive, metavar="N",
                   help="original profile: most states one exact alignment search may visit before the segment "
                        f"is refused (default {DEFAULT_SEARCH_BUDGET:,})")


class Parser(argparse.ArgumentParser):
    """argparse that suggests the closest flag or choice for a typo (Python 3.14's suggest_on_error)."""

    option_names: set[str] = set()  # every flag of every command (parsers of one CLI share it)

    def add_argument(self, *names, **kwargs):
        Parser.option_names.update(n for n in names if n.startswith("--"))
        return super().add_argument(*names, **kwargs)

    def error(self, message: str):
        unknown = re.search(r"unrecognized arguments: (\S+)", message)
        choice = re.search(r"invalid choice: '([^']*)' \(choose from (.*)\)", message)
        if unknown:
            close = difflib.get_close_matches(unknown.group(1).split("=")[0], sorted(Parser.option_names), 1)
        elif choice:
            close = difflib.get_close_matches(choice.group(1), re.findall(r"'([^']*)'", choice.group(2)), 1)
        else:
            close = []
        super().error(message + (f" (did you mean {close[0]}?)" if close else ""))


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="meteor-metric", description="METEOR 1.5, exact with the Java reference, in pure Python.",
        epilog="Run 'meteor-metric COMMAND --help' for a command's options and examples.\n\n" + EXIT_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"meteor-metric {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    score = commands.add_parser(
        "score", help="score hypotheses against references (corpus and segment scores)",
        description="Score hypotheses against line-aligned references.",
        epilog=SCORE_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    _add_input_args(score)
    score.add_argument("--format", choices=("text", "json", "tsv"), default="text", help="output format")
    score.add_argument("--json", dest="format", action="store_const", const="json", help="same as --format json")
    score.add_argument("-w", "--width", type=_digits, metavar="N",
                       help="digits after the point in text and TSV (default: all, as the jar prints them)")
    score.add_argument("-b", "--score-only", action="store_true", help="print only the system score")
    score.add_argument("--details", action="store_true",
                       help="per segment also precision, recall, fmean, penalty and chunks (json, tsv)")
    score.add_argument("--confidence", action="store_true",
                       help="add the bootstrap 95%% confidence interval of the system score (resampled segments)")
    score.add_argument("--confidence-n", type=_positive, default=1000, metavar="N",
                       help="bootstrap resamples for --confidence (default 1000)")
    score.add_argument("--seed", type=_seed, default=12345, metavar="S",
                       help="random seed of --confidence (default 12345; in the signature)")
    score.add_argument("--workers", type=_positive, default=1, metavar="N",
                       help="score in N processes (identical results; default 1)")
    score.add_argument("--tokenize", choices=TOKENIZE_OPTIONS, default="none",
                       help="ptb: pycocoevalcap's PTB tokenization first (COCO-style METEOR, pure Python)")
    progress = score.add_mutually_exclusive_group()
    progress.add_argument("--progress", dest="progress", action="store_true", default=None,
                          help="show a progress bar on stderr (default: for 1,000+ segments on a terminal)")
    progress.add_argument("--no-progress", dest="progress", action="store_false", help="never show one")
    _add_config_args(score)
    align = commands.add_parser(
        "align", help="print each segment's alignment in a readable form",
        description="Show how METEOR aligned each hypothesis with its best reference.",
        epilog=ALIGN_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    _add_input_args(align)
    align.add_argument("--format", choices=("text", "json"), default="text", help="output format")
    align.add_argument("--segments", metavar="RANGE", help="only these segments, e.g. 7 or 3-5 (1-based)")
    _add_config_args(align)
    compare.add_parsers(commands)
    tune_cli.add_parser(commands)
    return parser


# -- configuration -----------------------------------------------------------------------------

def scorer_spec(args) -> ScorerSpec:
    """The scorer the flags describe (checked by :class:`ScorerSpec`; sent to worker processes)."""
    jar_style = args.norm is False or args.lower or args.no_punct
    if args.normalization is not None and jar_style:
        raise InputError("--normalization replaces --no-norm, --lower and --no-punct: give one or the other")
    if args.no_punct and args.norm is False:
        raise InputError("--no-punct only works with --norm (the jar silently ignores it otherwise)")
    if args.lower and args.norm is not False:
        raise InputError("--lower is for use with --no-norm (--norm already lowercases)")
    if args.max_tokens is not None and args.max_tokens < 0:
        raise InputError(f"--max-tokens must be 0 (no limit) or more, got {args.max_tokens}")
    options = {"language": args.lang, "task": args.task, "modules": args.modules, "weights": args.weights,
               "parameters": args.params, "char_based": args.char or None, "beam_size": args.beam,
               "function_words": args.function_words, "paraphrase_table": args.paraphrase_table,
               "synonyms": args.synonyms, "params_file": args.params_file, "fragmentation": args.fragmentation,
               "similarity_threshold": args.similarity_threshold, "search_budget": args.search_budget,
               "max_segment_tokens": None if args.max_tokens is None else args.max_tokens or False,
               "normalization": normalization_mode(args.norm is not False, args.lower, args.no_punct)
               if jar_style else args.normalization}
    given = {k: v for k, v in options.items() if v is not None}
    if given.get("max_segment_tokens") is False:
        given["max_segment_tokens"] = None  # --max-tokens 0: no limit
    try:
        return ScorerSpec(args.profile, **given)
    except ValueError as exc:
        raise InputError(str(exc)) from None


def configured_scorer(args) -> tuple[ScorerSpec, Scorer]:
    """The flags' scorer spec and its shared scorer."""
    spec = scorer_spec(args)
    try:
        return spec, scorer_for(spec)
    except ValueError as exc:
        raise InputError(str(exc)) from None


# -- input ---------------------------------------------------------------------------------------

def _sniff(path: str, has_refs: bool) -> str:
    """The format of a file whose name does not say: JSONL if its first line is a JSON object, TSV if
    it has a tab and no --ref is given, else text."""
    try:
        first = next((line for line in iter_lines(path) if line.strip()), "")
    except CorpusFormatError:
        return "text"  # the full read reports the problem
    if first.lstrip().startswith("{"):
        try:
            if isinstance(json.loads(first), dict):
                return "jsonl"
        except json.JSONDecodeError:
            pass
    return "tsv" if "\t" in first and not has_refs else "text"


class CorpusInput:
    """The corpus the flags name, checked in a first pass, then streamed as often as needed.

    Standard input is copied to a temporary file first, so it can be read twice. With
    ``--input-format auto`` the format comes from the file name (.jsonl, .tsv), else from the
    first line (a JSON object: jsonl; a tab and no --ref: tsv), else text."""

    def __init__(self, args, hyp: Optional[str] = None):
        hyp = args.hyp if hyp is None else hyp
        self.ref_paths = list(args.ref)
        self._spool = None
        if hyp == "-":
            self._spool = tempfile.NamedTemporaryFile(prefix="meteor-stdin-", delete=False)
            shutil.copyfileobj(sys.stdin.buffer, self._spool)
            self._spool.close()
        self.hyp_path = self._spool.name if self._spool else hyp
        self.hyp_name = "<stdin>" if self._spool else hyp
        self.fmt = args.input_format
        if self.fmt == "auto":
            name = hyp.lower()
            self.fmt = "jsonl" if name.endswith(".jsonl") else "tsv" if name.endswith(".tsv") else \
                _sniff(self.hyp_path, bool(self.ref_paths))
        if self.fmt == "text" and not self.ref_paths:
            self.close()
            raise InputError(f"{self.hyp_name} is read as plain text, which needs at least one --ref FILE; if it "
                             "holds the references too, say how: --input-format jsonl or --input-format tsv")
        self.n_segments = self._check()

    def _check(self) -> int:
        """Read and parse every line once (encoding, format, line counts), so errors come before any output."""
        try:
            n = sum(1 for _ in self.pairs())
        except LineCountError as exc:
            hints = [h for path, name in [(self.hyp_path, self.hyp_name), *zip(self.ref_paths, self.ref_paths)]
                     for h in line_count_hints(path, name)]
            self.close()
            raise InputError("; ".join([str(exc).replace(self.hyp_path, self.hyp_name), *hints])) from None
        except CorpusFormatError as exc:
            self.close()
            raise InputError(str(exc).replace(self.hyp_path, self.hyp_name)) from None
        if n == 0:
            self.close()
            raise InputError(f"{self.hyp_name} is empty: nothing to score")
        return n

    def pairs(self) -> Iterator[tuple[str, list[str]]]:
        return iter_pairs(iter_lines(self.hyp_path), [iter_lines(p) for p in self.ref_paths], self.fmt,
                          self.hyp_name, self.ref_paths)

    def close(self) -> None:
        if self._spool is not None and os.path.exists(self._spool.name):
            os.unlink(self._spool.name)


# -- scoring -------------------------------------------------------------------------------------

_worker_scorer: Optional[Scorer] = None


def _init_worker(spec: ScorerSpec) -> None:
    global _worker_scorer
    _worker_scorer = scorer_for(spec)


def _slim(segment: SegmentResult) -> SegmentResult:
    """The segment without tokens and alignment (what scoring output needs, in less memory)."""
    return dataclasses.replace(segment, alignment=(), hyp_tokens=(), ref_tokens=())


def _score_batch(start: int, batch: list[tuple[str, list[str]]]) -> list[SegmentResult]:
    """Scored segments, slimmed for the trip back to the parent process."""
    return [_slim(s) for s in _worker_scorer.score_pairs(batch, start + 1)]


def _batches(pairs: Iterable[tuple[str, list[str]]], size: int) -> Iterator[list[tuple[str, list[str]]]]:
    batch = []
    for pair in pairs:
        batch.append(pair)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch


def score_stream(spec: ScorerSpec, scorer: Scorer, pairs: Iterable[tuple[str, list[str]]], workers: int = 1,
                 batch_size: int = 200) -> Iterator[tuple[SegmentResult, int]]:
    """(segment result, number of references) in input order, from one or several processes (their
    results come without tokens and alignments). One process scores ``BATCH_SIZE`` segments at a
    time (:meth:`score_pairs`); with workers, batches of ``batch_size`` go to the pool and at most
    ``4 * workers`` are in flight. Either way memory stays bounded."""
    if workers == 1:
        for b, batch in enumerate(_batches(pairs, BATCH_SIZE)):
            yield from zip(scorer.score_pairs(batch, b * BATCH_SIZE + 1), [len(r) for _, r in batch])
        return
    with multiprocessing.get_context().Pool(workers, initializer=_init_worker, initargs=(spec,)) as pool:
        pending: deque = deque()
        for b, batch in enumerate(_batches(pairs, batch_size)):
            pending.append((pool.apply_async(_score_batch, (b * batch_size, batch)), [len(r) for _, r in batch]))
            if len(pending) >= 4 * workers:
                result, n_refs = pending.popleft()
                yield from zip(result.get(), n_refs)
        while pending:
            result, n_refs = pending.popleft()
            yield from zip(result.get(), n_refs)


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
            record = [s.stats.to_line(), {"segment": self.count, "score": s.score, **_figures(s)} if self.details
                      else None]
            self._spool.write(json.dumps(record) + "\n")
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
                out.write((", " if k else "") + json.dumps(json.loads(line)[column]))
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


def run_score(args, out: TextIO) -> None:
    spec, scorer = configured_scorer(args)
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
                        kept.append(_slim(segment))
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


# -- alignments ----------------------------------------------------------------------------------

def _segment_range(text: Optional[str], n: int) -> range:
    if text is None:
        return range(n)
    first, _, last = text.partition("-")
    try:
        lo, hi = int(first), int(last or first)
    except ValueError:
        raise InputError(f"--segments takes N or N-M, got {text!r}") from None
    if not 1 <= lo <= hi <= n:
        raise InputError(f"--segments {text} is outside 1-{n}")
    return range(lo - 1, hi)


def run_align(args, out: TextIO) -> None:
    _, scorer = configured_scorer(args)
    corpus = CorpusInput(args)
    try:
        wanted = _segment_range(args.segments, corpus.n_segments)
        modules = scorer.modules
        records = []
        for k, (hyp, refs) in enumerate(corpus.pairs()):
            if k < wanted.start:
                continue
            if k >= wanted.stop:
                break
            try:
                s = scorer.sentence_score(hyp, refs)
            except ValueError as exc:
                raise InputError(f"segment {k + 1}: {exc}") from None
            if args.format == "json":
                records.append({
                    "segment": k + 1, "score": s.score, "precision": s.precision, "recall": s.recall,
                    "fmean": s.fmean, "fragmentation_penalty": s.fragmentation_penalty, "chunks": s.chunks,
                    "best_ref": s.best_ref + 1, "hyp_tokens": list(s.hyp_tokens), "ref_tokens": list(s.ref_tokens),
                    "alignment": [dict(m._asdict(), module=modules[m.module], chunk=c + 1)
                                  for m, c in zip(s.alignment, chunk_ids(s.alignment))],
                })
                continue
            out.write(f"Segment {k + 1}: score {java_double_str(s.score)}  P {s.precision:.4f}  "
                      f"R {s.recall:.4f}  Fmean {s.fmean:.4f}  penalty {s.fragmentation_penalty:.4f}  "
                      f"chunks {s.chunks}  reference {s.best_ref + 1} of {len(refs)}\n"
                      f"  hyp: {' '.join(s.hyp_tokens)}\n  ref: {' '.join(s.ref_tokens)}\n"
                      f"{alignment_text(s.hyp_tokens, s.ref_tokens, s.alignment, modules)}\n\n")
        if args.format == "json":
            json.dump({"signature": scorer.signature, "segments": records}, out, ensure_ascii=False)
            out.write("\n")
    finally:
        corpus.close()


def _paraphrase_free_modules(args) -> Optional[str]:
    """The flags' modules without paraphrase, as a --modules value (for the missing-table message)."""
    try:
        modules = args.modules or resolve_params(args.lang or "en", args.task).modules
    except (AttributeError, ValueError):
        return None
    return ",".join(m for m in modules if m != "paraphrase") or None


def _report(kind: str, message: str, args) -> None:
    print(f"meteor-metric: {kind}: {cli_message(message, _paraphrase_free_modules(args))}", file=sys.stderr)


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("always", TuningWarning)
            warnings.showwarning = lambda message, *_: _report("warning", str(message), args)
            if args.command == "score":
                run_score(args, sys.stdout)
            elif args.command == "align":
                run_align(args, sys.stdout)
            elif args.command in compare.COMMANDS:
                compare.run(args, sys.stdout)
            elif args.command == "tune":
                tune_cli.run_cli(args, sys.stdout, InputError)
            sys.stdout.flush()  # a closed pipe shows here, not at interpreter exit
    except BrokenPipeError:  # the reader stopped (e.g. | head): end quietly, like other Unix filters
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK
    except InputError as exc:
        _report("error", str(exc), args)
        return EXIT_USAGE
    except (OSError, RuntimeError) as exc:
        _report("error", str(exc), args)
        return EXIT_ERROR
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
