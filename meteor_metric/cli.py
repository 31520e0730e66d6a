"""Command line: ``meteor-metric score`` and ``meteor-metric align``."""

from __future__ import annotations

import argparse
import dataclasses
import json
import multiprocessing
import os
import shutil
import sys
import tempfile
from array import array
from collections import deque
from typing import Iterable, Iterator, Optional, Sequence, TextIO

from tqdm import tqdm

from . import __version__, compare
from .alignment_view import alignment_text, chunk_ids
from .corpus_io import FORMATS, CorpusFormatError, iter_lines, iter_pairs
from .javafmt import java_double_str
from .meteor import BATCH_SIZE, MAX_SEGMENT_TOKENS, CorpusResult, Meteor, SegmentResult
from .params import LANGUAGE_NAMES, TASKS, normalization_mode, resolve_params
from .profiles import DEFAULT_PROFILE, NORMALIZATIONS, PROFILES, Scorer, get_scorer
from . import tune_cli
from .coco import TOKENIZE_OPTIONS, pretokenize, tokenized_signature

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
  meteor-metric score --hyp system.txt --ref ref.txt --profile nltk --params 0.85,0.2,0.6 --nltk-tokenizer split
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

_JAR_FLAGS = ("lang", "task", "lower", "no_punct", "modules", "weights", "params", "char",
              "function_words", "paraphrase_table", "params_file", "fragmentation", "similarity_threshold")


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
    p.add_argument("--lang", default="en", metavar="LANG",
                   help=f"language (-l): {', '.join(sorted(LANGUAGE_NAMES))} (default en)")
    p.add_argument("--task", choices=[t for t in TASKS if t != "custom"],
                   help="task preset (-t); default rank for en cz fr es de ru, li otherwise")
    norm = p.add_mutually_exclusive_group()
    norm.add_argument("--norm", dest="norm", action="store_true", default=True,
                      help="tokenize and lowercase like the jar's -norm (default)")
    norm.add_argument("--no-norm", dest="norm", action="store_false", help="no tokenization")
    p.add_argument("--lower", action="store_true", help="lowercase only (-lower; with --no-norm)")
    p.add_argument("--no-punct", action="store_true", help="drop punctuation (-noPunct; needs --norm)")
    p.add_argument("--modules", type=_csv, metavar="LIST", help="matchers (-m), e.g. exact,stem,synonym,paraphrase")
    p.add_argument("--weights", type=_floats, metavar="LIST", help="one weight per module (-w)")
    p.add_argument("--params", type=_floats, metavar="A,B,G,D",
                   help="alpha,beta,gamma,delta (-p); makes the task custom; --profile nltk: alpha,beta,gamma")
    p.add_argument("--nltk-tokenizer", choices=NORMALIZATIONS["nltk"], default=NORMALIZATIONS["nltk"][0],
                   help="--profile nltk: word_tokenize (default, nltk.word_tokenize with Punkt sentence splitting, "
                        "as HF's meteor), word_tokenize_line (preserve_line=True) or split (str.split)")
    p.add_argument("--beam", type=int, default=40, metavar="N", help="beam size (-x, default 40)")
    p.add_argument("--char", action="store_true", help="character-based lengths (-ch)")
    p.add_argument("--function-words", metavar="FILE", help="function-word list (-s)")
    p.add_argument("--paraphrase-table", metavar="FILE",
                   help="paraphrase table in METEOR's format (-a); default: found automatically")
    p.add_argument("--max-tokens", type=int, default=MAX_SEGMENT_TOKENS, metavar="N",
                   help=f"longest segment in tokens (default {MAX_SEGMENT_TOKENS:,}; 0: no limit); alignment time "
                        "grows with the square of the length")
    p.add_argument("--params-file", metavar="FILE", help="a preset file from 'meteor-metric tune'")
    p.add_argument("--fragmentation", choices=("chunks", "crossings"),
                   help="order penalty from chunks (default, METEOR) or crossing match pairs (extension)")
    p.add_argument("--similarity-threshold", type=float, metavar="X",
                   help="least WordNet path similarity of the wn_similarity module (default 0.85)")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
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

def _scorer_spec(args) -> tuple:
    """A picklable description of the scorer (rebuilt in worker processes)."""
    if args.nltk_tokenizer != NORMALIZATIONS["nltk"][0] and args.profile != "nltk":
        raise InputError(f"--nltk-tokenizer is an nltk profile option; it does not apply to --profile {args.profile}")
    if args.profile != "meteor-1.5":
        own = ("params",) if args.profile == "nltk" else ()
        given = [f for f in _JAR_FLAGS if f not in own and getattr(args, f) not in (None, False, "en")]
        if given or not args.norm or args.beam != 40 or args.max_tokens != MAX_SEGMENT_TOKENS:
            flag = "--" + (given[0] if given else "no-norm" if not args.norm else "beam" if args.beam != 40
                           else "max-tokens").replace("_", "-")
            raise InputError(f"{flag} is a METEOR 1.5 option; it does not apply to --profile {args.profile}")
        if args.profile == "nltk":
            if args.params is not None and len(args.params) != 3:
                raise InputError(f"--params for --profile nltk is alpha,beta,gamma (3 numbers), "
                                 f"got {len(args.params)}")
            return ("nltk", args.nltk_tokenizer, tuple(args.params or (None, None, None)))
        return (args.profile,)
    if args.no_punct and not args.norm:
        raise InputError("--no-punct only works with --norm (the jar silently ignores it otherwise)")
    if args.lower and args.norm:
        raise InputError("--lower is for use with --no-norm (--norm already lowercases)")
    try:
        params = resolve_params(
            args.lang, args.task, modules=args.modules, weights=args.weights, parameters=args.params,
            normalization=normalization_mode(args.norm, args.lower, args.no_punct), char_based=args.char,
            beam_size=args.beam, function_words=args.function_words, paraphrase_table=args.paraphrase_table,
            params_file=args.params_file, **{k: v for k, v in (("fragmentation", args.fragmentation), (
                "similarity_threshold", args.similarity_threshold)) if v is not None})
    except ValueError as exc:
        raise InputError(str(exc)) from None
    if args.max_tokens < 0:
        raise InputError(f"--max-tokens must be 0 (no limit) or more, got {args.max_tokens}")
    return ("meteor-1.5", params, args.max_tokens or None)


def _build_scorer(spec: tuple) -> Scorer:
    if spec[0] == "meteor-1.5":
        return Meteor.from_params(spec[1], max_segment_tokens=spec[2])
    if spec[0] == "nltk":
        alpha, beta, gamma = spec[2]
        return get_scorer("nltk", normalization=spec[1], alpha=alpha, beta=beta, gamma=gamma)
    return get_scorer(spec[0])


def _configured_scorer(args) -> tuple[tuple, Scorer]:
    spec = _scorer_spec(args)
    try:
        return spec, _build_scorer(spec)
    except ValueError as exc:
        raise InputError(str(exc)) from None


# -- input ---------------------------------------------------------------------------------------

def _input_format(args) -> str:
    if args.input_format != "auto":
        return args.input_format
    name = args.hyp.lower()
    return "jsonl" if name.endswith(".jsonl") else "tsv" if name.endswith(".tsv") else "text"


class CorpusInput:
    """The corpus the flags name, checked in a first pass, then streamed as often as needed.

    Standard input is copied to a temporary file first, so it can be read twice."""

    def __init__(self, args):
        self.fmt = _input_format(args)
        self.ref_paths = list(args.ref)
        self._spool = None
        if args.hyp == "-":
            self._spool = tempfile.NamedTemporaryFile(prefix="meteor-stdin-", delete=False)
            shutil.copyfileobj(sys.stdin.buffer, self._spool)
            self._spool.close()
        self.hyp_path = self._spool.name if self._spool else args.hyp
        self.hyp_name = "<stdin>" if self._spool else args.hyp
        self.n_segments = self._check()

    def _check(self) -> int:
        """Read and parse every line once (encoding, format, line counts), so errors come before any output."""
        try:
            n = sum(1 for _ in self.pairs())
        except CorpusFormatError as exc:
            raise InputError(str(exc).replace(self.hyp_path, self.hyp_name)) from None
        if n == 0:
            raise InputError(f"{self.hyp_name} is empty: nothing to score")
        return n

    def pairs(self) -> Iterator[tuple[str, list[str]]]:
        return iter_pairs(iter_lines(self.hyp_path), [iter_lines(p) for p in self.ref_paths], self.fmt,
                          self.hyp_name, self.ref_paths)

    def close(self) -> None:
        if self._spool is not None:
            os.unlink(self._spool.name)


# -- scoring -------------------------------------------------------------------------------------

_worker_scorer: Optional[Scorer] = None


def _init_worker(spec: tuple) -> None:
    global _worker_scorer
    _worker_scorer = _build_scorer(spec)


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


def score_stream(spec: tuple, scorer: Scorer, pairs: Iterable[tuple[str, list[str]]], workers: int = 1,
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


class ScoreWriter:
    """Writes segment scores as they come and the system score at the end: text, JSON or TSV.

    Memory: JSON keeps 8 bytes per segment (the scores) and spools the stats lines to a temporary file."""

    def __init__(self, fmt: str, out: TextIO):
        self.fmt, self.out = fmt, out
        self.count = 0
        self._scores = array("d")
        self._stats = tempfile.TemporaryFile("w+", encoding="utf-8") if fmt == "json" else None
        if fmt == "tsv":
            out.write("segment\tscore\tstats\n")

    def segment(self, s: SegmentResult) -> None:
        self.count += 1
        if self.fmt == "json":
            self._scores.append(s.score)
            self._stats.write(json.dumps(s.stats.to_line()) + "\n")
        elif self.fmt == "tsv":
            self.out.write(f"{self.count}\t{java_double_str(s.score)}\t{s.stats.to_line()}\n")
        else:
            self.out.write(f"Segment {self.count} score:\t{java_double_str(s.score)}\n")

    def finish(self, corpus: CorpusResult) -> None:
        out = self.out
        if self.fmt == "json":
            out.write(f'{{"score": {json.dumps(corpus.score)}, "segment_scores": [')
            out.write(", ".join(json.dumps(x) for x in self._scores))
            out.write('], "segment_stats": [')
            self._stats.seek(0)
            for k, line in enumerate(self._stats):
                out.write((", " if k else "") + line.rstrip("\n"))
            self._stats.close()
            out.write(f'], "signature": {json.dumps(corpus.signature, ensure_ascii=False)}}}\n')
        elif self.fmt == "tsv":
            out.write(f"system\t{java_double_str(corpus.score)}\t{corpus.signature}\n")
        else:
            out.write(f"\nPrecision:\t{java_double_str(corpus.precision)}\n"
                      f"Recall:\t\t{java_double_str(corpus.recall)}\n"
                      f"Fmean:\t\t{java_double_str(corpus.fmean)}\n"
                      f"Penalty:\t{java_double_str(corpus.fragmentation_penalty)}\n"
                      f"Chunks:\t\t{corpus.chunks}\n"
                      f"Final score:\t{java_double_str(corpus.score)}\n"
                      f"Signature:\t{corpus.signature}\n")


def run_score(args, out: TextIO) -> None:
    spec, scorer = _configured_scorer(args)
    corpus = CorpusInput(args)
    try:
        show = args.progress if args.progress is not None else (corpus.n_segments >= 1000 and sys.stderr.isatty())
        writer = ScoreWriter(args.format, out)
        totals = scorer.accumulator()
        with tqdm(total=corpus.n_segments, unit="seg", file=sys.stderr, disable=not show, mininterval=0.5,
                  desc="METEOR") as bar:
            try:
                pairs = (pretokenize(h, r, args.tokenize) for h, r in corpus.pairs())
                for segment, n_refs in score_stream(spec, scorer, pairs, args.workers):
                    totals.add(segment, n_refs)
                    writer.segment(segment)
                    bar.update()
            except ValueError as exc:  # a segment the scorer refuses (the message names it)
                raise InputError(str(exc)) from None
        result = totals.result()
        writer.finish(dataclasses.replace(result, signature=tokenized_signature(result.signature, args.tokenize)))
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
    _, scorer = _configured_scorer(args)
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
                    "best_ref": s.best_ref, "hyp_tokens": list(s.hyp_tokens), "ref_tokens": list(s.ref_tokens),
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


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        if args.command == "score":
            run_score(args, sys.stdout)
        elif args.command == "align":
            run_align(args, sys.stdout)
        elif args.command in compare.COMMANDS:
            compare.run(args, sys.stdout)
        elif args.command == "tune":
            tune_cli.run_cli(args, sys.stdout, InputError)
    except InputError as exc:
        print(f"meteor-metric: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except (OSError, RuntimeError) as exc:
        print(f"meteor-metric: error: {exc}", file=sys.stderr)
        return EXIT_ERROR
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
