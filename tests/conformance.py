"""Loading the golden cases produced by the Java METEOR 1.5 jar (see tests/data/java15/PROVENANCE.json)."""

from __future__ import annotations

import gzip
import json
import os
from functools import lru_cache
from pathlib import Path
from typing import Iterator

from meteor_metric import Meteor, MeteorParams
from meteor_metric.resources import resource_path

DATA = Path(__file__).parent / "data"
JAVA15 = DATA / "java15"
SHARED = Path(__file__).resolve().parents[2] / "shared" / "conformance"  # present beside the checkout


def read_jsonl(path: Path) -> Iterator[dict]:
    with gzip.open(path, "rt", encoding="utf-8", newline="\n") as f:
        for line in f:
            yield json.loads(line)


def jar_args_to_params(args: list[str]) -> MeteorParams:
    """The jar's options as our configuration ('@jar:function/x.words' = the packaged copy)."""
    fixed = []
    for a in args:
        if a.startswith("@jar:function/"):
            a = str(resource_path("function", a[len("@jar:function/"):]))
        fixed.append(a)
    return MeteorParams.from_jar_args(fixed)


def scorer_for(args: tuple[str, ...]) -> Meteor:
    """The scorer of a jar command line, under the engine METEOR_METRIC_IMPL selects (the ``engine`` fixture)."""
    return _scorer_for(args, os.environ.get("METEOR_METRIC_IMPL") or None)


@lru_cache(maxsize=None)
def _scorer_for(args: tuple[str, ...], impl) -> Meteor:
    return Meteor.from_params(jar_args_to_params(list(args)), impl=impl)


def _edge_configs() -> list[dict]:
    seen: dict[str, dict] = {}
    for row in read_jsonl(JAVA15 / "edge_cases.jsonl.gz"):
        seen.setdefault(row["config"]["name"], row["config"])
    return list(seen.values())


EDGE_CONFIGS = _edge_configs()
