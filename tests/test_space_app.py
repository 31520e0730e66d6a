"""The Space app (app.py) end to end: launched on 127.0.0.1, driven in headless Chromium, called by gradio_client.

Oracle: Java METEOR 1.5 (pycocoevalcap 1.2 jar). The pair below scores 0.461572455914816 with the jar
(`-l en -norm -r 2`, run through benchmarks/jar.py); the example files' corpus score is in
examples/jar-scores.json; the Space's opening example, a reference holding other line breaks, and the
example in each language are in tests/data/space/jar-scores.json (scripts/build_space_goldens.py).
Screenshots go to test-artifacts/.
"""

from __future__ import annotations

import contextlib
import json
import re
import shutil
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

from meteor_metric.meteor15.params import LANGUAGE_NAMES

gradio_client = pytest.importorskip("gradio_client")

REPO = Path(__file__).resolve().parents[1]
ARTIFACTS = REPO / "test-artifacts"
EXAMPLES = REPO / "examples"
JAR = json.loads((EXAMPLES / "jar-scores.json").read_text(encoding="utf-8"))
sys.path.insert(0, str(REPO / "benchmarks"))
from bench_space_first_request import anagram_pair, start_app  # noqa: E402  (shared with the benchmark)
from slow_inputs import SLOW_WORD, repeated_word_pair, slow_segments  # noqa: E402

SPACE_JAR = json.loads((REPO / "tests" / "data" / "space" / "jar-scores.json").read_text(encoding="utf-8"))
PAIR_HYP = "The cat sat quickly on the big mat."
PAIR_REFS = "A cat was sitting on the large mat.\nThe cat sat on the mat."
PAIR_JAR_SCORE = 0.461572455914816
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DEADLINE = 12  # seconds of scoring per request in the app most tests start
SHORT_DEADLINE = 4  # ... and in the app the deadline tests start
#: Segments of the slowest kind the engine's limits let through (about 1 s each on the Python engine) in a
#: corpus that runs well past SHORT_DEADLINE.
SLOW_SEGMENTS = 40
#: How long a test waits for an answer the deadline must bring (a generous guard, not a timing claim:
#: benchmarks/bench_space_limits.py measures the times).
GUARD = 150


@contextlib.contextmanager
def _running_app(tmp_path_factory, deadline: float):
    """The app on a free port, with its own gradio upload folder, an empty METEOR cache folder and a scoring
    deadline of ``deadline`` seconds."""
    uploads, cache = tmp_path_factory.mktemp("gradio"), tmp_path_factory.mktemp("meteor-cache")
    log = tmp_path_factory.mktemp("app") / "app.log"
    with open(log, "wb") as out:
        # the Python engine, because the compiled core scores the inputs built to be slow well inside any deadline
        try:
            proc, url = start_app(uploads, cache, out, timeout=180, METEOR_SPACE_MAX_SECONDS=str(deadline),
                                  METEOR_METRIC_IMPL="python")
        except RuntimeError as exc:
            pytest.fail(f"{exc}:\n{log.read_text(errors='replace')[-3000:]}")
    try:
        yield SimpleNamespace(url=url, uploads=uploads, log=log,
                              cache_at_start=sorted(p.name for p in cache.iterdir()))
    finally:
        proc.terminate()
        proc.wait(timeout=30)


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    """The app with a deadline shorter than the Space's 55 s, long enough for every normal request."""
    with _running_app(tmp_path_factory, DEADLINE) as running:
        yield running


@pytest.fixture(scope="module")
def short_deadline_app_url(tmp_path_factory):
    """The app with a deadline several times shorter than the slow corpora below take (Python engine, idle
    machine: about 40 s), so the deadline tests do not depend on the machine's speed."""
    with _running_app(tmp_path_factory, SHORT_DEADLINE) as running:
        yield running.url


@pytest.fixture(scope="module")
def app_url(app):
    return app.url


def _kept_uploads(folder: Path) -> list[Path]:
    """Files with content left in gradio's upload folder (it also leaves empty scratch files)."""
    return [p for p in folder.rglob("*") if p.is_file() and p.stat().st_size > 0]


def test_paraphrase_index_is_mapped_before_the_app_serves(app):
    # issue 12 item 5: no request pays for the paraphrase index. Since issue 28 English maps the shipped
    # index straight from the package (no table, no note in the cache): nothing is compiled into the cache.
    assert not any(name.endswith(".idx") for name in app.cache_at_start), app.cache_at_start


def test_api_scores_a_pair_like_the_jar(app_url):
    client = gradio_client.Client(app_url, verbose=False)
    summary, picture = client.predict(PAIR_HYP, PAIR_REFS, "meteor-1.5", "en", api_name="/score_pair")
    score = float(re.search(r"\| score \| ([0-9.eE-]+) \|", summary).group(1))
    assert abs(score - PAIR_JAR_SCORE) <= 1e-12
    assert "best reference | 2 of 2" in summary
    assert picture.count("<line ") == 7  # the jar's alignment: 7 exact matches


def test_api_scores_uploaded_files_like_the_jar(app_url):
    client = gradio_client.Client(app_url, verbose=False)
    refs = [gradio_client.handle_file(str(EXAMPLES / name)) for name in ("ref.txt", "ref2.txt")]
    summary, table, histogram = client.predict(gradio_client.handle_file(str(EXAMPLES / "hyp.txt")), refs, "text",
                                               "meteor-1.5", "en", api_name="/score_corpus")
    score = float(re.search(r"score ([0-9.eE-]+) ·", summary).group(1))
    assert abs(score - JAR["two_refs"]["final_score"]) <= 1e-12
    assert len(table["data"]) == 100
    assert sum(row[1] for row in histogram["data"]) == 100


def test_api_rejects_oversized_input(app_url):
    client = gradio_client.Client(app_url, verbose=False)
    with pytest.raises(Exception, match="at most 2,000"):
        client.predict("x " * 1500, "x", "meteor-1.5", "en", api_name="/score_pair")


def test_api_splits_references_on_newline_only(app_url):
    # U+2028, U+0085, \x0c and \x1e stay inside the first reference (str.splitlines would make 6 references
    # of the 2); each line's trailing \r is dropped. The jar reads the same two references.
    golden = SPACE_JAR["breaks"]
    client = gradio_client.Client(app_url, verbose=False)
    summary, _ = client.predict(golden["hypothesis"], "\r\n".join(golden["references"]) + "\r\n", "meteor-1.5",
                                "en", api_name="/score_pair")
    score = float(re.search(r"\| score \| ([0-9.eE-]+) \|", summary).group(1))
    assert abs(score - golden["score"]) <= 1e-12
    assert "best reference | 1 of 2 |" in summary


@pytest.mark.parametrize("language", list(LANGUAGE_NAMES))
def test_api_scores_every_language_like_the_jar(app_url, language):
    golden = SPACE_JAR["languages"][language]  # the jar run with the flags of the Space's configuration
    client = gradio_client.Client(app_url, verbose=False)
    summary, _ = client.predict(SPACE_JAR["example"]["hypothesis"], "\n".join(SPACE_JAR["example"]["references"]),
                                "meteor-1.5", language, api_name="/score_pair")
    score = float(re.search(r"\| score \| ([0-9.eE-]+) \|", summary).group(1))
    assert abs(score - golden["score"]) <= 1e-12, golden["args"]
    assert f"lang:{language}|" in summary


def test_api_original_profile_gives_up_on_a_long_anagram_with_a_clear_message(app_url):
    # The original profile's exact search is exponential on anagrams; the Space's search budget stops a
    # 60-word shuffled sentence of 5 distinct words with a message (how long it takes: see the report).
    hyp, ref = anagram_pair(60)
    client = gradio_client.Client(app_url, verbose=False)
    with pytest.raises(Exception, match=r"this pair: the original profile's exact alignment search gave up after "
                                        r"10,000,000 steps .*Shorten it, use the meteor-1.5 profile"):
        client.predict(hyp, ref, "original", "en", api_name="/score_pair")
    summary, _ = client.predict(*anagram_pair(10), "original", "en", api_name="/score_pair")  # short ones score
    assert summary.startswith("### METEOR ")


def test_upload_layer_refuses_oversized_files(app):
    # gradio's own max_file_size: the upload endpoint answers 413 while the body streams in, and the
    # partial file is gone (gradio_client refuses such a file before sending it, so post it by hand).
    httpx = pytest.importorskip("httpx")
    before = _kept_uploads(app.uploads)
    big = b"the cat sat on the mat\n" * 100_000  # 2.3 MiB > the Space's 2 MiB
    response = httpx.post(f"{app.url}gradio_api/upload", files={"files": ("big.txt", big, "text/plain")}, timeout=60)
    assert response.status_code == 413, response.text
    assert f"maximum allowed size of {2 * 1024 * 1024} bytes" in response.text
    assert _kept_uploads(app.uploads) == before


def test_api_keeps_scored_uploads_for_another_score(app):
    # issue 28: the Corpus tab deleted the uploads once scored, so another profile meant uploading again.
    # They stay (gradio's cache deletes them after an hour) and score again.
    client = gradio_client.Client(app.url, verbose=False)
    client.predict(gradio_client.handle_file(str(EXAMPLES / "hyp.txt")),
                   [gradio_client.handle_file(str(EXAMPLES / "ref.txt"))],
                   "text", "meteor-1.5", "en", api_name="/score_corpus")
    kept = {p.name: p for p in _kept_uploads(app.uploads)}
    assert {"hyp.txt", "ref.txt"} <= set(kept)
    assert kept["hyp.txt"].read_bytes() == (EXAMPLES / "hyp.txt").read_bytes()


def test_api_scores_concurrent_identical_uploads(app_url):
    # issue 25 item 10: identical uploads share one path in gradio's cache; the first request to finish
    # deleted the file the others were reading (8 of 50 failed). Each request now reads its own copy and
    # none deletes: all 24 score like the jar.
    client = gradio_client.Client(app_url, verbose=False)
    hyp, ref = (gradio_client.handle_file(str(EXAMPLES / name)) for name in ("hyp.txt", "ref.txt"))
    jobs = [client.submit(hyp, [ref], "text", "meteor-1.5", "en", api_name="/score_corpus") for _ in range(24)]
    scores = [float(re.search(r"score ([0-9.eE-]+) ·", job.result(timeout=GUARD)[0]).group(1)) for job in jobs]
    assert all(abs(score - JAR["one_ref"]["final_score"]) <= 1e-12 for score in scores), scores


def test_api_json_endpoints_return_the_numbers(app_url):
    # issue 28: the API returned Markdown and HTML only, under names like value_14. The jar's statistics
    # for this pair (-l en -norm -r 2): 7 matches, 3 chunks, best reference 2.
    client = gradio_client.Client(app_url, verbose=False)
    pair = client.predict(PAIR_HYP, PAIR_REFS, "meteor-1.5", "en", api_name="/score_pair_json")
    assert abs(pair["score"] - PAIR_JAR_SCORE) <= 1e-12
    assert (pair["matches"], pair["chunks"], pair["best_reference"], pair["references"]) == (7, 3, 2, 2)
    assert pair["matches_by_module"] == {"exact": 7, "stem": 0, "synonym": 0, "paraphrase": 0}
    assert (pair["hypothesis_length"], pair["reference_length"]) == (9, 7)
    assert abs(pair["fmean"] * (1 - pair["penalty"]) - pair["score"]) <= 1e-12  # METEOR's formula, field by field
    assert 0 < pair["precision"] < pair["recall"] == 1.0  # every reference word matched, not every hypothesis word
    assert pair["signature"].startswith("meteor-1.5|lang:en|")
    refs = [gradio_client.handle_file(str(EXAMPLES / name)) for name in ("ref.txt", "ref2.txt")]
    corpus = client.predict(gradio_client.handle_file(str(EXAMPLES / "hyp.txt")), refs, "text", "meteor-1.5", "en",
                            api_name="/score_corpus_json")
    assert abs(corpus["score"] - JAR["two_refs"]["final_score"]) <= 1e-12
    assert corpus["segments"] == len(corpus["segment_scores"]) == len(corpus["best_references"]) == 100
    assert max(abs(a - b) for a, b in zip(corpus["segment_scores"], JAR["two_refs"]["segment_scores"])) <= 1e-12
    assert set(corpus["best_references"]) <= {1, 2} and "|nrefs:2|" in corpus["signature"]
    assert abs(corpus["fmean"] * (1 - corpus["penalty"]) - corpus["score"]) <= 1e-12
    assert 0 < corpus["precision"] < 1 and 0 < corpus["recall"] < 1 and corpus["chunks"] > 100
    # every endpoint a client needs is named, and so is everything it returns
    api = client.view_api(print_info=False, return_format="dict")["named_endpoints"]
    assert {"/score_pair", "/score_pair_json", "/score_corpus", "/score_corpus_json"} <= set(api)
    labels = [r["label"] for endpoint in api.values() for r in endpoint["returns"]]
    assert not [label for label in labels if label.startswith("value_")], labels


def test_api_refuses_too_many_references_per_segment(app_url, tmp_path):
    # issue 25 item 3: /score_corpus accepted 200 references for a segment; both tabs take 16.
    client = gradio_client.Client(app_url, verbose=False)
    many = tmp_path / "many.jsonl"
    many.write_text(json.dumps({"hyp": "a cat", "refs": ["a cat"] * 200}) + "\n", encoding="utf-8")
    with pytest.raises(Exception, match="segment 1 has 200 references; this demo takes at most 16 per segment"):
        client.predict(gradio_client.handle_file(str(many)), [], "jsonl", "meteor-1.5", "en",
                       api_name="/score_corpus")
    many.write_text(json.dumps({"hyp": "a cat", "refs": ["a cat"] * 16}) + "\n", encoding="utf-8")
    summary, _, _ = client.predict(gradio_client.handle_file(str(many)), [], "jsonl", "meteor-1.5", "en",
                                   api_name="/score_corpus")
    assert "nrefs:16" in summary
    with pytest.raises(Exception, match="this pair has 17 references; this demo takes at most 16 per segment"):
        client.predict("a cat", "\n".join(["a cat"] * 17), "meteor-1.5", "en", api_name="/score_pair")


def _slow_corpus(folder: Path) -> list:
    """Files of ``SLOW_SEGMENTS`` distinct slow segments (one reference each), as text."""
    hyps, refs = slow_segments(SLOW_SEGMENTS)
    folder.mkdir(exist_ok=True)
    (folder / "hyp.txt").write_text("".join(f"{hyp}\n" for hyp in hyps), encoding="utf-8")
    (folder / "ref.txt").write_text("".join(f"{ref}\n" for ref in refs), encoding="utf-8")
    return [gradio_client.handle_file(str(folder / "hyp.txt")), [gradio_client.handle_file(str(folder / "ref.txt"))]]


def test_api_refuses_a_pair_over_the_segment_candidate_limit(app_url):
    # issue 25 item 3: 16 references of a repeated word ran about 7 minutes. The candidate limit counts a
    # segment against all its references (16 x 442,890 here), so the pair is refused before any alignment.
    hyp, refs = repeated_word_pair(16, word=SLOW_WORD)
    client = gradio_client.Client(app_url, verbose=False)
    with pytest.raises(Exception, match=r"this pair: the hypothesis and references 0-1 have more than "
                                        r"max_segment_candidates=500,000 candidate matches"):
        client.predict(hyp, "\n".join(refs), "meteor-1.5", "en", api_name="/score_pair")


def test_api_stops_a_slow_corpus_at_the_deadline(short_deadline_app_url, tmp_path):
    # issue 25 item 3: /score_corpus checked its deadline only between segments. The scoring process is killed
    # at the deadline, with a message naming the segment reached.
    client = gradio_client.Client(short_deadline_app_url, verbose=False)
    with pytest.raises(Exception, match=rf"this corpus took longer than this demo's {SHORT_DEADLINE} s \(stopped "
                                        r"at segment ([1-9]|[1-3][0-9])\): a very long or repetitive input"):
        client.predict(*_slow_corpus(tmp_path), "text", "meteor-1.5", "en", api_name="/score_corpus")


def test_a_pair_past_the_deadline_is_stopped_with_a_clear_message(monkeypatch):
    # Within the engine's limits no pair takes more than about a second of scoring, so a scorer that hangs
    # stands in for a slow one: the deadline kills the process scoring the pair (the process is real).
    sys.path.insert(0, str(REPO))
    import app as space

    monkeypatch.setattr(space, "MAX_SECONDS", 1.0)
    monkeypatch.setattr(space, "_sentence", lambda *args: time.sleep(600))
    with pytest.raises(space.gr.Error, match="this pair took longer than this demo's 1 s: a very long or "
                                             "repetitive input. Shorten it, or score it with the meteor-metric "
                                             "command line"):
        space.score_pair("a cat", "a cat")


def test_api_answers_a_normal_request_sent_alongside_two_slow_ones(short_deadline_app_url, tmp_path):
    # issue 25 item 3: two slow requests held both queue slots and a normal request waited 144 s behind them.
    # Scoring runs in processes of its own, 4 requests at once: the normal one is answered while they run.
    client = gradio_client.Client(short_deadline_app_url, verbose=False)
    slow = [client.submit(*_slow_corpus(tmp_path / str(k)), "text", "meteor-1.5", "en", api_name="/score_corpus")
            for k in range(2)]
    normal = client.submit(PAIR_HYP, PAIR_REFS, "meteor-1.5", "en", api_name="/score_pair")
    assert f"| score | {PAIR_JAR_SCORE!r} |" in normal.result(timeout=GUARD)[0]
    assert not any(job.done() for job in slow)  # answered before the slow ones end
    for job in slow:
        with pytest.raises(Exception, match="took longer than"):
            job.result(timeout=GUARD)


#: Bad inputs a client can send, each with the start of the message it gets back.
BAD_INPUTS = [
    (("x", "y", "bogus", "en"), "/score_pair", "Value: bogus is not in the list of choices"),
    (("x", "y", "meteor-1.5", "xx"), "/score_pair", "Value: xx is not in the list of choices"),
    (("x", "y", "nltk", "de"), "/score_pair", "the nltk profile is English only"),
    (("x", "", "meteor-1.5", "en"), "/score_pair", "give at least one reference"),
    ((None, "y", "meteor-1.5", "en"), "/score_pair", "the hypothesis must be text"),
    (("x " * 1500, "y", "meteor-1.5", "en"), "/score_pair", "the hypothesis has 3,000 characters"),
    ((*anagram_pair(60), "original", "en"), "/score_pair", "this pair: the original profile's exact alignment"),
]


def test_user_errors_are_refused_without_a_traceback_in_the_server_log(app, tmp_path):
    # issue 28: user input errors printed full tracebacks in the server log (gr.Error prints one unless
    # told not to, and so do gradio's own checks of choices and file types).
    (tmp_path / "bad.jsonl").write_text("not json\n", encoding="utf-8")
    (tmp_path / "bad.txt").write_bytes(b"\xff\xfe bad\n")
    (tmp_path / "empty.txt").write_bytes(b"")
    (tmp_path / "x.pdf").write_text("a cat\n", encoding="utf-8")
    file = gradio_client.handle_file
    ref = file(str(EXAMPLES / "ref.txt"))
    bad = BAD_INPUTS + [
        ((file(str(tmp_path / "bad.jsonl")), [], "jsonl", "meteor-1.5", "en"), "/score_corpus",
         "hypothesis file: line 1 is not JSON"),
        ((file(str(tmp_path / "bad.txt")), [ref], "text", "meteor-1.5", "en"), "/score_corpus",
         "hypothesis file: line 1 is not valid UTF-8"),
        ((file(str(tmp_path / "empty.txt")), [ref], "text", "meteor-1.5", "en"), "/score_corpus", "reference file 1"),
        ((file(str(tmp_path / "x.pdf")), [ref], "text", "meteor-1.5", "en"), "/score_corpus", "Invalid file type"),
        ((file(str(EXAMPLES / "hyp.txt")), [ref], "xml", "meteor-1.5", "en"), "/score_corpus",
         "Value: 'xml' (type: <class 'str'>) is not in the list of choices"),
        ((None, [ref], "text", "meteor-1.5", "en"), "/score_corpus", "upload the hypothesis file"),
    ]
    client = gradio_client.Client(app.url, verbose=False)
    for args, api_name, message in bad:
        with pytest.raises(Exception, match=re.escape(message)):
            client.predict(*args, api_name=api_name)
    client.predict(PAIR_HYP, PAIR_REFS, "meteor-1.5", "en", api_name="/score_pair")  # the log is written by now
    log = app.log.read_text(errors="replace")
    assert "Traceback" not in log, log[-3000:]


def test_header_links_nowhere_dead(app_url):
    # issue 28: the header linked to https://pypi.org/project/meteor-metric/, which does not exist (the
    # package is not on PyPI). The page links to nothing outside itself.
    client = gradio_client.Client(app_url, verbose=False)
    texts = [c.get("props", {}).get("value") for c in client.config["components"]]
    markdown = " ".join(t for t in texts if isinstance(t, str))
    assert "# METEOR" in markdown
    assert not re.findall(r"\]\((?:https?:)?//|href=[\"']?https?:", markdown), markdown


needs_chromium = pytest.mark.skipif(CHROMIUM is None,
                                    reason="no Chromium on this machine (Debian: apt-get install chromium)")


@contextlib.contextmanager
def _page(url: str):
    """A 1280x1000 page of the app in headless Chromium, loaded."""
    sync_api = pytest.importorskip("playwright.sync_api")
    ARTIFACTS.mkdir(exist_ok=True)
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=[
            "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
            "--disable-component-update", "--disable-sync"])
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 1000})
            page.goto(url, wait_until="networkidle")
            yield page
        finally:
            browser.close()


#: The character before each line break inside an element, from the rectangles of its characters.
LINE_ENDS_JS = """e => {
    const walker = document.createTreeWalker(e, NodeFilter.SHOW_TEXT), chars = [];
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        for (let i = 0; i < node.length; i++) {
            const range = document.createRange();
            range.setStart(node, i);
            range.setEnd(node, i + 1);
            const rect = range.getClientRects()[0];
            if (rect) chars.push([node.data[i], rect.top]);
        }
    }
    const ends = [];
    for (let k = 1; k < chars.length; k++) if (chars[k][1] > chars[k - 1][1] + 2) ends.push(chars[k - 1][0]);
    return ends;
}"""


def _assert_signature_wraps_at_bars(page, summary: str, start: str) -> None:
    # issue 28: the signature box broke lines mid-token (overflow-wrap: anywhere)
    signature = page.locator(f"{summary} code")
    assert signature.inner_text().replace("\n", "").startswith(start)
    overflow = signature.evaluate("e => e.scrollWidth - e.clientWidth")
    box, column = signature.bounding_box(), page.locator(summary).bounding_box()
    assert overflow <= 1 and box["x"] + box["width"] <= column["x"] + column["width"] + 1
    line_ends = signature.evaluate(LINE_ENDS_JS)
    assert line_ends and set(line_ends) == {"|"}, line_ends  # it wraps, after a "|" each time


def _wait_for_summary(page, selector: str, text: str) -> None:
    page.wait_for_selector(f"{selector} h3:has-text({json.dumps(text)})", timeout=60_000)


@needs_chromium
def test_browser_opens_on_the_scored_example(app_url):
    golden = SPACE_JAR["example"]
    with _page(app_url) as page:
        page.screenshot(path=str(ARTIFACTS / "space-first-view.png"), full_page=True)
        summary = page.inner_text("#pair-summary")
        assert f"METEOR {golden['score']:.4f}" in summary and repr(golden["score"]) in summary  # no click needed
        assert page.locator("#alignment svg.meteor-alignment").count() == 1
        # the results table: one header row, every header cell labelled
        headers = page.locator("#pair-summary thead tr")
        assert headers.count() == 1
        assert [t.strip() for t in headers.locator("th").all_inner_texts()] == ["statistic", "value"]
        # the signature wraps inside its column, after a "|" only: nothing scrolls or spills past the page
        _assert_signature_wraps_at_bars(page, "#pair-summary", "meteor-1.5|lang:en|")
        # every language of the engine is in the menu, in the library's order
        page.click("#language input")
        options = page.locator("#language [role=option]")
        options.first.wait_for()
        labels = options.evaluate_all("items => items.map(e => e.getAttribute('aria-label'))")
        assert [label.split(" ")[0] for label in labels] == list(LANGUAGE_NAMES)
        assert len(LANGUAGE_NAMES) == 18
        page.keyboard.press("Escape")
        # the Corpus tab: no placeholder table until something is scored
        page.get_by_role("tab", name="Corpus").click()
        page.wait_for_selector("#corpus-summary")
        page.screenshot(path=str(ARTIFACTS / "space-corpus-empty.png"), full_page=True)
        assert page.locator("#segments").count() == 0 or not page.locator("#segments").is_visible()
        assert not [t for t in page.locator("th").all_inner_texts() if t.strip() in ("1", "2", "3") and t]


@needs_chromium
def test_browser_click_shows_the_alignment(app_url):
    with _page(app_url) as page:
        page.fill("#hyp textarea", PAIR_HYP)
        page.fill("#refs textarea", PAIR_REFS)
        page.click("#score-pair")
        _wait_for_summary(page, "#pair-summary", "METEOR 0.4616")
        page.wait_for_selector("#alignment svg.meteor-alignment")
        assert page.locator("#alignment svg line").count() == 7
        assert page.locator("#alignment svg rect.chunk").count() == 6  # 3 chunks, framed on both sides
        labels = [t for t in page.locator("#alignment svg text").all_text_contents() if t.startswith("#")]
        assert labels == ["#1", "#2", "#3"]  # numbered from 1, like the CLI's chunks and word positions
        page.screenshot(path=str(ARTIFACTS / "space-pair.png"), full_page=True)
    assert (ARTIFACTS / "space-pair.png").stat().st_size > 10_000


@needs_chromium
def test_browser_typed_references_split_on_newline_only(app_url):
    golden = SPACE_JAR["breaks"]
    with _page(app_url) as page:
        page.fill("#hyp textarea", golden["hypothesis"])
        page.fill("#refs textarea", "\n".join(golden["references"]))
        page.click("#score-pair")
        _wait_for_summary(page, "#pair-summary", f"METEOR {golden['score']:.4f}")
        assert "1 of 2" in page.inner_text("#pair-summary")


@needs_chromium
def test_browser_scores_uploaded_files_again_with_another_profile(app, tmp_path):
    # issue 28: the files were cleared after scoring; they stay, so another profile needs no new upload.
    # Oracle for the second score: the nltk profile of the library on the same files (scored in-process).
    from meteor_metric import get_scorer

    hyps = (EXAMPLES / "hyp.txt").read_text(encoding="utf-8").splitlines()
    refs = zip(*((EXAMPLES / n).read_text(encoding="utf-8").splitlines() for n in ("ref.txt", "ref2.txt")))
    nltk_score = get_scorer("nltk").corpus_score(hyps, [list(r) for r in refs]).score
    with _page(app.url) as page:
        page.get_by_role("tab", name="Corpus").click()
        page.set_input_files("#hyp-file input[type=file]", str(EXAMPLES / "hyp.txt"))
        page.set_input_files("#ref-files input[type=file]", [str(EXAMPLES / n) for n in ("ref.txt", "ref2.txt")])
        for box, n in (("#hyp-file", 1), ("#ref-files", 2)):  # each uploaded file is listed with its size
            page.wait_for_function(
                f"() => (document.querySelector('{box}').innerText.match(/KB/g) || []).length == {n}")
        page.click("#score-corpus")
        _wait_for_summary(page, "#corpus-summary", f"Corpus METEOR {JAR['two_refs']['final_score']:.4f}")
        page.wait_for_selector("#segments th")
        headers = [t.strip() for t in page.locator("#segments thead th").all_inner_texts()]
        assert headers[:4] == ["segment", "score", "hypothesis", "best reference"], headers
        _assert_signature_wraps_at_bars(page, "#corpus-summary", "meteor-1.5|lang:en|")
        page.screenshot(path=str(ARTIFACTS / "space-corpus.png"), full_page=True)
        for box in ("#hyp-file", "#ref-files"):  # the files are still there
            assert "KB" in page.inner_text(box)
        page.locator("#corpus-profile input").click()
        page.locator("#corpus-profile [role=option][aria-label='nltk']").click()
        page.click("#score-corpus")
        _wait_for_summary(page, "#corpus-summary", f"Corpus METEOR {nltk_score:.4f}")
        assert repr(nltk_score) in page.inner_text("#corpus-summary")
        # an oversized file is refused by gradio's upload layer with its message, and never lands
        kept = _kept_uploads(app.uploads)
        big = tmp_path / "big.txt"
        big.write_bytes(b"the cat sat on the mat\n" * 100_000)
        page.reload(wait_until="networkidle")  # empty file boxes
        page.get_by_role("tab", name="Corpus").click()
        page.set_input_files("#hyp-file input[type=file]", str(big))
        page.wait_for_selector(":text('exceed the maximum allowed size')", timeout=30_000)
        page.screenshot(path=str(ARTIFACTS / "space-upload-too-big.png"), full_page=True)
        assert _kept_uploads(app.uploads) == kept
