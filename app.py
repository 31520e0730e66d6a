"""meteor-metric Space: METEOR for one pair, with its alignment, or for a corpus from files.

Run locally with ``python app.py`` (http://127.0.0.1:7860). Scoring functions are plain Python
(`score_pair`, `score_corpus`) and are also the Space's API endpoints.
"""

from __future__ import annotations

import html
import os
import time
import gradio as gr
import pandas as pd

from meteor_metric import PROFILES, get_scorer
from meteor_metric.analysis.alignment_view import alignment_svg, legend_html, module_counts
from meteor_metric.core.corpus_io import FORMATS, CorpusFormatError, decode, parse_corpus

MAX_SEGMENT_CHARS = 2_000
MAX_REFERENCES = 16
MAX_LINES = 5_000
MAX_FILE_BYTES = 2_000_000
MAX_SECONDS = 60.0

#: METEOR 1.5 languages offered here, with the modules that need no extra download.
LANGUAGES = {
    "en": None,  # exact, stem, synonym, paraphrase (the table comes with pycocoevalcap)
    "de": ("exact", "stem"), "es": ("exact", "stem"), "fr": ("exact", "stem"), "ru": ("exact", "stem"),
    "cz": ("exact",),
}


def _scorer(profile: str, language: str):
    if profile not in PROFILES:
        raise gr.Error(f"unknown profile {profile!r}")
    if language not in LANGUAGES:
        raise gr.Error(f"unknown language {language!r}; choose one of {', '.join(LANGUAGES)}")
    if profile != "meteor-1.5":
        if language != "en":
            raise gr.Error(f"the {profile} profile is English only")
        return get_scorer(profile)
    return get_scorer(profile, language, modules=LANGUAGES[language])


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
    refs = [r for r in (references or "").splitlines() if r.strip()]
    if not refs:
        raise gr.Error("give at least one reference (one per line)")
    if len(refs) > MAX_REFERENCES:
        raise gr.Error(f"{len(refs)} references; this demo takes at most {MAX_REFERENCES}")
    for k, ref in enumerate(refs, 1):
        _check_segment(ref, f"reference {k}")
    scorer = _scorer(profile, language)
    modules = scorer.modules
    r = scorer.sentence_score(hyp, refs)
    counts = module_counts(r.alignment, modules)
    summary = "\n".join([
        f"### METEOR {r.score:.4f}",
        "| | |",
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
        segments.append(scorer.sentence_score(hyp, group))
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


EXAMPLE_HYP = "The cats were sitting on the big rug near the door."
EXAMPLE_REFS = "A cat sat on the large carpet next to the door.\nThe cat is on the mat."


def build_demo() -> gr.Blocks:
    with gr.Blocks(title="METEOR") as demo:
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
                        language = gr.Dropdown(list(LANGUAGES), value="en", label="Language")
                    button = gr.Button("Score", variant="primary", elem_id="score-pair")
                with gr.Column():
                    summary = gr.Markdown(elem_id="pair-summary")
            view = gr.HTML(elem_id="alignment")
            button.click(score_pair, [hyp, refs, profile, language], [summary, view], api_name="score_pair")
        with gr.Tab("Corpus"):
            with gr.Row():
                hyp_file = gr.File(label="Hypotheses", file_types=[".txt", ".jsonl", ".tsv"])
                ref_files = gr.File(label="References (one file per reference set)", file_count="multiple",
                                    file_types=[".txt", ".jsonl"])
            with gr.Row():
                fmt = gr.Radio(list(FORMATS), value="text", label="Format")
                c_profile = gr.Dropdown(list(PROFILES), value="meteor-1.5", label="Profile")
                c_language = gr.Dropdown(list(LANGUAGES), value="en", label="Language")
            c_button = gr.Button("Score corpus", variant="primary", elem_id="score-corpus")
            c_summary = gr.Markdown()
            histogram = gr.BarPlot(x="score", y="segments", title="Segment scores", sort=None)
            table = gr.Dataframe(label="Segments (click a column to sort)", interactive=False, wrap=True)
            c_button.click(score_corpus, [hyp_file, ref_files, fmt, c_profile, c_language],
                           [c_summary, table, histogram], api_name="score_corpus")
        gr.Markdown(f"Limits: {MAX_SEGMENT_CHARS:,} characters per segment, {MAX_LINES:,} segments, "
                    f"{MAX_FILE_BYTES // 1_000_000} MB per file, {MAX_SECONDS:.0f} s per request.")
    return demo


demo = build_demo()

if __name__ == "__main__":
    demo.queue(default_concurrency_limit=2).launch(server_name=os.environ.get("GRADIO_SERVER_NAME", "127.0.0.1"))
