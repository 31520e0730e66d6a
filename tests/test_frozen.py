"""The quick constructors of the per-pair result types against the dataclasses' own __init__."""

from __future__ import annotations

import dataclasses
import pickle

import pytest

from meteor_metric.core.frozen import positional_constructor
from meteor_metric.core.results import SegmentResult, make_segment
from meteor_metric.core.stats import MeteorStats, make_stats


def test_the_quick_constructors_make_what_init_makes():
    values = (10, 11, 3, 4, (1, 2), (1, 2), (1, 0), (1, 0), 3, 7, 7, 0, 0)
    quick, plain = make_stats(*values), MeteorStats(*values)
    assert type(quick) is MeteorStats and quick == plain and hash(quick) == hash(plain)
    assert vars(quick) == vars(plain) and pickle.loads(pickle.dumps(quick)) == plain
    assert dataclasses.replace(quick, chunks=1) == dataclasses.replace(plain, chunks=1)
    with pytest.raises(dataclasses.FrozenInstanceError):
        quick.chunks = 2
    segment = (0.5, 0.6, 0.7, 0.65, 0.1, 3, plain, 0, (), ("a",), ("a",), "sig")
    assert make_segment(*segment) == SegmentResult(*segment)
    assert vars(make_segment(*segment)) == vars(SegmentResult(*segment))


def test_the_quick_constructors_take_every_field_and_only_plain_frozen_dataclasses():
    with pytest.raises(TypeError, match="MeteorStats takes 13 values here, got 11"):
        make_stats(*range(11))  # the defaulted fields too

    @dataclasses.dataclass(frozen=True)
    class Checked:
        x: int

        def __post_init__(self):
            if self.x < 0:
                raise ValueError("x")

    with pytest.raises(TypeError, match="__post_init__"):
        positional_constructor(Checked)
