"""``meteor-metric coco``: COCO captioning METEOR from an annotations file and a results file, as
pycocoevalcap 1.2's ``COCOEvalCap`` computes it (PTB tokenization, then METEOR 1.5), without Java."""

from __future__ import annotations

import argparse
import json
import os
from typing import Hashable, Optional, TextIO

from ..core.javafmt import java_double_str
from ..integrations.coco import Meteor, PTBTokenizer, tokenized_signature
from .common import EXIT_HELP, InputError, digits

COCO_EPILOG = f"""\
examples:
  meteor-metric coco --annotations captions_val2014.json --results results.json
  meteor-metric coco --annotations captions_val2014.json --results results.json --details --format tsv
  meteor-metric coco --annotations captions_val2014.json --results results.json --subset --no-ptb

input: the two files of COCO captioning.
  --annotations  {{"images": [{{"id": 1, ...}}, ...], "annotations": [{{"image_id": 1, "caption": "..."}}, ...]}}
                 (the reference captions; "images" is optional and, when given, lists the images to score)
  --results      [{{"image_id": 1, "caption": "..."}}, ...]  (one caption per image)
By default every image of the annotations needs exactly one result, as COCOEvalCap of pycocoevalcap 1.2
requires; --subset scores only the images of the results file (coco-caption's original COCOEvalCap).
The score equals pycocoevalcap 1.2's COCOEvalCap "METEOR" (PTB tokenization, then meteor-1.5.jar -l en -norm).
Output (--format): text (score, images, signature; --details: one "image ID<TAB>score" line per image), json (one
object: score, images, signature; --details: image_scores), tsv (--details: image_id<TAB>score lines; last line
"system", score, signature).

{EXIT_HELP}"""


def add_parser(commands) -> argparse.ArgumentParser:
    """Register ``coco``."""
    coco = commands.add_parser(
        "coco", help="COCO captioning METEOR from an annotations and a results file (as COCOEvalCap)",
        description="COCO captioning METEOR from the annotations (references) and results (one caption per image) "
                    "files, as pycocoevalcap's COCOEvalCap computes it, without Java.",
        epilog=COCO_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    coco.add_argument("--annotations", required=True, metavar="FILE", help="COCO annotations file (references)")
    coco.add_argument("--results", required=True, metavar="FILE", help="COCO results file (one caption per image)")
    coco.add_argument("--no-ptb", dest="ptb", action="store_false",
                      help="score the raw captions (default: PTB tokenization as COCOEvalCap, then METEOR)")
    coco.add_argument("--subset", action="store_true",
                      help="score only the images of the results file (default: every image of the annotations)")
    coco.add_argument("--details", action="store_true", help="also each image's score")
    coco.add_argument("--format", choices=("text", "json", "tsv"), default="text", help="output format")
    coco.add_argument("-w", "--width", type=digits, metavar="N",
                      help="digits after the point in text and TSV (default: all)")
    return coco


def _load_json(path: str) -> object:
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc.strerror or exc}") from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError(f"{path}: not valid UTF-8 (byte {exc.start + 1})") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"{path}: not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})") from None


def _image_id(path: str, entry: object, k: int, what: str) -> Hashable:
    if not isinstance(entry, dict):
        raise InputError(f"{path}: {what} {k + 1} must be an object with image_id and caption, got "
                         f"{type(entry).__name__}")
    if "image_id" not in entry:
        raise InputError(f"{path}: {what} {k + 1} has no image_id")
    image = entry["image_id"]
    if not isinstance(image, (int, str)) or isinstance(image, bool):
        raise InputError(f"{path}: {what} {k + 1}: image_id must be a number or a string, got {type(image).__name__}")
    return image


def _caption(path: str, entry: dict, image: Hashable, what: str) -> str:
    if "caption" not in entry:
        raise InputError(f"{path}: image {image}: {what} has no caption")
    caption = entry["caption"]
    if not isinstance(caption, str):
        kind = "None" if caption is None else type(caption).__name__
        raise InputError(f"{path}: image {image}: caption must be a string, got {kind}")
    if not caption.strip():
        raise InputError(f"{path}: image {image}: empty {what} caption")
    return caption


def read_annotations(path: str) -> dict[Hashable, list[str]]:
    """image id -> reference captions, images in the order of ``images`` (else of first appearance)."""
    data = _load_json(path)
    if isinstance(data, list):
        raise InputError(f"{path} is a JSON list, like a results file; --annotations takes the COCO annotations "
                         'file, an object {"images": [...], "annotations": [{"image_id": ..., "caption": ...}]}')
    if not isinstance(data, dict) or not isinstance(data.get("annotations"), list):
        raise InputError(f'{path}: expected a COCO annotations object with an "annotations" list')
    refs: dict[Hashable, list[str]] = {}
    for image_record in data.get("images") or []:
        if not isinstance(image_record, dict) or "id" not in image_record:
            raise InputError(f'{path}: each entry of "images" must be an object with an "id"')
        refs.setdefault(image_record["id"], [])
    listed = bool(refs)
    for k, entry in enumerate(data["annotations"]):
        image = _image_id(path, entry, k, "annotation")
        if listed and image not in refs:
            raise InputError(f'{path}: image {image}: annotation {k + 1} names an image that "images" does not list')
        refs.setdefault(image, []).append(_caption(path, entry, image, "reference"))
    if not refs:
        raise InputError(f"{path} has no annotations: nothing to score")
    return refs


def read_results(path: str, annotations_path: str, refs: dict[Hashable, list[str]]) -> dict[Hashable, str]:
    """image id -> the result caption; one per image, every image among the annotations'."""
    data = _load_json(path)
    if isinstance(data, dict) and "annotations" in data:
        raise InputError(f"{path} is a COCO annotations file; --results takes a JSON list "
                         '[{"image_id": ..., "caption": ...}, ...]')
    if not isinstance(data, list):
        raise InputError(f'{path}: expected a JSON list of results [{{"image_id": ..., "caption": ...}}, ...]')
    results: dict[Hashable, str] = {}
    first_entry: dict[Hashable, int] = {}
    for k, entry in enumerate(data):
        image = _image_id(path, entry, k, "result")
        if image in results:
            raise InputError(f"{path}: image {image} has more than one result (entries {first_entry[image] + 1} and "
                             f"{k + 1}); COCOEvalCap scores one caption per image")
        if image not in refs:
            raise InputError(f"{path}: image {image} is not in {annotations_path} (no references for it)")
        caption = _caption(path, entry, image, "result")
        results[image], first_entry[image] = caption, k
    if not results:
        raise InputError(f"{path} holds no results: nothing to score")
    return results


def _scored_images(args, refs: dict, results: dict) -> list[Hashable]:
    """The images to score, in the annotations' order."""
    images = [image for image in refs if image in results] if args.subset else list(refs)
    missing = [image for image in images if image not in results]
    if missing:
        raise InputError(f"{args.results} has no caption for {len(missing)} of the {len(refs)} images of "
                         f"{args.annotations} (first: image {', image '.join(map(str, missing[:3]))}); give one per "
                         "image, or --subset to score only the images it has")
    no_refs = [image for image in images if not refs[image]]
    if no_refs:
        raise InputError(f"{args.annotations}: image {no_refs[0]} has no reference captions"
                         + (f" (nor {len(no_refs) - 1} more images)" if len(no_refs) > 1 else ""))
    return images


def run(args, out: TextIO) -> None:
    refs = read_annotations(args.annotations)
    results = read_results(args.results, args.annotations, refs)
    images = _scored_images(args, refs, results)
    gts = {image: [{"caption": c} for c in refs[image]] for image in images}
    res = {image: [{"caption": results[image]}] for image in images}
    if args.ptb:
        gts, res = PTBTokenizer().tokenize(gts), PTBTokenizer().tokenize(res)
        for image in images:
            for tokens, path, what in [(t, args.annotations, "a reference") for t in gts[image]] + \
                                      [(res[image][0], args.results, "the result")]:
                if not tokens.strip():
                    raise InputError(f"{path}: image {image}: {what} caption is empty after PTB tokenization "
                                     "(COCOEvalCap drops punctuation), and METEOR cannot score an empty caption")
    else:
        gts = {image: [c["caption"] for c in captions] for image, captions in gts.items()}
        res = {image: [c["caption"] for c in captions] for image, captions in res.items()}
    try:
        corpus = Meteor().corpus_result(gts, res)
    except (TypeError, ValueError) as exc:  # e.g. a caption that PTB tokenization empties (the message names it)
        raise InputError(f"{args.results}: {exc}") from None
    signature = tokenized_signature(corpus.signature, "ptb" if args.ptb else "none")
    write(out, args, images, corpus.score, corpus.segment_scores, signature)


def write(out: TextIO, args, images: list[Hashable], score: float, scores: list[float], signature: str) -> None:
    num = java_double_str if args.width is None else (lambda x: f"{x:.{args.width}f}")
    if args.format == "json":
        record = {"score": score, "images": len(images), "signature": signature}
        if args.details:
            record["image_scores"] = [{"image_id": i, "score": s} for i, s in zip(images, scores)]
        out.write(json.dumps(record, ensure_ascii=False) + "\n")
    elif args.format == "tsv":
        if args.details:
            out.write("image_id\tscore\n" + "".join(f"{i}\t{num(s)}\n" for i, s in zip(images, scores)))
        out.write(f"system\t{num(score)}\t{signature}\n")
    else:
        if args.details:
            out.write("".join(f"image {i}\t{num(s)}\n" for i, s in zip(images, scores)) + "\n")
        out.write(f"METEOR:\t\t{num(score)}\nImages:\t\t{len(images)}\nSignature:\t{signature}\n")


def coco_file_kind(path: str) -> Optional[str]:
    """``"results"`` or ``"annotations"`` when ``path`` is a COCO captioning JSON file, else None (cheap for other
    files: only one that starts with ``[``, or a ``.json`` file that starts with ``{``, is parsed). Pipes and
    devices are not read (they could not be read again)."""
    if not os.path.isfile(path):
        return None
    try:
        with open(path, "rb") as f:
            head = f.read(4096).lstrip(b"\xef\xbb\xbf \t\r\n")
    except OSError:
        return None
    if not (head.startswith(b"[") or (head.startswith(b"{") and path.lower().endswith(".json"))):
        return None
    try:
        with open(path, encoding="utf-8-sig") as f:
            data = json.load(f)
    except (OSError, ValueError):
        return None
    if isinstance(data, list) and data and isinstance(data[0], dict) and {"image_id", "caption"} <= data[0].keys():
        return "results"
    if isinstance(data, dict) and isinstance(data.get("annotations"), list):
        return "annotations"
    return None
