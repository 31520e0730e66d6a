#!/usr/bin/env python3
"""The Space's deadline under inputs built to be slow (issue 25 item 3), end to end through gradio_client.

Starts ``python app.py`` (its own deadline, 55 s of scoring per request, unless $METEOR_SPACE_MAX_SECONDS
says otherwise; the engine $METEOR_METRIC_IMPL chooses) and measures the wall-clock time from sending each
request to its answer or refusal:

* a normal pair, for scale;
* ``/score_pair`` with the slowest segment the engine's limits let through (``slow_inputs.SLOW_WORD``: 666
  words against one reference, 442,890 candidate matches), then with 16 such references (7 million
  candidates: past the segment's limit of 500,000);
* ``/score_corpus`` on 1,000 distinct such segments (2 MB, within the Space's upload limit);
* two such corpora and a normal pair sent together: the normal one must not wait for them.

Targets: every answer or refusal within 60 s; the normal request alongside the slow ones within 65 s.

    python benchmarks/bench_space_limits.py
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from gradio_client import Client, handle_file

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_space_first_request import HYP, REFS, start_app  # noqa: E402
from slow_inputs import SLOW_WORD, repeated_word_pair, slow_segments  # noqa: E402

CORPUS_SEGMENTS = 1_000


def timed(fn) -> tuple[float, str]:
    """Seconds from calling ``fn`` to its answer, and what the answer was."""
    start = time.perf_counter()
    try:
        fn()
        outcome = "scored"
    except Exception as exc:  # the app's refusal arrives as an exception
        outcome = f"refused: {str(exc)[:100]}"
    return time.perf_counter() - start, outcome


def slow_corpus_files(folder: Path) -> tuple:
    """A corpus of ``CORPUS_SEGMENTS`` distinct slow segments of one reference: hypothesis and reference files."""
    hyps, refs = slow_segments(CORPUS_SEGMENTS)
    (folder / "hyp.txt").write_text("".join(hyp + "\n" for hyp in hyps), encoding="utf-8")
    (folder / "ref.txt").write_text("".join(ref + "\n" for ref in refs), encoding="utf-8")
    return handle_file(str(folder / "hyp.txt")), [handle_file(str(folder / "ref.txt"))]


def main() -> None:
    print(f"load average at start: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores", flush=True)
    with tempfile.TemporaryDirectory(prefix="space-limits-") as tmp:
        folder = Path(tmp)
        (folder / "cache").mkdir()
        (folder / "corpus").mkdir()
        proc, url = start_app(folder / "gradio", folder / "cache")
        try:
            client = Client(url, verbose=False)

            def pair(hyp: str, refs: str):
                return lambda: client.predict(hyp, refs, "meteor-1.5", "en", api_name="/score_pair_json")

            hyp, slow1 = repeated_word_pair(1, word=SLOW_WORD)
            slow16 = repeated_word_pair(16, word=SLOW_WORD)[1]
            rows = [("normal pair", *timed(pair(HYP, REFS)))]
            rows.append(("slowest pair within the limits", *timed(pair(hyp, slow1[0]))))
            rows.append(("the same with 16 references", *timed(pair(hyp, "\n".join(slow16)))))
            files = slow_corpus_files(folder / "corpus")

            def corpus():
                return client.predict(*files, "text", "meteor-1.5", "en", api_name="/score_corpus_json")

            rows.append((f"slow corpus, {CORPUS_SEGMENTS:,} such segments", *timed(corpus)))
            with ThreadPoolExecutor(3) as pool:
                slow = [pool.submit(timed, corpus) for _ in range(2)]
                time.sleep(0.5)  # the slow ones are in first
                normal = pool.submit(timed, pair(HYP, REFS))
                rows.append(("normal pair sent alongside two slow corpora", *normal.result()))
                rows.extend((f"  slow corpus {k}", *job.result()) for k, job in enumerate(slow, 1))
        finally:
            proc.terminate()
            proc.wait(timeout=30)
    for name, seconds, outcome in rows:
        print(f"{name:<46} {seconds:7.2f} s  {outcome}")


if __name__ == "__main__":
    main()
