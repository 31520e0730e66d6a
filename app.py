"""meteor-metric Space: METEOR for one pair, with its alignment, or for a corpus from files.

Run locally with ``python app.py`` (http://127.0.0.1:7860). Scoring functions are plain Python
(`score_pair`, `score_corpus`) and are also the Space's API endpoints.
"""

from __future__ import annotations

import html
import os
import time
from pathlib import Path
from typing import Iterable

import gradio as gr
import pandas as pd

from meteor_metric import PROFILES, get_scorer
from meteor_metric.analysis.alignment_view import alignment_svg, legend_html, module_counts
from meteor_metric.core.corpus_io import FORMATS, CorpusFormatError, decode, parse_corpus
from meteor_metric.meteor15.params import LANGUAGE_NAMES, STEM_LANGUAGES, SUPPORTED_LANGUAGES
from meteor_metric.profiles.original_align import SearchBudgetExceeded

MAX_SEGMENT_CHARS = 2_000
MAX_REFERENCES = 16
MAX_LINES = 5_000
MAX_FILE_BYTES = 2 * 1024 * 1024  # gradio's upload message says "2 Mb"
MAX_SECONDS = 60.0
#: Steps of exact alignment work the ``original`` profile may spend on one segment here, all its
#: references together (about 1 s on a free core; real sentence pairs need far fewer, long anagrams
#: of a few words far more).
SEARCH_BUDGET = 10_000_000

#: Every language of METEOR 1.5, as the menu shows it.
LANGUAGE_CHOICES = [(f"{code} ({name})", code) for code, name in LANGUAGE_NAMES.items()]


def _scorer(profile: str, language: str):
    """The scorer of a profile and language, configured to need no download.

    English uses the full METEOR 1.5 configuration (the paraphrase table ships with the package);
    other languages match exactly and by stem (where the jar has a stemmer); languages without tuned
    parameters use the jar's language-independent task and lowercasing, since it has no
    normalizer for them."""
    if profile not in PROFILES:
        raise gr.Error(f"unknown profile {profile!r}")
    if language not in LANGUAGE_NAMES:
        raise gr.Error(f"unknown language {language!r}; choose one of {', '.join(LANGUAGE_NAMES)}")
    if profile != "meteor-1.5":
        if language != "en":
            raise gr.Error(f"the {profile} profile is English only; choose meteor-1.5 for {LANGUAGE_NAMES[language]}")
        return get_scorer(profile, search_budget=SEARCH_BUDGET) if profile == "original" else get_scorer(profile)
    if language == "en":
        return get_scorer(profile)
    modules = ("exact", "stem") if language in STEM_LANGUAGES else ("exact",)
    if language in SUPPORTED_LANGUAGES:
        return get_scorer(profile, language, modules=modules)
    return get_scorer(profile, language, task="li", normalization="lc_only", modules=modules)


def _budget_error(where: str) -> gr.Error:
    return gr.Error(f"{where}: the original profile's exact alignment search gave up after {SEARCH_BUDGET:,} "
                    "steps (a very repetitive or very long segment, e.g. a long anagram of a few words; all "
                    "references share the budget). Shorten it, use the "
                    "meteor-1.5 profile, or run get_scorer('original', search_budget=...) locally to wait longer.")


def split_references(text: str) -> list[str]:
    """References typed one per line: split on "\\n" only (a trailing "\\r" is dropped), blank lines skipped.

    Other line breaks (U+2028, U+0085, form feed, ...) stay inside their reference."""
    lines = (line[:-1] if line.endswith("\r") else line for line in (text or "").split("\n"))
    return [line for line in lines if line.strip()]


def _check_segment(text: object, what: str) -> str:
    if not isinstance(text, str):
        raise gr.Error(f"{what} must be text")
    if len(text) > MAX_SEGMENT_CHARS:
        raise gr.Error(f"{what} has {len(text):,} characters; this demo takes at most {MAX_SEGMENT_CHARS:,} "
                       "(use the meteor-metric command line for longer segments)")
    return text


def score_pair(hypothesis: str, references: str, profile: str = "meteor-1.5", language: str = "en"):
    """Score one hypothesis against references (one per line): a summary and the alignment picture."""
    hyp = _check_segment(hypothesis, "the hypothesis")
    refs = split_references(references)
    if not refs:
        raise gr.Error("give at least one reference (one per line)")
    if len(refs) > MAX_REFERENCES:
        raise gr.Error(f"{len(refs)} references; this demo takes at most {MAX_REFERENCES}")
    for k, ref in enumerate(refs, 1):
        _check_segment(ref, f"reference {k}")
    scorer = _scorer(profile, language)
    modules = scorer.modules
    try:
        r = scorer.sentence_score(hyp, refs)
    except SearchBudgetExceeded:
        raise _budget_error("this pair") from None
    counts = module_counts(r.alignment, modules)
    summary = "\n".join([
        f"### METEOR {r.score:.4f}",
        "| statistic | value |",
        "|---|---|",
        f"| score | {r.score!r} |",
        f"| precision · recall | {r.precision:.4f} · {r.recall:.4f} |",
        f"| Fmean | {r.fmean:.4f} |",
        f"| fragmentation penalty | {r.fragmentation_penalty:.4f} ({r.chunks} chunks) |",
        f"| matches by module | {', '.join(f'{name} {n}' for name, n in counts.items())} |",
        f"| best reference | {r.best_ref + 1} of {len(refs)} |",
        "",
        f"`{r.signature}`",
    ])
    picture = (f'<div class="meteor-view"><div style="margin-bottom:6px">{legend_html(counts)}</div>'
               f'<div style="overflow-x:auto">{alignment_svg(r.hyp_tokens, r.ref_tokens, r.alignment, modules)}'
               f'</div><div style="font-size:12px;color:#6b7280">Reference {r.best_ref + 1}: '
               f'{html.escape(refs[r.best_ref])}</div></div>')
    return summary, picture


def _file_bytes(upload, what: str) -> bytes:
    path = upload if isinstance(upload, str) else getattr(upload, "name", None)
    if not path:
        raise gr.Error(f"upload the {what}")
    size = os.path.getsize(path)
    if size > MAX_FILE_BYTES:
        raise gr.Error(f"the {what} has {size:,} bytes; this demo takes at most {MAX_FILE_BYTES:,}")
    with open(path, "rb") as f:
        return f.read()


def score_corpus(hyp_file, ref_files, fmt: str = "text", profile: str = "meteor-1.5", language: str = "en"):
    """Score uploaded files: a summary with the signature, a per-segment table and a histogram."""
    if fmt not in FORMATS:
        raise gr.Error(f"unknown format {fmt!r}")
    ref_files = [f for f in (ref_files or []) if f]
    try:
        hyp_lines = decode(_file_bytes(hyp_file, "hypothesis file"), "hypothesis file")
        ref_sets = [decode(_file_bytes(f, f"reference file {k}"), f"reference file {k}")
                    for k, f in enumerate(ref_files, 1)]
        hyps, refs = parse_corpus(hyp_lines, ref_sets, fmt, "hypothesis file",
                                  [f"reference file {k}" for k in range(1, len(ref_sets) + 1)])
    except CorpusFormatError as exc:
        raise gr.Error(str(exc)) from None
    if not hyps:
        raise gr.Error("the hypothesis file is empty")
    if len(hyps) > MAX_LINES:
        raise gr.Error(f"{len(hyps):,} segments; this demo takes at most {MAX_LINES:,} "
                       "(use the meteor-metric command line for larger corpora)")
    for k, (hyp, group) in enumerate(zip(hyps, refs), 1):
        _check_segment(hyp, f"hypothesis {k}")
        for ref in group:
            _check_segment(ref, f"a reference of segment {k}")
    scorer = _scorer(profile, language)
    deadline = time.monotonic() + MAX_SECONDS
    segments = []
    for k, (hyp, group) in enumerate(zip(hyps, refs)):
        if time.monotonic() > deadline:
            raise gr.Error(f"stopped after {MAX_SECONDS:.0f} s at segment {k + 1}: score this corpus with the "
                           "meteor-metric command line")
        try:
            segments.append(scorer.sentence_score(hyp, group))
        except SearchBudgetExceeded:
            raise _budget_error(f"segment {k + 1}") from None
    corpus = scorer.aggregate(segments, [len(g) for g in refs])
    summary = (f"### Corpus METEOR {corpus.score:.4f}\nscore {corpus.score!r} · {len(hyps):,} segments · precision "
               f"{corpus.precision:.4f} · recall {corpus.recall:.4f} · penalty {corpus.fragmentation_penalty:.4f}"
               f"\n\n`{corpus.signature}`")
    table = pd.DataFrame({
        "segment": range(1, len(hyps) + 1),
        "score": [round(s.score, 4) for s in segments],
        "hypothesis": hyps,
        "best reference": [group[s.best_ref] for s, group in zip(segments, refs)],
    })
    bins = [min(int(s.score * 10), 9) for s in segments]
    histogram = pd.DataFrame({"score": [f"{b / 10:.1f}–{(b + 1) / 10:.1f}" for b in range(10)],
                              "segments": [bins.count(b) for b in range(10)]})
    return summary, table, histogram


def _upload_path(upload) -> str | None:
    return upload if isinstance(upload, str) else getattr(upload, "name", None)


def _discard_uploads(uploads: Iterable) -> None:
    """Delete uploaded files (and their emptied folders) from gradio's upload folder once read."""
    folder = Path(gr.utils.get_upload_folder()).resolve()
    for upload in uploads:
        path = _upload_path(upload)
        if not path:
            continue
        path = Path(path).resolve()
        if folder not in path.parents:
            continue  # not an upload: never delete a caller's own file
        path.unlink(missing_ok=True)
        try:
            path.parent.rmdir()
        except OSError:
            pass  # the folder still holds something else, or is gone


def score_uploads(hyp_file, ref_files, fmt: str = "text", profile: str = "meteor-1.5", language: str = "en"):
    """The Corpus tab's endpoint: :func:`score_corpus` on uploaded files, which are deleted afterwards."""
    try:
        return score_corpus(hyp_file, ref_files, fmt, profile, language)
    finally:
        _discard_uploads([hyp_file, *(ref_files or [])])


EXAMPLE_HYP = "The cats were sitting on the big rug near the door."
EXAMPLE_REFS = "A cat sat on the large carpet next to the door.\nThe cat is on the mat."

#: Signatures are long strings without spaces: let them wrap anywhere instead of overflowing.
CSS = "#pair-summary code, #corpus-summary code { white-space: pre-wrap; overflow-wrap: anywhere; }"


def build_demo() -> gr.Blocks:
    """The Space's interface. Scoring the example here maps the paraphrase index before the app
    serves, so the first request is as fast as the rest, and the page opens on a scored pair."""
    example_summary, example_view = score_pair(EXAMPLE_HYP, EXAMPLE_REFS)
    with gr.Blocks(title="METEOR", delete_cache=(600, 600)) as demo:
        gr.Markdown("# METEOR\nMETEOR 1.5 exactly as the Java reference, NLTK-compatible, or as first "
                    "published — with the alignment it is computed from. "
                    "[meteor-metric](https://pypi.org/project/meteor-metric/): no Java, no downloads.")
        with gr.Tab("Pair"):
            with gr.Row():
                with gr.Column():
                    hyp = gr.Textbox(label="Hypothesis", value=EXAMPLE_HYP, lines=2, elem_id="hyp")
                    refs = gr.Textbox(label="References (one per line)", value=EXAMPLE_REFS, lines=3,
                                      elem_id="refs")
                    with gr.Row():
                        profile = gr.Dropdown(list(PROFILES), value="meteor-1.5", label="Profile")
                        language = gr.Dropdown(LANGUAGE_CHOICES, value="en", label="Language", elem_id="language")
                    button = gr.Button("Score", variant="primary", elem_id="score-pair")
                with gr.Column():
                    summary = gr.Markdown(example_summary, elem_id="pair-summary")
            view = gr.HTML(example_view, elem_id="alignment")
            button.click(score_pair, [hyp, refs, profile, language], [summary, view], api_name="score_pair")
        with gr.Tab("Corpus"):
            with gr.Row():
                hyp_file = gr.File(label="Hypotheses", file_types=[".txt", ".jsonl", ".tsv"], elem_id="hyp-file")
                ref_files = gr.File(label="References (one file per reference set)", file_count="multiple",
                                    file_types=[".txt", ".jsonl"], elem_id="ref-files")
            with gr.Row():
                fmt = gr.Radio(list(FORMATS), value="text", label="Format")
                c_profile = gr.Dropdown(list(PROFILES), value="meteor-1.5", label="Profile")
                c_language = gr.Dropdown(LANGUAGE_CHOICES, value="en", label="Language")
            c_button = gr.Button("Score corpus", variant="primary", elem_id="score-corpus")
            c_summary = gr.Markdown("Upload the hypotheses and one file per reference set, line-aligned (or one "
                                    "JSONL/TSV file holding both), then *Score corpus*. Uploaded files are deleted "
                                    "once read.", elem_id="corpus-summary")
            with gr.Column(visible=False) as results:
                histogram = gr.BarPlot(x="score", y="segments", title="Segment scores", sort=None)
                table = gr.Dataframe(headers=["segment", "score", "hypothesis", "best reference"],
                                     label="Segments (click a column to sort)", interactive=False, wrap=True,
                                     column_widths=["9%", "9%", "41%", "41%"],
                                     elem_id="segments")
            scored = c_button.click(score_uploads, [hyp_file, ref_files, fmt, c_profile, c_language],
                                    [c_summary, table, histogram], api_name="score_corpus")
            scored.success(lambda: gr.Column(visible=True), None, results, api_visibility="private")
            scored.then(lambda: (None, None), None, [hyp_file, ref_files], api_visibility="private")
        gr.Markdown(f"Limits: {MAX_SEGMENT_CHARS:,} characters per segment, {MAX_LINES:,} segments, "
                    f"{MAX_FILE_BYTES // 2**20} MB per file, {MAX_SECONDS:.0f} s per request.")
    return demo


demo = build_demo()


def launch() -> None:
    """Serve the demo; uploads over ``MAX_FILE_BYTES`` are refused while they stream in."""
    demo.queue(default_concurrency_limit=2).launch(
        server_name=os.environ.get("GRADIO_SERVER_NAME", "127.0.0.1"), max_file_size=MAX_FILE_BYTES, css=CSS)


if __name__ == "__main__":
    launch()
