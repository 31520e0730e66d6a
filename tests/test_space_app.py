"""The Space app (app.py) end to end: launched on 127.0.0.1, driven in headless Chromium, called by gradio_client.

Oracle: Java METEOR 1.5 (pycocoevalcap 1.2 jar). The pair below scores 0.461572455914816 with the jar
(`-l en -norm -r 2`, run through benchmarks/jar.py); the example files' corpus score is in
examples/jar-scores.json. Screenshots go to test-artifacts/.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

gradio_client = pytest.importorskip("gradio_client")

REPO = Path(__file__).resolve().parents[1]
ARTIFACTS = REPO / "test-artifacts"
EXAMPLES = REPO / "examples"
JAR = json.loads((EXAMPLES / "jar-scores.json").read_text(encoding="utf-8"))
PAIR_HYP = "The cat sat quickly on the big mat."
PAIR_REFS = "A cat was sitting on the large mat.\nThe cat sat on the mat."
PAIR_JAR_SCORE = 0.461572455914816
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def app_url(tmp_path_factory):
    port = _free_port()
    env = dict(os.environ, GRADIO_SERVER_PORT=str(port), GRADIO_ANALYTICS_ENABLED="False",
               GRADIO_TEMP_DIR=str(tmp_path_factory.mktemp("gradio")))
    log = tmp_path_factory.mktemp("app") / "app.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen([sys.executable, "app.py"], cwd=REPO, env=env, stdout=out, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}/"
    deadline = time.monotonic() + 180
    try:
        while True:
            try:
                urllib.request.urlopen(url, timeout=2)
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    pytest.fail(f"the app did not start:\n{log.read_text(errors='replace')[-3000:]}")
                time.sleep(0.5)
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=30)


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


@pytest.mark.skipif(CHROMIUM is None, reason="no Chromium on this machine (Debian: apt-get install chromium)")
def test_browser_click_shows_the_alignment(app_url):
    sync_api = pytest.importorskip("playwright.sync_api")
    ARTIFACTS.mkdir(exist_ok=True)
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=[
            "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
            "--disable-component-update", "--disable-sync"])
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 1000})
            page.goto(app_url, wait_until="networkidle")
            page.fill("#hyp textarea", PAIR_HYP)
            page.fill("#refs textarea", PAIR_REFS)
            page.click("#score-pair")
            page.wait_for_selector("#alignment svg.meteor-alignment", timeout=60_000)
            assert "METEOR 0.4616" in page.inner_text("#pair-summary")
            assert page.locator("#alignment svg line").count() == 7
            assert page.locator("#alignment svg rect.chunk").count() == 6  # 3 chunks, framed on both sides
            page.screenshot(path=str(ARTIFACTS / "space-pair.png"), full_page=True)
        finally:
            browser.close()
    assert (ARTIFACTS / "space-pair.png").stat().st_size > 10_000
