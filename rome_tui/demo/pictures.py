"""Small pictures for the demo set, drawn with Pillow when the demo is built.

One per question (two for the multi-image items), a few KB each: a street
sign for the geolocation items, a bar chart, a count of objects, a map, a
sketch for the math items... Enough for the review app to have something to
show; they are illustrations, not the benchmark's images.
"""

from __future__ import annotations

import hashlib
import random
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from rome_tui.demo.questions import Question

SIZE = (240, 160)
SKY, GRASS, INK, PAPER = (150, 200, 235), (110, 160, 90), (30, 30, 40), (250, 248, 240)


def _rng(qid: str, part: str = "") -> random.Random:
    return random.Random(
        int.from_bytes(hashlib.sha256(f"{qid}/{part}".encode()).digest()[:8], "big")
    )


def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size)


def image_paths(question: Question) -> list[str]:
    """The img_path entries of a question (relative to the demo folder)."""
    paths = question.img_path
    return paths if isinstance(paths, list) else [paths]


def street_sign(text: str) -> Image.Image:
    image = Image.new("RGB", SIZE, SKY)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 120, 240, 160), fill=GRASS)
    draw.rectangle((114, 70, 126, 150), fill=(120, 120, 130))
    draw.rounded_rectangle(
        (20, 25, 220, 80), radius=8, fill=(30, 80, 160), outline="white", width=4
    )
    font = _font(18 if len(text) < 16 else 13)
    draw.text((120, 52), text, fill="white", font=font, anchor="mm")
    return image


def bar_chart(rng: random.Random) -> Image.Image:
    image = Image.new("RGB", SIZE, "white")
    draw = ImageDraw.Draw(image)
    draw.line((30, 10, 30, 140, 230, 140), fill=INK, width=2)
    colours = [(66, 133, 244), (219, 68, 55), (244, 180, 0), (15, 157, 88), (171, 71, 188)]
    for i, colour in enumerate(colours):
        height = rng.randint(20, 120)
        left = 42 + i * 38
        draw.rectangle((left, 140 - height, left + 26, 139), fill=colour)
        draw.text((left + 13, 150), "ABCDE"[i], fill=INK, font=_font(11), anchor="mm")
    return image


def objects(count: int, rng: random.Random) -> Image.Image:
    image = Image.new("RGB", SIZE, (235, 235, 225))
    draw = ImageDraw.Draw(image)
    draw.line((0, 60, 240, 50), fill=(60, 60, 60), width=2)  # a wire, a bench, a shelf...
    spots: list[tuple[int, int]] = []
    while len(spots) < count:
        x, y = rng.randint(20, 220), rng.randint(75, 140)
        if all(abs(x - a) > 26 or abs(y - b) > 26 for a, b in spots):
            spots.append((x, y))
    for x, y in spots:
        draw.ellipse((x - 11, y - 11, x + 11, y + 11), fill=(200, 70, 40), outline=INK, width=2)
    return image


def map_picture(rng: random.Random) -> Image.Image:
    image = Image.new("RGB", SIZE, (170, 210, 240))
    draw = ImageDraw.Draw(image)
    draw.polygon([(0, 0), (150, 0), (120, 70), (140, 160), (0, 160)], fill=(200, 225, 170))
    draw.polygon([(150, 0), (240, 0), (240, 160), (140, 160), (120, 70)], fill=(235, 215, 170))
    draw.line([(150, 0), (120, 70), (140, 160)], fill=(120, 60, 60), width=2)  # the border
    stations = [(rng.randint(30, 210), rng.randint(20, 140)) for _ in range(5)]
    draw.line(stations[:3], fill=(210, 40, 40), width=4)
    draw.line([stations[1], *stations[3:]], fill=(40, 70, 210), width=4)
    for x, y in stations:
        draw.ellipse((x - 5, y - 5, x + 5, y + 5), fill="white", outline=INK, width=2)
    return image


def sketch(rng: random.Random) -> Image.Image:
    image = Image.new("RGB", SIZE, PAPER)
    draw = ImageDraw.Draw(image)
    for y in range(10, 160, 16):
        draw.line((0, y, 240, y), fill=(190, 210, 235))
    a, b, c = (40, 135), (200, 135), (rng.randint(70, 170), 30)
    draw.polygon([a, b, c], outline=INK, width=3)
    draw.text((120, 148), "x", fill=(200, 30, 30), font=_font(14), anchor="mm")
    draw.text(((a[0] + c[0]) // 2 - 14, (a[1] + c[1]) // 2), "3", fill=INK, font=_font(14))
    draw.text(((b[0] + c[0]) // 2 + 8, (b[1] + c[1]) // 2), "4", fill=INK, font=_font(14))
    return image


def panels(letters: str) -> Image.Image:
    image = Image.new("RGB", SIZE, (40, 40, 48))
    draw = ImageDraw.Draw(image)
    for i, letter in enumerate(letters):
        left = 10 + i * 115
        shade = 90 + 60 * ("ABCD".index(letter) % 3)
        draw.rectangle((left, 15, left + 105, 145), fill=(shade, shade - 20, 200 - shade // 2))
        draw.text((left + 52, 80), letter, fill="white", font=_font(40), anchor="mm")
    return image


def labelled(rng: random.Random) -> Image.Image:
    image = Image.new("RGB", SIZE, "white")
    draw = ImageDraw.Draw(image)
    draw.ellipse((70, 30, 170, 130), outline=(40, 120, 40), width=3)
    draw.ellipse((105, 65, 135, 95), fill=(230, 190, 60))
    for i, letter in enumerate("ABCD"):
        x, y = rng.randint(75, 165), rng.randint(35, 125)
        draw.line((x, y, 20 + 200 * (i % 2), 20 + 40 * i), fill=INK)
        draw.text((20 + 200 * (i % 2), 20 + 40 * i), letter, fill=INK, font=_font(12), anchor="mm")
    return image


def meme() -> Image.Image:
    image = Image.new("RGB", SIZE, (90, 120, 150))
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, 240, 26), fill="black")
    draw.rectangle((0, 134, 240, 160), fill="black")
    draw.text((120, 13), "WHEN THE BOAT", fill="white", font=_font(14), anchor="mm")
    draw.text((120, 147), "MEETS THE ICEBERG", fill="white", font=_font(14), anchor="mm")
    draw.polygon([(40, 110), (200, 110), (180, 128), (60, 128)], fill=(30, 30, 30))
    draw.polygon([(150, 40), (190, 110), (120, 110)], fill=(235, 245, 250))
    return image


def pictures(question: Question) -> list[Image.Image]:
    """The pictures of ``question``, in img_path order."""
    rng = _rng(question.qid)
    task = question.task
    if task == "geo":
        return [street_sign(question.reference.split(",")[0])]
    if task == "charts":
        return [bar_chart(rng)]
    if task == "recognition":
        count = int(question.reference) if question.reference.isdigit() else 6
        return [objects(min(count, 12), rng)]
    if task == "diagrams":
        return [map_picture(rng)]
    if task == "math":
        return [sketch(rng)]
    if task == "multi":
        return [panels("AB"), panels("CD")]
    if task == "memes":
        return [meme()]
    return [labelled(rng)]


def draw_all(questions: list[Question], out_dir: Path) -> int:
    """Write every question's pictures under ``out_dir``; how many were written."""
    written = 0
    for question in questions:
        for name, picture in zip(image_paths(question), pictures(question), strict=True):
            target = out_dir / name
            target.parent.mkdir(parents=True, exist_ok=True)
            # An adaptive palette keeps each file at a few KB.
            picture.convert("P", palette=Image.Palette.ADAPTIVE, colors=32).save(
                target, optimize=True
            )
            written += 1
    return written
