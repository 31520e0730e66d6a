"""Input checks every scorer applies: clear ``TypeError``/``ValueError`` naming the bad item."""

from __future__ import annotations

from typing import Iterable, Iterator, Optional, Sequence, Union

References = Union[str, Sequence[str]]


def check_text(value: object, where: str) -> str:
    """``value`` if it is a string, else a ``TypeError`` naming ``where``."""
    if not isinstance(value, str):
        kind = "None" if value is None else type(value).__name__
        raise TypeError(f"{where} must be a string, got {kind}")
    return value


def plain_refs(value: object) -> Optional[tuple[str, ...]]:
    """One segment's references as a tuple where they need no naming (a string, or a non-empty list or tuple
    of strings), else None: :func:`check_refs` then names the problem. The checkers' fast path: building the
    names of every segment up front took 3 us a segment."""
    if isinstance(value, str):
        return (value,)
    if not isinstance(value, (list, tuple)) or not value:
        return None
    for ref in value:
        if not isinstance(ref, str):
            return None
    return tuple(value)


def check_refs(value: object, where: str) -> tuple[str, ...]:
    """One segment's references as a tuple: a string, or a non-empty list or tuple of strings."""
    plain = plain_refs(value)
    if plain is not None:
        return plain
    if value is None or not isinstance(value, (list, tuple)):
        kind = "None" if value is None else type(value).__name__
        raise TypeError(f"{where} must be a string or a list of strings, got {kind}")
    if not value:
        raise ValueError(f"{where} is empty: every hypothesis needs at least one reference")
    return tuple(check_text(r, f"{where}[{i}]") for i, r in enumerate(value))


def check_pairs(pairs: object, first: int = 0) -> list[tuple[str, tuple[str, ...]]]:
    """``(hypothesis, references)`` pairs checked: each a 2-item tuple or list of a string and references;
    errors name the pair as ``pairs[k]`` (segment ``first + k``)."""
    if isinstance(pairs, (str, bytes)) or not isinstance(pairs, Iterable):
        kind = "None" if pairs is None else type(pairs).__name__
        raise TypeError(f"pairs must be a list of (hypothesis, references) pairs, got {kind}")
    checked = []
    for k, pair in enumerate(pairs):
        if isinstance(pair, (tuple, list)) and len(pair) == 2 and isinstance(pair[0], str):
            refs = plain_refs(pair[1])
            if refs is not None:
                checked.append((pair[0], refs))
                continue
        where = f"pairs[{k}] (segment {first + k})"
        if not isinstance(pair, (tuple, list)) or len(pair) != 2:
            got = f"{len(pair)} item(s)" if isinstance(pair, (tuple, list)) else \
                "None" if pair is None else type(pair).__name__
            raise TypeError(f"{where} must be a (hypothesis, references) pair, got {got}: e.g. "
                            "('the cat sat', ['a cat sat', 'the cat was sitting'])")
        checked.append((check_text(pair[0], f"{where} hypothesis"), check_refs(pair[1], f"{where} references")))
    return checked


def check_corpus(hypotheses: Sequence[str], references: Sequence[References],
                 hyp_name: str = "hypotheses") -> Iterator[tuple[str, tuple[str, ...]]]:
    """Validate a corpus and yield (hypothesis, references) pairs; errors name the segment
    (``hyp_name`` is what the caller calls the hypotheses, e.g. ``predictions``)."""
    for name, value in ((hyp_name, hypotheses), ("references", references)):
        if isinstance(value, str) or not isinstance(value, Sequence):
            kind = "None" if value is None else type(value).__name__
            raise TypeError(f"{name} must be a list (one item per segment), got {kind}")
    if len(hypotheses) != len(references):
        raise ValueError(f"{len(hypotheses)} {hyp_name} but {len(references)} references: "
                         "give one reference (or list of references) per hypothesis")
    for k, (hyp, refs) in enumerate(zip(hypotheses, references)):
        plain = plain_refs(refs) if isinstance(hyp, str) else None  # (the common case: no names needed)
        if plain is not None:
            yield hyp, plain
        else:
            yield check_text(hyp, f"{hyp_name}[{k}]"), check_refs(refs, f"references[{k}]")


def check_pairwise(candidates: object, references: object) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The texts of a pairwise matrix: ``candidates`` (rows) and ``references`` (columns; ``None``: the
    candidates), each a list or tuple of strings; errors name the item (``candidates[3]``)."""
    def texts(value: object, name: str) -> tuple[str, ...]:
        if not isinstance(value, (list, tuple)):
            kind = "None" if value is None else type(value).__name__
            raise TypeError(f"{name} must be a list of strings (one per row or column), got {kind}")
        return tuple(check_text(t, f"{name}[{i}]") for i, t in enumerate(value))

    rows = texts(candidates, "candidates")
    return rows, rows if references is None else texts(references, "references")
