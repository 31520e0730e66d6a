"""Builds the optional compiled core (``meteor_metric.meteor15.meteor_core``); everything else is in pyproject.toml.

The extension is optional: where it cannot be compiled, the install goes on (setuptools warns) and the
package scores with its pure-Python engine. ``METEOR_METRIC_BUILD_NATIVE=0`` skips the build altogether;
``METEOR_METRIC_NATIVE_CFLAGS`` adds compiler flags (the AddressSanitizer test uses it).
"""

import os
import shlex

from setuptools import Extension, setup

# IEEE arithmetic in source order (no contraction into fused multiply-adds, no fast-math). -fno-wrapv undoes the
# -fwrapv of CPython's own CFLAGS, which setuptools passes first: the core relies on no signed overflow (its
# keys are sized to fit; UBSan checks it in the AddressSanitizer test), and under -fwrapv a corpus_score of WMT21
# zh-en pairs took 324.8k instructions a pair, 297.1k without (benchmarks/bench_instructions.py). -O3 rather than
# -O2: 2 % fewer instructions a pair (WMT21 and unique references alike), and in 20 alternating runs of the core on
# WMT21 pairs 4-5 % less CPU time (the median of each run's ratio, in two batches of 10). The results are the same
# at either level: no flag here lets the compiler change the arithmetic
CFLAGS = ["-O3", "-fno-wrapv", "-ffp-contract=off", "-fno-fast-math", "-std=c11"]
CFLAGS += shlex.split(os.environ.get("METEOR_METRIC_NATIVE_CFLAGS", ""))

extensions = []
if os.environ.get("METEOR_METRIC_BUILD_NATIVE", "1") != "0":
    extensions.append(Extension("meteor_metric.meteor15.meteor_core", ["src/native/meteor_core.c"],
                                depends=["src/native/beam_search.h", "src/native/normalize_ascii.h",
                                         "src/native/wordnet.h"],
                                extra_compile_args=CFLAGS,
                                libraries=[] if os.name == "nt" else ["m"],  # pow, for the score's formula
                                extra_link_args=[f for f in CFLAGS if f.startswith("-fsanitize")],
                                optional=True))

setup(ext_modules=extensions)
