"""Alignment types shared by every profile."""

from __future__ import annotations

from typing import NamedTuple


class Match(NamedTuple):
    """An aligned unit: ``ref_len`` reference words at ``ref_start`` matched to
    ``hyp_len`` hypothesis words at ``hyp_start`` by module number ``module``."""

    ref_start: int
    ref_len: int
    hyp_start: int
    hyp_len: int
    module: int

    def as_list(self) -> list[int]:
        return list(self)
