#!/usr/bin/env python3
"""Make tests/data/java15/languages/: jar goldens for every language METEOR 1.5 knows.

For each language, hypothesis/reference pairs are made from real sentences (scripts/language_texts.py;
for German also WMT21 en-de MT outputs with their references): the sentence against a perturbed copy
(words dropped, swapped or moved, inflected forms from the same text, case and punctuation changes,
substitutions), unrelated sentences, identical ones, and two-reference rows. Every pair is scored by
the jar under each configuration of :data:`CONFIGS` through one ``-stdio`` process per configuration
(``SCORE`` lines, then ``EVAL`` for the segment scores and the corpus score). For the languages with
``-norm`` (cz fr es de ru), <lang>.tokens.jsonl.gz holds the jar's normalised tokens of every text
(``-norm`` and ``-norm -noPunct``, read from ``-writeAlignments``). Configurations the jar refuses are
recorded as probes (exit status and message).

  python scripts/language_texts.py --debs DEBS --out texts.json.gz
  python scripts/build_language_goldens.py --texts texts.json.gz [--only de,fr] [--pairs 200]

Arguments ``@jar:function/X`` name a file extracted from the jar, ``@data:X`` a file or directory in
tests/data/java15/languages.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import gzip
import json
import random
import re
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import jar as jarlib  # noqa: E402
from meteor_metric.meteor15.normalize import java_trim  # noqa: E402
from meteor_metric.meteor15.params import LANGUAGE_NAMES  # noqa: E402
from meteor_metric.meteor15.stemmers import get_stemmer  # noqa: E402

OUT = ROOT / "tests" / "data" / "java15" / "languages"
MT_DE = ROOT.parent / "shared" / "data" / "mt" / "wmt21-news" / "en-de.seg.jsonl.gz"
CUSTOM_P = "0.8 1.2 0.4 0.6"


def _norm_language_configs(lang: str, mods: str) -> dict[str, list[str]]:
    """cz fr es de ru: -norm accepted; -m without paraphrase (no tables ship)."""
    base = ["-l", lang, "-m", mods]
    words = f"@jar:function/{LANGUAGE_NAMES[lang]}.words"
    configs = {
        "norm": base + ["-norm"], "norm_nopunct": base + ["-norm", "-noPunct"], "raw": base,
        "lower": base + ["-lower"], "li": base + ["-norm", "-t", "li"], "tune": base + ["-norm", "-t", "tune"],
        "universal": base + ["-norm", "-t", "universal"], "adq": base + ["-norm", "-t", "adq"],
        "custom_p": base + ["-norm", "-p", CUSTOM_P],
        "custom_pw": base + ["-norm", "-p", CUSTOM_P, "-w", "1.0" if mods == "exact" else "1.0 0.7"],
        "own_function_words": base + ["-norm", "-s", words], "char": base + ["-norm", "-ch"],
    }
    if mods != "exact":
        configs["stem_first"] = ["-l", lang, "-m", "stem exact", "-norm"]
    return configs


def _li_language_configs(lang: str) -> dict[str, list[str]]:
    """Languages without tuned parameters: -norm crashes in the jar, so raw and -lower."""
    mods = "exact" if lang == "other" else "exact stem"
    return {
        "raw": ["-l", lang], "lower": ["-l", lang, "-lower"], "tune": ["-l", lang, "-t", "tune", "-lower"],
        "rank": ["-l", lang, "-t", "rank", "-lower"], "li": ["-l", lang, "-t", "li"],
        "universal": ["-l", lang, "-t", "universal", "-lower", "-m", mods],
        "custom_p": ["-l", lang, "-lower", "-p", CUSTOM_P],
        "custom_pw": ["-l", lang, "-lower", "-p", CUSTOM_P, "-w", "1.0" if mods == "exact" else "1.0 0.7"],
        "exact": ["-l", lang, "-lower", "-m", "exact"], "char": ["-l", lang, "-lower", "-ch"],
    }


CONFIGS: dict[str, dict[str, list[str]]] = {
    "cz": _norm_language_configs("cz", "exact"),
    **{lang: _norm_language_configs(lang, "exact stem") for lang in ("fr", "es", "de", "ru")},
    **{lang: _li_language_configs(lang) for lang in
       ("da", "fi", "hu", "it", "nl", "no", "pt", "ro", "se", "tr", "ar-bw-red", "other")},
}
CONFIGS["de"]["paraphrase"] = ["-l", "de", "-norm", "-m", "exact stem paraphrase", "-a", "@data:paraphrase-de-mini.gz"]
CONFIGS["de"]["new"] = ["-new", "@data:newlang-de"]  # other + universal + lc_only + the directory's files

# Configurations the jar refuses: (name, args).
PROBES = [(f"norm_{lang}", ["-l", lang, "-norm"]) for lang in
          ("da", "fi", "hu", "it", "nl", "no", "pt", "ro", "se", "tr", "ar-bw-red", "other")] + [
    ("stem_cz", ["-l", "cz", "-m", "exact stem"]), ("stem_other", ["-l", "other", "-m", "exact stem"]),
    ("synonym_fr", ["-l", "fr", "-m", "exact synonym"]), ("paraphrase_fr_missing", ["-l", "fr", "-norm"]),
]

# ------------------------------------------------------------------------------------------ pairs

_PUNCT = re.compile(r"^([\"'“„«(]*)(.*?)([.,;:!?\"'”»)]*)$")


def _split(token: str) -> tuple[str, str, str]:
    m = _PUNCT.match(token)
    return m.group(1), m.group(2), m.group(3)


def inflection_groups(lang: str, sentences: list[str]) -> dict[str, list[str]]:
    """Word -> other forms with the same stem in the text (a 5-letter prefix where there is no stemmer)."""
    name = LANGUAGE_NAMES[lang]
    stem = get_stemmer(name) if lang not in ("cz", "other") else (lambda w: w.lower()[:5])
    groups: dict[str, set] = {}
    for s in sentences:
        for tok in s.split():
            core = _split(tok)[1]
            if len(core) > 2:
                groups.setdefault(stem(core), set()).add(core)
    out = {}
    for forms in groups.values():
        if len(forms) > 1:
            for f in forms:
                out[f] = sorted(forms - {f})
    return out


def perturb(sentence: str, rnd: random.Random, forms: dict[str, list[str]], vocab: list[str]) -> tuple[str, str]:
    """A changed copy of a sentence and what was done to it."""
    toks = sentence.split()
    ops = rnd.sample(["drop", "swap", "move", "inflect", "case", "punct", "substitute"], rnd.choice([1, 1, 2, 3]))
    for op in ops:
        n = len(toks)
        if op == "drop" and n > 3:
            for _ in range(rnd.randint(1, min(3, n - 3))):
                del toks[rnd.randrange(len(toks))]
        elif op == "swap" and n > 2:
            i = rnd.randrange(n - 1)
            toks[i], toks[i + 1] = toks[i + 1], toks[i]
        elif op == "move" and n > 5:
            i = rnd.randrange(n - 3)
            k = rnd.randint(2, 3)
            chunk, rest = toks[i:i + k], toks[:i] + toks[i + k:]
            j = rnd.randrange(len(rest) + 1)
            toks = rest[:j] + chunk + rest[j:]
        elif op == "inflect":
            idx = [i for i, t in enumerate(toks) if _split(t)[1] in forms]
            for i in rnd.sample(idx, min(len(idx), rnd.randint(1, 3))):
                pre, core, post = _split(toks[i])
                toks[i] = pre + rnd.choice(forms[core]) + post
        elif op == "case":
            for i in rnd.sample(range(n), min(n, rnd.randint(1, 3))):
                toks[i] = rnd.choice([str.upper, str.lower, str.capitalize, str.title])(toks[i])
        elif op == "punct":
            i = rnd.randrange(n)
            pre, core, post = _split(toks[i])
            toks[i] = rnd.choice([pre + core, core + post + ",", pre + core + " " + post if post else core + " .",
                                  "\u201e" + core + "\u201c" + post, "(" + toks[i] + ")", toks[i] + "..."])
        elif op == "substitute":
            for i in rnd.sample(range(n), min(n, rnd.randint(1, 2))):
                toks[i] = rnd.choice(vocab)
    return " ".join(toks), "+".join(ops)


def make_pairs(lang: str, sentences: list[str], pages: list[str], n: int, seed: str) -> list[dict]:
    rnd = random.Random(f"{seed}/{lang}")
    forms = inflection_groups(lang, sentences)
    vocab = sorted({t for s in sentences for t in s.split()})
    pool = list(range(len(sentences)))
    rnd.shuffle(pool)
    rows = []
    for k, i in enumerate(pool[:n]):
        s = sentences[i]
        roll = rnd.random()
        if roll < 0.05:
            hyp, refs, kind = s, [s], "identical"
        elif roll < 0.12:
            other = sentences[pool[(k + n) % len(pool)]]
            hyp, refs, kind = other, [s], "unrelated"
        else:
            hyp, kind = perturb(s, rnd, forms, vocab)
            refs = [s]
            if roll > 0.8:
                second, kind2 = perturb(s, rnd, forms, vocab)
                refs = [second, s] if rnd.random() < 0.5 else [s, second]
                kind += "|2ref:" + kind2
            elif roll > 0.65:
                hyp, refs = s, [hyp]  # the perturbed copy as the reference
                kind += "|swapped"
        rows.append({"id": f"{lang}/{k:04d}", "source": pages[i], "kind": kind,
                     "hyp": java_trim(hyp), "refs": [java_trim(r) for r in refs]})
    return rows


HAND_LINES = {
    "fr": ["L'homme qu'il a vu aujourd'hui n'est pas là.", "C'est l'\u00ab exemple \u00bb\u00a0: 1,5 % de 3 000 \u20ac.",
           "Jusqu'à l'an 2000\u00a0; d'accord\u00a0?", "M. Dupont et Mme Martin, p. ex. l'été 1990's.",
           "« Voir » -- p. 12, n° 3... et cetera\u2026 fin.", "Il l'a dit: «\u00a0c'est-à-dire\u00a0» ' ok '."],
    "es": ["¿Qué es «esto»? 1.000,5 euros — dijo.", "El 'texto' de O'Neill, p. ej. aquí.",
           "Sr. García y Sra. López (pág. 12) dijeron: \u201cno\u201d.", "Es decir... etc. 3,5 % del P.I.B. total."],
    "de": ["Das \u201eBeispiel\u201c z. B. S. 12 u. a. Nr. 5; Dr. Müller's Haus.", "Er sagt: \u201aja\u2018 \u2013 3,5 Mio. Euro.",
           "Vgl. Abs. 2 bzw. Art. 5 GG, d. h. ca. 1.000 Std. pro Jg.", "Geht's dir gut? 's ist spät -- sehr spät..."],
    "ru": ["\u00abПример\u00bb т. е. 5 г. \u2014 д'Артаньян, см. стр. 12.", "Ст. 5 п. 3, т. д. и т. п. — 1,5 млн руб.",
           "Он сказал: \u201eнет\u201c... и ушёл. Ёлка!"],
    "cz": ["\u201ePříklad\u201c např. č. 5 \u2014 O'Neill, str. 12.", "Tzv. \u201ečeské\u201c texty, tj. 1,5 % atd. Konec.",
           "Viz s. 12 a obr. 3. Další věta.", "Ing. Novák, Ph.D., řekl: \u201aano\u2018 -- a šel'."],
}


def normalizer_pairs(lang: str, sentences: list[str], seed: str) -> list[dict]:
    """Lines for -norm: every nonbreaking prefix of the language before an upper-case word, a
    lower-case word, a number and the line end, plus hand-written apostrophe/quote/number lines;
    each against a copy with those dots (or apostrophes) removed."""
    rnd = random.Random(f"{seed}/{lang}/norm")
    table = (ROOT / "meteor_metric" / "resources" / "nonbreaking" / f"{LANGUAGE_NAMES[lang]}.prefixes")
    prefixes = [line.split()[0] for line in table.read_text(encoding="utf-8").splitlines()
                if line.split() and not line.startswith("#")]
    words = [w for s in sentences for w in s.split() if w.isalpha()]
    lines = []
    for k in range(0, len(prefixes), 4):
        parts = []
        for p in prefixes[k:k + 4]:
            parts.append(f"{rnd.choice(words).capitalize()} {p}. {rnd.choice(words).capitalize()} {p}. "
                         f"{rnd.choice(words).lower()} {p}. {rnd.randint(1, 99)}")
        lines.append(" ".join(parts) + f" {prefixes[k]}.")
    lines += HAND_LINES[lang]
    rows = []
    for k, line in enumerate(lines):
        ref = line.replace(". ", " ") if k % 2 else line.replace("'", "")
        rows.append({"id": f"{lang}/norm/{k:03d}", "source": "nonbreaking prefixes / hand-written",
                     "kind": "normalizer", "hyp": line, "refs": [ref]})
    return rows


def german_mt_pairs(n: int, seed: str) -> list[dict]:
    """WMT21 news en-de system outputs with refA (a fifth with refA and refD)."""
    with gzip.open(MT_DE, "rt", encoding="utf-8") as f:
        rows = [json.loads(line) for line in f]
    rows = [r for r in rows if not r["is_human"] and "|||" not in r["hyp"] + r["refs"]["refA"]]
    rnd = random.Random(f"{seed}/de-mt")
    out = []
    for k, r in enumerate(rnd.sample(rows, n)):
        refs = [r["refs"]["refA"], r["refs"]["refD"]] if k % 5 == 0 else [r["refs"]["refA"]]
        out.append({"id": f"de/mt/{k:04d}", "source": f"wmt21-news en-de seg {r['seg_id']} {r['system']}",
                    "kind": "mt", "hyp": java_trim(" ".join(r["hyp"].split())),
                    "refs": [java_trim(" ".join(x.split())) for x in refs]})
    return out


# -------------------------------------------------------------------------------------------- jar

def resolve_args(args: list[str], jar_files: Path) -> list[str]:
    out = []
    for a in args:
        if a.startswith("@jar:"):
            a = str(jar_files / a[len("@jar:"):])
        elif a.startswith("@data:"):
            a = str(OUT / a[len("@data:"):])
        out.append(a)
    return out


def run_config(args: list[str], rows: list[dict]) -> tuple[list[list], float]:
    """[stats_line, score] per row and the corpus score, from one -stdio process."""
    with jarlib.JarStdio(args) as jar:
        lines = jar.score_many([r["hyp"] for r in rows], [r["refs"] for r in rows])
        scores, corpus = jar.eval(lines)
    return [[line, score] for line, score in zip(lines, scores)], corpus


def jar_tokens(args: list[str], texts: list[str]) -> list[str]:
    """The jar's normalised, lowercased tokens of each text (file mode, -writeAlignments)."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "texts.txt"
        jarlib.write_lines(path, texts)
        cmd = [jarlib.find_java(), *jarlib.JAVA_OPTS, "-jar", str(jarlib.find_jar()), str(path), str(path),
               *args, "-writeAlignments", "-f", "out"]
        subprocess.run(cmd, cwd=tmp, check=True, capture_output=True)
        lines = (Path(tmp) / "out-align.out").read_bytes().decode("utf-8").split("\n")
    hyps = [lines[k + 1] for k, line in enumerate(lines) if line.startswith("Alignment\t")]
    if len(hyps) != len(texts):
        raise RuntimeError(f"{len(hyps)} alignments for {len(texts)} texts")
    return hyps


def token_rows(lang: str, rows: list[dict]) -> list[dict]:
    """-norm and -norm -noPunct tokens of every distinct text of a language's rows."""
    texts = sorted({t for r in rows for t in [r["hyp"], *r["refs"]]})
    mods = "exact" if lang == "cz" else "exact stem"
    out = []
    for mode, extra in (("norm", []), ("norm_nopunct", ["-noPunct"])):
        tokens = jar_tokens(["-l", lang, "-norm", "-m", mods, *extra], texts)
        out += [{"language": lang, "normalization": mode, "text": t, "tokens": k} for t, k in zip(texts, tokens)]
    return out


def run_probe(args: list[str], jar_files: Path) -> dict:
    cmd = [jarlib.find_java(), *jarlib.JAVA_OPTS, "-jar", str(jarlib.find_jar()), "-", "-", "-stdio",
           *resolve_args(args, jar_files)]
    res = subprocess.run(cmd, input="SCORE ||| der Hund ||| die Hunde\n", capture_output=True, text=True,
                         cwd=jarlib.find_jar().parent, timeout=120)
    errors = [line.strip() for line in res.stderr.splitlines() if "Exception" in line or "Error" in line]
    message = " / ".join(errors) if errors else res.stderr.strip()[-300:]
    return {"args": args, "exit": res.returncode, "stdout": res.stdout.strip()[:200],
            "error": message.replace(str(jarlib.find_jar().parent), "<jar dir>")}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--texts", type=Path, required=True)
    ap.add_argument("--only", help="comma-separated languages (default: all)")
    ap.add_argument("--pairs", type=int, default=200)
    ap.add_argument("--mt-pairs", type=int, default=150)
    ap.add_argument("--seed", default="meteor-languages-1")
    ap.add_argument("--workers", type=int, default=2)
    a = ap.parse_args()
    with gzip.open(a.texts, "rt", encoding="utf-8") as f:
        texts = json.load(f)
    langs = a.only.split(",") if a.only else list(CONFIGS)
    prov_path = OUT / "PROVENANCE.json"
    prov = json.loads(prov_path.read_text()) if prov_path.exists() else {"languages": {}}
    with tempfile.TemporaryDirectory() as tmp:
        with zipfile.ZipFile(jarlib.find_jar()) as z:
            z.extractall(tmp, [m for m in z.namelist() if m.startswith("function/")])
        jar_files = Path(tmp)
        for lang in langs:
            t = texts[lang]
            rows = make_pairs(lang, t["sentences"], t["pages"], a.pairs, a.seed)
            if lang == "de":
                rows += german_mt_pairs(a.mt_pairs, a.seed)
            if lang in HAND_LINES:
                rows += normalizer_pairs(lang, t["sentences"], a.seed)
            configs = CONFIGS[lang]
            with concurrent.futures.ThreadPoolExecutor(a.workers) as pool:
                futures = {name: pool.submit(run_config, resolve_args(args, jar_files), rows)
                           for name, args in configs.items()}
                results = {name: fut.result() for name, fut in futures.items()}
            for k, row in enumerate(rows):
                row["expected"] = {name: res[0][k] for name, res in results.items()}
            with open(OUT / f"{lang}.jsonl.gz", "wb") as raw, \
                    gzip.GzipFile(fileobj=raw, mode="wb", compresslevel=9, mtime=0) as g:
                g.write("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows).encode("utf-8"))
            prov["languages"][lang] = {
                "text_source": t["source"] + (" + " + str(MT_DE.relative_to(ROOT.parent)) if lang == "de" else ""),
                "rows": len(rows), "configs": configs,
                "corpus_score": {name: res[1] for name, res in results.items()}}
            print(f"{lang}: {len(rows)} pairs x {len(configs)} configs", flush=True)
            if lang in HAND_LINES:
                tokens = token_rows(lang, rows)
                with open(OUT / f"{lang}.tokens.jsonl.gz", "wb") as raw, \
                        gzip.GzipFile(fileobj=raw, mode="wb", compresslevel=9, mtime=0) as g:
                    g.write("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in tokens).encode("utf-8"))
                prov["languages"][lang]["token_rows"] = len(tokens)
        prov["probes"] = {name: run_probe(args, jar_files) for name, args in PROBES}
    jar = jarlib.find_jar()
    prov.update({
        "jar": "meteor-1.5.jar from pycocoevalcap==1.2", "jar_sha256": jarlib.sha256(jar),
        "java_version": jarlib.java_version(), "java_options": jarlib.JAVA_OPTS,
        "command": "java <java_options> -jar meteor-1.5.jar - - -stdio <config args>: one SCORE line per row, "
                   "then EVAL over all rows (segment scores and corpus score)",
        "generator": "scripts/language_texts.py, then scripts/build_language_goldens.py --seed " + a.seed,
        "text_licences": {
            "manpages-l10n (manpages-*)": "translations GPL-3+ (Debian copyright of manpages-l10n 4.18.1-1); "
                                          "the pages keep their upstream licences",
            "manpages-tr": "GNU GPL (Debian copyright of manpages-tr 2.0.6-2)",
            "Arabic gettext catalogues": "each package's licence (GPL/LGPL); short UI strings",
            "WMT21 news en-de": "research use (wmt-conference/wmt21-news-systems), see shared/data/README.md"},
    })
    prov_path.write_text(json.dumps(prov, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
