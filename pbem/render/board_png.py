"""The board as PNG: the SVG board rasterised by cairosvg (over the system's libcairo).

Mail clients such as Gmail and Outlook show no SVG, so the HTML report carries
this picture instead. cairosvg is imported when a PNG is first asked for, not
with this module: it costs tens of milliseconds that ``pbem validate`` need not pay.
"""

from __future__ import annotations

#: the PNG file signature, first eight bytes of every PNG
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def svg_to_png(svg: str, *, width: int | None = None) -> bytes:
    """The SVG drawn as PNG bytes, ``width`` pixels wide (default: the SVG's own size)."""
    import cairosvg  # lazily: see the module's docstring

    png = cairosvg.svg2png(bytestring=svg.encode("utf-8"), output_width=width)
    assert png is not None and png.startswith(PNG_SIGNATURE)
    return png
