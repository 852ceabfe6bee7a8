"""HTML for mail: templates written with a ``<style>`` block, sent with the CSS inlined.

Gmail drops ``<style>`` blocks and external style sheets, so every rule is moved
into ``style=`` attributes by css-inline (a real CSS engine, not a hand-written
inliner). The templates keep their style in one place (``mail/base.html.j2``);
remote style sheets are never fetched.
"""

from __future__ import annotations

import functools

import css_inline

from pbem.render.templates import render_template


@functools.cache
def _inliner() -> css_inline.CSSInliner:
    return css_inline.CSSInliner(load_remote_stylesheets=False, keep_style_tags=False)


def inline_css(html: str) -> str:
    """``html`` with every ``<style>`` rule moved into the elements' ``style=``."""
    inlined = _inliner().inline(html)
    if html.lstrip().lower().startswith("<!doctype") and not inlined.lower().startswith(
        "<!doctype"
    ):
        inlined = "<!DOCTYPE html>\n" + inlined
    return inlined


def render_mail_html(name: str, **context: object) -> str:
    """A mail's HTML part from its template, autoescaped, CSS inlined."""
    return inline_css(render_template(name, **context))
