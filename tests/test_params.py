"""Configuration resolution, checked against the configuration the jar itself reported for each golden run."""

import pytest

from conformance import EDGE_CONFIGS, jar_args_to_params
from meteor_metric import MeteorParams, resolve_params


@pytest.mark.parametrize("config", EDGE_CONFIGS, ids=lambda c: c["name"])
def test_jar_configurations(config):
    p = jar_args_to_params(config["args"])
    assert p.eval_id == config["eval_id"]
    assert list(p.modules) == config["modules"]
    assert list(p.weights) == config["weights"]
    assert p.parameters == tuple(config["parameters"][k] for k in ("alpha", "beta", "gamma", "delta"))
    assert p.normalization == config["normalization"]
    assert p.char_based == config["char_based"]
    assert p.beam_size == config["beam_size"]


def test_default_is_jar_en_norm():
    assert resolve_params() == MeteorParams()
    assert MeteorParams().eval_id == "meteor-1.5-wo-en-norm-0.85_0.2_0.6_0.75-ex_st_sy_pa-1.0_0.6_0.8_0.6"


def test_custom_parameters_take_adequacy_weights():
    p = resolve_params("en", parameters="0.9,3.0,0.5,0.75")
    assert p.task == "custom" and p.weights == (1.0, 1.0, 0.6, 0.8)


def test_modules_keep_weights_positionally():
    assert resolve_params("de", modules=["exact", "stem"]).weights == (1.0, 0.8)
    assert resolve_params("en", modules="exact,stem,synonym,paraphrase", weights="1,0,0,0").weights == (1, 0, 0, 0)


def test_language_aliases():
    assert resolve_params("English").language == "en"
    assert resolve_params("cs", modules="exact").language == "cz"
    assert resolve_params("other", normalization="no_norm").modules == ("exact",)


@pytest.mark.parametrize("kwargs, message", [
    (dict(language="klingon"), "unknown language"),
    (dict(task="fast"), "unknown task"),
    (dict(modules="exact,stem", weights="1.0"), "1 weights for 2 modules"),
    (dict(weights="1,1,1,1,1"), "5 weights for 4 modules"),
    (dict(modules="exact,stemm"), "unknown module"),
    (dict(modules="exact,exact"), "must not repeat"),
    (dict(parameters="0.9,3.0"), "4 numbers"),
    (dict(parameters="0.9,x,1,1"), "invalid parameters"),
    (dict(language="da"), "no normalizer for danish"),
    (dict(language="xx"), r"no normalizer for 'xx' \(other\)"),
    (dict(language="Danish"), "no normalizer for danish"),
    (dict(language="de", modules="exact,synonym"), "only for English"),
    (dict(language="cz", modules="exact,stem"), "no stemmer for czech"),
    (dict(beam_size=0), "positive integer"),
    (dict(normalization="lower"), "unknown normalization"),
])
def test_invalid_configurations(kwargs, message):
    with pytest.raises(ValueError, match=message):
        resolve_params(**kwargs)


def test_unknown_jar_option():
    with pytest.raises(ValueError, match="unsupported jar option"):
        MeteorParams.from_jar_args(["-l", "en", "-q"])


def test_an_appended_extension_module_needs_a_weight():
    """The jar's weights are positional (a fifth module would get 0 and count for nothing): say so."""
    with pytest.raises(ValueError, match=r"lemma have no weight.*--weights"):
        resolve_params("en", modules=["exact", "stem", "synonym", "paraphrase", "lemma"])
    given = resolve_params("en", modules=["exact", "stem", "synonym", "paraphrase", "lemma"],
                           weights=[1, 0.6, 0.8, 0.6, 0.6])
    assert given.weights == (1.0, 0.6, 0.8, 0.6, 0.6)
