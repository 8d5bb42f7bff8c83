"""The play link's routes (v1.2, public, served by the move function): ``GET /v1/play/<token>``, the
player's sheet as a page, and ``POST /v1/play/<token>``, the sheet's form, answered 303 back to the
page (POST-redirect-GET: reloading never sends an answer twice).

The form's ``action``: ``move`` (the default), ``hint``, ``undo``, ``resign`` (which only shows the
confirmation page), ``resign_confirmed``, ``accept_draw``, ``decline_draw``. Each runs the same use
case as the platform's route, with its rules and refusals; a refusal changes nothing and comes back
to the page as ``?refused=<code>`` (with the stones sent, to fill in again), which the page turns
into a sentence. Each answer runs under an Idempotency-Key made from the action and the move number
the page showed, so the same form sent twice (a double tap, a retry) is answered once: an undo
sent twice takes back one turn.

The token is the only credential: it is looked up by its SHA-256 (the move function never needs
the secret it was derived from), and it appears in no log line (:mod:`connect6.api.logs`), no
event and no stored Idempotency record (the stored answer is the redirect's query only).
"""

import json
import re
from typing import Any
from urllib.parse import urlencode

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.router import APIGatewayHttpRouter

from connect6.api import http, runtime
from connect6.api.errors import ApiError
from connect6.api.models import TOKEN_PATTERN
from connect6.api.observability import Metric, count, logger, think_time, tracer
from connect6.api.params import IDEMPOTENCY_409, IDEMPOTENCY_422, IdempotencyKey
from connect6.api.responses import (
    HTML,
    HTML_MEDIA,
    JSON,
    PAGE_METHODS,
    documented,
    is_form,
    json_response,
    page_security_headers,
    prefers_html,
)
from connect6.game.errors import ErrorCode, GameError
from connect6.game.shapes import MoveSheet

router = APIGatewayHttpRouter()

ACTIONS = ("move", "hint", "undo", "resign", "resign_confirmed", "accept_draw", "decline_draw")
_TOKEN = re.compile(TOKEN_PATTERN)
_FILLED = ("stone_1", "stone_2", "table_talk", "offer_draw")  # a refused form's fields, filled in again
_PAGE_CONTENT: dict[str, Any] = {HTML_MEDIA: {"schema": {"type": "string"}}}


def _page(body: str, status: int = 200, *, sheet_policy: bool = False) -> Response[Any]:
    from connect6.pages import sheet_csp

    headers = {"Cache-Control": "no-store", **page_security_headers()}
    if sheet_policy:
        headers["Content-Security-Policy"] = sheet_csp("move")
    return Response(status_code=status, content_type=HTML, body=body, headers=headers)


def _not_found() -> Response[Any]:
    from connect6.pages.play import play_not_found_page

    return _page(play_not_found_page(), 404)


def _query() -> dict[str, str]:
    return dict(router.current_event.query_string_parameters or {})


@router.route("/v1/play/<token>", method=PAGE_METHODS,
              summary="A player's sheet from their play link (v1.2): a page; JSON on request",
              responses=documented(200, MoveSheet, "the page: the move sheet on your turn, the game while it "
                                   "is not (the page reloads itself), the recap at the end; for Accept: "
                                   "application/json, the move sheet of the seat the link acts as",
                                   {404: "play_link_not_found (a page for browsers)"}, html=True,
                                   html_errors=True))
@tracer.capture_method
def play_page(token: str) -> Response[Any]:
    from connect6.pages.play import (
        DONE,
        PlayPage,
        play_recap_page,
        play_sheet_page,
        refusal_text,
        relative,
        resign_confirm_page,
    )

    html = prefers_html(http.headers(router), default=True)
    if not _TOKEN.fullmatch(token):
        if not html:
            raise GameError(ErrorCode.PLAY_LINK_NOT_FOUND, "This play link does not exist.", "token")
        return _not_found()
    try:
        shown = runtime.service().play_view(token)
    except GameError as error:
        if error.code is ErrorCode.PLAY_LINK_NOT_FOUND and html:
            return _not_found()
        raise
    if not html:
        return json_response(shown.sheet)
    action = relative(token)
    if shown.recap is not None:
        return _page(play_recap_page(shown.recap, game_name=shown.game_name), sheet_policy=True)
    query = _query()
    sheet = shown.sheet
    if query.get("confirm") == "resign" and sheet.status == "in_progress":
        return _page(resign_confirm_page(action, sheet.move_number, shown.opponent_name, str(shown.version)))
    notice, values = "", dict[str, str]()
    if "refused" in query:
        values = {key: query[key] for key in _FILLED if key in query}
        notice = refusal_text(query["refused"], query.get("field", ""), query.get("value", ""))
    elif "hint" in query:
        stones = [s for s in query["hint"].split(".") if s][:2]
        values = {f"stone_{i + 1}": stone for i, stone in enumerate(stones)}
        why = query.get("why", "")
        notice = (f"Hint: {' '.join(stones)}" + (f" ({why})" if why else "")
                  + ". The stones are filled in for you.")
    elif query.get("done") in DONE:
        notice = DONE[query["done"]]
    page = PlayPage(form_action=action, notice=notice, values=values, hints=sheet.hints_allowed,
                    undos_left=sheet.undos_left, device_line=shown.device_line, game_name=shown.game_name,
                    seen=str(shown.version))
    return _page(play_sheet_page(sheet, page), sheet_policy=True)


def _int(value: Any) -> int:
    try:
        return int(str(value))
    except ValueError:
        return 0


def _act(token: str, action: str, form: dict[str, Any]) -> dict[str, str]:
    """Run one action of the play form; the query of the page to go back to."""
    service = runtime.service()
    found = service.play_seat(token)
    game_id, player_id = found.game.game_id, str(found.seat.player_id)
    move_number = _int(form.get("move_number"))
    if action == "move":
        from connect6.game.play import mover_for

        typed = (str(form.get(key) or "").strip() for key in ("stone_1", "stone_2"))
        stones = [text for text in typed if text]
        if move_number < 1 or not stones:
            raise ApiError(422, "invalid_request", "Choose your stones, then send the move.", "stones")
        talk = str(form.get("table_talk") or "") or None
        outcome = service.submit_move(game_id, mover_for(found, move_number), move_number, stones, talk,
                                      str(form.get("offer_draw") or "") == "true")
        if not outcome.replayed:
            count(Metric.MOVES_PLAYED, 2 if outcome.response.computer_reply is not None else 1)
            if outcome.finished:
                count(Metric.GAMES_FINISHED)
            think_time(outcome.computer_think_s)
        return {}
    if action == "hint":
        hint = service.hint(game_id, player_id)
        return {"hint": ".".join(hint.stones), "why": hint.reason}
    if action == "undo":
        service.undo(game_id, player_id)
        return {"done": "undo"}
    if action == "resign_confirmed":
        service.resign(game_id, player_id)
        count(Metric.GAMES_FINISHED)
        return {}
    view = service.draw(game_id, player_id, "accept" if action == "accept_draw" else "decline")
    if view.status != "in_progress":
        count(Metric.GAMES_FINISHED)
    return {"done": action}


@router.post("/v1/play/<token>", summary="Answer from the play link's sheet (a form; 303 back to the page)",
             responses={**documented(200, MoveSheet, "for Accept: application/json: the move sheet after the "
                                     "action (a refusal is its 4xx error, as on the platform's route)", {
                                         404: "play_link_not_found",
                                         409: ("not_your_turn, stale_move, game_over, game_not_started, "
                                               "hints_not_allowed, undo_not_allowed, nothing_to_undo, "
                                               f"undo_limit_reached, no_draw_offer, busy; {IDEMPOTENCY_409}"),
                                         422: f"illegal_move, unknown_phrase; {IDEMPOTENCY_422}"},
                                     html_errors=True, takes_body=True),
                        303: {"description": "a form or a browser: back to the play page (Location: "
                                             "<token>[?refused=<code>|hint=...|done=...|confirm=resign]), "
                                             "which shows the result", "content": _PAGE_CONTENT}})
@tracer.capture_method
def play_answer(token: str, idempotency_key: IdempotencyKey = None) -> Response[Any]:
    from connect6.pages.play import relative

    found = http.headers(router)
    html = prefers_html(found, default=is_form(found))
    if not _TOKEN.fullmatch(token):
        if not html:
            raise GameError(ErrorCode.PLAY_LINK_NOT_FOUND, "This play link does not exist.", "token")
        return _not_found()
    try:
        form = http.body_of(router)
    except ApiError:
        form = {}
    if not isinstance(form, dict):
        form = {}
    action = str(form.get("action") or "move")
    query: dict[str, str]
    if action == "resign":
        query = {"confirm": "resign"}  # resigning asks first; nothing changes yet
    elif action not in ACTIONS:
        query = {"refused": "invalid_request"}
    else:
        # One answer per page shown: the page's game version (``seen``; else its move number) keys it,
        # so the same form sent twice is answered once, and a new page (after an undo) is new.
        seen = str(form.get("seen") or "")[:16]
        shown = seen if seen.isdigit() else f"m{_int(form.get('move_number'))}"
        key = idempotency_key or f"play-{action}-{shown}"
        body = {k: str(v) for k, v in sorted(form.items()) if k in (
            "action", "move_number", "seen", "stone_1", "stone_2", "table_talk", "offer_draw")}

        def call() -> Response[Any]:
            return Response(status_code=200, content_type=JSON, body=json.dumps(_act(token, action, form)))

        try:
            answer = http.idempotent(router, key, body, call)
            query = json.loads(answer.body or "{}") if answer.status_code == 200 else {"refused": "busy"}
        except GameError as error:
            if not html:
                raise
            if error.code is ErrorCode.PLAY_LINK_NOT_FOUND:
                return _not_found()
            query = _refused(error.code.value, error.field, form)
        except ApiError as error:
            if not html:
                raise
            query = _refused(error.code, error.field, form)
        logger.info("play", extra={"action": action, "refused": query.get("refused")})
    if not html:
        if "refused" in query:
            raise ApiError(422, query["refused"], "That action is not one of the play form's.", "action")
        return json_response(runtime.service().play_view(token).sheet)
    location = relative(token) + (f"?{urlencode(query)}" if query else "")
    return Response(status_code=303, content_type=HTML, body="",
                    headers={"Location": location, "Cache-Control": "no-store"})


def _refused(code: str, field: str | None, form: dict[str, Any]) -> dict[str, str]:
    """The query that brings a refusal back to the page, with what was sent to fill in again."""
    query = {"refused": code}
    for key in _FILLED:
        value = str(form.get(key) or "")[:16]
        if value:
            query[key] = value
    if field and field.startswith("stones[") and field[7:-1].isdigit():
        query["value"] = str(form.get(f"stone_{int(field[7:-1]) + 1}") or "")[:8]
    return query
