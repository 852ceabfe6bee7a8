"""The one jinja2 environment, over ``templates/`` (shipped in the wheel)."""

from __future__ import annotations

import functools

import jinja2

from pbem.resources import templates_dir


@functools.cache
def environment() -> jinja2.Environment:
    # autoescape for HTML: names and comments in records come from players
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(templates_dir())),
        autoescape=jinja2.select_autoescape(["html", "htm", "xml", "html.j2"]),
        keep_trailing_newline=True,
        undefined=jinja2.StrictUndefined,
    )


def render_template(name: str, **context: object) -> str:
    return environment().get_template(name).render(**context)
