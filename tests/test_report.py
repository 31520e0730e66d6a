"""Comparison reports: content of the HTML and Markdown files, and the HTML page rendered in
headless Chromium (self-contained: it must load nothing but itself). Screenshot: test-artifacts/report.png.

Oracle: the Java METEOR 1.5 corpus score of the example files (examples/jar-scores.json).
"""

from __future__ import annotations

import json
import random
import re
import shutil
from pathlib import Path

import numpy as np
import pytest

from meteor_metric import get_scorer
from meteor_metric.cli.main import main
from meteor_metric.analysis.report import build_report, render_html, render_markdown

REPO = Path(__file__).resolve().parents[1]
EXAMPLES = REPO / "examples"
ARTIFACTS = REPO / "test-artifacts"
JAR = json.loads((EXAMPLES / "jar-scores.json").read_text(encoding="utf-8"))
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
TOP = 4


def _lines(name: str) -> list[str]:
    return (EXAMPLES / name).read_text(encoding="utf-8").splitlines()


def _degrade(text: str, rng: random.Random) -> str:
    words = [w for i, w in enumerate(text.split()) if i % 3]
    rng.shuffle(words)
    return " ".join(words)


@pytest.fixture(scope="module")
def texts() -> dict[str, list[str]]:
    rng = random.Random(11)
    hyps = _lines("hyp.txt")
    tweaked = list(hyps)
    for k in (3, 40, 77):
        tweaked[k] = _degrade(tweaked[k], rng)
    return {"fb": hyps, "shuffled": [_degrade(h, rng) for h in hyps], "tweaked": tweaked}


@pytest.fixture(scope="module")
def files(texts, tmp_path_factory) -> dict[str, Path]:
    """The report written by the command line for three systems."""
    folder = tmp_path_factory.mktemp("report")
    argv = ["report", "--ref", str(EXAMPLES / "ref.txt"), "--test", "both", "--samples", "500", "--top", str(TOP),
            "--out", str(folder / "report.html"), "--markdown", str(folder / "report.md")]
    for name, lines in texts.items():
        path = folder / f"{name}.txt"
        path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
        argv += ["--hyp", str(path)]
    assert main(argv) == 0
    return {"html": folder / "report.html", "md": folder / "report.md"}


def test_report_object(texts):
    scorer = get_scorer("meteor-1.5")
    refs = [[r] for r in _lines("ref.txt")]
    systems = {name: [scorer.sentence_score(h, r) for h, r in zip(lines, refs)] for name, lines in texts.items()}
    report = build_report(systems, scorer, texts, refs, tests=("bs", "ar"), n_samples=300, top=TOP)
    assert abs(report.corpus["fb"].score - JAR["one_ref"]["final_score"]) <= 1e-12
    assert report.baseline == "fb" and [c.test for c in report.comparisons] == ["paired-bs", "paired-ar"]
    for test in ("paired-bs", "paired-ar"):
        pairs = report.pairwise[test]
        assert set(pairs) == {(a, b) for a in texts for b in texts if a != b}
        assert pairs[("fb", "shuffled")] < 0.05 and pairs[("tweaked", "shuffled")] < 0.05
        assert pairs[("fb", "tweaked")] == pairs[("tweaked", "fb")]
        # against the baseline, the pairwise table repeats the baseline comparison
        result = next(c for c in report.comparisons if c.test == test)
        assert pairs[("fb", "shuffled")] == result.systems["shuffled"].p_value
    matrix = np.array([[s.score for s in systems[name]] for name in texts])
    spread = matrix.max(0) - matrix.min(0)
    assert [d.index for d in report.disagreements] == list(np.argsort(-spread, kind="stable")[:TOP])
    assert [d.spread for d in report.disagreements] == pytest.approx(sorted(spread, reverse=True)[:TOP])
    first = report.disagreements[0]
    assert {n: s.score for n, s in first.segments.items()} == {n: systems[n][first.index].score for n in texts}
    assert all(s.alignment for s in first.segments.values())  # full results, for the pictures
    html_text, md_text = render_html(report), render_markdown(report)
    assert html_text.count('<svg xmlns="http://www.w3.org/2000/svg" class="meteor-alignment"') == TOP * len(texts)
    assert md_text.count("### Segment ") == TOP


def test_html_is_self_contained(files):
    text = files["html"].read_text(encoding="utf-8")
    assert re.search(r"<script|<link|<img|<iframe|\bsrc=|\bhref=|url\(|@import", text, re.I) is None
    assert set(re.findall(r"https?://[^\"' )]+", text)) == {"http://www.w3.org/2000/svg"}  # a namespace name


def test_markdown_tables(files):
    md = files["md"].read_text(encoding="utf-8")
    systems = md.split("## Systems")[1].split("## ")[0]
    rows = {line.split(" | ")[0].lstrip("| "): line for line in systems.splitlines() if line.startswith("| ")}
    assert f"| fb | {JAR['one_ref']['final_score']:.4f} | [" in rows["fb"]  # same 4 digits as the other columns
    assert rows["fb"].endswith("| baseline | baseline |")
    assert rows["shuffled"].endswith("| 0.0020 * | 0.0020 * |")  # 1 / (500 + 1)
    assert "| paired-bs: row vs column | fb | shuffled | tweaked |" in md
    assert "| paired-ar: row vs column | fb | shuffled | tweaked |" in md
    assert "| system | segments | mean | min | Q1 | median | Q3 | max |" in md
    assert "summed statistics" in md.split("## Segment score distributions")[1]
    assert md.count("### Segment ") == TOP and md.count("| system | METEOR | hypothesis |") == TOP


def test_report_needs_an_output(capsys):
    hyp, ref = str(EXAMPLES / "hyp.txt"), str(EXAMPLES / "ref.txt")
    assert main(["report", "--hyp", hyp, "--ref", ref]) == 2
    assert "report needs --out FILE (HTML) and/or --markdown FILE" in capsys.readouterr().err


def test_report_in_chromium(files):
    if CHROMIUM is None:
        pytest.skip("no Chromium on this machine (Debian: apt-get install chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("playwright is not installed (pip install playwright; it uses the system's Chromium)")
    ARTIFACTS.mkdir(exist_ok=True)
    url = files["html"].as_uri()
    requests: list[str] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=[
            "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
            "--disable-component-update", "--disable-sync"])
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 1000})
            page.on("request", lambda r: requests.append(r.url))
            page.goto(url, wait_until="load")
            assert page.locator("#systems tbody tr").count() == 3
            first = page.locator("#systems tbody tr").first.locator("td")
            assert first.nth(0).inner_text() == "fb"
            assert first.nth(1).inner_text() == f"{JAR['one_ref']['final_score']:.4f}"  # 4 digits, like the other columns
            shuffled_p = page.locator("#systems tbody tr").nth(1).locator("td.sig")
            assert shuffled_p.count() == 2 and shuffled_p.first.inner_text() == "0.0020 *"
            for test in ("paired-bs", "paired-ar"):
                assert page.locator(f"#pairwise-{test} tbody tr").count() == 3
                assert page.locator(f"#pairwise-{test} td.sig").count() == 4  # shuffled vs both others, twice
            assert page.locator("#distributions tbody tr").count() == 3
            assert page.locator("svg.box-plot rect.box").count() == 3
            assert page.locator("svg.histogram").count() == 3
            bars = page.locator("svg.histogram").first.locator("rect.bar")
            assert bars.count() == 20
            assert page.locator("section.segment").count() == TOP
            assert page.locator("section.segment").first.locator("svg.meteor-alignment").count() == 3
            box = page.locator("svg.box-plot").bounding_box()
            assert box["width"] > 300 and box["height"] > 100  # rendered, not collapsed
            page.screenshot(path=str(ARTIFACTS / "report.png"), full_page=True)
        finally:
            browser.close()
    assert requests == [url]  # nothing but the page itself
    assert (ARTIFACTS / "report.png").stat().st_size > 20_000
