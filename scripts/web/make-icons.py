"""Draws the web app's icons (a bowl and chopsticks on the accent colour) as PNGs, with zlib alone.

Run once; the PNGs are committed in Sources/ChidianWeb/Assets and embedded like the stylesheet.
Usage: python3 scripts/web/make-icons.py
"""
import math
import os
import struct
import zlib

ASSETS = os.path.join(os.path.dirname(__file__), "..", "..", "Sources", "ChidianWeb", "Assets")
ACCENT, WHITE, STICKS = (0xC2, 0x41, 0x0C), (0xFF, 0xFF, 0xFF), (0xFD, 0xE6, 0x8A)
SAMPLES = 4  # per side of a pixel: edges are antialiased


def segment_distance(x, y, ax, ay, bx, by):
    dx, dy = bx - ax, by - ay
    t = max(0.0, min(1.0, ((x - ax) * dx + (y - ay) * dy) / (dx * dx + dy * dy)))
    return math.hypot(x - ax - t * dx, y - ay - t * dy)


def colour_at(x, y, maskable):
    """The colour at (x, y) in the unit square, or None (transparent)."""
    if not maskable:  # a rounded square; a maskable icon fills the square and the platform cuts it
        r = 0.22
        cx, cy = min(max(x, r), 1 - r), min(max(y, r), 1 - r)
        if math.hypot(x - cx, y - cy) > r:
            return None
    # the drawing keeps inside the maskable safe zone (a circle of radius 0.4) when scaled by 0.8
    scale = 0.8 if maskable else 1.0
    x, y = 0.5 + (x - 0.5) / scale, 0.5 + (y - 0.5) / scale
    for ax, ay, bx, by in ((0.44, 0.14, 0.58, 0.50), (0.62, 0.12, 0.66, 0.50)):
        if segment_distance(x, y, ax, ay, bx, by) < 0.028:
            return STICKS
    bowl = y >= 0.48 and math.hypot(x - 0.5, y - 0.48) <= 0.31
    foot = 0.40 <= x <= 0.60 and 0.76 <= y <= 0.84
    return WHITE if bowl or foot else ACCENT


def draw(size, maskable):
    rows = []
    for py in range(size):
        row = bytearray([0])  # filter: none
        for px in range(size):
            r = g = b = a = 0
            for sy in range(SAMPLES):
                for sx in range(SAMPLES):
                    c = colour_at((px + (sx + 0.5) / SAMPLES) / size, (py + (sy + 0.5) / SAMPLES) / size, maskable)
                    if c:
                        r, g, b, a = r + c[0], g + c[1], b + c[2], a + 1
            n = SAMPLES * SAMPLES
            row += bytes((r // a, g // a, b // a, 255 * a // n) if a else (0, 0, 0, 0))
        rows.append(bytes(row))
    return png(size, b"".join(rows))


def png(size, raw):
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)  # 8-bit RGBA
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")


if __name__ == "__main__":
    for name, size, maskable in (("icon-192.png", 192, False), ("icon-512.png", 512, False),
                                 ("icon-maskable-512.png", 512, True)):
        with open(os.path.join(ASSETS, name), "wb") as file:
            file.write(draw(size, maskable))
        print(name)
