"""The board as PNG: the SVG board rasterised by resvg (the resvg-py binding).

Mail clients such as Gmail and Outlook show no SVG, so the HTML report carries
this picture instead. resvg is a compiled renderer shipped in its wheel: it needs
no system library and imports in about a millisecond, so an MTA pipe that mails
one report per process pays only the drawing (cairosvg, tried first, cost a
mail over half a second just to import). It is imported when a PNG is first asked
for, not with this module, so that ``pbem validate`` never loads it.
"""

from __future__ import annotations

#: the PNG file signature, first eight bytes of every PNG
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def svg_to_png(svg: str, *, width: int | None = None) -> bytes:
    """The SVG drawn as PNG bytes, ``width`` pixels wide (default: the SVG's own size)."""
    import resvg_py  # lazily: see the module's docstring

    try:
        png = bytes(resvg_py.svg_to_bytes(svg_string=svg, width=width))
    except ValueError as exc:  # resvg's word for an SVG it cannot draw
        raise OSError(f"resvg could not draw the board: {exc}") from None
    assert png.startswith(PNG_SIGNATURE)
    return png
