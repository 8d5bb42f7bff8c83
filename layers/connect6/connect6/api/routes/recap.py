"""The recap function's routes: the recap sheet once the game is over, and the game record at any
time."""

from typing import Any

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.router import APIGatewayHttpRouter

from connect6.api import runtime, sheets
from connect6.api.observability import tracer
from connect6.api.params import GameId, PlayerId
from connect6.api.responses import documented, json_response
from connect6.game.shapes import RecapSheet, RecordResponse

router = APIGatewayHttpRouter()


@router.get("/v1/games/<game_id>/players/<player_id>/recap",
            summary="The connect6_game_recap sheet (JSON, a page or paper, by Accept)",
            responses=documented(200, RecapSheet, "the recap", {
                404: "game_not_found, player_not_found", 409: "game_not_finished"}, sheet=True))
@tracer.capture_method
def recap(game_id: GameId, player_id: PlayerId) -> Response[Any]:
    media = sheets.wanted(router)
    return sheets.answer(router, "recap", runtime.service().recap(game_id, player_id), media)


@router.get("/v1/games/<game_id>/players/<player_id>/record", summary="The game record (Little Golem)",
            responses=documented(200, RecordResponse, "the record so far", {
                404: "game_not_found, player_not_found"}))
@tracer.capture_method
def record(game_id: GameId, player_id: PlayerId) -> Response[Any]:
    return json_response(runtime.service().record(game_id, player_id))
