"""A short bounded run of the atheris fuzzer (tests/fuzz/fuzz_native.py): the compiled core against the
pure-Python engine on random text, token sequences and raw buffers; skips where atheris or the core is absent."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from meteor_metric.meteor15.native_engine import LOAD_ERROR, native_available

FUZZER = Path(__file__).resolve().parent / "fuzz" / "fuzz_native.py"


def test_bounded_fuzz_run_finds_no_crash_and_no_difference(tmp_path):
    pytest.importorskip("atheris", reason="atheris is not installed (pip install -e '.[fuzz]')")
    if not native_available():
        pytest.skip(f"the native engine is not built: {LOAD_ERROR}")
    proc = subprocess.run([sys.executable, str(FUZZER), "-runs=1000", "-seed=1", "-max_len=2048",
                           # libFuzzer's default 2 GB RSS cap was hit once at start-up in a venv with every extra
                           # (3.7 GB before any input ran); the run's purpose is crashes and differences
                           "-rss_limit_mb=16384",
                           f"-artifact_prefix={tmp_path}/"], capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "Done 1000 runs" in proc.stderr
    assert not list(tmp_path.iterdir())  # no crash or difference artifact written
