#!/usr/bin/env python3
"""Jar scores for the Space tests (tests/test_space_app.py): writes tests/data/space/jar-scores.json.

Oracle: Java METEOR 1.5 from pycocoevalcap 1.2 (`-l en -norm`, run through benchmarks/jar.py), for

* ``example``: the pair the Space opens on (app.py's EXAMPLE_HYP and EXAMPLE_REFS, two references);
* ``breaks``: a hypothesis against two references typed one per line whose first reference holds
  U+2028, U+0085, a form feed and U+001E inside it. The jar reads its reference file with Java's
  BufferedReader, which ends lines at "\\n" and "\\r" only, so it sees two references, as the Space must;
* ``languages``: the example pair in each of the 18 languages with the flags the Space's configuration
  stands for: English as above; the other tuned languages ``-norm -m "exact stem"`` (Czech, which has no
  stemmer, ``-m exact``); the rest ``-t li -lower`` with the same modules (the jar has no normalizer for them).

Run: python scripts/build_space_goldens.py   (needs Java 17 and pycocoevalcap 1.2)
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from jar import DEFAULT_ARGS, score_lines  # noqa: E402

EXAMPLE_HYP = "The cats were sitting on the big rug near the door."
EXAMPLE_REFS = ["A cat sat on the large carpet next to the door.", "The cat is on the mat."]
BREAKS_HYP = "The cat sat on the mat near the door."
BREAKS_REFS = ["A cat\u2028sat on\u0085the mat\x0cnear\x1ethe door.", "The dog lay by the gate."]
TUNED = ("en", "cz", "fr", "es", "de", "ru")
LANGUAGES = TUNED + ("ar-bw-red", "pt", "da", "ro", "hu", "tr", "fi", "nl", "it", "no", "se", "other")
TARGET = ROOT / "tests" / "data" / "space" / "jar-scores.json"


def jar_args(lang: str) -> list[str]:
    """The jar's flags for the Space's configuration of a language."""
    if lang == "en":
        return list(DEFAULT_ARGS)
    modules = ["-m", "exact" if lang in ("cz", "other") else "exact stem"]
    if lang in TUNED:
        return ["-l", lang, "-norm", *modules]
    return ["-l", lang, "-t", "li", "-lower", *modules]


def main() -> None:
    doc = {"oracle": "meteor-1.5.jar (pycocoevalcap 1.2), -l en -norm, via benchmarks/jar.py"}
    for name, hyp, refs in (("example", EXAMPLE_HYP, EXAMPLE_REFS), ("breaks", BREAKS_HYP, BREAKS_REFS)):
        res = score_lines([hyp], [refs])
        doc[name] = {"hypothesis": hyp, "references": refs, "score": res.segment_scores[0]}
    doc["languages"] = {}
    for lang in LANGUAGES:
        args = jar_args(lang)
        res = score_lines([EXAMPLE_HYP], [EXAMPLE_REFS], args=args)
        doc["languages"][lang] = {"args": args, "score": res.segment_scores[0]}
    TARGET.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(json.dumps(doc, indent=1, ensure_ascii=True))


if __name__ == "__main__":
    main()
