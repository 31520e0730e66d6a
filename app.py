"""meteor-metric Space: METEOR for one pair, with its alignment, or for a corpus from files.

Run locally with ``python app.py`` (http://127.0.0.1:7860). Its API endpoints (docs/space.md):
``/score_pair`` and ``/score_corpus`` return what the page shows (Markdown, HTML, tables);
``/score_pair_json`` and ``/score_corpus_json`` return the numbers as JSON. Each request scores in a
forked process of its own, killed at the deadline (``MAX_SECONDS``), so a slow request never holds the
server past it.
"""

from __future__ import annotations

import html
import math
import multiprocessing
import os
import traceback
from dataclasses import dataclass
from typing import Any, Callable, Sequence

import gradio as gr
import pandas as pd

from meteor_metric import PROFILES, get_scorer
from meteor_metric.analysis.alignment_view import alignment_svg, legend_html, module_counts
from meteor_metric.core.corpus_io import FORMATS, CorpusFormatError, decode, parse_corpus
from meteor_metric.core.results import SegmentResult
from meteor_metric.meteor15.params import LANGUAGE_NAMES, STEM_LANGUAGES, SUPPORTED_LANGUAGES
from meteor_metric.profiles.original_align import SearchBudgetExceeded

MAX_SEGMENT_CHARS = 2_000
MAX_REFERENCES = 16
MAX_LINES = 5_000
MAX_FILE_BYTES = 2 * 1024 * 1024  # gradio's upload message says "2 Mb"
#: Scoring time per request: the scoring process is killed then, so every answer comes within 60 s.
#: A server of your own may set another with $METEOR_SPACE_MAX_SECONDS.
MAX_SECONDS = float(os.environ.get("METEOR_SPACE_MAX_SECONDS", "55"))
#: Scoring requests served at once (all scoring endpoints together); the others wait in gradio's queue.
#: Each runs in its own process, so a normal request sent alongside slow ones starts at once.
CONCURRENT_REQUESTS = 4
#: Uploads are kept this long (seconds) so a corpus can be scored again, e.g. with another profile.
KEEP_UPLOADS = 3600
#: Steps of exact alignment work the ``original`` profile may spend on one segment here, all its
#: references together (about 1 s on a free core; real sentence pairs need far fewer, long anagrams
#: of a few words far more).
SEARCH_BUDGET = 10_000_000

#: Every language of METEOR 1.5, as the menu shows it.
LANGUAGE_CHOICES = [(f"{code} ({name})", code) for code, name in LANGUAGE_NAMES.items()]


def refusal(message: str) -> gr.Error:
    """A user-facing error: shown to the user (or the API client), no traceback in the server log."""
    return gr.Error(message, print_exception=False)


def quiet(component: gr.components.Component) -> gr.components.Component:
    """``component``, refusing an invalid value sent through the API (an unknown choice, a file type it
    does not take) like the app's own errors: gradio's message, no traceback in the server log."""
    preprocess = component.preprocess

    def refusing(payload):
        try:
            return preprocess(payload)
        except gr.Error as exc:
            raise refusal(exc.message) from None

    component.preprocess = refusing
    return component


def _scorer(profile: str, language: str):
    """The scorer of a profile and language, configured to need no download.

    English uses the full METEOR 1.5 configuration (the paraphrase table ships with the package);
    other languages match exactly and by stem (where the jar has a stemmer); languages without tuned
    parameters use the jar's language-independent task and lowercasing, since it has no
    normalizer for them."""
    if profile not in PROFILES:
        raise refusal(f"unknown profile {profile!r}; choose one of {', '.join(PROFILES)}")
    if language not in LANGUAGE_NAMES:
        raise refusal(f"unknown language {language!r}; choose one of {', '.join(LANGUAGE_NAMES)}")
    if profile != "meteor-1.5":
        if language != "en":
            raise refusal(f"the {profile} profile is English only; choose meteor-1.5 for {LANGUAGE_NAMES[language]}")
        return get_scorer(profile, search_budget=SEARCH_BUDGET) if profile == "original" else get_scorer(profile)
    if language == "en":
        return get_scorer(profile)
    modules = ("exact", "stem") if language in STEM_LANGUAGES else ("exact",)
    if language in SUPPORTED_LANGUAGES:
        return get_scorer(profile, language, modules=modules)
    return get_scorer(profile, language, task="li", normalization="lc_only", modules=modules)


def _budget_error(where: str) -> gr.Error:
    return refusal(f"{where}: the original profile's exact alignment search gave up after {SEARCH_BUDGET:,} "
                   "steps (a very repetitive or very long segment, e.g. a long anagram of a few words; all "
                   "references share the budget). Shorten it, use the "
                   "meteor-1.5 profile, or run get_scorer('original', search_budget=...) locally to wait longer.")


# --- scoring in a process of its own, killed at the deadline ------------------------------------

_FORK = multiprocessing.get_context("fork")


def _run_and_send(sender, fn: Callable, args: tuple) -> None:
    """In the scoring process: ``fn(*args)``'s value, or its refusal or failure, through the pipe."""
    try:
        outcome = ("value", fn(*args))
    except gr.Error as exc:
        outcome = ("refusal", exc.message)
    except Exception:  # a bug: the parent raises it with this traceback, so the server log shows it
        outcome = ("failure", traceback.format_exc())
    sender.send(outcome)
    sender.close()


def within_deadline(fn: Callable, *args, what: str, progress=None) -> Any:
    """``fn(*args)`` run in a forked copy of this process, which is killed after ``MAX_SECONDS``.

    A forked process sees the server's loaded scorers and mapped indexes at no cost, and killing it
    stops any work (pure Python or compiled) at once. ``fn`` raises :func:`refusal` errors for the
    user; they are raised here again. ``progress`` (a shared counter ``fn`` advances) names how far a
    stopped request got."""
    receiver, sender = _FORK.Pipe(duplex=False)
    child = _FORK.Process(target=_run_and_send, args=(sender, fn, args), daemon=True)
    child.start()
    sender.close()
    try:
        if not receiver.poll(MAX_SECONDS):
            reached = f" (stopped at segment {progress.value + 1})" if progress is not None else ""
            raise refusal(f"{what} took longer than this demo's {MAX_SECONDS:.0f} s{reached}: a very long or "
                          "repetitive input. Shorten it, or score it with the meteor-metric command line, "
                          "which has no time limit.")
        try:
            kind, value = receiver.recv()
        except EOFError:
            child.join(5)
            raise RuntimeError(f"the scoring process of {what} ended without an answer "
                               f"(exit status {child.exitcode})") from None
    finally:
        child.kill()
        child.join()
        receiver.close()
    if kind == "refusal":
        raise refusal(value)
    if kind == "failure":
        raise RuntimeError(f"scoring {what} failed in its process:\n{value}")
    return value


# --- inputs -------------------------------------------------------------------------------------

def split_references(text: str) -> list[str]:
    """References typed one per line: split on "\\n" only (a trailing "\\r" is dropped), blank lines skipped.

    Other line breaks (U+2028, U+0085, form feed, ...) stay inside their reference."""
    lines = (line[:-1] if line.endswith("\r") else line for line in (text or "").split("\n"))
    return [line for line in lines if line.strip()]


def _check_segment(text: object, what: str) -> str:
    if not isinstance(text, str):
        raise refusal(f"{what} must be text")
    if len(text) > MAX_SEGMENT_CHARS:
        raise refusal(f"{what} has {len(text):,} characters; this demo takes at most {MAX_SEGMENT_CHARS:,} "
                      "(use the meteor-metric command line for longer segments)")
    return text


def _check_references(refs: Sequence[str], where: str) -> None:
    if len(refs) > MAX_REFERENCES:
        raise refusal(f"{where} has {len(refs)} references; this demo takes at most {MAX_REFERENCES} per segment "
                      "(use the meteor-metric command line for more)")


def _pair_inputs(hypothesis: str, references: str) -> tuple[str, list[str]]:
    hyp = _check_segment(hypothesis, "the hypothesis")
    if references is not None and not isinstance(references, str):
        raise refusal("the references must be text, one per line")
    refs = split_references(references)
    if not refs:
        raise refusal("give at least one reference (one per line)")
    _check_references(refs, "this pair")
    for k, ref in enumerate(refs, 1):
        _check_segment(ref, f"reference {k}")
    return hyp, refs


def _upload_bytes(upload, what: str) -> bytes:
    """The bytes of one upload, read once at the start of the request: the request's own copy."""
    path = upload if isinstance(upload, str) else getattr(upload, "name", None)
    if not path:
        raise refusal(f"upload the {what}")
    try:
        size = os.path.getsize(path)
        if size > MAX_FILE_BYTES:
            raise refusal(f"the {what} has {size:,} bytes; this demo takes at most {MAX_FILE_BYTES:,}")
        with open(path, "rb") as f:
            return f.read(MAX_FILE_BYTES + 1)
    except FileNotFoundError:
        raise refusal(f"the {what} is no longer on the server (uploads are kept {KEEP_UPLOADS // 60} minutes); "
                      "upload it again") from None
    except IsADirectoryError:
        raise refusal(f"the {what} is a folder, not a file") from None


def _corpus_inputs(hyp_file, ref_files, fmt: str) -> tuple[list[str], list[list[str]]]:
    if fmt not in FORMATS:
        raise refusal(f"unknown format {fmt!r}; choose one of {', '.join(FORMATS)}")
    ref_files = [f for f in (ref_files or []) if f]
    try:
        hyp_lines = decode(_upload_bytes(hyp_file, "hypothesis file"), "hypothesis file")
        ref_sets = [decode(_upload_bytes(f, f"reference file {k}"), f"reference file {k}")
                    for k, f in enumerate(ref_files, 1)]
        hyps, refs = parse_corpus(hyp_lines, ref_sets, fmt, "hypothesis file",
                                  [f"reference file {k}" for k in range(1, len(ref_sets) + 1)])
    except CorpusFormatError as exc:
        raise refusal(str(exc)) from None
    if not hyps:
        raise refusal("the hypothesis file is empty")
    if len(hyps) > MAX_LINES:
        raise refusal(f"{len(hyps):,} segments; this demo takes at most {MAX_LINES:,} "
                      "(use the meteor-metric command line for larger corpora)")
    for k, (hyp, group) in enumerate(zip(hyps, refs), 1):
        _check_segment(hyp, f"hypothesis {k}")
        _check_references(group, f"segment {k}")
        for ref in group:
            _check_segment(ref, f"a reference of segment {k}")
    return hyps, [list(group) for group in refs]


# --- scoring (these run in the scoring process) ---------------------------------------------------

def _sentence(scorer, hyp: str, refs: list[str]) -> SegmentResult:
    try:
        return scorer.sentence_score(hyp, refs)
    except SearchBudgetExceeded:
        raise _budget_error("this pair") from None
    except ValueError as exc:  # the engine's own limits, with their message
        raise refusal(f"this pair: {exc}") from None


@dataclass(frozen=True)
class CorpusOutcome:
    """What the Space shows of a scored corpus (the segments' alignments stay in the scoring process)."""

    score: float
    precision: float
    recall: float
    fmean: float
    fragmentation_penalty: float
    chunks: int
    signature: str
    segment_scores: list[float]
    best_refs: list[int]


def _corpus(scorer, hyps: list[str], refs: list[list[str]], progress) -> CorpusOutcome:
    segments = []
    for k, (hyp, group) in enumerate(zip(hyps, refs)):
        progress.value = k
        try:
            segments.append(scorer.sentence_score(hyp, group))
        except SearchBudgetExceeded:
            raise _budget_error(f"segment {k + 1}") from None
        except ValueError as exc:
            raise refusal(f"segment {k + 1}: {exc}") from None
    c = scorer.aggregate(segments, [len(g) for g in refs])
    return CorpusOutcome(c.score, c.precision, c.recall, c.fmean, c.fragmentation_penalty, c.chunks, c.signature,
                         [s.score for s in segments], [s.best_ref for s in segments])


def _pair_result(hypothesis, references, profile, language) -> tuple[SegmentResult, list[str], tuple[str, ...]]:
    hyp, refs = _pair_inputs(hypothesis, references)
    scorer = _scorer(profile, language)  # built here (and cached) so each forked process starts with it
    return within_deadline(_sentence, scorer, hyp, refs, what="this pair"), refs, scorer.modules


def _corpus_result(hyp_file, ref_files, fmt, profile, language) -> tuple[CorpusOutcome, list[str], list[list[str]]]:
    hyps, refs = _corpus_inputs(hyp_file, ref_files, fmt)
    scorer = _scorer(profile, language)
    progress = _FORK.RawValue("q", 0)
    outcome = within_deadline(_corpus, scorer, hyps, refs, progress, what="this corpus", progress=progress)
    return outcome, hyps, refs


# --- endpoints ----------------------------------------------------------------------------------

def _number(x: float) -> float | None:
    """A float for JSON: NaN and infinities (e.g. precision with no matches) become null."""
    return x if math.isfinite(x) else None


def signature_html(signature: str) -> str:
    """The signature as inline code that may wrap after each ``|`` only (a <wbr> there; copying keeps it intact)."""
    return '<code class="signature">' + "|<wbr>".join(html.escape(part) for part in signature.split("|")) + "</code>"


def score_pair(hypothesis: str, references: str, profile: str = "meteor-1.5", language: str = "en"):
    """Score one hypothesis against references (one per line): a summary and the alignment picture."""
    r, refs, modules = _pair_result(hypothesis, references, profile, language)
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
        signature_html(r.signature),
    ])
    picture = (f'<div class="meteor-view"><div style="margin-bottom:6px">{legend_html(counts)}</div>'
               f'<div style="overflow-x:auto">{alignment_svg(r.hyp_tokens, r.ref_tokens, r.alignment, modules)}'
               f'</div><div style="font-size:12px;color:#6b7280">Reference {r.best_ref + 1}: '
               f'{html.escape(refs[r.best_ref])}</div></div>')
    return summary, picture


def score_pair_json(hypothesis: str, references: str, profile: str = "meteor-1.5", language: str = "en") -> dict:
    """Score one hypothesis against references (one per line): the numbers as a JSON object."""
    r, refs, modules = _pair_result(hypothesis, references, profile, language)
    return {
        "score": r.score, "precision": _number(r.precision), "recall": _number(r.recall), "fmean": _number(r.fmean),
        "penalty": _number(r.fragmentation_penalty), "chunks": r.chunks, "matches": len(r.alignment),
        "matches_by_module": module_counts(r.alignment, modules), "hypothesis_length": len(r.hyp_tokens),
        "reference_length": len(r.ref_tokens), "best_reference": r.best_ref + 1, "references": len(refs),
        "signature": r.signature,
    }


def score_corpus(hyp_file, ref_files, fmt: str = "text", profile: str = "meteor-1.5", language: str = "en"):
    """Score uploaded files: a summary with the signature, a per-segment table and a histogram."""
    c, hyps, refs = _corpus_result(hyp_file, ref_files, fmt, profile, language)
    summary = (f"### Corpus METEOR {c.score:.4f}\nscore {c.score!r} · {len(hyps):,} segments · precision "
               f"{c.precision:.4f} · recall {c.recall:.4f} · penalty {c.fragmentation_penalty:.4f}"
               f"\n\n{signature_html(c.signature)}")
    table = pd.DataFrame({
        "segment": range(1, len(hyps) + 1),
        "score": [round(s, 4) for s in c.segment_scores],
        "hypothesis": hyps,
        "best reference": [group[best] for best, group in zip(c.best_refs, refs)],
    })
    bins = [min(int(s * 10), 9) for s in c.segment_scores]
    histogram = pd.DataFrame({"score": [f"{b / 10:.1f}–{(b + 1) / 10:.1f}" for b in range(10)],
                              "segments": [bins.count(b) for b in range(10)]})
    return summary, table, histogram


def score_corpus_json(hyp_file, ref_files, fmt: str = "text", profile: str = "meteor-1.5",
                      language: str = "en") -> dict:
    """Score uploaded files: the corpus numbers and each segment's score and best reference as JSON."""
    c, hyps, _ = _corpus_result(hyp_file, ref_files, fmt, profile, language)
    return {
        "score": c.score, "precision": _number(c.precision), "recall": _number(c.recall), "fmean": _number(c.fmean),
        "penalty": _number(c.fragmentation_penalty), "chunks": c.chunks, "segments": len(hyps),
        "signature": c.signature, "segment_scores": c.segment_scores,
        "best_references": [best + 1 for best in c.best_refs],
    }


EXAMPLE_HYP = "The cats were sitting on the big rug near the door."
EXAMPLE_REFS = "A cat sat on the large carpet next to the door.\nThe cat is on the mat."

#: The signature wraps only after a "|" (see signature_html); a field longer than a line may still break.
CSS = "code.signature { white-space: normal; word-break: normal; overflow-wrap: break-word; }"


def build_demo() -> gr.Blocks:
    """The Space's interface. Each profile scores the example here, in this process, before the app
    serves: the paraphrase index and WordNet are loaded once, every scoring process forked later
    starts with them, and the page opens on a scored pair."""
    for name in PROFILES:
        _scorer(name, "en").sentence_score(EXAMPLE_HYP, split_references(EXAMPLE_REFS))
    example_summary, example_view = score_pair(EXAMPLE_HYP, EXAMPLE_REFS)
    scoring = dict(concurrency_limit=CONCURRENT_REQUESTS, concurrency_id="scoring")
    with gr.Blocks(title="METEOR", delete_cache=(KEEP_UPLOADS // 2, KEEP_UPLOADS)) as demo:
        gr.Markdown("# METEOR\nMETEOR 1.5 exactly as the Java reference, NLTK-compatible, or as first "
                    "published — with the alignment it is computed from. Scored by meteor-metric, in pure "
                    "Python: no Java, no downloads.", elem_id="header")
        with gr.Tab("Pair"):
            with gr.Row():
                with gr.Column():
                    hyp = gr.Textbox(label="Hypothesis", value=EXAMPLE_HYP, lines=2, elem_id="hyp")
                    refs = gr.Textbox(label="References (one per line)", value=EXAMPLE_REFS, lines=3,
                                      elem_id="refs")
                    with gr.Row():
                        profile = quiet(gr.Dropdown(list(PROFILES), value="meteor-1.5", label="Profile"))
                        language = quiet(gr.Dropdown(LANGUAGE_CHOICES, value="en", label="Language",
                                                     elem_id="language"))
                    button = gr.Button("Score", variant="primary", elem_id="score-pair")
                with gr.Column():
                    summary = gr.Markdown(example_summary, label="Summary", elem_id="pair-summary")
            view = gr.HTML(example_view, label="Alignment", elem_id="alignment")
            button.click(score_pair, [hyp, refs, profile, language], [summary, view], api_name="score_pair",
                         **scoring)
            pair_json = gr.JSON(label="Result", visible=False)
            gr.Button(visible=False).click(score_pair_json, [hyp, refs, profile, language], pair_json,
                                           api_name="score_pair_json", **scoring)
        with gr.Tab("Corpus"):
            with gr.Row():
                hyp_file = quiet(gr.File(label="Hypotheses", file_types=[".txt", ".jsonl", ".tsv"],
                                         elem_id="hyp-file"))
                ref_files = quiet(gr.File(label="References (one file per reference set)", file_count="multiple",
                                          file_types=[".txt", ".jsonl"], elem_id="ref-files"))
            with gr.Row():
                fmt = quiet(gr.Radio(list(FORMATS), value="text", label="Format"))
                c_profile = quiet(gr.Dropdown(list(PROFILES), value="meteor-1.5", label="Profile",
                                              elem_id="corpus-profile"))
                c_language = quiet(gr.Dropdown(LANGUAGE_CHOICES, value="en", label="Language"))
            c_button = gr.Button("Score corpus", variant="primary", elem_id="score-corpus")
            c_summary = gr.Markdown("Upload the hypotheses and one file per reference set, line-aligned (or one "
                                    "JSONL/TSV file holding both), then *Score corpus*; click a column of the "
                                    f"table to sort it. The files stay here (for {KEEP_UPLOADS // 60} minutes) so "
                                    "you can score them again with another profile or language.",
                                    label="Summary", elem_id="corpus-summary")
            with gr.Column(visible=False) as results:
                histogram = gr.BarPlot(x="score", y="segments", title="Segment scores", sort=None, label="Histogram")
                table = gr.Dataframe(headers=["segment", "score", "hypothesis", "best reference"],
                                     label="Segments", interactive=False, wrap=True,
                                     column_widths=["9%", "9%", "41%", "41%"],
                                     elem_id="segments")
            scored = c_button.click(score_corpus, [hyp_file, ref_files, fmt, c_profile, c_language],
                                    [c_summary, table, histogram], api_name="score_corpus", **scoring)
            scored.success(lambda: gr.Column(visible=True), None, results, api_visibility="private")
            corpus_json = gr.JSON(label="Result", visible=False)
            gr.Button(visible=False).click(score_corpus_json, [hyp_file, ref_files, fmt, c_profile, c_language],
                                           corpus_json, api_name="score_corpus_json", **scoring)
        gr.Markdown(f"Limits: {MAX_SEGMENT_CHARS:,} characters per segment, {MAX_REFERENCES} references per "
                    f"segment, {MAX_LINES:,} segments, {MAX_FILE_BYTES // 2**20} MB per file, "
                    f"{MAX_SECONDS:.0f} s of scoring per request. API: `/score_pair_json`, `/score_corpus_json` "
                    "(see *Use via API* below).")
    return demo


demo = build_demo()


def launch() -> None:
    """Serve the demo; uploads over ``MAX_FILE_BYTES`` are refused while they stream in."""
    demo.queue().launch(server_name=os.environ.get("GRADIO_SERVER_NAME", "127.0.0.1"),
                        max_file_size=MAX_FILE_BYTES, css=CSS)


if __name__ == "__main__":
    launch()
