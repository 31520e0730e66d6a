"""Compare stemmers with the jar on real vocabularies, and write the golden test samples.

    python scripts/stemmer_oracle/check.py german --debs /tmp/debs/x [--golden 10000]

Builds the vocabulary (vocab.py; every word also Capitalised, lower and UPPER), stems it with
the jar (once with one shared stemmer and once with a fresh stemmer per word, which must agree),
and counts differences for each candidate backend: snowballstemmer 2.2.0 as shipped and
meteor_metric.meteor15.stemmers. The jar's stems are cached in ``--cache``. With ``--golden N`` it writes
tests/data/stems_<language>.tsv.gz, N rows: up to N/2 words on which a backend differs from the jar,
N/10 synthetic words (synthetic(): real words given table endings, astral characters), the rest
real words (with case variants); all chosen at random with a fixed seed.
"""

from __future__ import annotations

import argparse
import gzip
import importlib
import importlib.metadata
import importlib.util
import json
import random
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import oracle  # noqa: E402
import vocab  # noqa: E402


def _load_stemmers():
    """meteor_metric/meteor15/stemmers.py by path (independent of the rest of the package)."""
    path = HERE.parents[1] / "meteor_metric" / "meteor15" / "stemmers.py"
    spec = importlib.util.spec_from_file_location("_meteor_stemmers", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


get_stemmer = _load_stemmers().get_stemmer

GOLDEN = HERE.parents[1] / "tests" / "data"


def case_variants(words: set[str]) -> set[str]:
    out = set(words)
    for w in words:
        out.update((w.lower(), w.upper(), w[:1].upper() + w[1:].lower()))
    return {w for w in out if oracle.usable(w)}


def jar_pairs(language: str, words: set[str], cache: Path, everything: bool = False) -> dict[str, str]:
    """The jar's stems for ``words`` (``everything``: and all cached ones), extending the cache."""
    path = cache / f"jar_{language}.tsv.gz"
    known: dict[str, str] = {}
    if path.is_file():
        with gzip.open(path, "rt", encoding="utf-8", newline="\n") as f:
            for line in f:
                w, s = line.rstrip("\n").split("\t")
                known[w] = s
    todo = words - known.keys()
    if todo:
        shared = oracle.jar_stems(language, todo)
        fresh = oracle.jar_stems(language, todo, fresh=True)
        leaks = [w for w in todo if shared[w] != fresh[w]]
        if leaks:
            raise SystemExit(f"{language}: jar stems depend on the previous word for {leaks[:10]}")
        known.update(shared)
        cache.mkdir(parents=True, exist_ok=True)
        with gzip.open(path, "wt", encoding="utf-8", newline="\n") as f:
            f.writelines(f"{w}\t{s}\n" for w, s in sorted(known.items()))
    return known if everything else {w: known[w] for w in words}


def cached_vocabulary(language: str, debs: Path, cache: Path) -> dict[str, set[str]]:
    path = cache / f"vocab_{language}.json.gz"
    if path.is_file():
        with gzip.open(path, "rt", encoding="utf-8") as f:
            return {k: set(v) for k, v in json.load(f).items()}
    sources = vocab.vocabulary(language, debs)
    cache.mkdir(parents=True, exist_ok=True)
    with gzip.open(path, "wt", encoding="utf-8") as f:
        json.dump({k: sorted(v) for k, v in sources.items()}, f, ensure_ascii=False)
    return sources


# Letters and endings of the jar's (older) algorithms that 2.2.0's tables lack.
OLD_ENDINGS = {
    "french": ["\u00eb", "gu\u00eb", "H", "He", "Hi", "\u00ef"],
    "german": ["niss", "nisse", "nissen", "nisses"],
    "portuguese": ["log\u00eda", "log\u00edas", "uci\u00f3n", "uciones"],
    "russian": ["\u0451", "\u0451\u043c", "\u0451\u0442"],
    "hungarian": ["\u00f5", "\u00fb", "\u0151", "\u0171", "b\u00f5l", "r\u00f5l", "t\u00f5l"],
}
ASTRAL = ["\U0001F600", "\U0001D518", "\U00020000"]


def endings(language: str) -> list[str]:
    """Every string in the language's 2.2.0 among tables (Portuguese ~ markers undone), plus OLD_ENDINGS."""
    module = importlib.import_module(f"snowballstemmer.{language}_stemmer")
    cls = getattr(module, language.capitalize() + "Stemmer")
    out = {a.s for k, v in vars(cls).items() if k.startswith("a_") for a in v}
    if language == "portuguese":
        out = {e.replace("a~", "\u00e3").replace("o~", "\u00f5") for e in out}
    return sorted((out | set(OLD_ENDINGS.get(language, []))) - {""})


def synthetic(language: str, real: set[str], n: int = 20000) -> set[str]:
    """Real words cut at random and given one or two table endings; some with astral characters."""
    rng = random.Random(f"synthetic-{language}")
    bases = sorted(w for w in real if w.isalpha() and len(w) > 2)
    ends = endings(language)
    out: set[str] = set()
    for base in rng.sample(bases, min(n, len(bases))):
        head = base[: rng.randint(1, len(base))]
        out.add(head + rng.choice(ends))
        out.add(head + rng.choice(ends) + rng.choice(ends))
    for base in rng.sample(bases, min(n // 20, len(bases))):
        i = rng.randint(0, len(base))
        out.add(base[:i] + rng.choice(ASTRAL) + base[i:])
        out.add(base[:i] + rng.choice(ASTRAL) + rng.choice(ends))
    return case_variants(out)


def backends(language: str) -> dict:
    module = importlib.import_module(f"snowballstemmer.{language}_stemmer")
    stemmer = getattr(module, language.capitalize() + "Stemmer")()
    return {
        "snowballstemmer-" + importlib.metadata.version("snowballstemmer"): stemmer.stemWord,
        "meteor_metric": get_stemmer(language),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("language")
    ap.add_argument("--debs", type=Path, default=Path("/tmp/debs/x"))
    ap.add_argument("--cache", type=Path, default=Path("/tmp/stem_cache"))
    ap.add_argument("--golden", type=int, default=0, metavar="N")
    ap.add_argument("--show", type=int, default=15, help="differences to print per backend")
    ap.add_argument("--only", choices=("snowballstemmer", "meteor_metric", "none"),
                    help="check one backend (none: only write --golden)")
    ap.add_argument("--diffs", type=Path, help="write every difference (backend, word, jar, got) here")
    ap.add_argument("--known-diffs", type=Path, action="append", default=[],
                    help="a --diffs file of an earlier run: its words count as differing ones")
    ap.add_argument("--from-cache", action="store_true",
                    help="only compare meteor_metric with every stem in the jar cache (all earlier words)")
    args = ap.parse_args()
    lang = args.language
    if args.from_cache:
        jar = jar_pairs(lang, set(), args.cache, everything=True)
        stem = get_stemmer(lang)
        bad = sorted(w for w, s in jar.items() if stem(w) != s)
        print(json.dumps({"language": lang, "cached_words": len(jar), "differences": len(bad),
                          "examples": [(w, jar[w], stem(w)) for w in bad[:10]]}, ensure_ascii=False))
        return

    sources = cached_vocabulary(lang, args.debs, args.cache)
    real = set().union(*sources.values())
    words = case_variants(real)
    made = synthetic(lang, real) - words
    jar = jar_pairs(lang, words | made, args.cache)
    report: dict = {"language": lang, "sources": {k: len(v) for k, v in sources.items()},
                    "real_words": len(real), "tested_with_case_variants": len(words),
                    "synthetic": len(made), "differences": {}, "synthetic_differences": {}, "us_per_word": {}}
    differing = {line.split("\t")[1] for p in args.known_diffs
                 for line in p.read_text(encoding="utf-8").splitlines()} & (words | made)
    diff_rows = []
    for name, fn in backends(lang).items():
        if args.only and not name.startswith(args.only):
            continue
        t0 = time.perf_counter()
        diffs = sorted(w for w in words if fn(w) != jar[w])
        report["us_per_word"][name] = round((time.perf_counter() - t0) / len(words) * 1e6, 1)
        report["differences"][name] = len(diffs)
        made_diffs = sorted(w for w in made if fn(w) != jar[w])
        report["synthetic_differences"][name] = len(made_diffs)
        differing.update(diffs)
        differing.update(made_diffs)
        diffs += made_diffs
        diff_rows.extend(f"{name}\t{w}\t{jar[w]}\t{fn(w)}\n" for w in diffs)
        for w in diffs[: args.show]:
            print(f"  {name}: {w!r}: jar {jar[w]!r}, got {fn(w)!r}", file=sys.stderr)
    print(json.dumps(report, ensure_ascii=False))
    if args.diffs:
        args.diffs.write_text("".join(diff_rows), encoding="utf-8")

    if args.golden:
        rng = random.Random(f"stems-{lang}")
        hard = sorted(differing)
        sample = set(rng.sample(hard, min(len(hard), args.golden // 2)))
        sample |= set(rng.sample(sorted(made - sample), min(len(made), args.golden // 10)))
        sample |= set(rng.sample(sorted(words - sample), min(len(words), args.golden - len(sample))))
        out = GOLDEN / f"stems_{lang}.tsv.gz"
        with gzip.GzipFile(out, "wb", mtime=0) as raw:
            raw.write("".join(f"{w}\t{jar[w]}\n" for w in sorted(sample)).encode("utf-8"))
        print(f"wrote {len(sample)} rows to {out}", file=sys.stderr)


if __name__ == "__main__":
    main()
