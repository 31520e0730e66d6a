#!/usr/bin/env python3
"""Run the Java METEOR 1.5 jar (the one pycocoevalcap 1.2 ships) and read what it prints.

Library::

    from jar import score_lines, score_files, JarStdio
    res = score_lines(hyps, refs)               # refs: one str or a list of str per hypothesis
    res.final_score, res.segment_scores, res.stats_lines, res.wall_s, res.max_rss_kb

    with JarStdio() as jar:                     # a long-lived ``-stdio`` process (warm measurements)
        lines = jar.score_many(hyps, refs)      # one 23-number stats line per segment
        seg_scores, corpus = jar.eval(lines)

Command line::

    python benchmarks/jar.py info
    python benchmarks/jar.py score --hyp H --ref R [--ref R2 ...] [--ssout] [--json]
    python benchmarks/jar.py examples           # writes examples/jar-scores.json

The jar is never copied: it runs from the installed ``pycocoevalcap/meteor`` directory, because it finds
``data/paraphrase-en.gz`` relative to itself. Only the standard library is used.
"""

from __future__ import annotations

import argparse
import datetime
import hashlib
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Optional, Sequence, Union

REPO = Path(__file__).resolve().parents[1]
EXAMPLES = REPO / "examples"

# The same JVM options the golden conformance data was produced with (tests/data/java15/PROVENANCE.json).
JAVA_OPTS = ["-Xmx2G", "-Duser.language=en", "-Duser.country=US"]
DEFAULT_ARGS = ["-l", "en", "-norm"]

_SEGMENT = re.compile(r"^Segment (\d+) score:\s*(\S+)\s*$")
_FINAL = re.compile(r"^Final score:\s*(\S+)\s*$")
_STATS = re.compile(r"^-?\d+\.\d+(?:E-?\d+)?(?: -?\d+\.\d+(?:E-?\d+)?){22}$")
_BREAKS = re.compile(r"\r\n|\r|\n")

Refs = Union[str, Sequence[str]]


class JarUnavailable(RuntimeError):
    """The jar or ``java`` cannot be found."""


class JarFailed(RuntimeError):
    """The jar ran but failed or printed something unexpected."""


# --------------------------------------------------------------------------------------------- location

def find_jar() -> Path:
    """Path of ``meteor-1.5.jar`` in the installed pycocoevalcap, found without importing the package."""
    try:
        spec = importlib.util.find_spec("pycocoevalcap")
    except (ImportError, ValueError):
        spec = None
    if spec is None:
        raise JarUnavailable("pycocoevalcap is not installed (it ships meteor-1.5.jar): "
                             "pip install --no-deps pycocoevalcap==1.2")
    roots = list(spec.submodule_search_locations or [])
    if not roots and spec.origin:
        roots = [str(Path(spec.origin).parent)]
    for root in roots:
        jar = Path(root) / "meteor" / "meteor-1.5.jar"
        if jar.is_file():
            para = jar.parent / "data" / "paraphrase-en.gz"
            if not para.is_file():
                raise JarUnavailable(f"{jar} found, but its paraphrase table {para} is missing")
            return jar
    raise JarUnavailable(f"pycocoevalcap is installed at {roots} but has no meteor/meteor-1.5.jar")


def find_java() -> str:
    """The ``java`` executable: ``$JAVA`` if set, else the one on PATH."""
    java = shutil.which(os.environ.get("JAVA") or "java")
    if not java:
        raise JarUnavailable("no `java` on PATH (install a JRE, e.g. apt-get install openjdk-17-jre-headless, "
                             "or set $JAVA)")
    return java


def available() -> Optional[str]:
    """None when the jar can be run, else the reason why not."""
    try:
        find_jar()
        find_java()
    except JarUnavailable as exc:
        return str(exc)
    return None


def java_version() -> list[str]:
    out = subprocess.run([find_java(), "-version"], capture_output=True, text=True)
    return [line for line in (out.stderr or out.stdout).splitlines() if line.strip()]


def sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def pin_prefix(core: Optional[int]) -> list[str]:
    """``taskset -c CORE`` if asked for and available, else [] (callers report the unpinned case)."""
    if core is None:
        return []
    taskset = shutil.which("taskset")
    return [taskset, "-c", str(core)] if taskset else []


# ------------------------------------------------------------------------------------------------ input

def clean_line(text: str) -> str:
    """One segment as a single line for both tools: Java's readLine also splits at ``\\r``."""
    return _BREAKS.sub(" ", text)


def write_lines(path: Union[str, Path], lines: Iterable[str]) -> None:
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        for line in lines:
            f.write(clean_line(line))
            f.write("\n")


def _ref_lists(refs: Sequence[Refs], n: int) -> list[list[str]]:
    if len(refs) != n:
        raise ValueError(f"{n} hypotheses but {len(refs)} references")
    out = [[r] if isinstance(r, str) else list(r) for r in refs]
    if any(not r for r in out):
        raise ValueError("every hypothesis needs at least one reference")
    return out


def read_lines(path: Union[str, Path]) -> list[str]:
    """Lines of a UTF-8 file split like Java's readLine (\\n, \\r, \\r\\n)."""
    text = Path(path).read_text(encoding="utf-8")
    lines = _BREAKS.split(text)
    if lines and lines[-1] == "":
        lines.pop()
    return lines


# --------------------------------------------------------------------------------------------- running

@dataclass
class Measured:
    returncode: int
    stdout: str
    stderr: str
    wall_s: float
    max_rss_kb: int  # ru_maxrss of the child (Linux: kilobytes)
    command: list[str]
    cpu_s: float = 0.0  # user + system CPU time of the child (all its threads)


def run_measured(cmd: Sequence[str], cwd: Optional[Union[str, Path]] = None,
                 env: Optional[dict] = None) -> Measured:
    """Run ``cmd`` to completion; wall time from spawn to exit and the child's own peak RSS (os.wait4).

    Output goes to temporary files (no pipe to drain), so nothing but the child is measured. ``taskset``
    execs the command in place, so a pinned run's peak RSS is still the measured program's.
    """
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        t0 = time.perf_counter()
        proc = subprocess.Popen(list(cmd), cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=out, stderr=err)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t0
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        return Measured(proc.returncode, out.read().decode("utf-8", "replace"),
                        err.read().decode("utf-8", "replace"), wall, usage.ru_maxrss, list(cmd),
                        usage.ru_utime + usage.ru_stime)


def time_to_line(cmd: Sequence[str], pattern: str, cwd: Optional[Union[str, Path]] = None,
                 env: Optional[dict] = None) -> tuple[float, float, float, str, int]:
    """Seconds from spawn until a stdout line matching ``pattern`` appears and until exit, the CPU
    seconds (user + system) and the peak RSS (KiB, os.wait4) of the process, and the matching line."""
    rx = re.compile(pattern)
    t0 = time.perf_counter()
    proc = subprocess.Popen(list(cmd), cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, encoding="utf-8")
    t_result, found = None, ""
    for line in proc.stdout:
        if t_result is None and rx.search(line):
            t_result, found = time.perf_counter() - t0, line.strip()
    err = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    t_exit = time.perf_counter() - t0
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0 or t_result is None:
        raise JarFailed(f"{' '.join(cmd)} failed (exit {proc.returncode}):\n{err[-3000:]}")
    return t_result, t_exit, usage.ru_utime + usage.ru_stime, found, usage.ru_maxrss


def jar_command(hyp_path: Union[str, Path], ref_path: Union[str, Path], nrefs: int = 1, ssout: bool = False,
                args: Sequence[str] = DEFAULT_ARGS, pin: Optional[int] = None) -> list[str]:
    cmd = pin_prefix(pin) + [find_java(), *JAVA_OPTS, "-jar", str(find_jar()), str(hyp_path), str(ref_path),
                             *args]
    if nrefs > 1:
        cmd += ["-r", str(nrefs)]
    if ssout:
        cmd.append("-ssOut")
    return cmd


@dataclass
class JarResult:
    final_score: Optional[float]          # None with -ssOut (the jar then prints only stats lines)
    segment_scores: list[float]           # empty with -ssOut
    stats_lines: list[str]                # only with -ssOut
    wall_s: float
    max_rss_kb: int
    command: list[str]
    stdout: str = field(repr=False, default="")
    cpu_s: float = 0.0


def parse_output(stdout: str, ssout: bool) -> tuple[Optional[float], list[float], list[str]]:
    lines = stdout.splitlines()
    if ssout:
        stats = [line.strip() for line in lines if line.strip()]
        bad = [s for s in stats if not _STATS.match(s)]
        if bad:
            raise JarFailed(f"unexpected -ssOut line from the jar: {bad[0]!r}")
        return None, [], stats
    scores: list[float] = []
    final = None
    for line in lines:
        m = _SEGMENT.match(line)
        if m:
            if int(m.group(1)) != len(scores) + 1:
                raise JarFailed(f"segment lines out of order at {line!r}")
            scores.append(float(m.group(2)))
            continue
        m = _FINAL.match(line)
        if m:
            final = float(m.group(1))
    if final is None:
        raise JarFailed("no 'Final score:' line in the jar's output:\n" + stdout[-2000:])
    return final, scores, []


def score_files(hyp_path: Union[str, Path], ref_paths: Union[str, Path, Sequence[Union[str, Path]]], *,
                ssout: bool = False, args: Sequence[str] = DEFAULT_ARGS, pin: Optional[int] = None) -> JarResult:
    """The jar in file mode on a hypothesis file and one or more line-aligned reference files.

    Several reference files are interleaved into one ``-r N`` file (N consecutive lines per segment) in a
    temporary directory.
    """
    if isinstance(ref_paths, (str, Path)):
        ref_paths = [ref_paths]
    ref_paths = list(ref_paths)
    with tempfile.TemporaryDirectory(prefix="meteor-jar-") as tmp:
        n = len(read_lines(hyp_path))
        if len(ref_paths) == 1:
            ref_file: Union[str, Path] = ref_paths[0]
        else:
            sets = [read_lines(p) for p in ref_paths]
            for p, s in zip(ref_paths, sets):
                if len(s) != n:
                    raise ValueError(f"{hyp_path} has {n} lines, {p} has {len(s)}")
            ref_file = Path(tmp) / "refs.interleaved.txt"
            write_lines(ref_file, (r for group in zip(*sets) for r in group))
        cmd = jar_command(hyp_path, ref_file, len(ref_paths), ssout, args, pin)
        res = run_measured(cmd, cwd=find_jar().parent)
    if res.returncode != 0:
        raise JarFailed(f"jar exited with {res.returncode}: {' '.join(cmd)}\n{res.stderr[-2000:]}")
    final, scores, stats = parse_output(res.stdout, ssout)
    count = len(stats) if ssout else len(scores)
    if count != n:
        raise JarFailed(f"jar printed {count} segments for {n} hypotheses")
    return JarResult(final, scores, stats, res.wall_s, res.max_rss_kb, cmd, res.stdout, res.cpu_s)


def score_lines(hyps: Sequence[str], refs: Sequence[Refs], *, ssout: bool = False,
                args: Sequence[str] = DEFAULT_ARGS, pin: Optional[int] = None) -> JarResult:
    """Like :func:`score_files` for in-memory segments; every hypothesis needs the same number of refs."""
    ref_lists = _ref_lists(refs, len(hyps))
    nrefs = len(ref_lists[0])
    if any(len(r) != nrefs for r in ref_lists):
        raise ValueError("file mode needs the same number of references for every segment")
    with tempfile.TemporaryDirectory(prefix="meteor-jar-") as tmp:
        hyp_path, ref_path = Path(tmp) / "hyp.txt", Path(tmp) / "ref.txt"
        write_lines(hyp_path, hyps)
        write_lines(ref_path, (r for group in ref_lists for r in group))
        cmd = jar_command(hyp_path, ref_path, nrefs, ssout, args, pin)
        res = run_measured(cmd, cwd=find_jar().parent)
    if res.returncode != 0:
        raise JarFailed(f"jar exited with {res.returncode}: {' '.join(cmd)}\n{res.stderr[-2000:]}")
    final, scores, stats = parse_output(res.stdout, ssout)
    count = len(stats) if ssout else len(scores)
    if count != len(hyps):
        raise JarFailed(f"jar printed {count} segments for {len(hyps)} hypotheses")
    return JarResult(final, scores, stats, res.wall_s, res.max_rss_kb, cmd, res.stdout, res.cpu_s)


# ------------------------------------------------------------------------------------------------ stdio

def stdio_field(text: str) -> str:
    """A segment as a ``-stdio`` field: one line, no ``|||`` (the field separator)."""
    return clean_line(text).replace("|||", " ")


class JarStdio:
    """A long-lived ``java -jar meteor-1.5.jar - - -stdio -l en -norm`` process.

    ``score_many`` pipelines: a writer thread feeds the SCORE lines while the caller reads the replies, so
    the measured time is the jar's scoring, not pipe round trips. Fields are trimmed by the jar, and text
    containing ``|||`` cannot be sent (it is replaced by a space), so stdio results can differ from file
    mode on such segments.
    """

    def __init__(self, args: Sequence[str] = DEFAULT_ARGS, pin: Optional[int] = None):
        self.command = pin_prefix(pin) + [find_java(), *JAVA_OPTS, "-jar", str(find_jar()), "-", "-", "-stdio",
                                          *args]
        self.spawned = time.perf_counter()
        self.proc = subprocess.Popen(self.command, cwd=find_jar().parent, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                     encoding="utf-8", bufsize=1)

    def __enter__(self) -> "JarStdio":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _reply(self) -> str:
        line = self.proc.stdout.readline()
        if not line:
            raise JarFailed(f"the jar's -stdio process ended (exit {self.proc.poll()})")
        line = line.rstrip("\n")
        if line.startswith("Error"):
            raise JarFailed(f"jar: {line}")
        return line

    @staticmethod
    def score_request(hyp: str, refs: Refs) -> str:
        refs = [refs] if isinstance(refs, str) else list(refs)
        return "SCORE ||| " + " ||| ".join(stdio_field(r) for r in refs) + " ||| " + stdio_field(hyp) + "\n"

    def score(self, hyp: str, refs: Refs) -> str:
        """One segment's 23-number stats line."""
        self.proc.stdin.write(self.score_request(hyp, refs))
        self.proc.stdin.flush()
        return self._reply()

    def score_many(self, hyps: Sequence[str], refs: Sequence[Refs]) -> list[str]:
        ref_lists = _ref_lists(refs, len(hyps))
        errors: list[BaseException] = []

        def feed():
            try:
                for h, r in zip(hyps, ref_lists):
                    self.proc.stdin.write(self.score_request(h, r))
                self.proc.stdin.flush()
            except BaseException as exc:  # surfaced after the reader finishes or fails
                errors.append(exc)

        writer = threading.Thread(target=feed, daemon=True)
        writer.start()
        try:
            out = [self._reply() for _ in hyps]
        finally:
            writer.join()
        if errors:
            raise errors[0]
        return out

    def cpu_seconds(self) -> float:
        """User + system CPU time the jar's process (all threads) has used so far (Linux /proc)."""
        fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def eval(self, stats_lines: Sequence[str]) -> tuple[list[float], float]:
        """The coco jar's ``EVAL``: the score of each stats line and of their sum."""
        self.proc.stdin.write("EVAL ||| " + " ||| ".join(stats_lines) + "\n")
        self.proc.stdin.flush()
        scores = [float(self._reply()) for _ in stats_lines]
        return scores, float(self._reply())

    def close(self) -> None:
        if self.proc.poll() is None:
            try:
                self.proc.stdin.close()
            except OSError:
                pass
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if self.proc.stdout:
            self.proc.stdout.close()


# -------------------------------------------------------------------------------------------------- CLI

def provenance(commands: list[list[str]]) -> dict:
    jar = find_jar()
    para = jar.parent / "data" / "paraphrase-en.gz"
    return {
        "jar": "meteor-1.5.jar from pycocoevalcap==1.2 (pycocoevalcap/meteor/meteor-1.5.jar)",
        "jar_sha256": sha256(jar),
        "paraphrase_en_sha256": sha256(para),
        "java_version": java_version(),
        "commands": [" ".join(_portable(c) for c in cmd) for cmd in commands],
        "cwd": "the pycocoevalcap/meteor directory (the jar reads data/paraphrase-en.gz relative to itself)",
        "date_utc": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
    }


def _portable(arg: str) -> str:
    """Command-line words without machine-specific directories."""
    p = Path(arg)
    if p.is_absolute():
        try:
            return str(p.relative_to(REPO))
        except ValueError:
            pass
        if p.name == "meteor-1.5.jar":
            return "meteor-1.5.jar"
        if p.name == "java" or p.parent.name == "bin":
            return p.name
        if p.name.startswith("refs.interleaved"):
            return "<tmp>/" + p.name
    return arg


def cmd_examples(_args) -> int:
    hyp = EXAMPLES / "hyp.txt"
    refs = [EXAMPLES / "ref.txt", EXAMPLES / "ref2.txt"]
    for p in [hyp, *refs]:
        if not p.is_file():
            print(f"missing {p}", file=sys.stderr)
            return 1
    out: dict = {}
    commands: list[list[str]] = []
    for key, ref_files in (("one_ref", refs[:1]), ("two_refs", refs)):
        plain = score_files(hyp, ref_files)
        ss = score_files(hyp, ref_files, ssout=True)
        commands += [plain.command, ss.command]
        out[key] = {"ref_files": [str(p.relative_to(REPO)) for p in ref_files],
                    "final_score": plain.final_score,
                    "segment_scores": plain.segment_scores,
                    "stats_lines": ss.stats_lines}
        print(f"{key}: final score {plain.final_score!r} ({len(plain.segment_scores)} segments, "
              f"{plain.wall_s:.1f} s + {ss.wall_s:.1f} s)")
    doc = {"provenance": provenance(commands), **out}
    doc["provenance"]["note"] = ("<tmp>/refs.interleaved.txt is examples/ref.txt and examples/ref2.txt "
                                 "interleaved, 2 consecutive lines per segment (-r 2)")
    target = EXAMPLES / "jar-scores.json"
    target.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {target}")
    return 0


def cmd_info(_args) -> int:
    jar = find_jar()
    print(f"jar:     {jar}\nsha256:  {sha256(jar)}\njava:    {find_java()}")
    for line in java_version():
        print(f"         {line}")
    print(f"taskset: {shutil.which('taskset') or 'not available'}")
    return 0


def cmd_score(args) -> int:
    res = score_files(args.hyp, args.ref, ssout=args.ssout, args=args.jar_args or DEFAULT_ARGS, pin=args.pin)
    if args.json:
        json.dump({"final_score": res.final_score, "segment_scores": res.segment_scores,
                   "stats_lines": res.stats_lines, "wall_s": res.wall_s, "max_rss_kb": res.max_rss_kb,
                   "command": res.command}, sys.stdout)
        print()
    else:
        sys.stdout.write(res.stdout)
        print(f"# wall {res.wall_s:.2f} s, peak RSS {res.max_rss_kb / 1024:.0f} MiB", file=sys.stderr)
    return 0


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description="Run the Java METEOR 1.5 jar from pycocoevalcap.")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("info", help="where the jar and java are")
    sub.add_parser("examples", help="score examples/ with the jar and write examples/jar-scores.json")
    sc = sub.add_parser("score", help="score files in file mode")
    sc.add_argument("--hyp", required=True)
    sc.add_argument("--ref", required=True, action="append", help="repeat for several reference sets")
    sc.add_argument("--ssout", action="store_true", help="print the jar's -ssOut stats lines")
    sc.add_argument("--json", action="store_true")
    sc.add_argument("--pin", type=int, metavar="CORE", help="run under taskset -c CORE")
    sc.add_argument("--jar-args", nargs=argparse.REMAINDER,
                    help="jar options instead of '-l en -norm' (must come last)")
    args = parser.parse_args(argv)
    try:
        return {"info": cmd_info, "examples": cmd_examples, "score": cmd_score}[args.command](args)
    except (JarUnavailable, JarFailed, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
