"""Paraphrase tables: the compiled index against a naive, dict-based transcription of the jar.

``data/paraphrase-mini.gz`` holds 989 entries of pycocoevalcap's ``paraphrase-en.gz``, in file order:
a sample of the entries whose two phrases both occur in the first 60 TED-talk and 20 Flickr8k rows of
``data/java15/``, plus up to two other entries of each sampled reference phrase.

The English-table tests skip when pycocoevalcap (which ships the table) is not installed. They reuse
the index in the user's cache when a valid one is there (read only); otherwise they compile it once
per session into a temporary directory, which takes about a minute.
"""

from __future__ import annotations

import gzip
import json
import logging
import multiprocessing
import os
import pickle
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from meteor_metric.meteor15 import paraphrase as pp
from meteor_metric.meteor15 import paraphrase_build
from meteor_metric.meteor15.paraphrase import ParaphraseTable, ParaphraseTableNotFound, find_paraphrase_table
from meteor_metric.meteor15.paraphrase_index import read_header

DATA = Path(__file__).parent / "data"
MINI = DATA / "paraphrase-mini.gz"
INDEX_NAME = re.compile(r"paraphrase-[0-9a-f]{32}\.(idx|lock)")


# -- the jar, transcribed naively -------------------------------------------------------------------

_JAVA_DELIMS = re.compile(r"[ \t\n\r\f]+")


def java_tokens(line: str) -> tuple[str, ...]:
    """``StringTokenizer`` with its default delimiters."""
    return tuple(t for t in _JAVA_DELIMS.split(line) if t)


class NaiveTable:
    """``ParaphraseTransducer`` + ``ParaphraseMatcher`` as plain dicts and loops."""

    def __init__(self, entries):
        self.by_ref: dict[tuple[str, ...], list[tuple[str, ...]]] = {}
        for ref, par in entries:
            self.by_ref.setdefault(ref, []).append(par)
        self.longest = max(map(len, self.by_ref), default=0)

    @classmethod
    def read(cls, path: Path, refs=None) -> "NaiveTable":
        """The table at ``path``; only the entries whose reference phrase is in ``refs`` if given."""
        data = gzip.open(path, "rb").read()
        odd = (b"\r", b"\t", b"\x0c", b"  ", b"\n ", b" \n")
        if refs is not None and not any(o in data for o in odd) and data[:1] != b" " and data[-1:] != b" ":
            # Every line is its tokens joined by single spaces: compare lines, not tokens.
            data.decode("utf-8")  # (and is valid UTF-8, else this raises)
            lines = data.split(b"\n")
            if lines[-1] == b"":
                lines.pop()
            wanted = {" ".join(r).encode("utf-8") for r in refs}
            hits = [k for k, line in enumerate(lines[1::3]) if line in wanted]
            return cls((java_tokens(lines[3 * k + 1].decode()), java_tokens(lines[3 * k + 2].decode())) for k in hits)
        lines = re.split(r"\r\n|\r|\n", data.decode("utf-8", "replace"))  # BufferedReader.readLine
        if lines[-1] == "":
            lines.pop()
        assert len(lines) % 3 == 0
        entries = [(java_tokens(lines[k + 1]), java_tokens(lines[k + 2])) for k in range(0, len(lines), 3)]
        return cls(e for e in entries if refs is None or e[0] in refs)

    def paths(self, words, s):
        """``getPaths``: (length, paraphrase) for each reference phrase starting at ``s``."""
        for length in range(1, min(self.longest, len(words) - s) + 1):
            for par in self.by_ref.get(tuple(words[s:s + length]), ()):
                yield length, par

    def matches(self, hyp, ref):
        out = []
        for j in range(len(ref)):
            for length, par in self.paths(ref, j):
                for i in range(len(hyp)):
                    if i + len(par) <= len(hyp) and tuple(hyp[i:i + len(par)]) == par:
                        out.append((j, length, i, len(par)))
        for i in range(len(hyp)):
            for length, par in self.paths(hyp, i):
                for j in range(len(ref)):
                    if j + len(par) <= len(ref) and tuple(ref[j:j + len(par)]) == par:
                        out.append((j, len(par), i, length))
        return out


def ngrams(sentences, longest=7):
    return {tuple(s[i:i + n]) for s in sentences for n in range(1, longest + 1) for i in range(len(s) - n + 1)}


def sample_pairs(limit_ted=None, limit_flickr=None):
    """(hyp, ref) token tuples from the jar test samples, lowercased and split on whitespace."""
    pairs = []
    for name, limit in (("tedtalks_zh-en.sample.jsonl.gz", limit_ted), ("flickr8k_cf.sample.jsonl.gz", limit_flickr)):
        with gzip.open(DATA / "java15" / name, "rt", encoding="utf-8") as f:
            for n, line in enumerate(f):
                if limit is not None and n >= limit:
                    break
                row = json.loads(line)
                hyp = tuple(row["hyp"].lower().split())
                pairs += [(hyp, tuple(ref.lower().split())) for ref in row["refs"]]
    return pairs


def random_pairs(naive: NaiveTable, extra_words, count, seed, pieces=10):
    """Pairs strung together from the table's entries (one phrase on each side) and single words."""
    rng = random.Random(seed)
    entries = sorted((ref, par) for ref, pars in naive.by_ref.items() for par in pars)
    words = sorted({w for e in entries for p in e for w in p}) + list(extra_words)
    pairs = []
    for _ in range(count):
        a, b = [], []
        for _ in range(rng.randint(0, pieces)):
            if rng.random() < 0.5:
                ref, par = rng.choice(entries)
                a += ref
                b += par
            else:
                rng.choice((a, b)).append(rng.choice(words))
        pairs.append((tuple(a), tuple(b)) if rng.random() < 0.5 else (tuple(b), tuple(a)))
    return pairs


def assert_same(table: ParaphraseTable, naive: NaiveTable, pairs) -> int:
    total = 0
    for hyp, ref in pairs:
        expected = naive.matches(hyp, ref)
        assert table.matches(hyp, ref) == expected, (hyp, ref)
        assert table.matches(list(hyp), list(ref)) == expected
        total += len(expected)
    return total


# -- fixtures ---------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def mini(tmp_path_factory) -> ParaphraseTable:
    return ParaphraseTable.load(MINI, tmp_path_factory.mktemp("mini-cache"))


@pytest.fixture(scope="module")
def mini_naive() -> NaiveTable:
    return NaiveTable.read(MINI)


@pytest.fixture(scope="session")
def english(tmp_path_factory) -> ParaphraseTable:
    with pytest.MonkeyPatch.context() as mp:
        mp.delenv(pp.PARAPHRASE_DIR_ENV, raising=False)
        try:
            source = find_paraphrase_table("en")
        except ParaphraseTableNotFound as e:
            pytest.skip(f"English paraphrase table not installed: {e}")
    return ParaphraseTable.load(source, tmp_path_factory.mktemp("en-cache"))  # the shipped index, if it applies


# -- equivalence with the naive jar -----------------------------------------------------------------


def test_mini_table_real_sentences(mini, mini_naive):
    pairs = sample_pairs(limit_ted=60, limit_flickr=20)
    sentences = sorted({s for pair in pairs for s in pair})
    rng = random.Random(0)
    pairs += [(rng.choice(sentences), rng.choice(sentences)) for _ in range(2000)]  # unrelated ones too
    assert assert_same(mini, mini_naive, pairs) > 800


def test_mini_table_random_sentences(mini, mini_naive):
    pairs = random_pairs(mini_naive, ["unknown-word", "", "a b"], 400, seed=1)  # (words never in a table)
    assert assert_same(mini, mini_naive, pairs) > 1000


def test_mini_table_counts(mini):
    assert len(mini) == 989
    assert mini.paraphrases(("a", "ball"))[:3] == [("a", "bag"), ("a", "bal"), ("a", "small")]
    assert mini.paraphrases(("not", "there")) == [] and mini.paraphrases(()) == []


def test_pickles_as_its_paths(mini):
    copy = pickle.loads(pickle.dumps(mini))
    assert (copy.source, copy.index_path, copy.fingerprint) == (mini.source, mini.index_path, mini.fingerprint)
    pair = (("a", "ball", "flies"), ("a", "bag", "flies"))
    assert copy.matches(*pair) == mini.matches(*pair) != []


# Java readLine splits at \n, \r and \r\n; StringTokenizer at " \t\n\r\f" only (so \x0b stays in a
# token); malformed UTF-8 becomes U+FFFD; an empty reference phrase never matches and an empty
# paraphrase matches at every hypothesis position.
EDGE_TABLE = b"".join([
    b"0.1\na b\nc\n",
    b"0.2\na b\n\n",  # empty paraphrase
    b"0.3\n\nx\n",  # empty reference phrase
    b"0.4\r\n  a\tb  \r\nc\x0cd\r\n",  # CRLF, tab, form feed, spaces
    b"0.5\ra\x0bb\rq\r",  # lone CR; vertical tab inside a token
    b"0.6\na b\nc\n",  # duplicate entry
    b"0.7\n\xc3\xa9 \xc3\xbc\n\xff\xfe\n",  # non-ASCII; malformed UTF-8
    b"0.8\na\na\n",  # identity
    b"0.9\na b c d e f g h\nb\n",  # longer than 7 tokens
    b"1.0\nc d\na b\n",
    b"1.1\nb\n\xef\xbf\xbd\xef\xbf\xbd",  # no final newline; U+FFFD U+FFFD written out
])
@pytest.mark.parametrize("chunk", [1 << 24, 1, 2, 7])
def test_edge_case_table(tmp_path, monkeypatch, chunk):
    monkeypatch.setattr(paraphrase_build, "_CHUNK", chunk)  # also splits lines (and \r\n) across reads
    path = tmp_path / "paraphrase-xx.gz"
    path.write_bytes(gzip.compress(EDGE_TABLE))
    table = ParaphraseTable.load(path, tmp_path / "cache")
    naive = NaiveTable.read(path)
    assert len(table) == 11
    assert table.paraphrases(("a", "b")) == [("c",), (), ("c", "d"), ("c",)]
    assert table.paraphrases(("\xe9", "\xfc")) == [("\ufffd\ufffd",)]
    assert table.matches(("x", "y"), ("a", "b")) == [(0, 2, 0, 0), (0, 2, 1, 0)]
    assert assert_same(table, naive, random_pairs(naive, ["zz", "", "e"], 300, seed=2)) > 1000


def test_empty_table(tmp_path):
    path = tmp_path / "empty.gz"
    path.write_bytes(gzip.compress(b""))
    table = ParaphraseTable.load(path, tmp_path)
    assert len(table) == 0 and table.matches(("a",), ("a",)) == []


def test_malformed_table(tmp_path):
    path = tmp_path / "bad.gz"
    path.write_bytes(gzip.compress(b"0.1\na\nb\n0.2\nc\n"))
    with pytest.raises(pp.ParaphraseIndexError, match="trailing"):
        ParaphraseTable.load(path, tmp_path)


def test_english_table_matches_naive(english):
    pairs = sample_pairs()
    naive = NaiveTable.read(english.source, refs=ngrams(s for pair in pairs for s in pair))
    assert len(pairs) > 3000
    assert assert_same(english, naive, pairs) > 10000


def test_english_table_known_facts(english):
    assert len(english) == 5_274_084
    assert english.fingerprint == "5274084:c147ac7d2c91f2fb"  # the sha256 in data/java15/PROVENANCE.json
    assert len(english.paraphrases(("??",))) == 934  # the most of any phrase
    assert ("which",) in english.paraphrases(("walks",))
    assert (0, 1, 0, 1) in english.matches(("walks",), ("which",))
    assert english.matches(("the", "walks", "zzqx"), ("zzqx",)) == []


# -- the index cache --------------------------------------------------------------------------------


def cache_files(cache: Path) -> list[str]:
    return sorted(p.name for p in cache.iterdir())


def test_second_load_reuses_index(tmp_path, monkeypatch):
    first = ParaphraseTable.load(MINI, tmp_path)
    before = first.index_path.stat()

    def no_build(*args):
        raise AssertionError("rebuilt a valid index")

    monkeypatch.setattr(pp, "build_index", no_build)
    second = ParaphraseTable.load(MINI, tmp_path)
    after = second.index_path.stat()
    assert second.index_path == first.index_path
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)
    assert second.fingerprint == first.fingerprint


def _section(data: bytes, name: str) -> tuple[int, int]:
    return read_header(data).sections[name]


def _flip_middle(data: bytes, name: str) -> bytes:
    lo, hi = _section(data, name)
    mid = (lo + hi) // 2
    return data[:mid] + bytes([data[mid] ^ 0x10]) + data[mid + 1:]


def _child_out_of_range(data: bytes) -> bytes:
    lo, hi = _section(data, "child")
    at = lo + 4 * ((hi - lo) // 8)
    return data[:at] + (0xFFFFFFF0).to_bytes(4, sys.byteorder) + data[at + 4:]


# Detected: a wrong length, magic, version or header (crc32), inconsistent section ends, and any
# changed byte of the body (a crc32 per section, checked on every load).
DAMAGE = {"truncate": lambda g: g[:len(g) // 2], "short": lambda g: g[:-1], "longer": lambda g: g + b"\0",
          "empty": lambda g: b"", "magic": lambda g: b"X" + g[1:],
          "header": lambda g: g[:40] + bytes([g[40] ^ 1]) + g[41:],
          "tok": lambda g: _flip_middle(g, "tok"), "start": lambda g: _flip_middle(g, "start"),
          "para": lambda g: _flip_middle(g, "para"), "vocab": lambda g: _flip_middle(g, "vocab"),
          "child": _child_out_of_range}


@pytest.mark.parametrize("damage", sorted(DAMAGE))
def test_damaged_index_is_rebuilt(tmp_path, damage, caplog):
    table = ParaphraseTable.load(MINI, tmp_path)
    pair = sample_pairs(limit_ted=3, limit_flickr=0)[2]
    expected = table.matches(*pair)
    path = table.index_path
    good = path.read_bytes()
    path.write_bytes(DAMAGE[damage](good))
    with pytest.raises(pp.ParaphraseIndexError):
        ParaphraseTable(MINI, path)
    with caplog.at_level(logging.WARNING, logger="meteor_metric"):
        rebuilt = ParaphraseTable.load(MINI, tmp_path)
    assert [r.getMessage() for r in caplog.records if "rebuilding" in r.getMessage()] != []
    assert rebuilt.index_path.read_bytes() == good
    assert rebuilt.matches(*pair) == expected


def test_stale_index_is_not_used(tmp_path):
    source = tmp_path / "paraphrase-xx.gz"
    source.write_bytes(MINI.read_bytes())
    cache = tmp_path / "cache"
    old = ParaphraseTable.load(source, cache)
    source.write_bytes(gzip.compress(b"1\nwalks\nwhich\n"))
    new = ParaphraseTable.load(source, cache)
    assert len(old) == 989 and len(new) == 1 and new.index_path != old.index_path
    assert new.matches(("which",), ("walks",)) == [(0, 1, 0, 1)]


def _load_in_child(cache, barrier, queue):
    built = []
    real_build = pp.build_index
    pp.build_index = lambda *args, **kwargs: (built.append(1), real_build(*args, **kwargs))
    barrier.wait()
    table = ParaphraseTable.load(MINI, cache)
    queue.put((len(built), str(table.index_path), table.matches(("a", "ball"), ("a", "bag"))))


def test_concurrent_builds(tmp_path):
    ctx = multiprocessing.get_context("fork")
    barrier, queue = ctx.Barrier(4), ctx.Queue()
    procs = [ctx.Process(target=_load_in_child, args=(tmp_path, barrier, queue)) for _ in range(4)]
    for p in procs:
        p.start()
    results = [queue.get(timeout=60) for _ in procs]
    for p in procs:
        p.join(timeout=60)
        assert p.exitcode == 0
    assert sum(r[0] for r in results) == 1  # one build; the others waited for it and reused it
    assert len({r[1] for r in results}) == 1 and len({repr(r[2]) for r in results}) == 1
    assert results[0][2]  # some matches
    assert [n for n in cache_files(tmp_path) if n.endswith(".idx")] == [Path(results[0][1]).name]


def test_cache_stays_inside_its_directory(tmp_path):
    name = "para phrase ..;$HOME*.gz"
    (tmp_path / "src").mkdir()
    (tmp_path / "x").mkdir()
    (tmp_path / "x" / name).write_bytes(MINI.read_bytes())
    cache = tmp_path / "deep" / "cache"
    ParaphraseTable.load(tmp_path / "src" / ".." / "x" / name, cache)
    ParaphraseTable.load(MINI, cache)
    everything = sorted(str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*"))
    assert everything == sorted(["deep", "deep/cache", "src", "x", f"x/{name}"]
                                + [f"deep/cache/{n}" for n in cache_files(cache)])
    assert all(INDEX_NAME.fullmatch(n) for n in cache_files(cache)) and len(cache_files(cache)) == 4


def test_default_cache_dir(monkeypatch, tmp_path):
    monkeypatch.setenv(pp.CACHE_DIR_ENV, str(tmp_path / "a"))
    assert pp.default_cache_dir() == tmp_path / "a"
    monkeypatch.delenv(pp.CACHE_DIR_ENV)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert pp.default_cache_dir() == tmp_path / "xdg" / "meteor-metric"
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert pp.default_cache_dir() == Path.home() / ".cache" / "meteor-metric"


# -- finding a table --------------------------------------------------------------------------------


def test_find_explicit_path(tmp_path):
    assert find_paraphrase_table("en", MINI) == MINI
    with pytest.raises(ParaphraseTableNotFound, match="does not exist"):
        find_paraphrase_table("en", tmp_path / "missing.gz")
    with pytest.raises(ParaphraseTableNotFound):
        ParaphraseTable.load(tmp_path / "missing.gz", tmp_path)
    assert issubclass(ParaphraseTableNotFound, FileNotFoundError)


def test_find_in_env_dir(tmp_path, monkeypatch):
    (tmp_path / "paraphrase-cz.gz").write_bytes(MINI.read_bytes())
    monkeypatch.setenv(pp.PARAPHRASE_DIR_ENV, str(tmp_path))
    assert find_paraphrase_table("cz") == tmp_path / "paraphrase-cz.gz"
    with pytest.raises(ParaphraseTableNotFound) as err:
        find_paraphrase_table("fr")
    message = str(err.value)
    assert str(tmp_path / "paraphrase-fr.gz") in message and "pycocoevalcap" not in message
    assert "modules without 'paraphrase'" in message


def test_find_missing_english_explains(monkeypatch):
    monkeypatch.delenv(pp.PARAPHRASE_DIR_ENV, raising=False)
    monkeypatch.setattr(pp.importlib.util, "find_spec", lambda name: None)
    with pytest.raises(ParaphraseTableNotFound) as err:
        find_paraphrase_table("en")
    message = str(err.value)
    for part in ("pip install pycocoevalcap==1.2", pp.PARAPHRASE_DIR_ENV, "pycocoevalcap (not installed)",
                 "modules without 'paraphrase'"):
        assert part in message


@pytest.mark.parametrize("language", ["../en", "EN", "", "e", "en/x"])
def test_find_rejects_odd_language(language):
    with pytest.raises(ValueError):
        find_paraphrase_table(language)


def test_finding_and_loading_import_nothing_heavy(mini):
    code = (f"import sys; from meteor_metric.meteor15.paraphrase import ParaphraseTable, find_paraphrase_table\n"
            f"try: find_paraphrase_table('en')\nexcept FileNotFoundError: pass\n"
            f"ParaphraseTable.load({str(MINI)!r}, {str(mini.index_path.parent)!r})\n"
            f"print(sorted(m for m in ('pycocoevalcap', 'numpy') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
