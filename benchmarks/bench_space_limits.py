#!/usr/bin/env python3
"""The Space's deadline under inputs built to be slow (issue 25 item 3), end to end through gradio_client.

Starts ``python app.py`` (its own deadline, 55 s of scoring per request, unless $METEOR_SPACE_MAX_SECONDS
says otherwise) and measures the wall-clock time from sending each request to its answer or refusal:

* a normal pair, for scale;
* ``/score_pair`` with a 1,999-character hypothesis of one repeated word and 3, then 16, references of the
  same word with one word changed each (about 40 s and 7 minutes of work on a free core);
* ``/score_corpus`` on 4 such 3-reference pairs, each of another word;
* two of the 16-reference pairs and a normal pair sent together: the normal one must not wait for them.

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
from slow_inputs import repeated_word_pair  # noqa: E402


def timed(fn) -> tuple[float, str]:
    """Seconds from calling ``fn`` to its answer, and what the answer was."""
    start = time.perf_counter()
    try:
        fn()
        outcome = "scored"
    except Exception as exc:  # the app's refusal arrives as an exception
        outcome = f"refused: {str(exc)[:100]}"
    return time.perf_counter() - start, outcome


def slow_corpus_files(folder: Path, words: tuple[str, ...] = ("the", "and", "of", "to")) -> tuple:
    """A corpus of one slow pair (3 references) per word: distinct segments, so none is a cached repeat."""
    pairs = [repeated_word_pair(3, word=word) for word in words]
    (folder / "hyp.txt").write_text("".join(hyp + "\n" for hyp, _ in pairs), encoding="utf-8")
    for k in range(3):
        (folder / f"ref{k}.txt").write_text("".join(refs[k] + "\n" for _, refs in pairs), encoding="utf-8")
    return handle_file(str(folder / "hyp.txt")), [handle_file(str(folder / f"ref{k}.txt")) for k in range(3)]


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

            slow3, slow16 = ("\n".join(refs) for _, refs in (repeated_word_pair(3), repeated_word_pair(16)))
            hyp = repeated_word_pair(3)[0]
            rows = [("normal pair", *timed(pair(HYP, REFS)))]
            rows.append(("slow pair, 3 references", *timed(pair(hyp, slow3))))
            rows.append(("slow pair, 16 references", *timed(pair(hyp, slow16))))
            files = slow_corpus_files(folder / "corpus")
            rows.append(("slow corpus, 4 such pairs of 3 references", *timed(lambda: client.predict(
                *files, "text", "meteor-1.5", "en", api_name="/score_corpus_json"))))
            with ThreadPoolExecutor(3) as pool:
                slow = [pool.submit(timed, pair(hyp, slow16)) for _ in range(2)]
                time.sleep(0.5)  # the slow ones are in first
                normal = pool.submit(timed, pair(HYP, REFS))
                rows.append(("normal pair sent alongside two slow ones", *normal.result()))
                rows.extend((f"  slow pair {k}, 16 references", *job.result()) for k, job in enumerate(slow, 1))
        finally:
            proc.terminate()
            proc.wait(timeout=30)
    for name, seconds, outcome in rows:
        print(f"{name:<44} {seconds:7.2f} s  {outcome}")


if __name__ == "__main__":
    main()
