"""Extensions beyond METEOR 1.5: norm_ext, cjk_char and OMW synonyms (named in the signature)."""

from __future__ import annotations

import pytest

from meteor_metric import Meteor, MeteorParams
from meteor_metric.meteor15.normalize_ext import cjk_char_tokens, normalize_ext
from meteor_metric.meteor15.omw import OmwDataNotFound, omw_synsets


@pytest.mark.parametrize("line,expected", [
    ('Fișierul "test.txt" nu există... Mai', 'Fișierul " test.txt " nu există ... Mai'),
    ("L'uomo, 1,000 U.S.-based a-b-c", "L ' uomo , 1,000 US based a b-c"),
    ("Ende. Noch hier. und dort.", "Ende . Noch hier. und dort ."),
    ("Ελληνικά κείμενα, हिन्दी पाठ.", "Ελληνικά κείμενα , हिन्दी पाठ ."),
])
def test_norm_ext_tokens(line, expected):
    assert normalize_ext(line) == expected


def test_norm_ext_nopunct():
    assert normalize_ext("Fișierul „test.txt” 3.5 - ok!", keep_punct=False) == "Fișierul test txt 3 5 ok"


def test_norm_ext_only_where_the_jar_refuses_norm():
    m = Meteor("ro", normalization="norm_ext")
    assert m.tokens("Fișierul NU există.") == ("fișierul", "nu", "există", ".")
    assert "norm:norm_ext" in m.signature and "ext:norm_ext" in m.signature
    with pytest.raises(ValueError, match="jar's own 'norm'"):
        Meteor("fr", normalization="norm_ext", modules="exact stem")
    with pytest.raises(ValueError, match="norm_ext"):
        Meteor("ro", normalization="norm")  # the jar's -norm: refused, and the error names the extension
    with pytest.raises(ValueError, match="Buckwalter"):
        Meteor("ar-bw-red", normalization="norm_ext")


def test_cjk_char():
    assert cjk_char_tokens("我爱北京天安门。Hello World 한국어 テスト") == [
        "我", "爱", "北", "京", "天", "安", "门", "。", "hello", "world", "한", "국", "어", "テ", "ス", "ト"]
    m = Meteor("other", normalization="cjk_char")
    assert m.sentence_score("我爱北京天安门", "我爱北京天安门").score == 1.0
    assert 0 < m.sentence_score("我爱北京", "我爱北京天安门").score < 1
    assert "ext:cjk_char" in m.signature


def test_jar_configurations_have_no_extension_marker():
    for args in (["-l", "en", "-norm"], ["-l", "da", "-lower"], ["-l", "de", "-norm", "-m", "exact stem"]):
        p = MeteorParams.from_jar_args(args)
        if "paraphrase" in p.modules:
            continue
        assert "ext:" not in Meteor.from_params(p).signature


OMW_FRA = """# Open Multilingual Wordnet test data
02084071-n\tfra:lemma\tchien
02084071-n\tfra:lemma\tcabot
02084071-n\tfra:def\tun animal
07557165-n\tfra:lemma\trepas
07557165-n\tfra:lemma\tDîner
"""


@pytest.fixture
def omw_data(tmp_path, monkeypatch):
    d = tmp_path / "corpora" / "omw-1.4" / "fra"
    d.mkdir(parents=True)
    (d / "wn-data-fra.tab").write_text(OMW_FRA, encoding="utf-8")
    monkeypatch.setenv("NLTK_DATA", str(tmp_path))
    omw_synsets.cache_clear()
    yield
    omw_synsets.cache_clear()


def test_omw_synonyms(omw_data):
    m = Meteor("fr", modules="exact stem synonym", weights="1.0 0.6 0.8", normalization="norm", synonyms="omw")
    assert "syn:omw-1.4-fra" in m.signature and "ext:omw" in m.signature
    res = m.sentence_score("le chien mange le dîner", "le cabot mange le repas")
    assert [a.module for a in res.alignment].count(2) == 2
    assert res.stats.to_line() == Meteor(
        "fr", modules="exact stem synonym", weights="1.0 0.6 0.8", synonyms="omw:fra").sentence_score(
        "le chien mange le dîner", "le cabot mange le repas").stats.to_line()


def test_omw_missing_data_says_how_to_get_it(tmp_path, monkeypatch):
    monkeypatch.setenv("NLTK_DATA", str(tmp_path))
    monkeypatch.setattr("meteor_metric.meteor15.omw._nltk_data_dirs", lambda: [tmp_path])
    omw_synsets.cache_clear()
    with pytest.raises(OmwDataNotFound, match="nltk.downloader .* omw-1.4"):
        Meteor("it", modules="exact stem synonym", normalization="lc_only", synonyms="omw")
    omw_synsets.cache_clear()


def test_synonym_module_outside_english_is_refused_without_the_extension():
    with pytest.raises(ValueError, match="synonyms='omw'"):
        Meteor("fr", modules="exact synonym")
    with pytest.raises(ValueError):
        Meteor("en", synonyms="omw")
    with pytest.raises(ValueError, match="Open Multilingual Wordnet has no wordnet"):
        Meteor("de", modules="exact synonym", synonyms="omw")
