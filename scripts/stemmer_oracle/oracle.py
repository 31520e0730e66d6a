"""Golden stems from the METEOR 1.5 jar's own Snowball stemmers (via StemOracle.java).

The jar is looked up in ``$METEOR_JAR``, then in the pycocoevalcap copy beside the checkout.
It is only read, never copied into the repository.

    python scripts/stemmer_oracle/oracle.py german < words.txt > pairs.tsv
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from functools import lru_cache
from pathlib import Path
from typing import Iterable, Optional

HERE = Path(__file__).resolve().parent
DEFAULT_JARS = (
    HERE.parents[2] / "pcoco" / "whl" / "pycocoevalcap" / "meteor" / "meteor-1.5.jar",
)


def find_jar() -> Optional[Path]:
    """Path of meteor-1.5.jar, or None."""
    env = os.environ.get("METEOR_JAR")
    for cand in ([Path(env)] if env else []) + list(DEFAULT_JARS):
        if cand.is_file():
            return cand
    return None


def available() -> bool:
    """Whether the jar, java and javac are all present."""
    return find_jar() is not None and shutil.which("java") is not None and shutil.which("javac") is not None


@lru_cache(maxsize=None)
def _classes_dir() -> Path:
    jar = find_jar()
    if jar is None:
        raise FileNotFoundError("meteor-1.5.jar not found (set METEOR_JAR)")
    out = Path(tempfile.mkdtemp(prefix="stem_oracle_"))
    subprocess.run(["javac", "-encoding", "UTF-8", "-cp", str(jar), "-d", str(out),
                    str(HERE / "StemOracle.java")], check=True)
    return out


def usable(word: str) -> bool:
    """Whether ``word`` survives the line-based UTF-8 round trip through the oracle."""
    if not word or any(c in word for c in "\t\n\r"):
        return False
    try:
        word.encode("utf-8")
    except UnicodeEncodeError:  # lone surrogates
        return False
    return True


def jar_stems(language: str, words: Iterable[str], fresh: bool = False) -> dict[str, str]:
    """word -> the jar's stem, for every usable word (``fresh``: a new stemmer per word)."""
    todo = sorted({w for w in words if usable(w)})
    cmd = ["java", "-cp", f"{find_jar()}{os.pathsep}{_classes_dir()}", "StemOracle", language]
    if fresh:
        cmd.append("fresh")
    data = "".join(w + "\n" for w in todo).encode("utf-8")
    res = subprocess.run(cmd, input=data, stdout=subprocess.PIPE, check=True)
    out: dict[str, str] = {}
    for line in res.stdout.decode("utf-8").split("\n")[:-1]:
        word, stem = line.split("\t")
        out[word] = stem
    if len(out) != len(todo):
        raise RuntimeError(f"oracle returned {len(out)} stems for {len(todo)} words")
    return out


def main() -> None:
    if len(sys.argv) != 2:
        sys.exit("usage: oracle.py LANGUAGE < words > pairs.tsv")
    stems = jar_stems(sys.argv[1], (line.rstrip("\n") for line in sys.stdin))
    sys.stdout.writelines(f"{w}\t{s}\n" for w, s in stems.items())


if __name__ == "__main__":
    main()
