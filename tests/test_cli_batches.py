"""Scoring in batches (``--workers``): each worker renders its batches and sums them; the parent merges the
sums and writes the text. Oracle: the jar's scores and stats lines of the bundled examples
(examples/jar-scores.json). Also the block reader of corpus files (Java's readLine line ends)."""

import json
import os
import pickle
import random
import subprocess
import sys
from pathlib import Path

import pytest

from meteor_metric.cli.common import MIN_TAIL_BATCH, LineBatch, score_batches, score_stream, worker_pool
from meteor_metric.cli.score import BatchDigest, SegmentFormat
from meteor_metric.core import corpus_io
from meteor_metric.core.corpus_io import CorpusFormatError, index_lines, iter_lines, read_line_range, read_lines
from meteor_metric.core.javafmt import java_split_lines
from meteor_metric.core.stats import MeteorStats, StatsTotal
from meteor_metric.profiles.registry import scorer_spec

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
JAR = json.loads((EXAMPLES / "jar-scores.json").read_text(encoding="utf-8"))["two_refs"]
PAIRS = [(h, [r1, r2]) for h, r1, r2 in zip(*(read_lines(str(EXAMPLES / name))
                                               for name in ("hyp.txt", "ref.txt", "ref2.txt")))]


@pytest.fixture(scope="module")
def meteor_spec(default_meteor):
    return scorer_spec("meteor-1.5")  # (default_meteor: skips where no English paraphrase table is installed)


def _run(spec, workers: int, layout: SegmentFormat, batch_size: int):
    scorer = spec.build()
    totals, text, spool = scorer.accumulator(), [], []
    with worker_pool(spec, workers) as pool:
        for batch in score_batches(scorer, PAIRS, BatchDigest(layout, keep=True), pool, batch_size):
            totals.merge(batch.totals)
            text.append(batch.rendered.text)
            spool.append(batch.rendered.spool)
            assert len(batch.kept) == batch.rendered.count and batch.kept[0].alignment == ()
    return totals.result(), "".join(text), "".join(spool)


@pytest.mark.parametrize("workers", [1, 2])
def test_merged_batches_give_the_jars_numbers(meteor_spec, workers):
    # 100 segments in batches of 7 (in one process: of BATCH_SIZE, one batch)
    result, text, _ = _run(meteor_spec, workers, SegmentFormat("tsv"), batch_size=7)
    assert abs(result.score - JAR["final_score"]) <= 1e-12
    rows = [line.split("\t") for line in text.splitlines()]
    assert [int(r[0]) for r in rows] == list(range(1, 101))
    assert [r[2] for r in rows] == JAR["stats_lines"]
    assert all(abs(float(r[1]) - s) <= 1e-12 for r, s in zip(rows, JAR["segment_scores"]))
    _, _, spool = _run(meteor_spec, workers, SegmentFormat("json", details=True), batch_size=7)
    lines = [line.split("\t") for line in spool.splitlines()]
    assert [json.loads(stats) for stats, _ in lines] == JAR["stats_lines"]
    assert [json.loads(details)["segment"] for _, details in lines] == list(range(1, 101))


def test_nltk_batches_merge_to_the_mean_of_the_corpus():
    spec = scorer_spec("nltk")
    scorer = spec.build()
    whole = scorer.corpus_score([h for h, _ in PAIRS], [r for _, r in PAIRS])
    result, _, _ = _run(spec, 2, SegmentFormat("text"), batch_size=9)
    assert result.score == whole.score and result.stats == whole.stats  # the same np.mean, in corpus order


def test_an_accumulator_travels_without_its_scorer(meteor_spec):
    scorer = meteor_spec.build()
    part = scorer.accumulator()
    for segment, n_refs in score_stream(scorer, PAIRS[:5]):
        part.add(segment, n_refs)
    copy = pickle.loads(pickle.dumps(part))
    assert not hasattr(copy, "_scorer")
    whole = scorer.accumulator()
    whole.merge(copy)
    assert whole.result().stats == part.result().stats
    with pytest.raises(TypeError, match="cannot merge"):
        whole.merge(scorer_spec("nltk").build().accumulator())


def test_stats_totals_merge_as_if_added_one_by_one():
    def stats(n, k):
        return MeteorStats(n, n, 0, 0, (n,) * k, (n,) * k, (0,) * k, (0,) * k, 1, n, n)
    items = [stats(3, 1), stats(2, 2), stats(4, 3), MeteorStats(5, 6, 1, 1, (2,), (2,), (0,), (0,), 2, 2, 2)]
    for exclude in (True, False):
        one, first, second = StatsTotal(exclude), StatsTotal(exclude), StatsTotal(exclude)
        for s in items:
            one.add(s)
        for s in items[:2]:
            first.add(s)
        for s in items[2:]:
            second.add(s)
        first.merge(second)
        assert first.total == one.total and first.count == one.count
    with pytest.raises(ValueError, match="perfect"):
        StatsTotal(True).merge(StatsTotal(False))


def test_stats_totals_add_many_as_if_added_one_by_one(meteor_spec):
    """add_many (column sums) against add (the jar's addStats, one segment at a time): real segments (perfect
    ones among them: their chunks are left out), per-module tuples of different widths, an empty call."""
    scorer = meteor_spec.build()
    real = [s.stats for s in scorer.score_pairs(PAIRS)] + [scorer.sentence_score("a b c", ["a b c"]).stats]
    assert any(s.is_perfect and s.chunks == 1 for s in real)
    mixed = [MeteorStats(3, 3, 0, 0, (3,) * k, (3,) * k, (0,) * k, (0,) * k, 1, 3, 3, 2, 3) for k in (1, 2, 3)]
    for items in (real, mixed, real + mixed):
        for exclude in (True, False):
            one, many = StatsTotal(exclude), StatsTotal(exclude)
            for s in items:
                one.add(s)
            many.add_many(items[:7])
            many.add_many([])
            many.add_many(items[7:])
            assert many.total == one.total and many.count == one.count
    whole = scorer.accumulator()
    with pytest.raises(ValueError, match="2 segments but 1 numbers of references"):
        whole.add_many(scorer.score_pairs(PAIRS[:2]), [1])


PIECES = [b"a", b"bc", b"\n", b"\r", b"\r\n", b"\xef\xbb\xbf", "\u00e9".encode(), "\u4e2d".encode(), b" ",
          "\u2028".encode(), b"\x00"]


@pytest.mark.parametrize("block", [1, 2, 3, 7, 1 << 20])
def test_block_reader_ends_lines_as_java(tmp_path, monkeypatch, block):
    """Lines end at \\n, \\r and \\r\\n (Java's readLine) wherever the blocks are cut: as java_split_lines
    splits the whole text; a BOM is dropped only at the start."""
    monkeypatch.setattr(corpus_io, "_BLOCK_BYTES", block)
    rng = random.Random(block)
    path = tmp_path / "lines.txt"
    for _ in range(300):
        data = b"".join(rng.choice(PIECES) for _ in range(rng.randrange(0, 30)))
        path.write_bytes(data)
        text = data.decode("utf-8")
        assert list(iter_lines(str(path))) == java_split_lines(text[1:] if text.startswith("\ufeff") else text)


@pytest.mark.parametrize("block", [1, 5, 1 << 20])
def test_block_reader_names_the_line_of_a_bad_byte(tmp_path, monkeypatch, block):
    monkeypatch.setattr(corpus_io, "_BLOCK_BYTES", block)
    path = tmp_path / "bad.txt"
    path.write_bytes(b"\xef\xbb\xbfok\r\nfine\rba\xffd\nlater\n")
    lines = []
    with pytest.raises(CorpusFormatError, match=r"bad.txt: line 3 is not valid UTF-8 \(byte 3 of the line\)"):
        for line in iter_lines(str(path)):
            lines.append(line)
    assert lines == ["ok", "fine"]  # the lines before it come first


@pytest.mark.parametrize("block", [1, 3, 64, 1 << 16])
def test_a_line_range_read_from_its_block_is_the_same_lines(tmp_path, monkeypatch, block):
    """What --workers helpers read (index_lines, then read_line_range from the block holding the first line)
    against read_lines' slices, wherever the blocks are cut; a file that lost lines since it was indexed is
    named, not read short."""
    monkeypatch.setattr(corpus_io, "_BLOCK_BYTES", block)
    rng = random.Random(block)
    path = tmp_path / "lines.txt"
    for _ in range(100):
        path.write_bytes(b"".join(rng.choice(PIECES + [b"x" * 50]) for _ in range(rng.randrange(0, 60))))
        lines, index = read_lines(str(path)), index_lines(str(path))
        assert index.count == len(lines)
        for _ in range(10):
            start = rng.randint(0, len(lines))
            count = rng.randint(0, len(lines) - start)
            assert read_line_range(str(path), index.locate(start), start, count) == lines[start:start + count]
    path.write_bytes(b"a\nb\nc\n")
    index = index_lines(str(path))
    path.write_bytes(b"a\n")
    with pytest.raises(CorpusFormatError, match="lines.txt changed while it was read: line 2 is gone"):
        read_line_range(str(path), index.locate(1), 1, 2)


def test_a_file_of_carriage_returns_is_read_in_blocks(tmp_path, monkeypatch):
    """\\r line ends cut the blocks as \\n ones do, so a helper's batch of such a file reads a block or two, not
    the whole file (it had read all of it for every batch: --workers 2 took 2.8 CPU-s against one process's 1.8
    on 60,000 lines)."""
    monkeypatch.setattr(corpus_io, "_BLOCK_BYTES", 64)
    path = tmp_path / "mac.txt"
    path.write_bytes(b"".join(b"line %d\r" % k for k in range(2000)))
    index = index_lines(str(path))
    assert index.count == 2000 and len(index.offsets) >= path.stat().st_size // 128
    assert all(b - a <= 128 for a, b in zip(index.offsets, index.offsets[1:]))
    assert read_line_range(str(path), index.locate(1500), 1500, 3) == ["line 1500", "line 1501", "line 1502"]


@pytest.mark.parametrize("tokenize", ["none", "ptb"])
def test_helpers_read_plain_text_batches_themselves(capsys, monkeypatch, tokenize):
    """With --workers and plain-text files the parent sends LineBatch es (where the lines are), and the output
    is byte for byte one process's (the jar's numbers: test_merged_batches_give_the_jars_numbers)."""
    sent = []  # the pairs of each LineBatch pickled for a helper
    monkeypatch.setattr(LineBatch, "__reduce__", lambda self: (sent.append(self.count) or LineBatch,
                                                              (self.files, self.start, self.count, self.transform)))
    from meteor_metric.cli.main import main

    outs = []
    for workers in ("1", "2"):
        args = ["score", "--hyp", str(EXAMPLES / "hyp.txt"), "--ref", str(EXAMPLES / "ref.txt"), "--ref",
                str(EXAMPLES / "ref2.txt"), "--format", "json", "--tokenize", tokenize, "--workers", workers]
        assert main(args) == 0
        outs.append(capsys.readouterr().out)
    assert outs[0] == outs[1]
    assert sum(sent) == len(PAIRS)


def where_scored(scorer, first, pairs, segments):
    """A digest: the batch's first pair, its size and the process that scored it."""
    return first, len(segments), os.getpid()


def test_the_helpers_share_the_batches_and_the_last_ones_are_smaller(meteor_spec):
    scorer = meteor_spec.build()
    pairs = PAIRS * 40  # 4,000 pairs
    with worker_pool(meteor_spec, 2) as pool:
        batches = list(score_batches(scorer, pairs, where_scored, pool, batch_size=256, total=len(pairs)))
    firsts, sizes, pids = zip(*batches)
    assert sum(sizes) == len(pairs) and list(firsts) == [sum(sizes[:k]) for k in range(len(sizes))]
    assert sizes[0] == 256 and sizes[-1] < 256 and list(sizes) == sorted(sizes, reverse=True)
    assert min(sizes[:-1]) >= MIN_TAIL_BATCH
    assert os.getpid() not in pids and len(set(pids)) == 2  # two helpers scored, this process did not


BAD_INPUTS = {  # hypothesis bytes, reference bytes, what the message says
    "line counts": (b"a\nb\nc\n", b"a\nb\n", "h.txt has 3 lines, "),
    "bad UTF-8": (b"a\nb\xff\n", b"a\nb\n", "line 2 is not valid UTF-8"),
    "empty": (b"", b"", "is empty: nothing to score"),
}


@pytest.mark.parametrize("case", sorted(BAD_INPUTS))
def test_workers_report_a_bad_input_as_one_process_does(tmp_path, case):
    """The same message, status and (no) output with --workers 2 as with one process."""
    hyp, ref, message = BAD_INPUTS[case]
    (tmp_path / "h.txt").write_bytes(hyp)
    (tmp_path / "r.txt").write_bytes(ref)
    runs = [subprocess.run([sys.executable, "-m", "meteor_metric", "score", "--hyp", "h.txt", "--ref", "r.txt",
                            "--workers", str(workers)], cwd=tmp_path, capture_output=True, text=True, timeout=300)
            for workers in (1, 2)]
    assert runs[0].returncode == runs[1].returncode == 2
    assert runs[0].stderr == runs[1].stderr and message in runs[1].stderr
    assert runs[0].stdout == runs[1].stdout == ""
