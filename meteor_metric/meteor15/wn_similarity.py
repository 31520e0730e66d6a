"""WordNet path similarity of words, as NLTK 3.10.4 computes it, from shipped tables (no nltk_data).

``Synset.path_similarity`` is 1 / (1 + d), d the fewest hypernym links from the two synsets up to a
common ancestor (instance hypernyms count as hypernyms). Unless both synsets are nouns, NLTK also
puts a fake root above each synset, one link beyond its farthest ancestor; two nouns always meet at
``entity.n.01`` before that root, so the root is added for every synset here without changing a
result. The similarity of two words is the largest over their synsets (``wordnet.synsets``), i.e.
1 / (1 + the smallest d). The hypernym links are ``resources/wordnet/hypernyms.gz``, made by
``scripts/build_nltk_wordnet.py`` (layout there); synset ids are those of ``nltk_wordnet``.
"""

from __future__ import annotations

import gzip
import threading
import zlib
from collections import deque
from pathlib import Path
from typing import Optional

from .nltk_wordnet import NltkWordNet
from ..resources import resource_path

__all__ = ["ROOT", "SimilarityIndex", "SimilarityTableError", "max_distance"]

MAGIC = "meteor-wordnet-hypernyms"
FORMAT_VERSION = "1"
ROOT = -1
"""The key of NLTK's simulated root among a synset's ancestors."""
_CACHE_LIMIT = 1 << 16


class SimilarityTableError(RuntimeError):
    """The shipped hypernym table is missing, unreadable or does not fit the synset table."""


def max_distance(threshold: float) -> int:
    """The largest path length d with similarity 1 / (1 + d) >= ``threshold`` (0 < threshold <= 1)."""
    if not 0.0 < threshold <= 1.0:
        raise ValueError(f"a path-similarity threshold must be in (0, 1], got {threshold!r}")
    d = 0
    while 1.0 / (d + 2) >= threshold:
        d += 1
    return d


class SimilarityIndex:
    """Hypernym distances of synsets and words over a :class:`NltkWordNet` table."""

    __slots__ = ("_wordnet", "_hypernyms", "_ancestors", "_words")

    def __init__(self, wordnet: NltkWordNet, hypernyms: list[tuple[int, ...]]):
        if len(hypernyms) != len(wordnet):
            raise SimilarityTableError(f"hypernym table has {len(hypernyms)} synsets, the WordNet table "
                                       f"{len(wordnet)}; regenerate it with scripts/build_nltk_wordnet.py")
        self._wordnet = wordnet
        self._hypernyms = hypernyms
        self._ancestors: dict[int, dict[int, int]] = {}
        self._words: dict[str, dict[int, int]] = {}

    @classmethod
    def shipped(cls, wordnet: Optional[NltkWordNet] = None) -> "SimilarityIndex":
        """The packaged table over the packaged WordNet, loaded once per process (thread-safe)."""
        global _SHIPPED
        index = _SHIPPED
        if index is None:
            with _LOCK:
                index = _SHIPPED
                if index is None:
                    index = _SHIPPED = cls(wordnet or NltkWordNet.shipped(),
                                           _read(resource_path("wordnet", "hypernyms.gz")))
        return index

    def ancestors(self, synset: int) -> dict[int, int]:
        """NLTK's ``_shortest_hypernym_paths(simulate_root=True)``: ancestor (itself included, and
        :data:`ROOT`) -> fewest links up to it."""
        found = self._ancestors.get(synset)
        if found is None:
            found = {}
            queue = deque(((synset, 0),))
            while queue:
                s, depth = queue.popleft()
                if s not in found:
                    found[s] = depth
                    queue.extend((h, depth + 1) for h in self._hypernyms[s])
            found[ROOT] = max(found.values()) + 1
            self._ancestors[synset] = found
        return found

    def word_ancestors(self, word: str) -> dict[int, int]:
        """Ancestor -> fewest links up to it from any synset of ``wordnet.synsets(word)``."""
        found = self._words.get(word)
        if found is None:
            found = {}
            for sid in self._wordnet.synset_ids(word):
                for a, d in self.ancestors(sid).items():
                    if d < found.get(a, d + 1):
                        found[a] = d
            if len(self._words) >= _CACHE_LIMIT:
                self._words.clear()
            self._words[word] = found
        return found

    def distance(self, a: str, b: str) -> Optional[int]:
        """The fewest links between a synset of ``a`` and one of ``b`` (None: no synsets)."""
        up_a, up_b = self.word_ancestors(a), self.word_ancestors(b)
        if len(up_b) < len(up_a):
            up_a, up_b = up_b, up_a
        best = min((d + up_b[s] for s, d in up_a.items() if s in up_b), default=None)
        return best

    def similarity(self, a: str, b: str) -> Optional[float]:
        """``max(s.path_similarity(t) for s in synsets(a) for t in synsets(b))``; None without synsets."""
        d = self.distance(a, b)
        return None if d is None else 1.0 / (d + 1)


_SHIPPED: Optional[SimilarityIndex] = None
_LOCK = threading.Lock()


def _read(path: Path) -> list[tuple[int, ...]]:
    try:
        text = gzip.decompress(Path(path).read_bytes()).decode("ascii")
    except OSError as exc:
        raise SimilarityTableError(f"hypernym table {path} cannot be read ({exc}); reinstall meteor-metric "
                                   "or regenerate it with scripts/build_nltk_wordnet.py") from exc
    except (EOFError, zlib.error, UnicodeDecodeError) as exc:
        raise SimilarityTableError(f"hypernym table {path} is corrupt: {exc}") from exc
    head, *lines = text.split("\n")
    fields = head.split(" ")
    if len(fields) != 3 or fields[:2] != [MAGIC, FORMAT_VERSION] or not fields[2].isdigit():
        raise SimilarityTableError(f"hypernym table {path}: unexpected header {head[:80]!r} "
                                   f"(want '{MAGIC} {FORMAT_VERSION} COUNT')")
    if not lines or lines.pop() != "" or len(lines) != int(fields[2]):
        raise SimilarityTableError(f"hypernym table {path}: {len(lines)} lines, header says {fields[2]}")
    try:
        return [tuple(map(int, line.split())) for line in lines]
    except ValueError:
        raise SimilarityTableError(f"hypernym table {path}: a line is not synset ids") from None
