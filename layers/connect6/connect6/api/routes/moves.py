"""The move function's routes: the move sheet, moves (the computer replies inside the request),
resign, draw offers, hints and undo."""

from typing import Any

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.router import APIGatewayHttpRouter

from connect6.api import forms, http, runtime, sheets
from connect6.api.forms import MoveForm
from connect6.api.models import DrawRequest, MoveRequest
from connect6.api.observability import Metric, count, logger, think_time, tracer
from connect6.api.params import IDEMPOTENCY_409, IDEMPOTENCY_422, GameId, IdempotencyKey, PlayerId
from connect6.api.responses import documented, json_response, request_body
from connect6.game.shapes import GameView, HintResponse, MoveResponse, MoveSheet, UndoResponse

router = APIGatewayHttpRouter()


@router.get("/v1/games/<game_id>/players/<player_id>/move-sheet",
            summary="The connect6_game_move sheet (JSON, a page or paper, by Accept)",
            responses=documented(200, MoveSheet, "the move sheet", {404: "game_not_found, player_not_found"},
                                 sheet=True))
@tracer.capture_method
def move_sheet(game_id: GameId, player_id: PlayerId) -> Response[Any]:
    media = sheets.wanted(router)
    sheet = runtime.service().move_sheet(game_id, player_id)
    return sheets.answer(router, "move", sheet, media,
                         form_action=sheets.post_url(router, "move", game_id, player_id))


@router.post("/v1/games/<game_id>/players/<player_id>/moves", summary="Play a turn",
             responses=documented(200, MoveResponse, "the turn (and the computer's reply)", {
                 404: "game_not_found, player_not_found",
                 409: f"not_your_turn, stale_move, game_over, game_not_started, busy; {IDEMPOTENCY_409}",
                 422: f"illegal_move, unknown_phrase; {IDEMPOTENCY_422}"}, takes_body=True),
             openapi_extensions=request_body(MoveRequest, form=MoveForm, required=True))
@tracer.capture_method
def move(game_id: GameId, player_id: PlayerId, idempotency_key: IdempotencyKey = None) -> Response[Any]:
    request = forms.move_request(router)
    service = runtime.service()

    def call() -> Response[Any]:
        outcome = service.submit_move(game_id, player_id, request.move_number, request.stones,
                                      request.table_talk, request.offer_draw)
        if not outcome.replayed:
            count(Metric.MOVES_PLAYED)
            if outcome.response.computer_reply is not None:
                count(Metric.MOVES_PLAYED)
            if outcome.finished:
                count(Metric.GAMES_FINISHED)
            think_time(outcome.computer_think_s)
        logger.info("move", extra={"game_id": game_id, "move_number": request.move_number,
                                   "replayed": outcome.replayed, "status": outcome.response.status})
        return json_response(outcome.response)

    return http.idempotent(router, idempotency_key, request.model_dump(mode="json"), call)


@router.post("/v1/games/<game_id>/players/<player_id>/resign", summary="Resign: the opponent wins",
             responses=documented(200, GameView, "the finished game", {
                 404: "game_not_found, player_not_found",
                 409: f"game_over, game_not_started, busy; {IDEMPOTENCY_409}", 422: IDEMPOTENCY_422}))
@tracer.capture_method
def resign(game_id: GameId, player_id: PlayerId, idempotency_key: IdempotencyKey = None) -> Response[Any]:
    service = runtime.service()

    def call() -> Response[Any]:
        view = service.resign(game_id, player_id)
        count(Metric.GAMES_FINISHED)
        return json_response(view)

    return http.idempotent(router, idempotency_key, {}, call)


@router.post("/v1/games/<game_id>/players/<player_id>/draw", summary="Offer, accept or decline a draw",
             responses=documented(200, GameView, "the game after the action", {
                 404: "game_not_found, player_not_found",
                 409: f"no_draw_offer, game_over, game_not_started, busy; {IDEMPOTENCY_409}",
                 422: IDEMPOTENCY_422}, takes_body=True),
             openapi_extensions=request_body(DrawRequest))
@tracer.capture_method
def draw(game_id: GameId, player_id: PlayerId, idempotency_key: IdempotencyKey = None) -> Response[Any]:
    request = http.parse(DrawRequest, http.body_of(router))
    service = runtime.service()

    def call() -> Response[Any]:
        return json_response(service.draw(game_id, player_id, request.action))

    return http.idempotent(router, idempotency_key, request.model_dump(mode="json"), call)


@router.get("/v1/games/<game_id>/players/<player_id>/hint", summary="The hard level's move for you, and why",
            responses=documented(200, HintResponse, "a hint", {
                404: "game_not_found, player_not_found",
                409: "hints_not_allowed, not_your_turn, game_over, game_not_started, busy"}))
@tracer.capture_method
def hint(game_id: GameId, player_id: PlayerId) -> Response[Any]:
    return json_response(runtime.service().hint(game_id, player_id))


@router.post("/v1/games/<game_id>/players/<player_id>/undo",
             summary="Take back your last turn and the computer's reply (at most 3 a game)",
             responses=documented(200, UndoResponse, "the turns taken back (latest first) and the game", {
                 404: "game_not_found, player_not_found",
                 409: ("undo_not_allowed, nothing_to_undo, undo_limit_reached, not_your_turn, game_over, "
                       f"game_not_started, busy; {IDEMPOTENCY_409}"),
                 422: IDEMPOTENCY_422}))
@tracer.capture_method
def undo(game_id: GameId, player_id: PlayerId, idempotency_key: IdempotencyKey = None) -> Response[Any]:
    service = runtime.service()

    def call() -> Response[Any]:
        answer = service.undo(game_id, player_id)
        logger.info("undo", extra={"game_id": game_id, "undos_left": answer.undos_left})
        return json_response(answer)

    return http.idempotent(router, idempotency_key, {}, call)
