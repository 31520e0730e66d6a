"""Reading corpora: plain text, JSON Lines or TSV, with errors that name the file and line.

* ``text``: a hypothesis file and one or more line-aligned reference files (one reference set each).
* ``jsonl``: one JSON value per line. A hypothesis line is a string, or an object with
  ``hypothesis`` (or ``prediction``/``hyp``) and optionally ``references`` (or ``reference``/``refs``:
  a string or a list of strings). Reference files hold a string or a list of strings per line.
* ``tsv``: one file, ``hypothesis<TAB>reference[<TAB>reference ...]`` per line.

Lines end at ``\\n``, ``\\r`` or ``\\r\\n`` (Java's ``readLine``, as the jar reads files); a UTF-8
byte-order mark at the start of a file is dropped. Files are read as streams (:func:`iter_corpus`),
so a corpus of any length is read in constant memory.
"""

from __future__ import annotations

import json
import re
import warnings
from bisect import bisect_right
from dataclasses import dataclass
from itertools import zip_longest
from typing import Iterable, Iterator, Optional, Sequence

from .javafmt import java_count_lines, java_split_lines
from .wording import once_each, plural

FORMATS = ("text", "jsonl", "tsv")
_HYP_KEYS = ("hypothesis", "prediction", "hyp")
_REF_KEYS = ("references", "reference", "refs")
_BOM = "\ufeff"
_BOM_BYTES = _BOM.encode("utf-8")
_BLOCK_BYTES = 1 << 16

Pair = tuple[str, list[str]]


class CorpusWarning(UserWarning):
    """A corpus file that reads, but probably not as its writer meant (a header row, CSV quoting)."""


_HEADER_NAMES = {"", "index", "unnamed: 0", "id", "segment", *_HYP_KEYS, "hypotheses", "predictions", "candidate",
                 *_REF_KEYS, "ref", "target", "targets", "source"}
_CSV_QUOTED = re.compile(r'"(?:[^"]|"")*""(?:[^"]|"")*"')  # a field in quotes with doubled quotes inside


class CorpusFormatError(ValueError):
    """A corpus file that cannot be read as the given format (the message names file and line)."""


class LineCountError(CorpusFormatError):
    """Line-aligned files with different numbers of lines (:func:`line_count_hints` says why, often)."""


def decode(data: bytes, name: str) -> list[str]:
    """The lines of a UTF-8 file's bytes."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = len(java_split_lines(data[:exc.start].decode("utf-8") + "x"))  # the line the bad byte is on
        raise CorpusFormatError(f"{name}: line {line} is not valid UTF-8 (byte offset {exc.start})") from None
    if text.startswith(_BOM):
        text = text[1:]
    return java_split_lines(text)


def iter_lines(path: str) -> Iterator[str]:
    """The lines of a UTF-8 text file, one at a time (read in blocks of 64 KiB, each cut
    after its last line end: memory is bounded by the block and the longest line)."""
    number = 0  # lines yielded so far
    for _, chunk in _line_chunks(path):
        for line in _chunk_lines(chunk, number, path):
            number += 1
            yield line


@dataclass(frozen=True)
class LineIndex:
    """A plain-text file's number of lines and, for each block :func:`iter_lines` reads, its byte offset (a
    line start) and the lines before it: :func:`read_line_range` reads any lines from the block that holds
    the first."""

    path: str
    count: int
    offsets: tuple[int, ...]
    first_lines: tuple[int, ...]

    def locate(self, line: int) -> tuple[int, int]:
        """(byte offset, first line) of the block holding ``line`` (0-based)."""
        k = bisect_right(self.first_lines, line) - 1
        return self.offsets[k], self.first_lines[k]


def index_lines(path: str) -> LineIndex:
    """The file's :class:`LineIndex`: ``len(read_lines(path))`` in a fraction of the time (no line is made),
    raising what :func:`iter_lines` raises (14 ms for the 44,804 WMT21 hypotheses, against 35 ms)."""
    number, offsets, first_lines = 0, [], []
    for offset, chunk in _line_chunks(path):  # (at least one block, empty for an empty file)
        offsets.append(offset)
        first_lines.append(number)
        try:
            number += java_count_lines(chunk.decode("utf-8"))
        except UnicodeDecodeError:
            for _ in _chunk_lines(chunk, number, path):  # the error, naming its line
                number += 1
    return LineIndex(path, number, tuple(offsets), tuple(first_lines))


def read_line_range(path: str, block: tuple[int, int], start: int, count: int) -> list[str]:
    """Lines ``[start, start + count)`` (0-based) of a file, read from the ``block`` that holds the first
    (its byte offset and the lines before it: :meth:`LineIndex.locate`)."""
    offset, number = block
    lines: list[str] = []
    for _, chunk in _line_chunks(path, offset):
        if len(lines) >= start - number + count:
            break
        lines += _chunk_lines(chunk, number + len(lines), path)
    got = lines[start - number:start - number + count]
    if len(got) != count:
        raise CorpusFormatError(f"{path} changed while it was read: line {start + len(got) + 1} is gone")
    return got


def _line_chunks(path: str, start: int = 0) -> Iterator[tuple[int, bytes]]:
    """A file's bytes from byte ``start`` (a line start) in blocks of about 64 KiB, each cut after its last
    line end (the last one: the rest), with its byte offset; from the file's start, without a leading byte
    order mark. (A block is cut after a ``\\r`` only where it has no ``\\n``: a file of ``\\r`` line ends is
    read in blocks too, not whole.)"""
    try:
        f = open(path, "rb")
    except OSError as exc:
        raise CorpusFormatError(f"cannot read {path}: {exc.strerror}") from None
    with f:
        f.seek(start)
        at, first = start, start == 0
        pending: list[bytes] = []  # the file's bytes after the last line end seen
        while True:
            block = f.read(_BLOCK_BYTES)
            # after its last \n, else (\r line ends) its last \r that has a byte after it (not a \n: there is none)
            cut = block.rfind(b"\n") + 1 or block.rfind(b"\r", 0, len(block) - 1) + 1
            if block and not cut:
                pending.append(block)
                continue
            chunk = b"".join([*pending, block[:cut]]) if block else b"".join(pending)
            pending = [block[cut:]]
            if first and chunk.startswith(_BOM_BYTES):
                chunk = chunk[len(_BOM_BYTES):]
                at += len(_BOM_BYTES)
            first = False
            yield at, chunk
            at += len(chunk)
            if not block:
                return


def _chunk_lines(chunk: bytes, number: int, path: str) -> Iterator[str]:
    """The lines of bytes that end at a line end (or at the end of the file), ``number`` lines having come
    before; at a byte that is not UTF-8, the lines before its own and then the error naming its line."""
    try:
        text = chunk.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = chunk[:exc.start].replace(b"\r\n", b"\n").replace(b"\r", b"\n")
        line_start = before.rfind(b"\n") + 1
        yield from _chunk_lines(before[:line_start], number, path)
        line = number + before.count(b"\n") + 1
        raise CorpusFormatError(f"{path}: line {line} is not valid UTF-8 "
                                f"(byte {len(before) - line_start + 1} of the line)") from None
    yield from java_split_lines(text)


def read_lines(path: str) -> list[str]:
    """All lines of a UTF-8 text file."""
    return list(iter_lines(path))


def iter_pairs(hyp_lines: Iterable[str], ref_line_sets: Sequence[Iterable[str]], fmt: str = "text",
               hyp_name: str = "hypotheses", ref_names: Optional[Sequence[str]] = None) -> Iterator[Pair]:
    """(hypothesis, references) per segment from line streams; line counts must agree."""
    if fmt not in FORMATS:
        raise CorpusFormatError(f"unknown format {fmt!r}; choose one of: {', '.join(FORMATS)}")
    if fmt == "tsv" and ref_line_sets:
        raise CorpusFormatError("tsv holds hypotheses and references in one file: give no reference files")
    if fmt == "text" and not ref_line_sets:
        raise CorpusFormatError("plain text needs at least one reference file")
    names = list(ref_names or [f"references #{k + 1}" for k in range(len(ref_line_sets))])
    streams = [iter(hyp_lines), *(iter(lines) for lines in ref_line_sets)]
    missing = object()
    quoting_seen = False
    for k, row in enumerate(zip_longest(*streams, fillvalue=missing), 1):
        if missing in row:  # (identity first: no line equals the marker)
            raise LineCountError(_count_message(k, row, streams, missing, [hyp_name, *names]))
        if fmt == "text":
            yield row[0], list(row[1:])
            continue
        pair = _pair(row[0], row[1:], fmt, k, hyp_name, names)
        if fmt == "tsv":
            if k == 1:
                _warn_header(pair, hyp_name)
            if not quoting_seen and any(_CSV_QUOTED.fullmatch(field) for field in (pair[0], *pair[1])):
                quoting_seen = True
                warnings.warn(f"{hyp_name}: line {k} has a field in double quotes with doubled quotes inside "
                              f"(CSV quoting, pandas' default): the quotes are scored as text; write the file "
                              f"without quoting (pandas: to_csv(sep='\\t', quoting=csv.QUOTE_NONE))",
                              CorpusWarning, stacklevel=2)
        yield pair


def _warn_header(pair: Pair, name: str) -> None:
    """Warn when the first line of a TSV file looks like column names (pandas writes them by default)."""
    fields = [pair[0], *pair[1]]
    if all(f.strip().lower() in _HEADER_NAMES for f in fields) and any(f.strip() for f in fields):
        warnings.warn(f"{name}: line 1 looks like a header row ({chr(9).join(fields)!r}) and is scored as a "
                      f"segment; remove it (pandas: to_csv(sep='\\t', header=False, index=False))",
                      CorpusWarning, stacklevel=3)


def _count_message(k: int, row: tuple, streams: Sequence[Iterator[str]], missing: object,
                   names: Sequence[str]) -> str:
    """Which files differ from the first, with their line counts (the longer ones read to the end)."""
    counts = [k - 1 if x is missing else k + sum(1 for _ in stream) for x, stream in zip(row, streams)]
    differing = ", ".join(once_each(f"{name} has {plural(n, 'line')}" for name, n in zip(names[1:], counts[1:])
                                    if n != counts[0]))
    ended = ", ".join(once_each(name for name, x in zip(names, row) if x is missing))
    return f"line counts differ: {names[0]} has {plural(counts[0], 'line')}, {differing}; {ended} ended before line {k}"


def line_count_hints(path: str, name: Optional[str] = None) -> list[str]:
    """Common causes of a line-count mismatch in a file: a carriage return (``\\r``) inside a line,
    which ends a line as Java reads files, and blank lines at the end."""
    name = name or path
    first_cr, number, blank_tail = 0, 0, 0
    with open(path, "rb") as f:
        for raw in f:
            body = raw[:-1] if raw.endswith(b"\n") else raw
            parts = (body[:-1] if body.endswith(b"\r") else body).split(b"\r")
            if len(parts) > 1 and not first_cr:
                first_cr = number + 1
            for part in parts:
                number += 1
                blank_tail = blank_tail + 1 if not part.strip() else 0
    hints = []
    if first_cr:
        hints.append(f"{name}: line {first_cr} holds a carriage return (\\r) that starts a new line "
                     "(lines end at \\n, \\r or \\r\\n, as the jar reads them); remove the stray \\r")
    if blank_tail:
        hints.append(f"{name} ends with {blank_tail} blank line{'s' if blank_tail > 1 else ''}")
    return hints


def _pair(hyp_line: str, ref_lines: Sequence[str], fmt: str, k: int, hyp_name: str,
          ref_names: Sequence[str]) -> Pair:
    if fmt == "tsv":
        fields = hyp_line.split("\t")
        if len(fields) < 2:
            raise CorpusFormatError(f"{hyp_name}: line {k} has no tab: expected hypothesis<TAB>reference")
        return fields[0], fields[1:]
    hyp, refs = _jsonl_hypothesis(_json(hyp_line, hyp_name, k), hyp_name, k)
    for name, line in zip(ref_names, ref_lines):
        refs.extend(_strings(_json(line, name, k), name, k))
    if not refs:
        raise CorpusFormatError(f"{hyp_name}: line {k} has no reference (give \"references\" or a reference file)")
    return hyp, refs


def iter_corpus(hyp_path: str, ref_paths: Sequence[str] = (), fmt: str = "text") -> Iterator[Pair]:
    """(hypothesis, references) per segment, streamed from files."""
    return iter_pairs(iter_lines(hyp_path), [iter_lines(p) for p in ref_paths], fmt, hyp_path, list(ref_paths))


def parse_corpus(hyp_lines: Sequence[str], ref_line_sets: Sequence[Sequence[str]], fmt: str = "text",
                 hyp_name: str = "hypotheses", ref_names: Optional[Sequence[str]] = None
                 ) -> tuple[list[str], list[list[str]]]:
    """Hypotheses and their references from lines already in memory."""
    pairs = list(iter_pairs(hyp_lines, ref_line_sets, fmt, hyp_name, ref_names))
    return [h for h, _ in pairs], [r for _, r in pairs]


def parse_json_line(line: str) -> object:
    """The JSON value of one line, strictly: ``ValueError`` says what is wrong and where in the line
    (not JSON, ``NaN``/``Infinity``, an integer too long for Python, nesting too deep, a lone UTF-16
    surrogate escape such as ``"\\ud800"``, which is no character)."""
    try:
        value = json.loads(line, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        raise ValueError(f"is not JSON ({exc.msg} at column {exc.colno})") from None
    except RecursionError:
        raise ValueError("is nested too deeply (lists or objects inside each other thousands of levels deep); "
                         "give a flat object") from None
    except ValueError as exc:  # int() of more than sys.get_int_max_str_digits() digits, or a constant
        text = str(exc)
        if "digits" in text:
            text = "holds an integer too long to read (over 4,300 digits); write it as a string"
        raise ValueError(text) from None
    if "\\u" in line:
        _check_strings(value)
    return value


def _no_constant(name: str) -> float:
    raise ValueError(f"holds {name}, which is not JSON (a number must be finite)")


def _check_strings(value: object) -> None:
    """Raise ``ValueError`` for a string (or key) with a lone surrogate anywhere in ``value``."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError as exc:
                raise ValueError(f"holds a lone surrogate \\u{ord(item[exc.start]):04x} in the string "
                                 f"{item[:40]!r}: half of a UTF-16 pair is no character; remove it or give "
                                 "the whole pair") from None
        elif isinstance(item, dict):
            stack.extend(item)
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


def _json(line: str, name: str, k: int) -> object:
    try:
        return parse_json_line(line)
    except ValueError as exc:
        raise CorpusFormatError(f"{name}: line {k} {exc}") from None


def _jsonl_hypothesis(value: object, name: str, k: int) -> tuple[str, list[str]]:
    if isinstance(value, str):
        return value, []
    if not isinstance(value, dict):
        raise CorpusFormatError(f"{name}: line {k} must be a string or an object, got {type(value).__name__}")
    hyp_key = next((key for key in _HYP_KEYS if key in value), None)
    if hyp_key is None:
        raise CorpusFormatError(f"{name}: line {k} has no \"hypothesis\" field")
    if not isinstance(value[hyp_key], str):
        raise CorpusFormatError(f"{name}: line {k}: \"{hyp_key}\" must be a string")
    ref_key = next((key for key in _REF_KEYS if key in value), None)
    return value[hyp_key], [] if ref_key is None else _strings(value[ref_key], name, k)


def _strings(value: object, name: str, k: int) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
        return list(value)
    raise CorpusFormatError(f"{name}: line {k}: references must be a string or a non-empty list of strings")
