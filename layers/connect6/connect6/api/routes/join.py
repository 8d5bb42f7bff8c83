"""The join function's routes: runs, the join sheet, joining, invitations (the public invite routes)."""

from typing import Any

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.router import APIGatewayHttpRouter

from connect6.api import forms, http, mapping, runtime, sheets
from connect6.api.errors import STATUS
from connect6.api.forms import JoinForm, RedeemForm
from connect6.api.models import JoinRequest, PutRunRequest, RedeemRequest
from connect6.api.observability import Metric, count, logger, think_time, tracer
from connect6.api.params import IDEMPOTENCY_409, IDEMPOTENCY_422, GameId, IdempotencyKey, Token
from connect6.api.responses import (
    HTML,
    HTML_MEDIA,
    PAGE_METHODS,
    documented,
    html_response,
    is_form,
    json_response,
    prefers_html,
    request_body,
)
from connect6.game.errors import ErrorCode, GameError
from connect6.game.shapes import GameView, InviteInfo, JoinResponse, JoinSheet, RedeemResponse

router = APIGatewayHttpRouter()


@router.put("/v1/games/<game_id>", summary="Create a run or confirm its settings",
            responses=documented(201, GameView, "created", {
                409: f"conflict: the run exists with other settings; {IDEMPOTENCY_409}",
                422: IDEMPOTENCY_422}, also={200: "the same settings were already there"}, takes_body=True))
@tracer.capture_method
def put_run(game_id: GameId, request: PutRunRequest, idempotency_key: IdempotencyKey = None) -> Response[Any]:
    def call() -> Response[Any]:
        control = request.time_control.to_domain() if request.time_control is not None else None
        created, view = runtime.service().put_run(game_id, request.game_name,
                                                  request.allow_computer_opponents, control)
        return json_response(view, 201 if created else 200)

    return http.idempotent(router, idempotency_key, request.model_dump(mode="json"), call)


# ---------------------------------------------------------------------- the platform's control (v1.2)
_CONTROL_409 = f"game_over (the game has finished), busy; {IDEMPOTENCY_409}"


@router.post("/v1/games/<game_id>/pause", summary="Pause the run: moves wait, clocks stand (v1.2)",
             responses=documented(200, GameView, "the paused game (already paused: the same)", {
                 404: "game_not_found", 409: _CONTROL_409, 422: IDEMPOTENCY_422}))
@tracer.capture_method
def pause(game_id: GameId, idempotency_key: IdempotencyKey = None) -> Response[Any]:
    return http.idempotent(router, idempotency_key, {},
                           lambda: json_response(runtime.service().pause(game_id)))


@router.post("/v1/games/<game_id>/resume", summary="Resume the run: deadlines move on by the pause (v1.2)",
             responses=documented(200, GameView, "the running game (already running: the same)", {
                 404: "game_not_found", 409: _CONTROL_409, 422: IDEMPOTENCY_422}))
@tracer.capture_method
def resume(game_id: GameId, idempotency_key: IdempotencyKey = None) -> Response[Any]:
    return http.idempotent(router, idempotency_key, {},
                           lambda: json_response(runtime.service().resume(game_id)))


@router.post("/v1/games/<game_id>/cancel", summary="Cancel the run: it ends with no winner (v1.2)",
             responses=documented(200, GameView, "the cancelled game (already cancelled: the same)", {
                 404: "game_not_found", 409: _CONTROL_409, 422: IDEMPOTENCY_422}))
@tracer.capture_method
def cancel(game_id: GameId, idempotency_key: IdempotencyKey = None) -> Response[Any]:
    return http.idempotent(router, idempotency_key, {},
                           lambda: json_response(runtime.service().cancel(game_id)))


@router.get("/v1/games/<game_id>/join-sheet",
            summary="The connect6_game_join_game sheet (JSON, a page or paper, by Accept)",
            responses=documented(200, JoinSheet, "the join sheet", {404: "game_not_found"}, sheet=True))
@tracer.capture_method
def join_sheet(game_id: GameId) -> Response[Any]:
    media = sheets.wanted(router)
    sheet = runtime.service().join_sheet(game_id)
    return sheets.answer(router, "join", sheet, media, form_action=sheets.post_url(router, "join", game_id))


@router.post("/v1/games/<game_id>/players",
             summary="Join (optionally with a computer or an invited opponent)",
             responses=documented(201, JoinResponse, "joined", {
                 404: "game_not_found", 409: f"no_open_seat, already_joined, busy; {IDEMPOTENCY_409}",
                 422: f"opponent_not_allowed; {IDEMPOTENCY_422}"}, takes_body=True),
             openapi_extensions=request_body(JoinRequest, form=JoinForm, required=True))
@tracer.capture_method
def join(game_id: GameId, idempotency_key: IdempotencyKey = None) -> Response[Any]:
    request = forms.join_request(router)
    service = runtime.service()

    def call() -> Response[Any]:
        outcome = service.join(game_id, request.name, request.email, mapping.opponent(request.opponent))
        invite = None
        base = http.base_url(router, runtime.settings().public_base_url)
        if outcome.invite is not None:
            invite = mapping.invitation(outcome.invite, base)
        count(Metric.PLAYERS_JOINED)
        if outcome.started:
            count(Metric.GAMES_STARTED)
        think_time(outcome.computer_think_s)
        logger.info("joined", extra={"game_id": game_id, "seat": outcome.seat, "started": outcome.started})
        return json_response(JoinResponse(player_id=outcome.player_id, seat=outcome.seat, game=outcome.game,
                                          invite=invite, play_url=mapping.play_url(outcome.player_id, base)),
                             201)

    tokens = runtime.invite_tokens()
    return http.idempotent(router, idempotency_key, request.model_dump(mode="json"), call,
                           seal=tokens.seal, unseal=tokens.unseal)


def _accepted_page(token: str) -> Response[Any]:
    """A browser opening an accepted invitation (the redirect after the button, a reload, the
    e-mail link again) sees who took the seat and the game, not an error."""
    from connect6.pages import invite_redeemed_page

    try:
        accepted = runtime.service().accepted_invite(token)
    except GameError as error:
        return _invite_error(error)
    just = "accepted" in (router.current_event.query_string_parameters or {})
    # v1.2: the invitee goes on to their play link (derived again from their player id).
    player_id = runtime.service().invitee_player_id(token)
    play = mapping.play_path(player_id) if player_id is not None else ""
    return html_response(invite_redeemed_page(accepted, just_accepted=just, play_url=play))


def _invite_error(error: GameError) -> Response[Any]:
    from connect6.pages import invite_error_page

    status = STATUS[error.code]
    return html_response(invite_error_page(status, error.code.value, error.message), status)


@router.route("/v1/invites/<token>", method=PAGE_METHODS,
              summary="The invitation (HTML page; JSON for Accept: application/json)",
              responses=documented(200, InviteInfo, "the invitation", {
                  404: "invite_not_found", 409: "invite_already_used", 410: "invite_expired"},
                  html=True, html_errors=True))
@tracer.capture_method
def invite(token: Token) -> Response[Any]:
    """Who invites you, the note, the run and the hold's end. Never changes anything."""
    html = prefers_html(http.headers(router), default=True)
    try:
        info = runtime.service().invite_info(token)
    except GameError as error:
        if html and error.code is ErrorCode.INVITE_ALREADY_USED:
            return _accepted_page(token)
        if html:
            return _invite_error(error)
        raise
    if html:
        from connect6.pages import invite_page

        return html_response(invite_page(info))
    return json_response(info)


@router.post("/v1/invites/<token>",
             summary="Redeem an invitation (form or JSON; a page for forms and browsers)",
             responses={**documented(201, RedeemResponse, "the held seat is the invitee's; the game starts", {
                 404: "invite_not_found", 409: f"invite_already_used, busy; {IDEMPOTENCY_409}",
                 410: "invite_expired", 422: IDEMPOTENCY_422},
                 html=True, html_errors=True, takes_body=True),
                 303: {"description": "a form or a browser: redeemed; see the invitation's page "
                                      "(Location: /v1/invites/<token>?accepted=1), which shows the seat "
                                      "taken",
                       "content": {HTML_MEDIA: {"schema": {"type": "string"}}}}},
             openapi_extensions=request_body(RedeemRequest, form=RedeemForm))
@tracer.capture_method
def redeem(token: Token, idempotency_key: IdempotencyKey = None) -> Response[Any]:
    found = http.headers(router)
    # A page for browsers: forms get one unless their Accept asks for JSON over HTML.
    html = prefers_html(found, default=is_form(found))
    request = forms.redeem_request(router)

    def call() -> Response[Any]:
        try:
            outcome = runtime.service().redeem(token, request.name)
        except GameError as error:
            if html:
                return _invite_error(error)
            raise
        count(Metric.INVITES_REDEEMED)
        if outcome.game.status != "waiting_for_players":
            count(Metric.GAMES_STARTED)
        think_time(outcome.computer_think_s)
        if html:
            # Nothing to store for a browser: it is sent on to the invitation's own page.
            return Response(status_code=201, content_type=HTML, body="")
        base = http.base_url(router, runtime.settings().public_base_url)
        return json_response(RedeemResponse(player_id=outcome.player_id, game=outcome.game,
                                            play_url=mapping.play_url(outcome.player_id, base)), 201)

    answer = http.idempotent(router, idempotency_key, {"html": html, **request.model_dump(mode="json")}, call)
    if html and answer.status_code == 201:
        # POST-redirect-GET: the browser lands on the invitation's page, which now shows the seat
        # taken, so reloading it neither re-posts the form nor reads "already used".
        redirect = html_response("", 303)
        redirect.headers["Location"] = mapping.accepted_location(token)
        return redirect
    return answer
