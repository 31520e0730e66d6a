"""Shared fixtures."""

from __future__ import annotations

import pytest

from meteor_metric import Meteor
from meteor_metric.meteor15.paraphrase import ParaphraseTableNotFound


@pytest.fixture(scope="session")
def default_meteor() -> Meteor:
    """The default configuration (the jar's -l en -norm); skips where no English paraphrase table is installed."""
    try:
        return Meteor()
    except ParaphraseTableNotFound as exc:
        pytest.skip(f"no English paraphrase table installed: {exc}")


# -- engines: tests that use these run under the pure-Python engine and the compiled core ------------------

ENGINES = ("python", "native")


def skip_unless_built(engine: str) -> None:
    from meteor_metric.meteor15.native_engine import LOAD_ERROR, native_available

    if engine == "native" and not native_available():
        pytest.skip(f"the native engine is not built here: {LOAD_ERROR}")


@pytest.fixture(params=ENGINES)
def engine(request, monkeypatch) -> str:
    """Runs a test once per engine, selected through METEOR_METRIC_IMPL (so scorers built without ``impl``
    and CLI subprocesses use it too); the native run skips where the extension is not built."""
    skip_unless_built(request.param)
    monkeypatch.setenv("METEOR_METRIC_IMPL", request.param)
    return request.param


@pytest.fixture(scope="module", params=ENGINES)
def align_fn(request):
    """``aligner.align`` of either engine (module scope, so hypothesis tests can take it)."""
    skip_unless_built(request.param)
    if request.param == "python":
        from meteor_metric.meteor15.aligner import align

        return align
    from meteor_metric.meteor15.native_engine import NativeAligner

    return lambda n_hyp, candidates, exact_type, beam: NativeAligner(exact_type, beam).align(n_hyp, candidates)


_ENGINE_SCORERS: dict = {}


@pytest.fixture(scope="module", params=ENGINES)
def engine_meteor(request) -> Meteor:
    """The default configuration under either engine (skips like ``default_meteor``)."""
    skip_unless_built(request.param)
    if request.param not in _ENGINE_SCORERS:
        try:
            _ENGINE_SCORERS[request.param] = Meteor(impl=request.param)
        except ParaphraseTableNotFound as exc:
            pytest.skip(f"no English paraphrase table installed: {exc}")
    return _ENGINE_SCORERS[request.param]
