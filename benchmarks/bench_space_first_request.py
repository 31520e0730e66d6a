#!/usr/bin/env python3
"""The Space's first request after start-up (issue 12 item 5), end to end.

Starts ``python app.py`` in a new process with an empty METEOR cache folder ($METEOR_METRIC_CACHE) and
its own gradio upload folder, waits until it serves, then times through gradio_client: the first
``/score_pair`` request (the Score button), a second one, and the original profile on a 60-word shuffled
sentence of 5 distinct words (which its search budget stops with a message).

    python benchmarks/bench_space_first_request.py
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from gradio_client import Client

sys.path.insert(0, str(Path(__file__).resolve().parent))
from anagrams import anagram_pair  # noqa: E402,F401  (re-exported for tests/test_space_app.py)

REPO = Path(__file__).resolve().parents[1]
HYP = "The dogs were running quickly across the wide green field."
REFS = "A dog ran fast over the broad green meadow.\nThe dogs are in the field."


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_app(uploads: Path, cache: Path, out=subprocess.DEVNULL, timeout: float = 300,
              **environ: str) -> tuple[subprocess.Popen, str]:
    """``python app.py`` on a free port with its upload and METEOR cache folders (and any further
    environment variables), once it serves: (process, url).

    Raises ``RuntimeError`` when it exits or does not serve within ``timeout`` seconds (then it is stopped)."""
    env = dict(os.environ, GRADIO_SERVER_PORT=str(_free_port()), GRADIO_ANALYTICS_ENABLED="False",
               GRADIO_TEMP_DIR=str(uploads), METEOR_METRIC_CACHE=str(cache), **environ)
    url = f"http://127.0.0.1:{env['GRADIO_SERVER_PORT']}/"
    deadline = time.monotonic() + timeout
    proc = subprocess.Popen([sys.executable, "app.py"], cwd=REPO, env=env, stdout=out, stderr=subprocess.STDOUT)
    while True:
        try:
            urllib.request.urlopen(url, timeout=2)
            return proc, url
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.terminate()
                proc.wait(timeout=30)
                raise RuntimeError(f"the app did not start (exit status {proc.returncode})") from None
            time.sleep(0.1)


def _timed(fn):
    start = time.perf_counter()
    try:
        fn()
        outcome = "scored"
    except Exception as exc:  # the app's gr.Error arrives as an exception
        outcome = f"error: {str(exc)[:90]}..."
    return time.perf_counter() - start, outcome


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="space-bench-") as tmp:
        cache, uploads = Path(tmp) / "cache", Path(tmp) / "gradio"
        cache.mkdir()
        start = time.perf_counter()
        proc, url = start_app(uploads, cache)
        try:
            serving = time.perf_counter() - start
            client = Client(url, verbose=False)
            rows = [("start-up until it serves (empty cache)", serving, "")]
            rows.append(("first Score request", *_timed(lambda: client.predict(
                HYP, REFS, "meteor-1.5", "en", api_name="/score_pair"))))
            rows.append(("second Score request", *_timed(lambda: client.predict(
                HYP, REFS, "meteor-1.5", "en", api_name="/score_pair"))))
            rows.append(("original, 60-word anagram of 5 words", *_timed(lambda: client.predict(
                *anagram_pair(), "original", "en", api_name="/score_pair"))))
        finally:
            proc.terminate()
            proc.wait(timeout=30)
    for name, seconds, outcome in rows:
        print(f"{name:<40} {seconds:7.3f} s  {outcome}")


if __name__ == "__main__":
    main()
