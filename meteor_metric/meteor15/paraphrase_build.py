"""Compiling a METEOR paraphrase table (gzip'd text) into the sections of an index.

:func:`compile_table` reads the table once, as a stream, and lays out the sections that
:mod:`meteor_metric.meteor15.paraphrase_index` describes. The sections depend only on the table's bytes.
"""

from __future__ import annotations

import gzip
import re
from array import array
from collections.abc import Iterator
from itertools import chain, count, filterfalse
from pathlib import Path
from typing import Callable, NamedTuple, Optional

from ..core.gcpause import gc_paused
from .paraphrase_index import FLAG_EMPTY_PARAPHRASE, ParaphraseIndexError

__all__ = ["CompiledTable", "compile_table"]

_CHUNK = 1 << 24
_JAVA_DELIMS = re.compile(rb"[ \t\n\r\f]+")


class CompiledTable(NamedTuple):
    """The index sections of a table (``vocab``, ``tok``, ``child``, ``levels``, ``start``, ``para``) and its counts."""

    sections: dict[str, bytes]
    entries: int
    nodes: int
    vocab: int
    flags: int


def _table_lines(f) -> Iterator[list[bytes]]:
    r"""Lists of complete lines of a binary stream, split like Java's ``readLine`` (\n, \r, \r\n)
    and with malformed UTF-8 replaced by U+FFFD as Java's decoder does."""
    carry = b""
    while True:
        chunk = f.read(_CHUNK)
        data = carry + chunk
        hold = 1 if chunk and data.endswith(b"\r") else 0  # may be the first half of \r\n
        body = data[:len(data) - hold]
        if b"\r" in body:
            body = body.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
        lines = body.split(b"\n")
        if chunk:
            carry = lines.pop() + data[len(data) - hold:]
        elif lines[-1] == b"":
            lines.pop()
        if not body.isascii():
            try:
                b"\n".join(lines).decode("utf-8")
            except UnicodeDecodeError:
                lines = [line.decode("utf-8", "replace").encode("utf-8") for line in lines]
        yield lines
        if not chunk:
            return


def _tokens(phrase: bytes) -> list[bytes]:
    r"""Java ``StringTokenizer`` tokens (``bytes.split()`` also splits on \x0b, which Java keeps)."""
    return [t for t in _JAVA_DELIMS.split(phrase) if t]


def compile_table(src: Path, progress: Optional[Callable[[int], None]] = None) -> CompiledTable:
    """Parse the gzip table ``src`` and lay out its index sections.

    ``progress`` is called with the number of compressed bytes read so far. Raises
    :class:`ParaphraseIndexError` for a malformed table."""
    with gc_paused():
        return _compile(src, progress)


def _compile(src: Path, progress: Optional[Callable[[int], None]]) -> CompiledTable:
    import numpy as np  # build time only

    # 1. Entries as pairs of distinct-line ids.
    line_ids: dict[bytes, int] = {}
    ref_ids, par_ids = array("I"), array("I")
    pending: list[bytes] = []
    with open(src, "rb") as raw, gzip.GzipFile(fileobj=raw) as f:
        for lines in _table_lines(f):
            if progress is not None:
                progress(raw.tell())
            lines = pending + lines if pending else lines
            k = len(lines) - len(lines) % 3
            refs, pars = lines[1:k:3], lines[2:k:3]
            pending = lines[k:]
            phrases = lines[1:k]
            del phrases[2::3]  # the probability lines
            # Ids in file order keep later passes walking memory in order.
            new = filterfalse(line_ids.__contains__, dict.fromkeys(phrases))
            line_ids.update(zip(new, count(len(line_ids))))
            ref_ids.extend(map(line_ids.__getitem__, refs))
            par_ids.extend(map(line_ids.__getitem__, pars))
    if pending:
        raise ParaphraseIndexError(f"{src}: {len(pending)} trailing line(s) after the last 3-line entry")
    entries = len(ref_ids)
    if entries >= 1 << 32:
        raise ParaphraseIndexError(f"{src}: too many entries ({entries})")

    # 2. Tokens of each distinct line, as ids (flat), with the number of tokens per line.
    vocab: dict[bytes, int] = {}
    flat, lengths = array("I"), array("B")
    distinct = list(line_ids)
    del line_ids
    for b in range(0, len(distinct), 1 << 16):
        batch = distinct[b:b + (1 << 16)]
        toks = list(map(_tokens if b"\x0b" in b"".join(batch) else bytes.split, batch))
        if max(map(len, toks)) > 255:
            raise ParaphraseIndexError(f"{src}: a phrase has more than 255 tokens")
        lengths.extend(map(len, toks))
        words = list(chain.from_iterable(toks))
        vocab.update(zip(set(words).difference(vocab), count(len(vocab))))
        flat.extend(map(vocab.__getitem__, words))
    del distinct
    nvocab = len(vocab)
    vocab_blob = b"\n".join(sorted(vocab, key=vocab.__getitem__))
    del vocab

    # 3. The trie, breadth first: depth-1 nodes are 1 + token id; deeper ones come in sorted order.
    n_phr = len(lengths)
    lens = np.frombuffer(lengths, dtype=np.uint8).astype(np.intp)
    maxdepth = int(lens.max(initial=0))
    mat = np.zeros((n_phr, max(maxdepth, 1)), dtype=np.uint32)  # token id + 1, 0-padded
    rows = np.repeat(np.arange(n_phr), lens)
    firsts = np.cumsum(lens) - lens
    mat[rows, np.arange(len(flat)) - np.repeat(firsts, lens)] = np.frombuffer(flat, dtype=np.uint32) + 1
    del rows, firsts, flat
    order = np.lexsort(mat.T[::-1])
    mat, lens = mat[order], lens[order]
    differs = mat[1:] != mat[:-1]
    shared = np.zeros(n_phr, dtype=np.intp)  # leading tokens shared with the previous phrase
    shared[1:] = np.where(differs.any(axis=1), differs.argmax(axis=1), mat.shape[1])
    del differs
    offset = [0, 1, 1 + nvocab]  # first node id of each depth, then one past the last node
    at_depth = [np.zeros(n_phr, dtype=np.intp), mat[:, 0].astype(np.intp) - 1]  # per phrase, node index
    toks_d, parents_d = [None, None], [None, None]
    for d in range(2, maxdepth + 1):
        new = (lens >= d) & (shared < d)
        at_depth.append(np.cumsum(new) - 1)
        toks_d.append(mat[new, d - 1] - 1)
        parents_d.append(at_depth[d - 1][new])
        offset.append(offset[-1] + int(new.sum()))
    nodes = offset[-1]
    if nodes >= 1 << 32:
        raise ParaphraseIndexError(f"{src}: too many phrases")
    terminal = np.zeros(n_phr, dtype=np.uint32)
    for d in range(1, maxdepth + 1):
        here = lens == d
        terminal[here] = offset[d] + at_depth[d][here]
    node_of = np.empty(n_phr, dtype=np.uint32)
    node_of[order] = terminal
    del mat, lens, shared, at_depth, terminal, order

    tok = np.zeros(nodes, dtype=np.uint32)
    child = np.empty(nodes + 1, dtype=np.uint32)
    child[0] = 1  # the root's children are all depth-1 nodes
    child[nodes] = nodes
    for d in range(1, maxdepth + 1):
        lo, hi = offset[d], offset[d + 1]
        tok[lo:hi] = np.arange(nvocab) if d == 1 else toks_d[d]
        below = parents_d[d + 1] if d < maxdepth else np.zeros(0, dtype=np.intp)
        child[lo:hi] = offset[d + 1] + np.searchsorted(below, np.arange(hi - lo))

    # 4. Entries grouped by reference node, file order kept.
    ref_nodes = node_of[np.frombuffer(ref_ids, dtype=np.uint32)]
    by_ref = np.argsort(ref_nodes, kind="stable")
    para = node_of[np.frombuffer(par_ids, dtype=np.uint32)][by_ref]
    start = np.zeros(nodes + 1, dtype=np.uint32)
    start[1:] = np.cumsum(np.bincount(ref_nodes, minlength=nodes))
    flags = FLAG_EMPTY_PARAPHRASE if bool((para == 0).any()) else 0
    sections = {"vocab": vocab_blob, "tok": tok.tobytes(), "child": child.tobytes(),
                "levels": array("I", offset).tobytes(), "start": start.tobytes(), "para": para.tobytes()}
    return CompiledTable(sections, entries, nodes, nvocab, flags)
