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
import random
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from gradio_client import Client

REPO = Path(__file__).resolve().parents[1]
HYP = "The dogs were running quickly across the wide green field."
REFS = "A dog ran fast over the broad green meadow.\nThe dogs are in the field."


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _anagram(n_words: int = 60) -> tuple[str, str]:
    rng = random.Random(0)
    words = [w for w in ("the", "cat", "sat", "on", "mat") for _ in range(n_words // 5)]
    rng.shuffle(words)
    hyp = " ".join(words)
    rng.shuffle(words)
    return hyp, " ".join(words)


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
        port = _free_port()
        env = dict(os.environ, GRADIO_SERVER_PORT=str(port), GRADIO_ANALYTICS_ENABLED="False",
                   GRADIO_TEMP_DIR=str(uploads), METEOR_METRIC_CACHE=str(cache))
        url = f"http://127.0.0.1:{port}/"
        start = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "app.py"], cwd=REPO, env=env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            while True:
                try:
                    urllib.request.urlopen(url, timeout=2)
                    break
                except OSError:
                    if proc.poll() is not None or time.perf_counter() - start > 300:
                        raise SystemExit("the app did not start")
                    time.sleep(0.1)
            serving = time.perf_counter() - start
            client = Client(url, verbose=False)
            rows = [("start-up until it serves (empty cache)", serving, "")]
            rows.append(("first Score request", *_timed(lambda: client.predict(
                HYP, REFS, "meteor-1.5", "en", api_name="/score_pair"))))
            rows.append(("second Score request", *_timed(lambda: client.predict(
                HYP, REFS, "meteor-1.5", "en", api_name="/score_pair"))))
            rows.append(("original, 60-word anagram of 5 words", *_timed(lambda: client.predict(
                *_anagram(), "original", "en", api_name="/score_pair"))))
        finally:
            proc.terminate()
            proc.wait(timeout=30)
    for name, seconds, outcome in rows:
        print(f"{name:<40} {seconds:7.3f} s  {outcome}")


if __name__ == "__main__":
    main()
