"""The human-judgment sets of ../shared/data as uniform evaluation sets (see its README for protocols).

An :class:`EvalSet` holds the rows to score (hypothesis, references, system, CV group) and what to
correlate with: segment-level judgments (``judged_rows`` → ``judgments``, Kendall variant ``b`` or
``c``) and system-level human scores (``sys_human``, MT systems only).
"""

from __future__ import annotations

import csv
import gzip
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

import numpy as np

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"

#: name → split. Training sets of the shipped presets; everything else is held out.
SETS = {
    "wmt21-news/zh-en": "train:mqm",
    "wmt21-tedtalks/zh-en": "train:mqm",
    "flickr8k/crowdflower": "train:caption",
    "wmt23-general-sxs/zh-en": "held-out",
    "wmt22-general/zh-en": "held-out",
    "wmt22-general/de-en": "held-out",
    "flickr8k/expert": "held-out",
    "thumb-mscoco": "held-out",
}


@dataclass
class EvalSet:
    name: str
    hyps: list[str]
    refs: list[list[str]]
    system: list[str]
    group: list[str]  # rows sharing a source segment or image (kept in one CV fold)
    judged_rows: Optional[np.ndarray] = None  # row of each segment-level judgment
    judgments: Optional[np.ndarray] = None
    kendall_variant: str = "b"
    sys_human: dict[str, float] = field(default_factory=dict)
    sys_label: str = ""
    notes: str = ""

    @property
    def split(self) -> str:
        return SETS[self.name]


def _jsonl(path: Path) -> list[dict]:
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def _sys_tsv(path: Path, column: str) -> dict[str, float]:
    with open(path, encoding="utf-8") as f:
        return {r["system"]: float(r[column]) for r in csv.DictReader(f, delimiter="\t")
                if r["is_human"] == "False" and r.get(column) not in (None, "", "nan")}


def load_mt(name: str, data: Path = DATA) -> EvalSet:
    """MT rows of machine systems against the std reference; MQM sets keep only rated rows."""
    base = data / "mt" / name
    rows = [r for r in _jsonl(base.with_suffix(".seg.jsonl.gz")) if not r["is_human"]]
    has_mqm = any(r.get("mqm") is not None for r in rows)
    if has_mqm:
        rows = [r for r in rows if r["mqm"] is not None]
    ev = EvalSet(name, [r["hyp"] for r in rows], [[r["ref"]] for r in rows], [r["system"] for r in rows],
                 [str(r["seg_id"]) for r in rows])
    if has_mqm:
        ev.judged_rows = np.arange(len(rows))
        ev.judgments = np.array([r["mqm"] for r in rows], dtype=float)
        ev.sys_human, ev.sys_label = _sys_tsv(Path(str(base) + ".sys.tsv"), "mqm"), "MQM"
        ev.notes = f"{len(rows)} MQM-rated machine rows, std ref"
    else:
        ev.sys_human, ev.sys_label = _sys_tsv(Path(str(base) + ".sys.tsv"), "da_z"), "DA-z"
        ev.notes = f"{len(rows)} machine rows, std ref; no segment-level human scores"
    return ev


def load_flickr_expert(data: Path = DATA) -> EvalSet:
    """5664 rows (candidate_in_refs dropped), 5 refs; 3 expert scores each → 16992 judgments, tau-c."""
    rows = [r for r in _jsonl(data / "captions/flickr8k/expert.jsonl.gz") if not r["candidate_in_refs"]]
    ev = EvalSet("flickr8k/expert", [r["candidate"] for r in rows], [list(r["refs"]) for r in rows],
                 ["-"] * len(rows), [r["image"] for r in rows], kendall_variant="c")
    ev.judged_rows = np.repeat(np.arange(len(rows)), 3)
    ev.judgments = np.array([e for r in rows for e in r["expert"]], dtype=float)
    ev.notes = f"{len(rows)} rows, {len(ev.judgments)} judgments, tau-c"
    return ev


def load_flickr_crowdflower(data: Path = DATA) -> EvalSet:
    """47830 rows; the candidate is removed from its refs where it appears; tau-b against yes_frac."""
    rows = _jsonl(data / "captions/flickr8k/crowdflower.jsonl.gz")
    refs = [[x for x in r["refs"] if x != r["candidate"]] or list(r["refs"]) for r in rows]
    ev = EvalSet("flickr8k/crowdflower", [r["candidate"] for r in rows], refs, ["-"] * len(rows),
                 [r["image"] for r in rows])
    ev.judged_rows = np.arange(len(rows))
    ev.judgments = np.array([r["yes_frac"] for r in rows], dtype=float)
    ev.notes = f"{len(rows)} rows, candidate removed from refs, tau-b vs yes_frac"
    return ev


def load_thumb(data: Path = DATA) -> EvalSet:
    """The 4 machine systems × 500 images, refs = 4 COCO refs + the Human caption (5 refs)."""
    rows = _jsonl(data / "captions/thumb-mscoco/thumb.jsonl")
    human = {r["seg_id"]: r["hyp"] for r in rows if r["system"] == "Human"}
    rows = [r for r in rows if r["system"] != "Human"]
    ev = EvalSet("thumb-mscoco", [r["hyp"] for r in rows], [list(r["refs"]) + [human[r["seg_id"]]] for r in rows],
                 [r["system"] for r in rows], [r["seg_id"] for r in rows])
    ev.judged_rows = np.arange(len(rows))
    ev.judgments = np.array([r["human_score"] for r in rows], dtype=float)
    with open(data / "captions/thumb-mscoco/thumb.sys.tsv", encoding="utf-8") as f:
        ev.sys_human = {r["system"]: float(r["human_score"]) for r in csv.DictReader(f, delimiter="\t")
                        if r["system"] != "Human"}
    ev.sys_label = "human_score"
    ev.notes = "2000 machine rows, 5 refs (4 + Human caption); 4 systems"
    return ev


def load(name: str, data: Path = DATA) -> EvalSet:
    if name == "flickr8k/expert":
        return load_flickr_expert(data)
    if name == "flickr8k/crowdflower":
        return load_flickr_crowdflower(data)
    if name == "thumb-mscoco":
        return load_thumb(data)
    return load_mt(name, data)
