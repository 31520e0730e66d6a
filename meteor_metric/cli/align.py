"""``meteor-metric align``: each segment's alignment, readable (text) or as JSON."""

from __future__ import annotations

import argparse
import json
from typing import Optional, TextIO

from ..analysis.alignment_view import alignment_records, alignment_text
from ..core.javafmt import java_double_str
from ..core.wording import plural
from .common import EXIT_HELP, INPUT_HELP, CorpusInput, InputError, add_config_args, add_input_args, configured_scorer

ALIGN_EPILOG = f"""\
examples:
  meteor-metric align --hyp system.txt --ref ref.txt | less
  meteor-metric align --hyp pairs.tsv --segments 3-5 --format json
  meteor-metric align --hyp system.txt --ref ref.txt --segments 1,4,10-12

Each segment shows its score and parts, the tokens METEOR aligned, and one line per match:
its chunk (a run of matches adjacent in both sentences), module, positions and words; then the
words left unmatched (the information of the jar's -writeAlignments, readable). Positions count
words from 1, in text and JSON (hyp_position 1 is hyp_tokens[0]).

{INPUT_HELP}
{EXIT_HELP}"""




def add_parser(commands) -> argparse.ArgumentParser:
    """Register ``align``."""
    align = commands.add_parser(
        "align", usage="meteor-metric align --hyp FILE --ref FILE [--ref FILE ...] [--segments LIST] [options]",
        help="print each segment's alignment in a readable form",
        description="Show how METEOR aligned each hypothesis with its best reference.",
        epilog=ALIGN_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_input_args(align)
    align.add_argument("--format", choices=("text", "json"), default="text", help="output format")
    align.add_argument("--segments", metavar="LIST",
                       help="only these segments (1-based): e.g. 7, 3-5 or 1,3,8-9")
    add_config_args(align)
    return align


def segment_range(text: Optional[str], n: int) -> list[int]:
    """The 0-based segments ``--segments`` names (``7``, ``3-5``, ``1,3,8-9``), in order, each once."""
    if text is None:
        return list(range(n))
    wanted: dict[int, None] = {}
    for part in text.split(","):
        first, dash, last = part.strip().partition("-")
        try:
            lo, hi = int(first), int(last if dash else first)
        except ValueError:
            raise InputError(f"--segments takes N, N-M or a comma-separated list of them (e.g. 1,3,5-7), "
                             f"got {text!r}") from None
        if lo > hi:
            raise InputError(f"--segments {part.strip()} is reversed: write {hi}-{lo}")
        if lo < 1 or hi > n:
            raise InputError(f"--segments {part.strip()} is outside 1-{n} (the input has {plural(n, 'segment')})")
        wanted.update(dict.fromkeys(range(lo - 1, hi)))
    return sorted(wanted)


def run(args, out: TextIO) -> None:
    _, scorer = configured_scorer(args)
    corpus = CorpusInput(args)
    try:
        wanted = set(segment_range(args.segments, corpus.n_segments))
        last = max(wanted)
        modules = scorer.modules
        records = []
        n_refs = []
        for k, (hyp, refs) in enumerate(corpus.pairs()):
            if k not in wanted:
                if k > last:
                    break
                continue
            try:
                s = scorer.sentence_score(hyp, refs)
            except ValueError as exc:
                raise InputError(f"segment {k + 1}: {exc}") from None
            n_refs.append(len(refs))
            if args.format == "json":
                records.append({
                    "segment": k + 1, "score": s.score, "precision": s.precision, "recall": s.recall,
                    "fmean": s.fmean, "fragmentation_penalty": s.fragmentation_penalty, "chunks": s.chunks,
                    "best_ref": s.best_ref + 1, "hyp_tokens": list(s.hyp_tokens), "ref_tokens": list(s.ref_tokens),
                    "alignment": alignment_records(s.alignment, modules),
                })
                continue
            out.write(f"Segment {k + 1}: score {java_double_str(s.score)}  P {s.precision:.4f}  "
                      f"R {s.recall:.4f}  Fmean {s.fmean:.4f}  penalty {s.fragmentation_penalty:.4f}  "
                      f"chunks {s.chunks}  reference {s.best_ref + 1} of {len(refs)}\n"
                      f"  hyp: {' '.join(s.hyp_tokens)}\n  ref: {' '.join(s.ref_tokens)}\n"
                      f"{alignment_text(s.hyp_tokens, s.ref_tokens, s.alignment, modules)}\n\n")
        if args.format == "json":
            json.dump({"signature": scorer.corpus_signature(n_refs), "segments": records}, out, ensure_ascii=False)
            out.write("\n")
    finally:
        corpus.close()
