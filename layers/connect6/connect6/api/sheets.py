"""The three turn sheets (join, move, recap) as their routes answer them, by ``Accept``: JSON (the
default), a page (``text/html``: the page the platform shows in an iframe) or paper
(``application/pdf``); anything else is 406 ``not_acceptable`` (:func:`connect6.api.responses.negotiate`).

A page carries its own ``Content-Security-Policy`` (:func:`connect6.pages.sheet_csp`): its inline
code only, forms posted to the route that takes them, and framing by the template's
``FrameAncestors`` only (``'none'`` when it is empty). Nothing here busts out of a frame and there
is no ``X-Frame-Options``: the platform frames these pages. The pages import Jinja2, and paper
fpdf2, on first use, so the JSON answer pays for neither."""

from __future__ import annotations

import base64
import re
from typing import TYPE_CHECKING, Any, Literal
from urllib.parse import quote

from aws_lambda_powertools.event_handler import Response

from connect6.api import http, runtime
from connect6.api.responses import HTML, JSON, PDF, dump, negotiate, not_acceptable
from connect6.game.shapes import JoinSheet, MoveSheet, RecapSheet

if TYPE_CHECKING:
    from connect6.pages import SheetContext

SheetKind = Literal["join", "move", "recap"]
Sheet = JoinSheet | MoveSheet | RecapSheet


def wanted(app: http.Routing) -> str:
    """The media type the request accepts (JSON, HTML or PDF); 406 ``not_acceptable`` when it
    accepts none of them. Checked before the sheet is read."""
    media = negotiate(http.headers(app))
    if media is None:
        raise not_acceptable()
    return media


def _path(*parts: str) -> str:
    return "/v1/games/" + "/".join(quote(part, safe="") for part in parts)


def post_url(app: http.Routing, kind: SheetKind, game_id: str, player_id: str = "") -> str:
    """Where the sheet's form posts: the route that takes it as a form (absolute, on the public
    base URL): ``…/players`` for the join sheet, ``…/players/{player_id}/moves`` for the move sheet."""
    base = http.base_url(app, runtime.settings().public_base_url)
    if kind == "join":
        return base + _path(game_id, "players")
    return base + _path(game_id, "players", player_id, "moves")


def answer(app: http.Routing, kind: SheetKind, sheet: Sheet, media: str, *,
           form_action: str = "") -> Response[Any]:
    """The sheet in ``media`` (of :func:`wanted`)."""
    if media == JSON:
        return Response(status_code=200, content_type=JSON, body=dump(sheet))
    from connect6.pages import SheetContext

    base = http.base_url(app, runtime.settings().public_base_url)
    context = SheetContext(
        sheet_code=sheet.sheet_code, form_action=form_action,
        undos_left=sheet.undos_left if isinstance(sheet, MoveSheet) else None,
        public_base=f"{base}/v1", now=runtime.service().clock())  # a deadline counts from its now
    if media == PDF:
        return _paper(kind, sheet, context)
    return _page(kind, sheet, context)


def _page(kind: SheetKind, sheet: Sheet, context: SheetContext) -> Response[Any]:
    from connect6.pages import join_sheet_page, move_sheet_page, recap_page, sheet_csp

    if isinstance(sheet, MoveSheet):
        body = move_sheet_page(sheet, context=context)
    elif isinstance(sheet, JoinSheet):
        body = join_sheet_page(sheet, context=context)
    else:
        body = recap_page(sheet, context=context)
    policy = sheet_csp(kind, frame_ancestors=runtime.settings().frame_ancestors,
                       form_action=context.form_action)
    return Response(status_code=200, content_type=HTML, body=body, headers={
        "Content-Security-Policy": policy, "X-Content-Type-Options": "nosniff",
        "Cache-Control": "no-store", "Referrer-Policy": "no-referrer"})


def _paper(kind: SheetKind, sheet: Sheet, context: SheetContext) -> Response[Any]:
    from connect6.pages.paper import join_sheet_pdf, move_sheet_pdf, recap_pdf

    if isinstance(sheet, MoveSheet):
        body = move_sheet_pdf(sheet, context=context)
    elif isinstance(sheet, JoinSheet):
        body = join_sheet_pdf(sheet, context=context)
    else:
        body = recap_pdf(sheet, context=context)
    name = re.sub(r"[^A-Za-z0-9-]", "", sheet.sheet_code) or "sheet"
    # Base64 here, not by Powertools: its response validation would read bytes as UTF-8 text.
    headers = {"Content-Disposition": f'inline; filename="connect6-{kind}-{name}.pdf"',
               "X-Content-Type-Options": "nosniff", "Cache-Control": "no-store"}
    response: Response[Any] = Response(status_code=200, content_type=PDF,
                                       body=base64.b64encode(body).decode(), headers=headers)
    response.base64_encoded = True
    return response
