"""The names a METEOR 1.5 configuration is made of: modules, normalizations, fragmentation."""

METEOR_VERSION = "1.5"

MODULE_NAMES = ("exact", "stem", "synonym", "paraphrase", "lemma", "wn_similarity")
MODULE_SHORT = {"exact": "ex", "stem": "st", "synonym": "sy", "paraphrase": "pa", "lemma": "le",
                "wn_similarity": "ws"}
EXTENSION_MODULES = ("lemma", "wn_similarity")
"""Not in METEOR 1.5 (WordNet lemmas, WordNet path similarity; English); the signature names them."""
FRAGMENTATIONS = ("chunks", "crossings")
"""``chunks`` is METEOR's; ``crossings`` (an extension) counts crossing match pairs instead."""
DEFAULT_SIMILARITY_THRESHOLD = 0.85

NORMALIZATIONS = ("no_norm", "lc_only", "norm", "norm_nopunct")
"""The jar's text normalizations (``-norm``, ``-lower``, ``-noPunct``)."""
EXTENSION_NORMALIZATIONS = ("norm_ext", "norm_ext_nopunct", "cjk_char")
"""Not in METEOR 1.5 (see normalize_ext.py); the signature names them."""
