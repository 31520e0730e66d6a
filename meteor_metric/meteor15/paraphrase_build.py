"""Compiling a METEOR paraphrase table (gzip'd text) into the sections of an index.

:func:`compile_table` reads the table once, as a stream, and lays out the sections that
:mod:`meteor_metric.meteor15.paraphrase_index` describes. The sections depend only on the table's bytes.
"""

from __future__ import annotations

import gzip
import re
from array import array
from collections.abc import Iterator
from itertools import chain, compress, count
from pathlib import Path
from typing import TYPE_CHECKING, Callable, NamedTuple, Optional

from ..core.gcpause import gc_paused
from .paraphrase_index import FLAG_EMPTY_PARAPHRASE, ParaphraseIndexError

if TYPE_CHECKING:
    import numpy as np

__all__ = ["CompiledTable", "compile_table"]

_CHUNK = 1 << 22
_JAVA_DELIMS = re.compile(rb"[ \t\n\r\f]+")


class CompiledTable(NamedTuple):
    """The index sections of a table (``vocab``, ``tok``, ``child``, ``levels``, ``start``, ``para``) and its counts."""

    sections: dict[str, bytes]
    entries: int
    nodes: int
    vocab: int
    flags: int


def _table_lines(f) -> Iterator[tuple[list[bytes], bool]]:
    r"""Lists of complete lines of a binary stream, split like Java's ``readLine`` (\n, \r, \r\n)
    and with malformed UTF-8 replaced by U+FFFD as Java's decoder does; each with whether its chunk
    holds a \x0b (which ``bytes.split`` would wrongly take for a delimiter)."""
    carry = b""
    while True:
        chunk = f.read(_CHUNK)
        data = carry + chunk
        hold = 1 if chunk and data.endswith(b"\r") else 0  # may be the first half of \r\n
        body = data[:len(data) - hold]
        if b"\r" in body:
            body = body.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
        lines = body.split(b"\n")
        complete = len(body)
        if chunk:
            tail = lines.pop()
            complete -= len(tail)
            carry = tail + data[len(data) - hold:]
        elif lines[-1] == b"":
            lines.pop()
        if not body.isascii():
            try:
                str(memoryview(body)[:complete], "utf-8")
            except UnicodeDecodeError:
                lines = [line.decode("utf-8", "replace").encode("utf-8") for line in lines]
        yield lines, b"\x0b" in body
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


class _Phrases(NamedTuple):
    """The entries of a table as pairs of phrase ids, and each phrase's tokens as vocabulary ids."""

    ref: "np.ndarray"  # u32 per entry: the reference phrase's id
    par: "np.ndarray"  # u32 per entry: the paraphrase's id
    flat: "np.ndarray"  # u32: the token ids of every phrase, one phrase after another
    lens: "np.ndarray"  # u8 per phrase: its number of tokens
    vocab: dict[bytes, int]  # token -> id, in order of first occurrence in the table


def _read_phrases(src: Path, progress: Optional[Callable[[int], None]]) -> _Phrases:
    """Read the table as a stream; phrases are deduplicated within each chunk before they are
    tokenized (a phrase repeated across chunks gets one id per chunk: the trie merges them)."""
    import numpy as np

    vocab: dict[bytes, int] = {}
    refs, pars = [], []
    flat, lens = array("I"), array("B")
    pending: list[bytes] = []
    pending_tab = False
    with open(src, "rb") as raw, gzip.GzipFile(fileobj=raw) as f:
        for lines, vertical_tab in _table_lines(f):
            if progress is not None:
                progress(raw.tell())
            if pending:
                lines = pending + lines
                vertical_tab |= pending_tab
            k = len(lines) - len(lines) % 3
            pending, pending_tab = lines[k:], vertical_tab
            phrases = lines[1:k]
            del lines, phrases[2::3]  # the probability lines; left: ref, par, ref, par, ...
            if not phrases:
                continue
            # Each phrase's first position in the chunk, then dense ids in order of first occurrence.
            first: dict[bytes, int] = {}
            pos = np.fromiter(map(first.setdefault, phrases, count()), dtype=np.int64, count=len(phrases))
            is_first = np.zeros(len(phrases), dtype=np.bool_)
            is_first[pos] = True
            distinct = list(compress(phrases, is_first.tolist()))
            del first, phrases
            if len(lens) + len(distinct) >= 1 << 32:
                raise ParaphraseIndexError(f"{src}: too many phrases")
            ids = (np.cumsum(is_first, dtype=np.int64) - 1 + len(lens))[pos]
            del pos, is_first
            refs.append(ids[0::2].astype(np.uint32))
            pars.append(ids[1::2].astype(np.uint32))
            del ids
            toks = list(map(_tokens if vertical_tab else bytes.split, distinct))
            del distinct
            if max(map(len, toks)) > 255:
                raise ParaphraseIndexError(f"{src}: a phrase has more than 255 tokens")
            lens.extend(map(len, toks))
            words = list(chain.from_iterable(toks))
            del toks
            unseen = set(words).difference(vocab)
            if unseen:  # numbered in order of first occurrence
                vocab.update(zip(dict.fromkeys(compress(words, map(unseen.__contains__, words))), count(len(vocab))))
            flat.extend(map(vocab.__getitem__, words))
    if pending:
        raise ParaphraseIndexError(f"{src}: {len(pending)} trailing line(s) after the last 3-line entry")
    entries = sum(map(len, refs))
    if entries >= 1 << 32:
        raise ParaphraseIndexError(f"{src}: too many entries ({entries})")
    empty = np.zeros(0, dtype=np.uint32)
    ref = np.concatenate(refs) if refs else empty
    del refs
    par = np.concatenate(pars) if pars else empty
    del pars
    return _Phrases(ref, par, np.frombuffer(flat, dtype=np.uint32), np.frombuffer(lens, dtype=np.uint8), vocab)


def _ranks(keys: "np.ndarray", key_bits: int) -> tuple["np.ndarray", "np.ndarray"]:
    """For u64 ``keys`` below ``2**key_bits``: each key's rank among the distinct keys (u32), and the
    distinct keys in ascending order. A sort of the keys with their positions packed in below them
    when that fits in 64 bits (an argsort otherwise); never ``np.unique``."""
    import numpy as np

    n = len(keys)
    pos_bits = max(1, (n - 1).bit_length())
    if key_bits + pos_bits <= 64:
        packed = np.sort((keys << np.uint64(pos_bits)) | np.arange(n, dtype=np.uint64))
        order = (packed & np.uint64((1 << pos_bits) - 1)).astype(np.intp)
        packed >>= np.uint64(pos_bits)
        ordered = packed
    else:
        order = np.argsort(keys, kind="stable")
        ordered = keys[order]
    new = np.empty(n, dtype=np.bool_)
    new[:1] = True
    np.not_equal(ordered[1:], ordered[:-1], out=new[1:])
    ranks = np.empty(n, dtype=np.uint32)
    ranks[order] = np.cumsum(new, dtype=np.int64) - 1
    return ranks, ordered[new]


def _stable_order(values: "np.ndarray", bound: int) -> "np.ndarray":
    """The stable sorting order of u32 ``values`` below ``bound``: a sort of the values with their
    positions packed in below them (both are under 2**32, so they fit in 64 bits)."""
    import numpy as np

    pos_bits = max(1, (len(values) - 1).bit_length())
    if max(1, (bound - 1).bit_length()) + pos_bits > 64:
        return np.argsort(values, kind="stable")
    packed = np.sort((values.astype(np.uint64) << np.uint64(pos_bits)) | np.arange(len(values), dtype=np.uint64))
    packed &= np.uint64((1 << pos_bits) - 1)
    return packed.astype(np.intp)


def _compile(src: Path, progress: Optional[Callable[[int], None]]) -> CompiledTable:
    import numpy as np  # build time only

    ref, par, flat, lens, vocab = _read_phrases(src, progress)
    entries, nvocab = len(ref), len(vocab)
    vocab_blob = b"\n".join(vocab)  # insertion order is id order
    del vocab
    tok_bits = max(1, (nvocab - 1).bit_length())

    # The trie, breadth first, one depth at a time: depth-1 nodes are 1 + token id; a deeper node
    # is a distinct (parent node, token) pair, numbered in sorted order (children sorted by token).
    n_phr = len(lens)
    maxdepth = int(lens.max(initial=0))
    firsts = np.zeros(n_phr, dtype=np.int64)  # where each phrase's tokens start in flat
    np.cumsum(lens[:-1], dtype=np.int64, out=firsts[1:])
    node_of = np.zeros(n_phr, dtype=np.uint32)  # each phrase's node (0: the empty phrase)
    live = np.flatnonzero(lens >= 1)  # the phrases at least as long as the current depth
    at = flat[firsts[live]] + np.uint32(1)  # their node at the current depth
    offset = [0, 1, 1 + nvocab]  # first node id of each depth, then one past the last node
    toks_d, parents_d = [None, None], [None, None]
    for d in range(2, maxdepth + 1):
        done = lens[live] < d
        node_of[live[done]] = at[done]
        keep = ~done
        live, at = live[keep], at[keep]
        del done, keep
        parent_bits = max(1, offset[-1].bit_length())
        keys = (at.astype(np.uint64) << np.uint64(tok_bits)) | flat[firsts[live] + (d - 1)]
        ranks, distinct = _ranks(keys, parent_bits + tok_bits)
        del keys
        at = ranks
        at += np.uint32(offset[-1])
        toks_d.append((distinct & np.uint64((1 << tok_bits) - 1)).astype(np.uint32))
        parents_d.append((distinct >> np.uint64(tok_bits)).astype(np.int64))
        offset.append(offset[-1] + len(distinct))
        del distinct, ranks
        if offset[-1] >= 1 << 32:
            raise ParaphraseIndexError(f"{src}: too many phrases")
    node_of[live] = at
    del live, at, firsts, flat, lens
    nodes = offset[-1]

    tok = np.zeros(nodes, dtype=np.uint32)
    child = np.empty(nodes + 1, dtype=np.uint32)
    child[0] = 1  # the root's children are all depth-1 nodes
    child[nodes] = nodes
    for d in range(1, maxdepth + 1):
        lo, hi = offset[d], offset[d + 1]
        tok[lo:hi] = np.arange(nvocab) if d == 1 else toks_d[d]
        below = parents_d[d + 1] if d < maxdepth else np.zeros(0, dtype=np.int64)
        child[lo:hi] = offset[d + 1] + np.searchsorted(below, np.arange(lo, hi))
    del toks_d, parents_d

    # Entries grouped by reference node, file order kept.
    ref_nodes = node_of[ref]
    del ref
    start = np.zeros(nodes + 1, dtype=np.uint32)
    start[1:] = np.cumsum(np.bincount(ref_nodes, minlength=nodes))
    para = node_of[par][_stable_order(ref_nodes, nodes)]
    del par, node_of, ref_nodes
    flags = FLAG_EMPTY_PARAPHRASE if bool((para == 0).any()) else 0
    sections = {"vocab": vocab_blob, "tok": tok.tobytes()}
    del tok
    sections["child"] = child.tobytes()
    del child
    sections["levels"] = array("I", offset).tobytes()
    sections["start"] = start.tobytes()
    del start
    sections["para"] = para.tobytes()
    return CompiledTable(sections, entries, nodes, nvocab, flags)
