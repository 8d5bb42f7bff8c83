"""Content negotiation: Accept quality values decide between the page and JSON (issue 11)."""

from __future__ import annotations

import pytest

from connect6.api.responses import prefers_html

BROWSER = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8"


@pytest.mark.parametrize(("accept", "html"), [
    ("text/html;q=0.1, application/json", False),   # the example
    ("application/json;q=0.1, text/html", True),
    ("application/json, text/html;q=0.9", False),
    ("text/html, application/json", True),          # equal quality: the first named wins
    ("application/json, text/html", False),
    ("text/html;q=0.5, application/json;q=0.5", True),
    ("TEXT/HTML; Q=0.2, application/json; q=0.3", False),  # names and parameters case-insensitive
    ("text/html;q=0", False),                       # "not HTML"
    ("application/json;q=0", True),                 # "not JSON"
    ("text/*;q=0.9, application/json;q=0.5", True),  # a type wildcard counts for text/html
    ("text/*, text/html;q=0.1, application/json", False),  # the more specific range decides
    ("text/html;q=nonsense, application/json;q=0.5", True),  # an unreadable q counts as 1
    (BROWSER, True),
])
def test_quality_values_decide(accept: str, html: bool) -> None:
    assert prefers_html({"Accept": accept}, default=not html) is html


@pytest.mark.parametrize("accept", ["", "*/*", "image/*", "image/svg+xml", ",,;"])
def test_neither_named_falls_back_to_the_route_default(accept: str) -> None:
    assert prefers_html({"Accept": accept}, default=True) is True
    assert prefers_html({"Accept": accept}, default=False) is False


def test_no_header_at_all() -> None:
    assert prefers_html({}, default=True) is True and prefers_html(None, default=False) is False
