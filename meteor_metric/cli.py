"""Command line: ``meteor-metric score --hyp FILE --ref FILE [--ref FILE ...]``."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Optional, Sequence

from . import __version__
from .javafmt import java_double_str, java_split_lines
from .meteor import Meteor, check_corpus
from .params import LANGUAGE_NAMES, TASKS, normalization_mode
from .profiles import DEFAULT_PROFILE, PROFILES, get_scorer
from .stats import MeteorStats

EXIT_OK = 0
EXIT_ERROR = 1  # a resource could not be loaded or another runtime failure
EXIT_USAGE = 2  # bad flags or bad input files

SCORE_EPILOG = """\
examples:
  meteor-metric score --hyp system.txt --ref ref.txt
  meteor-metric score --hyp system.txt --ref ref1.txt --ref ref2.txt --json
  meteor-metric score --hyp system.txt --ref ref.txt --modules exact,stem --weights 1.0,0.8
  meteor-metric score --hyp de.txt --ref de.ref --lang de --modules exact,stem --weights 1.0,0.8

The defaults equal the jar's `-l en -norm`. Files are UTF-8, one segment per line (lines end at
\\n, \\r or \\r\\n, as Java reads them); every --ref file is one reference set, line-aligned with --hyp.

exit status: 0 success, 1 runtime failure (e.g. a resource could not be loaded),
2 bad usage or bad input (message on stderr).
"""


class InputError(Exception):
    """A problem with the user's files or flags; reported without a traceback."""


def read_segments(path: str) -> list[str]:
    """Lines of a UTF-8 file, split like Java's ``BufferedReader.readLine``."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc.strerror}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise InputError(f"{path}: line {line} is not valid UTF-8 (byte offset {exc.start})") from None
    if text.startswith("\ufeff"):
        text = text[1:]
    return java_split_lines(text)


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


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="meteor-metric", description="METEOR 1.5, exact with the Java reference, in pure Python.")
    parser.add_argument("--version", action="version", version=f"meteor-metric {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    score = commands.add_parser(
        "score", help="score a hypothesis file against one or more reference files",
        description="Score a hypothesis file against line-aligned reference files.",
        epilog=SCORE_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    score.add_argument("--hyp", required=True, metavar="FILE", help="hypotheses, one per line")
    score.add_argument("--ref", required=True, action="append", metavar="FILE",
                       help="references, one per line; repeat for several reference sets")
    score.add_argument("--profile", choices=PROFILES, default=DEFAULT_PROFILE,
                       help="meteor-1.5 (default, the jar), nltk (NLTK / HF evaluate 'meteor'), "
                            "original (Banerjee & Lavie 2005); the jar's flags below are for meteor-1.5")
    score.add_argument("--lang", default="en", metavar="LANG",
                       help=f"language (-l): {', '.join(sorted(LANGUAGE_NAMES))} (default en)")
    score.add_argument("--task", choices=[t for t in TASKS if t != "custom"],
                       help="task preset (-t); default rank for en cz fr es de ru, li otherwise")
    norm = score.add_mutually_exclusive_group()
    norm.add_argument("--norm", dest="norm", action="store_true", default=True,
                      help="tokenize and lowercase like the jar's -norm (default)")
    norm.add_argument("--no-norm", dest="norm", action="store_false", help="no tokenization")
    score.add_argument("--lower", action="store_true", help="lowercase only (-lower; with --no-norm)")
    score.add_argument("--no-punct", action="store_true", help="drop punctuation (-noPunct; needs --norm)")
    score.add_argument("--modules", type=_csv, metavar="LIST",
                       help="matchers (-m), e.g. exact,stem,synonym,paraphrase")
    score.add_argument("--weights", type=_floats, metavar="LIST", help="one weight per module (-w)")
    score.add_argument("--params", type=_floats, metavar="A,B,G,D",
                       help="alpha,beta,gamma,delta (-p); makes the task custom")
    score.add_argument("--beam", type=int, default=40, metavar="N", help="beam size (-x, default 40)")
    score.add_argument("--char", action="store_true", help="character-based lengths (-ch)")
    score.add_argument("--function-words", metavar="FILE", help="function-word list (-s)")
    score.add_argument("--paraphrase-table", metavar="FILE",
                       help="paraphrase table in METEOR's format (-a); default: found automatically")
    score.add_argument("--json", action="store_true",
                       help="print one JSON object: score, segment_scores, segment_stats, signature")
    return parser


_JAR_FLAGS = ("lang", "task", "lower", "no_punct", "modules", "weights", "params", "char",
              "function_words", "paraphrase_table")


def _scorer(args):
    if args.profile != "meteor-1.5":
        given = [f for f in _JAR_FLAGS if getattr(args, f) not in (None, False, "en")]
        if given or not args.norm or args.beam != 40:
            flag = "--" + (given[0] if given else "no-norm" if not args.norm else "beam").replace("_", "-")
            raise InputError(f"{flag} is a METEOR 1.5 option; it does not apply to --profile {args.profile}")
        return get_scorer(args.profile)
    if args.no_punct and not args.norm:
        raise InputError("--no-punct only works with --norm (the jar silently ignores it otherwise)")
    if args.lower and args.norm:
        raise InputError("--lower is for use with --no-norm (--norm already lowercases)")
    try:
        return Meteor(
            args.lang, args.task, modules=args.modules, weights=args.weights, parameters=args.params,
            normalization=normalization_mode(args.norm, args.lower, args.no_punct), char_based=args.char,
            beam_size=args.beam, function_words=args.function_words, paraphrase_table=args.paraphrase_table)
    except ValueError as exc:
        raise InputError(str(exc)) from None


def run_score(args, out) -> None:
    hyps = read_segments(args.hyp)
    ref_sets = [read_segments(path) for path in args.ref]
    for path, refs in zip(args.ref, ref_sets):
        if len(refs) != len(hyps):
            raise InputError(f"line counts differ: {args.hyp} has {len(hyps)} lines, {path} has {len(refs)}")
    if not hyps:
        raise InputError(f"{args.hyp} is empty: nothing to score")
    scorer = _scorer(args)
    corpus = list(check_corpus(hyps, [list(refs) for refs in zip(*ref_sets)]))
    if isinstance(scorer, Meteor):
        # keep only what is printed: a segment's tokens and alignment are dropped as soon as it is scored
        scores, stats = [], []
        for hyp, refs in corpus:
            segment = scorer.sentence_score(hyp, refs)
            scores.append(segment.score)
            stats.append(segment.stats)
        total = MeteorStats.sum(stats)
        metrics = scorer.score_stats(total)
        signature = scorer.corpus_signature([len(ref_sets)])
    else:
        metrics = scorer.corpus_score([h for h, _ in corpus], [r for _, r in corpus])
        scores, stats, total = metrics.segment_scores, [s.stats for s in metrics.segments], metrics.stats
        signature = metrics.signature
    if args.json:
        json.dump({
            "score": metrics.score,
            "segment_scores": scores,
            "segment_stats": [s.to_line() for s in stats],
            "signature": signature,
        }, out, ensure_ascii=False)
        out.write("\n")
        return
    for k, score in enumerate(scores, 1):
        out.write(f"Segment {k} score:\t{java_double_str(score)}\n")
    out.write(f"\nPrecision:\t{java_double_str(metrics.precision)}\n"
              f"Recall:\t\t{java_double_str(metrics.recall)}\n"
              f"Fmean:\t\t{java_double_str(metrics.fmean)}\n"
              f"Penalty:\t{java_double_str(metrics.fragmentation_penalty)}\n"
              f"Chunks:\t\t{total.chunks}\n"
              f"Final score:\t{java_double_str(metrics.score)}\n"
              f"Signature:\t{signature}\n")


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        if args.command == "score":
            run_score(args, sys.stdout)
    except InputError as exc:
        print(f"meteor-metric: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except (OSError, RuntimeError) as exc:
        print(f"meteor-metric: error: {exc}", file=sys.stderr)
        return EXIT_ERROR
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
