"""``meteor-metric align``: each segment's alignment, readable (text) or as JSON."""

from __future__ import annotations

import argparse
import json
from typing import Optional, TextIO

from ..analysis.alignment_view import alignment_records, alignment_text
from ..core.javafmt import java_double_str
from .common import EXIT_HELP, INPUT_HELP, CorpusInput, InputError, add_config_args, add_input_args, configured_scorer

ALIGN_EPILOG = f"""\
examples:
  meteor-metric align --hyp system.txt --ref ref.txt | less
  meteor-metric align --hyp pairs.tsv --segments 3-5 --format json

Each segment shows its score and parts, the tokens METEOR aligned, and one line per match:
its chunk (a run of matches adjacent in both sentences), module, positions and words; then the
words left unmatched (the information of the jar's -writeAlignments, readable). Positions count
words from 1, in text and JSON (hyp_position 1 is hyp_tokens[0]).

{INPUT_HELP}
{EXIT_HELP}"""




def add_parser(commands) -> argparse.ArgumentParser:
    """Register ``align``."""
    align = commands.add_parser(
        "align", help="print each segment's alignment in a readable form",
        description="Show how METEOR aligned each hypothesis with its best reference.",
        epilog=ALIGN_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_input_args(align)
    align.add_argument("--format", choices=("text", "json"), default="text", help="output format")
    align.add_argument("--segments", metavar="RANGE", help="only these segments, e.g. 7 or 3-5 (1-based)")
    add_config_args(align)
    return align


def segment_range(text: Optional[str], n: int) -> range:
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


def run(args, out: TextIO) -> None:
    _, scorer = configured_scorer(args)
    corpus = CorpusInput(args)
    try:
        wanted = segment_range(args.segments, corpus.n_segments)
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
                    "alignment": alignment_records(s.alignment, modules),
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
