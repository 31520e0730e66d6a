#!/usr/bin/env python3
"""Instructions a pair of ``Meteor().corpus_score``, counted by valgrind's callgrind: a measure that, unlike CPU
time on a shared VM (whose speed swings 20-40 % between runs), repeats to within a fraction of a percent, for
comparing two versions of the per-pair path.

    python benchmarks/bench_instructions.py [--set wmt|unique] [--pairs 1000] [--warm 500] [--ref-lists]
                                            [--data ../shared/data]

The child process, under ``valgrind --tool=callgrind --instr-atstart=no``, loads the scorer (the engine
``METEOR_METRIC_IMPL`` chooses), scores ``--warm`` warm-up pairs (WMT22 zh-en) and waits; this process turns
instrumentation on (``callgrind_control -i on``), the child scores the first ``--pairs`` pairs of the set
(``benchmarks/bench_loops.py``'s data: WMT21 zh-en, or pairs with unique references) with one ``corpus_score``
call (each reference a string, or with ``--ref-lists`` a one-item list, as ``evaluate`` passes references),
and instrumentation goes off again. Printed: the instructions counted in that call, and per pair. Both
versions must run with the same arguments and ``PYTHONHASHSEED`` (set to 0 here): the counts include Python's
own work, which depends on both. To compare two checkouts, run each with ``PYTHONPATH`` pointing at it.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Optional

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_loops  # noqa: E402
import evalsets  # noqa: E402

SETS = ("wmt", "unique")


def child(name: str, pairs: int, warm: int, data: Path, handshake: Path, ref_lists: bool) -> None:
    """Scores the warm-up pairs, says so (``handshake``/ready), waits for ``go``, scores the measured pairs
    and says ``done``."""
    from meteor_metric import Meteor

    sets = bench_loops.datasets(data, max(pairs, 1))
    scorer = Meteor()
    scorer.corpus_score([h for h, _ in sets["warm"][:warm]], [r for _, r in sets["warm"][:warm]])
    measured = sets[name][:pairs]
    hyps, refs = [h for h, _ in measured], [[r] if ref_lists else r for _, r in measured]
    (handshake / "ready").write_text(scorer.engine)
    while not (handshake / "go").exists():
        time.sleep(0.05)
    scorer.corpus_score(hyps, refs)
    (handshake / "done").touch()
    while not (handshake / "off").exists():  # stay alive until instrumentation is off
        time.sleep(0.05)


def wait_for(path: Path, process: subprocess.Popen) -> None:
    while not path.exists():
        if process.poll() is not None:
            raise SystemExit(f"bench_instructions: the child stopped (status {process.returncode}) before {path.name}")
        time.sleep(0.1)


def measure(name: str, pairs: int, warm: int, data: Path, ref_lists: bool) -> tuple[int, str]:
    """(instructions counted in the measured call, the engine that scored)."""
    with tempfile.TemporaryDirectory(prefix="meteor-instr-") as tmp:
        handshake, out = Path(tmp), Path(tmp) / "callgrind.out"
        command = ["valgrind", "--tool=callgrind", "--instr-atstart=no", f"--callgrind-out-file={out}",
                   sys.executable, __file__, "--child", name, "--pairs", str(pairs), "--warm", str(warm),
                   "--data", str(data), "--handshake", str(handshake)] + (["--ref-lists"] if ref_lists else [])
        env = dict(os.environ, PYTHONHASHSEED="0")
        process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        try:
            wait_for(handshake / "ready", process)
            subprocess.run(["callgrind_control", "-i", "on", str(process.pid)], check=True, capture_output=True)
            (handshake / "go").touch()
            wait_for(handshake / "done", process)
            subprocess.run(["callgrind_control", "-i", "off", str(process.pid)], check=True, capture_output=True)
            (handshake / "off").touch()
            process.wait(timeout=600)
        finally:
            if process.poll() is None:
                process.kill()
        totals = re.search(r"^totals: (\d+)", out.read_text(), re.M)  # (the header's summary line says 0)
        if process.returncode or totals is None:
            raise SystemExit(f"bench_instructions: callgrind failed (status {process.returncode}): "
                             f"{process.stderr.read()[-500:] if process.stderr else ''}")
        return int(totals.group(1)), (handshake / "ready").read_text()


def main(argv: Optional[list[str]] = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--set", default="wmt", choices=SETS, help="WMT21 zh-en pairs, or pairs with unique references")
    p.add_argument("--pairs", type=int, default=1000, help="pairs scored in the measured call (default: %(default)s)")
    p.add_argument("--warm", type=int, default=500, help="warm-up pairs scored before it (default: %(default)s)")
    p.add_argument("--ref-lists", action="store_true", help="each reference in a one-item list (default: a string)")
    p.add_argument("--data", type=Path, default=evalsets.DATA, help="the shared data folder (default: %(default)s)")
    p.add_argument("--child", choices=SETS, help=argparse.SUPPRESS)
    p.add_argument("--handshake", type=Path, help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.pairs < 1 or args.warm < 0:
        p.error("--pairs must be at least 1 and --warm at least 0")
    if args.child:
        child(args.child, args.pairs, args.warm, args.data, args.handshake, args.ref_lists)
        return 0
    missing = [tool for tool in ("valgrind", "callgrind_control") if shutil.which(tool) is None]
    if missing:
        print(f"bench_instructions: needs {' and '.join(missing)} (valgrind) on PATH", file=sys.stderr)
        return 1
    count, engine = measure(args.set, args.pairs, args.warm, args.data, args.ref_lists)
    refs = "references in lists" if args.ref_lists else "references as strings"
    print(f"corpus_score, {args.pairs:,} {args.set} pairs ({refs}) after {args.warm:,} warm-up pairs ({engine} engine): "
          f"{count / 1e6:.1f} M instructions, {count / args.pairs:,.0f} a pair")
    return 0


if __name__ == "__main__":
    sys.exit(main())
