"""Reading corpora: plain text, JSON Lines or TSV, with errors that name the file and line.

* ``text``: a hypothesis file and one or more line-aligned reference files (one reference set each).
* ``jsonl``: one JSON value per line. A hypothesis line is a string, or an object with
  ``hypothesis`` (or ``prediction``/``hyp``) and optionally ``references`` (or ``reference``/``refs``:
  a string or a list of strings). Reference files hold a string or a list of strings per line.
* ``tsv``: one file, ``hypothesis<TAB>reference[<TAB>reference ...]`` per line.

Lines end at ``\\n``, ``\\r`` or ``\\r\\n`` (Java's ``readLine``, as the jar reads files); a UTF-8
byte-order mark at the start of a file is dropped.
"""

from __future__ import annotations

import json
from typing import Optional, Sequence

from .javafmt import java_split_lines

FORMATS = ("text", "jsonl", "tsv")
_HYP_KEYS = ("hypothesis", "prediction", "hyp")
_REF_KEYS = ("references", "reference", "refs")


class CorpusFormatError(ValueError):
    """A corpus file that cannot be read as the given format (the message names file and line)."""


def decode(data: bytes, name: str) -> list[str]:
    """The lines of a UTF-8 file's bytes."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise CorpusFormatError(f"{name}: line {line} is not valid UTF-8 (byte offset {exc.start})") from None
    if text.startswith("\ufeff"):
        text = text[1:]
    return java_split_lines(text)


def read_lines(path: str) -> list[str]:
    """The lines of a UTF-8 text file."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as exc:
        raise CorpusFormatError(f"cannot read {path}: {exc.strerror}") from None
    return decode(data, path)


def parse_corpus(hyp_lines: Sequence[str], ref_line_sets: Sequence[Sequence[str]], fmt: str = "text",
                 hyp_name: str = "hypotheses", ref_names: Optional[Sequence[str]] = None
                 ) -> tuple[list[str], list[list[str]]]:
    """Hypotheses and their references from already split lines."""
    if fmt not in FORMATS:
        raise CorpusFormatError(f"unknown format {fmt!r}; choose one of: {', '.join(FORMATS)}")
    ref_names = list(ref_names or [f"references #{k + 1}" for k in range(len(ref_line_sets))])
    for name, lines in zip(ref_names, ref_line_sets):
        if len(lines) != len(hyp_lines):
            raise CorpusFormatError(f"line counts differ: {hyp_name} has {len(hyp_lines)} lines, "
                                    f"{name} has {len(lines)}")
    if fmt == "tsv":
        if ref_line_sets:
            raise CorpusFormatError("tsv holds hypotheses and references in one file: give no reference files")
        hyps, refs = [], []
        for k, line in enumerate(hyp_lines, 1):
            fields = line.split("\t")
            if len(fields) < 2:
                raise CorpusFormatError(f"{hyp_name}: line {k} has no tab: expected hypothesis<TAB>reference")
            hyps.append(fields[0])
            refs.append(fields[1:])
        return hyps, refs
    if fmt == "text":
        if not ref_line_sets:
            raise CorpusFormatError("plain text needs at least one reference file")
        return list(hyp_lines), [list(group) for group in zip(*ref_line_sets)]
    hyps, refs = [], []
    for k, line in enumerate(hyp_lines, 1):
        hyp, own_refs = _jsonl_hypothesis(_json(line, hyp_name, k), hyp_name, k)
        hyps.append(hyp)
        refs.append(own_refs)
    for name, lines in zip(ref_names, ref_line_sets):
        for k, line in enumerate(lines, 1):
            refs[k - 1].extend(_strings(_json(line, name, k), name, k))
    for k, group in enumerate(refs, 1):
        if not group:
            raise CorpusFormatError(f"{hyp_name}: line {k} has no reference (give \"references\" or a reference file)")
    return hyps, refs


def read_corpus(hyp_path: str, ref_paths: Sequence[str] = (), fmt: str = "text") -> tuple[list[str], list[list[str]]]:
    """Hypotheses and references from files."""
    return parse_corpus(read_lines(hyp_path), [read_lines(p) for p in ref_paths], fmt, hyp_path, list(ref_paths))


def _json(line: str, name: str, k: int) -> object:
    try:
        return json.loads(line)
    except json.JSONDecodeError as exc:
        raise CorpusFormatError(f"{name}: line {k} is not JSON ({exc.msg})") from None


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
