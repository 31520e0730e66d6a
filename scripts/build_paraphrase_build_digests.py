#!/usr/bin/env python3
"""Write tests/data/paraphrase_build_digests.json: sha256 of each section the pre-rework compiler
(meteor_metric/paraphrase_build.py at commit 853f551) gives for tests/data/paraphrase-mini.gz and
the edge-case tables of tests/test_paraphrase.py.

That compiler numbered new tokens of a batch in set() order, which depends on PYTHONHASHSEED, so its
output was not deterministic; the one expression is replaced by its first-occurrence-ordered form
(one of the orders the old code could produce) and everything else runs as it was.

  python scripts/build_paraphrase_build_digests.py   (from a git checkout)
"""
from __future__ import annotations

import gzip, hashlib, json, subprocess, sys, tempfile, types
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "tests" / "data" / "paraphrase_build_digests.json"
OLD_SET = "set(words).difference(vocab)"
ORDERED = "filterfalse(vocab.__contains__, dict.fromkeys(words))"


def old_compiler() -> types.ModuleType:
    src = subprocess.run(["git", "-C", str(ROOT), "show", "853f551:meteor_metric/paraphrase_build.py"],
                         check=True, capture_output=True, text=True).stdout
    assert src.count(OLD_SET) == 1
    src = src.replace(OLD_SET, ORDERED).replace("from .", "from meteor_metric.")
    mod = types.ModuleType("old_paraphrase_build")
    exec(compile(src, "old_paraphrase_build.py", "exec"), mod.__dict__)
    return mod


def main() -> None:
    sys.path.insert(0, str(ROOT / "tests"))
    from test_paraphrase import EDGE_TABLE

    old = old_compiler()
    tables = {"edge": EDGE_TABLE, "empty": b"", "empty-phrases": b"1\n\n\n", "one": b"1\nwalks\nwhich\n",
              "vertical-tab": b"1\na\x0bb c\n\xff\n2\n  \nz\n"}
    out = {}
    with tempfile.TemporaryDirectory() as d:
        paths = {"paraphrase-mini.gz": ROOT / "tests" / "data" / "paraphrase-mini.gz"}
        for name, data in tables.items():
            paths[name] = Path(d) / f"{name}.gz"
            paths[name].write_bytes(gzip.compress(data))
        for name, path in paths.items():
            c = old.compile_table(path)
            out[name] = {"table": None if name.endswith(".gz") else tables[name].hex(),
                         "sections": {k: hashlib.sha256(v).hexdigest() for k, v in c.sections.items()},
                         "counts": [c.entries, c.nodes, c.vocab, c.flags]}
    OUT.write_text(json.dumps(out, indent=1) + "\n")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
