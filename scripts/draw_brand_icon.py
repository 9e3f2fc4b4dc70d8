"""Draw the brand icons (brand/icon.png 256x256, icon@2x.png 512x512): a house with a pulse.

Run from the repository root: `.venv/bin/python scripts/draw_brand_icon.py` (Pillow comes
with Home Assistant). The house is HA blue; the pulse with its spike and the dot are the anomaly.
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw


def draw(size: int, path: str) -> None:
    s = 8  # supersampling for smooth edges
    n = size * s
    img = Image.new("RGBA", (n, n), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    u = n / 256  # design units on a 256 grid
    blue = (3, 169, 244, 255)  # HA blue
    orange = (255, 152, 0, 255)
    w = int(14 * u)
    # House: roof and walls as one rounded outline.
    roof = [(40 * u, 118 * u), (128 * u, 40 * u), (216 * u, 118 * u)]
    d.line(roof, fill=blue, width=w, joint="curve")
    for x, y in roof:
        d.ellipse((x - w / 2, y - w / 2, x + w / 2, y + w / 2), fill=blue)
    d.rounded_rectangle((64 * u, 104 * u, 192 * u, 216 * u), radius=14 * u, outline=blue, width=w)
    # Pulse inside the house with one spike: the anomaly.
    pulse = [
        (76 * u, 168 * u),
        (104 * u, 168 * u),
        (118 * u, 140 * u),
        (134 * u, 196 * u),
        (150 * u, 124 * u),
        (164 * u, 168 * u),
        (180 * u, 168 * u),
    ]
    pw = int(11 * u)
    d.line(pulse, fill=orange, width=pw, joint="curve")
    for x, y in (pulse[0], pulse[-1]):
        d.ellipse((x - pw / 2, y - pw / 2, x + pw / 2, y + pw / 2), fill=orange)
    # Alert dot at the top right.
    d.ellipse((184 * u, 28 * u, 232 * u, 76 * u), fill=orange)
    img.resize((size, size), Image.LANCZOS).save(path, optimize=True)


if __name__ == "__main__":
    brand = Path(__file__).parent.parent / "custom_components" / "anomaly_monitor" / "brand"
    brand.mkdir(exist_ok=True)
    draw(256, str(brand / "icon.png"))
    draw(512, str(brand / "icon@2x.png"))
