"""The Jinja2 templates of the site's generated views (``tools/site/templates``).

HTML templates (``*.html.j2``) are autoescaped; Markdown templates (``*.md.j2``) are not: their
output goes through Python-Markdown, which escapes code blocks itself.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import jinja2

TEMPLATES = Path(__file__).resolve().parent / "templates"


def _autoescape(name: str | None) -> bool:
    return name is not None and name.endswith(".html.j2")


@cache
def environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES),
        autoescape=_autoescape,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=False,
    )
    return env


def render(template: str, **context) -> str:
    """Render ``tools/site/templates/<template>`` with ``context``."""
    return environment().get_template(template).render(**context)
