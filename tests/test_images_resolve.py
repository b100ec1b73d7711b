"""scorers.images: which paths a record names, and where they lead (root containment)."""

from __future__ import annotations

from pathlib import Path

import pytest
from image_fixtures import HOSTILE, make_image_root

from scorers.images import ImageRoots, image_refs, mentioned_images, resolve_images


def test_fields_of_rome_vrc_bench_and_mathreal() -> None:
    assert image_refs({"img_path": "a.png"}) == [("img_path", "a.png")]
    assert image_refs({"img_path": ["a.png", "b.png"]}) == [
        ("img_path", "a.png"),
        ("img_path", "b.png"),
    ]
    # VRC-Bench: the Hugging Face Image feature, exported as {"path", "bytes"}.
    assert image_refs({"image": {"path": "x/1.jpg", "bytes": None}}) == [("image", "x/1.jpg")]
    assert image_refs({"image": {"bytes": "..."}}) == [("image", None)]
    # MathReal: the photographed item first, then its clean rendering.
    assert image_refs({"ImgReal": "real/0001.jpg", "ImgClean": "clean/0001.png"}) == [
        ("ImgReal", "real/0001.jpg"),
        ("ImgClean", "clean/0001.png"),
    ]
    assert image_refs({"ImgReal": "real/0002.jpg", "ImgClean": None}) == [
        ("ImgReal", "real/0002.jpg")
    ]
    assert image_refs({"img_path": "a.png", "image": "a.png"}) == [("img_path", "a.png")]
    assert image_refs({"question": "no image"}) == []


def test_image_mentions_map_to_paths_in_order() -> None:
    assert mentioned_images("<image 1> and <image 2> differ; see <image 1>") == [1, 2]
    assert mentioned_images("<IMAGE 3>") == [3]
    assert mentioned_images(None) == []


def test_resolution_order_images_dir_data_root_then_annotations(tmp_path: Path) -> None:
    make_image_root(tmp_path / "root")
    (tmp_path / "root" / "set1").mkdir()
    (tmp_path / "root" / "set1" / "only-here.png").write_bytes(b"x")
    roots = ImageRoots(images_dir=tmp_path / "root")
    [red] = resolve_images({"img_path": "img/red.png"}, roots)
    assert red.path == tmp_path / "root" / "img" / "red.png" and red.problem is None
    [deep] = resolve_images({"img_path": "only-here.png", "data_root": "set1"}, roots)
    assert deep.path == tmp_path / "root" / "set1" / "only-here.png" and deep.problem is None
    # Without --images, the annotations file's folder.
    annotations = tmp_path / "root" / "annotations.json"
    fallback = ImageRoots.of(None, str(annotations))
    [found] = resolve_images({"img_path": "img/green.png"}, fallback)
    assert found.problem is None and found.path == tmp_path / "root" / "img" / "green.png"
    # Missing everywhere: the first place it was looked for is named.
    [missing] = resolve_images({"img_path": "img/gone.png", "data_root": "set1"}, roots)
    assert missing.problem == "no such file"
    assert missing.path == tmp_path / "root" / "img" / "gone.png"
    [rootless] = resolve_images({"img_path": "a.png"}, ImageRoots())
    assert rootless.problem is not None and "--images" in rootless.problem
    # A number where a path should be was called "embedded image data".
    [number] = resolve_images({"img_path": 5}, roots)
    assert number.problem == "no file path in img_path (embedded data, or not text)"


@pytest.mark.parametrize("kind", ["escape-dotdot", "escape-absolute", "escape-symlink"])
def test_paths_leaving_the_root_are_refused(tmp_path: Path, kind: str) -> None:
    make_image_root(tmp_path / "root")
    [image] = resolve_images({"img_path": HOSTILE[kind]}, ImageRoots(tmp_path / "root"))
    assert image.refused, image
    assert image.problem is not None and image.problem.startswith("refused")


def test_data_root_cannot_lead_out(tmp_path: Path) -> None:
    make_image_root(tmp_path / "root")
    [image] = resolve_images(
        {"img_path": "secret.png", "data_root": ".."}, ImageRoots(tmp_path / "root")
    )
    assert image.refused


def test_file_problems_before_decoding(tmp_path: Path) -> None:
    make_image_root(tmp_path / "root")
    roots = ImageRoots(tmp_path / "root")
    problems = {
        kind: resolve_images({"img_path": HOSTILE[kind]}, roots)[0].problem
        for kind in ("missing", "empty")
    }
    assert problems == {"missing": "no such file", "empty": "empty file (0 bytes)"}
    [folder] = resolve_images({"img_path": "img"}, roots)
    assert folder.problem == "not a regular file"
