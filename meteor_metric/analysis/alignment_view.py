"""Readable views of a METEOR alignment: chunks, an SVG picture, plain text and JSON records.

A chunk is a maximal run of matches that are adjacent, in the same order, in both sentences (the
unit of METEOR's fragmentation penalty). ``Match`` holds 0-based token indices (Python's convention);
every view here numbers words, chunks and matches from 1, as people count.
"""

from __future__ import annotations

import html
from typing import Sequence

from ..core.alignment import Match

#: Colours of the modules, by position in the configuration (exact, stem, synonym/wordnet, paraphrase).
MODULE_COLOURS = ("#2563eb", "#16a34a", "#d97706", "#9333ea")
UNMATCHED_COLOUR = "#9ca3af"


def chunk_ids(alignment: Sequence[Match]) -> list[int]:
    """The chunk number (0, 1, ...) of each match of an alignment sorted by reference position."""
    ids: list[int] = []
    chunk = -1
    ref_end = hyp_end = None
    for m in alignment:
        if m.ref_start != ref_end or m.hyp_start != hyp_end:
            chunk += 1
        ids.append(chunk)
        ref_end, hyp_end = m.ref_start + m.ref_len, m.hyp_start + m.hyp_len
    return ids


def word_position(index: int) -> int:
    """The 1-based position shown to people for a 0-based token index."""
    return index + 1


def alignment_records(alignment: Sequence[Match], modules: Sequence[str]) -> list[dict[str, object]]:
    """One JSON-ready record per match: its chunk, module, and the 1-based position and length of each side."""
    return [{"chunk": chunk + 1, "module": modules[m.module],
             "hyp_position": word_position(m.hyp_start), "hyp_len": m.hyp_len,
             "ref_position": word_position(m.ref_start), "ref_len": m.ref_len}
            for m, chunk in zip(alignment, chunk_ids(alignment))]


def module_counts(alignment: Sequence[Match], modules: Sequence[str]) -> dict[str, int]:
    """Matches per module name, in configuration order (modules without matches give 0)."""
    counts = {name: 0 for name in modules}
    for m in alignment:
        counts[modules[m.module]] += 1
    return counts


def alignment_text(hyp: Sequence[str], ref: Sequence[str], alignment: Sequence[Match],
                   modules: Sequence[str]) -> str:
    """One line per match (chunk, module, 1-based positions, words), then the unmatched words of each side."""
    lines = []
    hyp_used: set[int] = set()
    ref_used: set[int] = set()
    width = max((len(name) for name in modules), default=0)
    for m, chunk in zip(alignment, chunk_ids(alignment)):
        hyp_span = range(m.hyp_start, m.hyp_start + m.hyp_len)
        ref_span = range(m.ref_start, m.ref_start + m.ref_len)
        hyp_used.update(hyp_span)
        ref_used.update(ref_span)
        lines.append(f"  chunk {chunk + 1:<3} {modules[m.module]:<{width}}  "
                     f"hyp {_span(hyp_span):>7} {' '.join(hyp[k] for k in hyp_span)!r:<24} "
                     f"<-> ref {_span(ref_span):>7} {' '.join(ref[k] for k in ref_span)!r}")
    for side, tokens, used in (("hyp", hyp, hyp_used), ("ref", ref, ref_used)):
        rest = [f"{word_position(k)}:{t}" for k, t in enumerate(tokens) if k not in used]
        lines.append(f"  unmatched {side}: {' '.join(rest) if rest else '-'}")
    return "\n".join(lines)


def _span(span: range) -> str:
    """A span of 0-based indices as 1-based positions: ``4`` or ``22-23`` (both ends included)."""
    first, last = word_position(span.start), word_position(span.stop - 1)
    return str(first) if first == last else f"{first}-{last}"


_CHAR_PX = 8.4  # monospace advance at 14 px
_PAD_PX = 10
_ROW_Y = (44, 144)  # text baselines of the hypothesis and reference rows


def _positions(tokens: Sequence[str]) -> list[tuple[float, float]]:
    """(x, width) of each token laid out left to right."""
    out = []
    x = 8.0
    for t in tokens:
        w = max(len(t), 1) * _CHAR_PX + _PAD_PX
        out.append((x, w))
        x += w + 6
    return out


def alignment_svg(hyp: Sequence[str], ref: Sequence[str], alignment: Sequence[Match],
                  modules: Sequence[str]) -> str:
    """An SVG picture: hypothesis above, reference below, matched words coloured by module and
    linked by lines, each chunk framed and numbered."""
    hyp_pos, ref_pos = _positions(hyp), _positions(ref)
    width = max([x + w for x, w in hyp_pos + ref_pos] + [200]) + 8
    hyp_module: dict[int, int] = {}
    ref_module: dict[int, int] = {}
    parts = []
    chunks: dict[int, list[Match]] = {}
    for m, chunk in zip(alignment, chunk_ids(alignment)):
        chunks.setdefault(chunk, []).append(m)
        for k in range(m.hyp_start, m.hyp_start + m.hyp_len):
            hyp_module[k] = m.module
        for k in range(m.ref_start, m.ref_start + m.ref_len):
            ref_module[k] = m.module
        x1 = _centre(hyp_pos, m.hyp_start, m.hyp_len)
        x2 = _centre(ref_pos, m.ref_start, m.ref_len)
        colour = MODULE_COLOURS[m.module % len(MODULE_COLOURS)]
        parts.append(f'<line x1="{x1:.1f}" y1="{_ROW_Y[0] + 12}" x2="{x2:.1f}" y2="{_ROW_Y[1] - 16}" '
                     f'stroke="{colour}" stroke-width="2" opacity="0.8"/>')
    for chunk, members in chunks.items():
        for pos, y, start_of, len_of in ((hyp_pos, _ROW_Y[0], "hyp_start", "hyp_len"),
                                         (ref_pos, _ROW_Y[1], "ref_start", "ref_len")):
            first = min(getattr(m, start_of) for m in members)
            last = max(getattr(m, start_of) + getattr(m, len_of) for m in members) - 1
            x0 = pos[first][0] - 3
            x1 = pos[last][0] + pos[last][1] + 3
            parts.append(f'<rect class="chunk" x="{x0:.1f}" y="{y - 19}" width="{x1 - x0:.1f}" height="30" '
                         f'rx="6" fill="none" stroke="#374151" stroke-dasharray="4 3"/>')
        label_x = hyp_pos[min(m.hyp_start for m in members)][0]
        parts.append(f'<text x="{label_x:.1f}" y="{_ROW_Y[0] - 23}" font-size="10" fill="#374151">'
                     f'#{chunk + 1}</text>')
    for tokens, pos, module_of, y in ((hyp, hyp_pos, hyp_module, _ROW_Y[0]), (ref, ref_pos, ref_module, _ROW_Y[1])):
        for k, (t, (x, w)) in enumerate(zip(tokens, pos)):
            module = module_of.get(k)
            colour = UNMATCHED_COLOUR if module is None else MODULE_COLOURS[module % len(MODULE_COLOURS)]
            title = "unmatched" if module is None else modules[module]
            parts.append(f'<g><title>{html.escape(title)}</title>'
                         f'<rect x="{x:.1f}" y="{y - 15}" width="{w:.1f}" height="22" rx="4" fill="{colour}" '
                         f'fill-opacity="{0.15 if module is None else 0.25}" stroke="{colour}"/>'
                         f'<text x="{x + w / 2:.1f}" y="{y + 1}" text-anchor="middle" font-family="monospace" '
                         f'font-size="14">{html.escape(t)}</text></g>')
    labels = (f'<text x="8" y="{_ROW_Y[0] + 30}" font-size="10" fill="#6b7280">hypothesis ↑</text>'
              f'<text x="8" y="{_ROW_Y[1] + 22}" font-size="10" fill="#6b7280">reference ↓</text>')
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="meteor-alignment" width="{width:.0f}" '
            f'height="{_ROW_Y[1] + 30}" role="img" aria-label="METEOR alignment">{labels}{"".join(parts)}</svg>')


def _centre(pos: Sequence[tuple[float, float]], start: int, length: int) -> float:
    first, last = pos[start], pos[start + length - 1]
    return (first[0] + last[0] + last[1]) / 2


def legend_html(counts: dict[str, int]) -> str:
    """Module colour swatches with their match counts."""
    items = [f'<span style="display:inline-block;margin-right:14px">'
             f'<span style="display:inline-block;width:12px;height:12px;border-radius:3px;'
             f'background:{MODULE_COLOURS[i % len(MODULE_COLOURS)]};margin-right:4px"></span>'
             f'{html.escape(name)}: {n}</span>' for i, (name, n) in enumerate(counts.items())]
    items.append(f'<span><span style="display:inline-block;width:12px;height:12px;border-radius:3px;'
                 f'background:{UNMATCHED_COLOUR};margin-right:4px"></span>unmatched</span>')
    return "".join(items)
