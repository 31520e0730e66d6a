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

SPACE_JAR = json.loads((REPO / "tests" / "data" / "space" / "jar-scores.json").read_text(encoding="utf-8"))
PAIR_HYP = "The cat sat quickly on the big mat."
PAIR_REFS = "A cat was sitting on the large mat.\nThe cat sat on the mat."
PAIR_JAR_SCORE = 0.461572455914816
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    """The app on a free port, with its own gradio upload folder and an empty METEOR cache folder."""
    uploads, cache = tmp_path_factory.mktemp("gradio"), tmp_path_factory.mktemp("meteor-cache")
    log = tmp_path_factory.mktemp("app") / "app.log"
    with open(log, "wb") as out:
        try:
            proc, url = start_app(uploads, cache, out, timeout=180)
        except RuntimeError as exc:
            pytest.fail(f"{exc}:\n{log.read_text(errors='replace')[-3000:]}")
    try:
        yield SimpleNamespace(url=url, uploads=uploads, cache_at_start=sorted(p.name for p in cache.iterdir()))
    finally:
        proc.terminate()
        proc.wait(timeout=30)


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


def test_upload_layer_refuses_oversized_files_and_keeps_no_upload(app, tmp_path):
    # gradio's own max_file_size: the upload endpoint answers 413 while the body streams in, and the
    # partial file is gone (gradio_client refuses such a file before sending it, so post it by hand).
    httpx = pytest.importorskip("httpx")
    big = b"the cat sat on the mat\n" * 100_000  # 2.3 MiB > the Space's 2 MiB
    response = httpx.post(f"{app.url}gradio_api/upload", files={"files": ("big.txt", big, "text/plain")}, timeout=60)
    assert response.status_code == 413, response.text
    assert f"maximum allowed size of {2 * 1024 * 1024} bytes" in response.text
    assert _kept_uploads(app.uploads) == []
    # files that are scored are deleted once read, whatever the outcome
    client = gradio_client.Client(app.url, verbose=False)
    client.predict(gradio_client.handle_file(str(EXAMPLES / "hyp.txt")),
                   [gradio_client.handle_file(str(EXAMPLES / "ref.txt"))],
                   "text", "meteor-1.5", "en", api_name="/score_corpus")
    bad = tmp_path / "bad.jsonl"
    bad.write_text("not json\n", encoding="utf-8")
    with pytest.raises(Exception, match="hypothesis file"):
        client.predict(gradio_client.handle_file(str(bad)), [], "jsonl", "meteor-1.5", "en", api_name="/score_corpus")
    assert _kept_uploads(app.uploads) == []


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
        # the signature wraps inside its column: nothing scrolls or spills past the page
        signature = page.locator("#pair-summary code")
        assert signature.inner_text().replace("\n", "").startswith("meteor-1.5|lang:en|")
        overflow = signature.evaluate("e => e.scrollWidth - e.clientWidth")
        box, column = signature.bounding_box(), page.locator("#pair-summary").bounding_box()
        assert overflow <= 1 and box["x"] + box["width"] <= column["x"] + column["width"] + 1
        assert box["height"] > 30  # more than one line at this width
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
def test_browser_scores_uploaded_files_and_keeps_none(app, tmp_path):
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
        page.screenshot(path=str(ARTIFACTS / "space-corpus.png"), full_page=True)
        assert _kept_uploads(app.uploads) == []
        # an oversized file is refused by gradio's upload layer with its message, and never lands
        big = tmp_path / "big.txt"
        big.write_bytes(b"the cat sat on the mat\n" * 100_000)
        page.set_input_files("#hyp-file input[type=file]", str(big))
        page.wait_for_selector(":text('exceed the maximum allowed size')", timeout=30_000)
        page.screenshot(path=str(ARTIFACTS / "space-upload-too-big.png"), full_page=True)
        assert _kept_uploads(app.uploads) == []
