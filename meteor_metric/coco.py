"""Java-free COCO captioning evaluation: pycocoevalcap 1.2's ``Meteor`` and ``PTBTokenizer`` in pure Python, and
a patch that makes pycocoevalcap itself use them (``COCOEvalCap``, lmms-eval's imports).

``python -m meteor_metric.coco run [--no-spice] script.py ...`` runs a program with the patch applied."""

import sys

from .integrations.coco import Meteor, PTBTokenizer
from .integrations.coco_runner import main
from .integrations.pycocoevalcap_patch import patch_pycocoevalcap, pycocoevalcap_patched, unpatch_pycocoevalcap

__all__ = ['Meteor', 'PTBTokenizer', 'patch_pycocoevalcap', 'unpatch_pycocoevalcap', 'pycocoevalcap_patched']

if __name__ == "__main__":
    sys.exit(main())
