"""The documentation: README.md (the front page) and the mkdocs site under docs/.

Every ```python block runs as is, from the repository root, offline (a block whose first import is an
optional package that is absent skips, naming it); the site builds with ``mkdocs build --strict`` (zero
warnings: mkdocs checks the links between pages, mkdocstrings the API names); links resolve without
mkdocs too; the README stays a front page whose test command is the one CI runs.
"""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

import meteor_metric

REPO = Path(__file__).resolve().parents[1]
README = REPO / "README.md"
MKDOCS = REPO / "mkdocs.yml"
DOCS = sorted((REPO / "docs").glob("*.md"))
PAGES = [README, *DOCS]
if not DOCS:
    pytest.skip("docs/ is not in this copy of the project (the sdist and the repository hold it)",
                allow_module_level=True)

_BLOCK = re.compile(r"^```python\n(.*?)^```", re.M | re.S)
_IMPORT = re.compile(r"^\s*(?:from|import)\s+([A-Za-z_][\w]*)", re.M)
_LINK = re.compile(r"\]\(([^)\s]+)\)")
_FENCE = re.compile(r"^```.*?^```", re.M | re.S)  # code blocks: a ](x) there is code, not a link


def _blocks() -> list:
    found = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for match in _BLOCK.finditer(text):
            line = text.count("\n", 0, match.start()) + 2
            code = "\n" * (line - 1) + match.group(1)  # tracebacks give the page's line numbers
            found.append(pytest.param(page, code, id=f"{page.relative_to(REPO)}:{line}"))
    return found


@pytest.mark.parametrize("page, code", _blocks())
def test_python_block_runs(page, code, monkeypatch):
    first = _IMPORT.search(code)
    if first and importlib.util.find_spec(first.group(1)) is None:
        pytest.skip(f"{first.group(1)} is not installed (the block's first import)")
    monkeypatch.chdir(REPO)
    exec(compile(code, str(page), "exec"), {"__name__": "__docs__"})


def test_every_page_is_in_the_nav_and_links_between_pages_resolve():
    nav = MKDOCS.read_text(encoding="utf-8")
    for page in DOCS:
        assert f": {page.name}\n" in nav, f"{page.name} is not in mkdocs.yml's nav"
    for page in PAGES:
        for target in _LINK.findall(_FENCE.sub("", page.read_text(encoding="utf-8"))):
            if re.match(r"[a-z]+:", target):
                continue  # an external address
            path, _, anchor = target.partition("#")
            resolved = (page.parent / path) if path else page
            assert resolved.exists(), f"{page.name}: link {target} does not resolve"
            if anchor and resolved.suffix == ".md":
                headings = re.findall(r"^#+ (.*)$", resolved.read_text(encoding="utf-8"), re.M)
                slugs = {re.sub(r"[\s]+", "-", re.sub(r"[^\w\s-]", "", h).strip().lower()) for h in headings}
                assert anchor in slugs, f"{page.name}: no heading #{anchor} in {resolved.name}"


def test_the_site_builds_strict_with_zero_warnings(tmp_path):
    pytest.importorskip("mkdocs", reason="mkdocs is not installed (pip install -e '.[docs]')")
    pytest.importorskip("mkdocstrings", reason="mkdocstrings is not installed (pip install -e '.[docs]')")
    site = tmp_path / "site"
    proc = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(MKDOCS), "-d", str(site)],
                          cwd=REPO, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    assert "WARNING" not in proc.stderr, proc.stderr
    api = (site / "python" / "index.html").read_text(encoding="utf-8")
    assert "sentence_score" in api and "corpus_score" in api  # mkdocstrings rendered the API


def test_the_readme_is_a_front_page_with_two_true_commands():
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) < 150
    quick = text.split("## Quick start", 1)[1].split("```bash\n", 1)[1].split("```", 1)[0]
    commands = [line for line in quick.splitlines() if line and not line.startswith("#")]
    assert commands == ['pip install . && meteor-metric score --hyp examples/hyp.txt --ref examples/ref.txt',
                        'pip install -e ".[test]" && python -m pytest']
    assert commands[1] in (REPO / ".ci" / "run").read_text(encoding="utf-8")  # CI runs the README's command


def test_the_package_root_shows_its_api_only():
    shown = {name for name in dir(meteor_metric) if not name.startswith("_")}
    subpackages = {p.name for p in Path(meteor_metric.__file__).parent.iterdir() if (p / "__init__.py").is_file()}
    modules = {p.stem for p in Path(meteor_metric.__file__).parent.glob("*.py")}
    assert shown - subpackages - modules == set(meteor_metric.__all__) - {"__version__"}
