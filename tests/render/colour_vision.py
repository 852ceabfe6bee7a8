"""Colour vision deficiencies simulated on a rendered picture, and the contrasts to check.

Machado, Oliveira and Fernandes (2009), "A Physiologically-based Model for Simulation
of Color Vision Deficiency": at severity 1.0 each dichromacy is one 3x3 matrix applied
to linear RGB. Contrast is WCAG 2's ratio of relative luminances; a difference of
colour is CIE76 Delta E in CIELAB (D65). Used by ``test_colour_vision.py`` and
described in ``docs/accessibility.md``.
"""

from __future__ import annotations

from functools import cache

Matrix = tuple[tuple[float, float, float], ...]

MACHADO: dict[str, Matrix] = {
    "protanopia": ((0.152286, 1.052583, -0.204868),
                   (0.114503, 0.786281, 0.099216),
                   (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968),
                     (0.280085, 0.672501, 0.047413),
                     (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779),
                   (-0.078411, 0.930809, 0.147602),
                   (0.004733, 0.691367, 0.303900)),
}

RGB = tuple[int, int, int]


@cache
def _linear(c: int) -> float:
    v = c / 255
    return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4


def _encode(v: float) -> int:
    v = min(1.0, max(0.0, v))
    v = 12.92 * v if v <= 0.0031308 else 1.055 * v ** (1 / 2.4) - 0.055
    return round(v * 255)


def simulate(rgb: RGB, kind: str) -> RGB:
    """``rgb`` as a reader with ``kind`` ("normal" or a key of ``MACHADO``) sees it."""
    if kind == "normal":
        return rgb
    lin = [_linear(c) for c in rgb]
    m = MACHADO[kind]
    r, g, b = (sum(m[i][j] * lin[j] for j in range(3)) for i in range(3))
    return _encode(r), _encode(g), _encode(b)


class Seen:
    """A picture as a reader with ``kind`` sees it, pixel by pixel on demand (each
    distinct colour worked out once): a check reads a few hundred pixels, not a million."""

    def __init__(self, image, kind: str) -> None:  # image: PIL.Image.Image in RGB
        self.pixels = image.load()
        self.size = image.size
        self.kind = kind
        self._memo: dict[RGB, RGB] = {}

    def getpixel(self, xy: tuple[int, int]) -> RGB:
        rgb = self.pixels[xy]
        out = self._memo.get(rgb)
        if out is None:
            out = self._memo[rgb] = simulate(rgb, self.kind)
        return out

    def save(self, path, image_module, scale: int = 4) -> None:
        """A smaller copy of the whole picture as seen, for a person to look at."""
        w, h = self.size[0] // scale, self.size[1] // scale
        out = image_module.new("RGB", (w, h))
        px = out.load()
        for x in range(w):
            for y in range(h):
                px[x, y] = self.getpixel((x * scale, y * scale))
        out.save(path)


def luminance(rgb: RGB) -> float:
    r, g, b = (_linear(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: RGB, b: RGB) -> float:
    """WCAG 2 contrast ratio, 1 to 21."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def lab(rgb: RGB) -> tuple[float, float, float]:
    r, g, b = (_linear(c) for c in rgb)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116

    fx, fy, fz = f(x), f(y), f(z)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def delta_e(a: RGB, b: RGB) -> float:
    """CIE76 colour difference: about 2.3 is just noticeable, 10 plainly different."""
    la, lb = lab(a), lab(b)
    return sum((x - y) ** 2 for x, y in zip(la, lb, strict=True)) ** 0.5
