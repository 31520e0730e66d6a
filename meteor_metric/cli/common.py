"""What the CLI's commands share: errors and exit codes, flag types, the scorer and input flags,
the corpus input (checked, then streamed) and scoring in one or several processes."""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import gc
import multiprocessing
import os
import signal
import stat
import sys
import tempfile
from collections import deque
from concurrent.futures import ProcessPoolExecutor
from typing import Callable, Iterable, Iterator, Optional, TypeVar

from ..core.corpus_io import (FORMATS, CorpusFormatError, LineCountError, LineIndex, index_lines, iter_lines,
                              iter_pairs, line_count_hints, parse_json_line, read_line_range)
from ..core.outputs import check_outputs
from ..meteor15.meteor import BATCH_SIZE, MAX_SEGMENT_CANDIDATES, MAX_SEGMENT_CHARS, MAX_SEGMENT_TOKENS, SegmentResult
from ..meteor15.params import LANGUAGE_NAMES, TASKS, normalization_mode
from ..profiles.original_align import DEFAULT_SEARCH_BUDGET
from ..profiles.registry import DEFAULT_PROFILE, PROFILE_NORMALIZATIONS, PROFILES, SCORER_OPTIONS, Scorer, ScorerSpec
from ..profiles.registry import scorer_spec as profile_scorer_spec

EXIT_OK = 0
EXIT_ERROR = 1  # a resource could not be loaded or another runtime failure
EXIT_USAGE = 2  # bad flags or bad input files
EXIT_INTERRUPTED = 130  # Ctrl-C (128 + SIGINT, as shells report it)
#: Most bytes of standard input (or a pipe) copied to a temporary file so it can be read twice.
MAX_SPOOL_BYTES = 1 << 30
_SPOOL_CHUNK = 1 << 20
#: The smallest batch towards the end of a multi-process run (:func:`score_batches`).
MIN_TAIL_BATCH = 64

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
2 bad usage or bad input (the message on stderr names the file and line); 130 interrupted (Ctrl-C).
"""
class InputError(Exception):
    """A problem with the user's files or flags; reported without a traceback."""


def csv_list(value: str) -> list[str]:
    items = [v.strip() for v in value.split(",")]
    if not all(items):
        raise argparse.ArgumentTypeError(f"expected a comma-separated list, got {value!r}")
    return items


def float_list(value: str) -> list[float]:
    try:
        return [float(v) for v in csv_list(value)]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected comma-separated numbers, got {value!r}") from None


def _whole_number(value: str, low: int, high: Optional[int], expected: str) -> int:
    try:
        n = int(value)
    except ValueError:
        n = low - 1
    if n < low or (high is not None and n > high):
        raise argparse.ArgumentTypeError(f"expected {expected}, got {value!r}")
    return n


def positive(value: str) -> int:
    """A flag value >= 1."""
    return _whole_number(value, 1, None, "a whole number >= 1")


def limit(value: str) -> int:
    """A limit flag's value: a whole number, 0 for no limit."""
    return _whole_number(value, 0, None, "a whole number >= 0 (0: no limit)")


def digits(value: str) -> int:
    """A number of digits after the point (``--width``)."""
    return _whole_number(value, 0, 17, "a number of digits from 0 to 17")


def seed(value: str) -> int:
    """A random seed >= 0."""
    return _whole_number(value, 0, None, "a whole number >= 0")


def add_input_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--hyp", required=True, metavar="FILE", help="hypotheses (- for standard input)")
    p.add_argument("--ref", action="append", default=[], metavar="FILE",
                   help="references, line-aligned with --hyp; repeat for several reference sets")
    p.add_argument("--input-format", choices=("auto",) + FORMATS, default="auto",
                   help="text, jsonl or tsv (default: from the --hyp file name, else text)")


def add_config_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--profile", choices=PROFILES, default=DEFAULT_PROFILE,
                   help="meteor-1.5 (default, the jar), nltk (NLTK / HF evaluate 'meteor'), "
                        "original (Banerjee & Lavie 2005); the flags below are for meteor-1.5")
    p.add_argument("-l", "--lang", metavar="LANG",
                   help=f"language: {', '.join(sorted(LANGUAGE_NAMES))} (default en)")
    p.add_argument("--task", choices=[t for t in TASKS if t != "custom"],
                   help="task preset (-t); default rank for en cz fr es de ru, li otherwise")
    norm = p.add_mutually_exclusive_group()
    norm.add_argument("--norm", dest="norm", action="store_true", default=None,
                      help="tokenize and lowercase like the jar's -norm (default)")
    norm.add_argument("--no-norm", dest="norm", action="store_false", help="no tokenization")
    p.add_argument("--lower", action="store_true", help="lowercase only (-lower; with --no-norm)")
    p.add_argument("--no-punct", action="store_true", help="drop punctuation (-noPunct; needs --norm)")
    p.add_argument("--normalization", choices=sorted({m for modes in PROFILE_NORMALIZATIONS.values() for m in modes}),
                   metavar="MODE", help="any normalization by name instead of the jar-style flags above: "
                   + "; ".join(f"{profile}: {', '.join(modes)}" for profile, modes in PROFILE_NORMALIZATIONS.items())
                   + " (norm_ext, norm_ext_nopunct, cjk_char: extensions for languages the jar cannot -norm)")
    p.add_argument("--synonyms", metavar="SOURCE",
                   help="omw or omw:<iso-639-3>: Open Multilingual Wordnet synonyms for other languages (extension)")
    p.add_argument("--modules", type=csv_list, metavar="LIST", help="matchers (-m), e.g. exact,stem,synonym,paraphrase")
    p.add_argument("--weights", type=float_list, metavar="LIST", help="one weight per module (-w)")
    p.add_argument("--params", type=float_list, metavar="A,B,G,D",
                   help="alpha,beta,gamma,delta (-p); makes the task custom; --profile nltk: alpha,beta,gamma "
                        "(HF meteor's, default 0.9,3,0.5)")
    p.add_argument("--beam", type=int, metavar="N", help="beam size (-x, default 40)")
    p.add_argument("--char", action="store_true", help="character-based lengths (-ch)")
    p.add_argument("--function-words", metavar="FILE", help="function-word list (-s)")
    p.add_argument("--paraphrase-table", metavar="FILE",
                   help="paraphrase table in METEOR's format (-a); default: found automatically")
    p.add_argument("--max-tokens", type=limit, metavar="N",
                   help=f"longest segment in tokens (default {MAX_SEGMENT_TOKENS:,}; 0: no limit); alignment time "
                        "grows with the square of the length")
    p.add_argument("--max-candidates", type=limit, metavar="N",
                   help=f"most candidate matches of a hypothesis against all its references (default "
                        f"{MAX_SEGMENT_CANDIDATES:,}; 0: no limit); they bound alignment time and memory")
    p.add_argument("--max-chars", type=limit, metavar="N",
                   help=f"longest hypothesis or reference in characters (default {MAX_SEGMENT_CHARS:,}; 0: no limit)")
    p.add_argument("--params-file", metavar="FILE", help="a preset file from 'meteor-metric tune'")
    p.add_argument("--fragmentation", choices=("chunks", "crossings"),
                   help="order penalty from chunks (default, METEOR) or crossing match pairs (extension)")
    p.add_argument("--similarity-threshold", type=float, metavar="X",
                   help="least WordNet path similarity of the wn_similarity module (default 0.85)")
    p.add_argument("--search-budget", type=positive, metavar="N",
                   help="original profile: most steps of exact alignment work one segment may take, all its "
                        f"references together, before it is refused (default {DEFAULT_SEARCH_BUDGET:,}, about 2 s)")


def input_files(args) -> list[tuple[str, Optional[str]]]:
    """``(flag, path)`` of every file the flags read (outputs must be none of them)."""
    hyps = args.hyp if isinstance(args.hyp, list) else [args.hyp]
    return ([("--hyp", h) for h in hyps] + [("--ref", r) for r in args.ref]
            + [(f"--{name.replace('_', '-')}", getattr(args, name, None))
               for name in ("params_file", "function_words", "paraphrase_table")])


def checked_outputs(outputs: list[tuple[str, Optional[str]]], inputs: list[tuple[str, Optional[str]]]) -> None:
    """:func:`~meteor_metric.core.outputs.check_outputs` as an :class:`InputError`."""
    try:
        check_outputs(outputs, inputs)
    except ValueError as exc:
        raise InputError(str(exc)) from None


# -- configuration -----------------------------------------------------------------------------

def scorer_spec(args) -> ScorerSpec:
    """The scorer the flags describe (checked by the profile's :func:`~meteor_metric.profiles.scorer_spec`;
    sent to worker processes)."""
    jar_style = args.norm is False or args.lower or args.no_punct
    if args.normalization is not None and jar_style:
        raise InputError("--normalization replaces --no-norm, --lower and --no-punct: give one or the other")
    if args.no_punct and args.norm is False:
        raise InputError("--no-punct only works with --norm (the jar silently ignores it otherwise)")
    if args.lower and args.norm is not False:
        raise InputError("--lower is for use with --no-norm (--norm already lowercases)")
    nltk_params = args.profile == "nltk" and args.params is not None
    if nltk_params and len(args.params) != 3:
        raise InputError(f"--params for --profile nltk is alpha,beta,gamma (3 numbers, as HF's meteor), "
                         f"got {len(args.params)}: {','.join(map(repr, args.params))}")
    options = {"language": args.lang, "task": args.task, "modules": args.modules, "weights": args.weights,
               "parameters": None if nltk_params else args.params, "char_based": args.char or None, "beam_size": args.beam,
               "function_words": args.function_words, "paraphrase_table": args.paraphrase_table,
               "synonyms": args.synonyms, "params_file": args.params_file, "fragmentation": args.fragmentation,
               "similarity_threshold": args.similarity_threshold, "search_budget": args.search_budget,
               "max_segment_tokens": None if args.max_tokens is None else args.max_tokens or False,
               "max_segment_candidates": None if args.max_candidates is None else args.max_candidates or False,
               "max_segment_chars": None if args.max_chars is None else args.max_chars or False,
               "normalization": normalization_mode(args.norm is not False, args.lower, args.no_punct)
               if jar_style else args.normalization}
    if nltk_params:
        options.update(zip(SCORER_OPTIONS["nltk"], args.params))  # alpha, beta, gamma
    given = {k: v for k, v in options.items() if v is not None}
    for limit in ("max_segment_tokens", "max_segment_candidates", "max_segment_chars"):
        if given.get(limit) is False:
            given[limit] = None  # --max-tokens 0 (and the like): no limit
    try:
        return profile_scorer_spec(args.profile, **given)
    except ValueError as exc:
        raise InputError(str(exc)) from None


def configured_scorer(args) -> tuple[ScorerSpec, Scorer]:
    """The flags' scorer spec and its shared scorer."""
    spec = scorer_spec(args)
    return spec, build_scorer(spec)


def build_scorer(spec: ScorerSpec) -> Scorer:
    """The spec's shared scorer (a resource that does not load: an :class:`InputError`)."""
    try:
        return spec.build()
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
            if isinstance(parse_json_line(first), dict):
                return "jsonl"
        except ValueError:
            pass
    return "tsv" if "\t" in first and not has_refs else "text"


@dataclasses.dataclass(frozen=True)
class LineBatch:
    """Lines ``[start, start + count)`` of line-aligned plain-text files (each a path and the block holding
    the first line), read where they are scored: a helper reads its own batches, so the parent sends where
    the lines are, not their text (on the 44,804 WMT21 zh-en pairs it read and pickled 19 MB, 0.13 CPU-s
    beside two busy helpers)."""

    files: tuple[tuple[str, tuple[int, int]], ...]
    start: int
    count: int
    transform: Optional[Callable[[str, list[str]], tuple[str, list[str]]]] = None

    def __len__(self) -> int:
        return self.count

    def pairs(self) -> list[tuple[str, list[str]]]:
        """(hypothesis, references) of each line, through ``transform``."""
        hyps, *refs = (read_line_range(path, block, self.start, self.count) for path, block in self.files)
        pairs = [(hyp, list(rest)) for hyp, *rest in zip(hyps, *refs)]
        return pairs if self.transform is None else [self.transform(hyp, rest) for hyp, rest in pairs]


class CorpusInput:
    """The corpus the flags name, checked in a first pass, then streamed as often as needed.

    Standard input and any other file that cannot be read twice (a pipe, ``<(...)``) is copied to a
    temporary file first; messages keep the name the user gave. With ``--input-format auto`` the format
    comes from the file name (.jsonl, .tsv), else from the first line (a JSON object: jsonl; a tab and
    no --ref: tsv), else text."""

    def __init__(self, args, hyp: Optional[str] = None):
        self._spools: list[str] = []
        self._indexes: Optional[list[LineIndex]] = None  # plain-text files the check pass indexed
        try:
            self._open(args, args.hyp if hyp is None else hyp)
        except BaseException:  # an error, a full disk, Ctrl-C: no spooled copy is left behind
            self.close()
            raise

    def _open(self, args, hyp: str) -> None:
        self.hyp_name = "<stdin>" if hyp == "-" else hyp
        self.hyp_path = self._readable_twice(hyp)
        self.ref_names = list(args.ref)
        self.ref_paths = [self._readable_twice(p) for p in self.ref_names]
        self.fmt = args.input_format
        if self.fmt == "auto":
            name = hyp.lower()
            self.fmt = "jsonl" if name.endswith(".jsonl") else "tsv" if name.endswith(".tsv") else \
                _sniff(self.hyp_path, bool(self.ref_paths))
        if self.fmt == "text" and not self.ref_paths:
            raise InputError(f"{self.hyp_name} is read as plain text, which needs at least one --ref FILE; if it "
                             "holds the references too, say how: --input-format jsonl or --input-format tsv")
        self.n_segments = self._check()

    def _readable_twice(self, path: str) -> str:
        """A spooled copy of stdin, a pipe or a device; else ``path`` (the read reports a missing file)."""
        if path != "-":
            try:
                mode = os.stat(path).st_mode
            except OSError:
                return path
            if not (stat.S_ISFIFO(mode) or stat.S_ISCHR(mode) or stat.S_ISSOCK(mode)):
                return path
        name = "standard input" if path == "-" else path
        try:
            spool = tempfile.NamedTemporaryFile(prefix="meteor-input-", delete=False)
            self._spools.append(spool.name)
            with spool, (contextlib.nullcontext(sys.stdin.buffer) if path == "-" else open(path, "rb")) as source:
                copied = 0
                while chunk := source.read(_SPOOL_CHUNK):
                    copied += len(chunk)
                    if copied > MAX_SPOOL_BYTES:
                        raise InputError(f"{name} holds more than {MAX_SPOOL_BYTES:,} bytes, the most that is copied "
                                         "to a temporary file to be read twice; save it to a file and give its name")
                    spool.write(chunk)
        except OSError as exc:
            raise InputError(f"cannot copy {name} to a temporary file in {tempfile.gettempdir()}: {exc.strerror}; "
                             "save it to a file and give its name, or set TMPDIR to a directory with room") from None
        return spool.name

    def _named(self, message: str) -> str:
        """``message`` with spooled copies called by the names the user gave."""
        for path, name in zip([self.hyp_path, *self.ref_paths], [self.hyp_name, *self.ref_names]):
            if path != name:
                message = message.replace(path, name)
        return message

    def _check(self) -> int:
        """Read and parse every line once (encoding, format, line counts), so errors come before any output.
        Plain-text files with as many lines each are only counted (no line is made: 0.07 -> 0.03 s for the
        44,804 WMT21 pairs); otherwise every line is read, and the error names what is wrong."""
        try:
            n = self._text_line_count() if self.fmt == "text" else None
            if n is None:
                n = sum(1 for _ in self.pairs())
        except LineCountError as exc:
            hints = [h for path, name in zip([self.hyp_path, *self.ref_paths], [self.hyp_name, *self.ref_names])
                     for h in line_count_hints(path, name)]
            self.close()
            raise InputError(self._named("; ".join([str(exc), *hints]))) from None
        except CorpusFormatError as exc:
            self.close()
            raise InputError(self._named(str(exc))) from None
        if n == 0:
            self.close()
            raise InputError(f"{self.hyp_name} is empty: nothing to score")
        return n

    def _text_line_count(self) -> Optional[int]:
        """The number of lines every plain-text file has (the files indexed), or None where they differ or a
        file cannot be read (the full read says how)."""
        try:
            indexes = [index_lines(path) for path in [self.hyp_path, *self.ref_paths]]
        except CorpusFormatError:
            return None
        if len({index.count for index in indexes}) != 1:
            return None
        self._indexes = indexes
        return indexes[0].count

    def line_batches(self, size: int, workers: int, transform: Optional[Callable] = None
                     ) -> Optional[Iterator[LineBatch]]:
        """The corpus as :class:`LineBatch` es of ``size`` pairs (smaller towards the end, as
        :func:`score_batches` makes them), each pair through ``transform``; None unless it is plain text."""
        indexes = self._indexes
        if indexes is None:
            return None
        return (LineBatch(tuple((index.path, index.locate(start)) for index in indexes), start, count, transform)
                for start, count in _batch_plan(self.n_segments, size, workers))

    def pairs(self) -> Iterator[tuple[str, list[str]]]:
        return iter_pairs(iter_lines(self.hyp_path), [iter_lines(p) for p in self.ref_paths], self.fmt,
                          self.hyp_name, self.ref_names)

    def close(self) -> None:
        """Delete the spooled copies."""
        for path in self._spools:
            if os.path.exists(path):
                os.unlink(path)
        self._spools = []


# -- scoring -------------------------------------------------------------------------------------

_worker_scorer: Optional[Scorer] = None
_worker_error: list[Exception] = []
T = TypeVar("T")


def _init_worker(spec: ScorerSpec) -> None:
    global _worker_scorer
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches the whole group: the parent stops the pool
    try:
        _worker_scorer = spec.build()
    except Exception as exc:  # raised with the first batch: the parent, building the same scorer, says why first
        _worker_error.append(exc)
    gc.freeze()


def slim(segment: SegmentResult) -> SegmentResult:
    """The segment without tokens and alignment (what scoring output needs, in less memory)."""
    return dataclasses.replace(segment, alignment=(), hyp_tokens=(), ref_tokens=())


#: What a batch of scored segments is turned into where it was scored (in a worker: what travels back):
#: ``digest(scorer, first, pairs, segments)``, ``first`` the 0-based index of the batch's first pair.
#: It must pickle (a module-level function or an instance of a module-level class).
Digest = Callable[[Scorer, int, list, list], T]


def _digest(scorer: Scorer, start: int, batch: list[tuple[str, list[str]]], digest: Digest) -> T:
    return digest(scorer, start, batch, scorer.score_pairs(batch, start + 1))


def _digest_batch(start: int, batch: list[tuple[str, list[str]]] | LineBatch, digest: Digest) -> T:
    if _worker_error:
        raise _worker_error[0]
    return _digest(_worker_scorer, start, batch.pairs() if isinstance(batch, LineBatch) else batch, digest)


class WorkerPool:
    """``workers`` helper processes scoring for :func:`score_batches`, started at once. Forked after this
    process built the scorer, they inherit it (the registry's shared scorer) and share its memory pages:
    on two cores, helpers that built their own copies scored about 15 % slower per pair. Leaving the
    ``with`` block on an error drops the queued batches and waits for those being scored.

    The loaded objects are moved out of the cyclic collector's reach first (``gc.freeze``): the collector no
    longer rescans them, and forked helpers' collectors do not copy their pages. (This process scoring
    beside ``workers - 1`` helpers was tried: in interleaved runs it was the slowest arrangement, 2.74-2.85 s
    against 2.35-2.72 s for two helpers on the 44,804 WMT21 zh-en pairs; it scored 10-20 % slower per pair
    than its helpers, beside the threads that feed them.)"""

    def __init__(self, spec: ScorerSpec, workers: int):
        gc.freeze()
        self.workers = workers
        # concurrent.futures, not multiprocessing.Pool: Pool.terminate() can deadlock when the reader stops
        # early (| head) while results fill its pipe; the executor's manager thread always drains them.
        self.executor = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context(),
                                            initializer=_init_worker, initargs=(spec,))
        self.executor.submit(int)  # starts the helpers now

    def __enter__(self) -> "WorkerPool":
        return self

    def __exit__(self, kind, value, traceback) -> None:
        # on an error too, the helpers' current batches (a batch each) are waited for: the executor's manager
        # thread then ends before the interpreter does. Not waited for, Python 3.11's exit hook could write to
        # the wake-up pipe that thread had just closed ("Exception ignored ... OSError: [Errno 9] Bad file
        # descriptor" after the error message: once in CI, for an empty input with --workers 2)
        self.executor.shutdown(wait=True, cancel_futures=kind is not None)


def worker_pool(spec: ScorerSpec, workers: int) -> contextlib.AbstractContextManager[Optional[WorkerPool]]:
    """A :class:`WorkerPool` of ``workers`` processes, or (for one) ``None`` in a ``with`` block all the same."""
    return WorkerPool(spec, workers) if workers > 1 else contextlib.nullcontext()


def _batch_sizes(size: int, total: Optional[int], workers: int) -> Iterator[int]:
    """Batch sizes: ``size``; knowing the ``total``, smaller ones towards the end (down to ``MIN_TAIL_BATCH``,
    each about a ``2 * workers``-th of what remains), so processes finish together."""
    want, seen = size, 0
    while True:
        yield want
        seen += want
        if total is not None:
            want = min(size, max(MIN_TAIL_BATCH, -(-(total - seen) // (2 * workers))))


def _batches(pairs: Iterable[tuple[str, list[str]]], size: int,
             total: Optional[int] = None, workers: int = 1) -> Iterator[list[tuple[str, list[str]]]]:
    """The pairs in batches of :func:`_batch_sizes`."""
    sizes = _batch_sizes(size, total, workers)
    batch: list = []
    want = next(sizes)
    for pair in pairs:
        batch.append(pair)
        if len(batch) == want:
            yield batch
            batch = []
            want = next(sizes)
    if batch:
        yield batch


def _batch_plan(total: int, size: int, workers: int) -> Iterator[tuple[int, int]]:
    """(first pair, number of pairs) of each of :func:`_batches`' batches of ``total`` pairs."""
    start = 0
    for want in _batch_sizes(size, total, workers):
        if start >= total:
            return
        yield start, min(want, total - start)
        start += want


def score_batches(scorer: Scorer, pairs: Iterable[tuple[str, list[str]]], digest: Digest,
                  pool: Optional[WorkerPool] = None, batch_size: int = BATCH_SIZE,
                  total: Optional[int] = None,
                  line_batches: Optional[Callable[[int, int], Optional[Iterator[LineBatch]]]] = None
                  ) -> Iterator[T]:
    """``digest`` of each batch of scored pairs, in input order. Without a pool, ``scorer`` scores
    ``BATCH_SIZE`` segments at a time (:meth:`score_pairs`) in this process. With one, batches of
    ``batch_size`` (smaller towards the end when the ``total`` number of pairs is known) go to its
    helpers, each digests its batches (the parent receives digests, not segments: for ``score``, the output
    text and a partial corpus sum) and at most ``4 * workers`` are in flight; where ``line_batches(batch_size,
    workers)`` gives :class:`LineBatch` es (plain text), the helpers read the pairs themselves. Either way
    memory stays bounded. On the 44,804 WMT21 zh-en pairs, ``gc.freeze`` first took one process from 30.9 to
    26.9 CPU-seconds, and 1,024-pair batches (not 200) two workers from 37.6 to 30.2."""
    gc.freeze()
    if pool is None:
        for b, batch in enumerate(_batches(pairs, BATCH_SIZE)):
            yield _digest(scorer, b * BATCH_SIZE, batch, digest)
        return
    tasks = line_batches(batch_size, pool.workers) if line_batches is not None else None
    if tasks is None:
        tasks = _batches(pairs, batch_size, total, pool.workers)
    executor = pool.executor
    try:
        pending: deque = deque()
        start = 0
        for batch in tasks:
            pending.append(executor.submit(_digest_batch, start, batch, digest))
            start += len(batch)
            if len(pending) >= 4 * pool.workers:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()
    except BaseException:  # an error, or the consumer stopped (GeneratorExit): drop the queued batches
        executor.shutdown(wait=False, cancel_futures=True)
        raise


def slim_with_refs(scorer: Scorer, first: int, pairs: list[tuple[str, list[str]]],
                   segments: list[SegmentResult]) -> list[tuple[SegmentResult, int]]:
    """A digest: each segment slimmed (:func:`slim`), with its number of references."""
    return [(slim(s), len(refs)) for s, (_, refs) in zip(segments, pairs)]


def score_stream(scorer: Scorer, pairs: Iterable[tuple[str, list[str]]], pool: Optional[WorkerPool] = None,
                 batch_size: int = BATCH_SIZE, total: Optional[int] = None) -> Iterator[tuple[SegmentResult, int]]:
    """(segment result without tokens and alignment, number of references) in input order, from this
    process or a pool's helpers (:func:`score_batches`)."""
    for batch in score_batches(scorer, pairs, slim_with_refs, pool, batch_size, total):
        yield from batch
