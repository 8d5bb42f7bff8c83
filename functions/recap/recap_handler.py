"""Recap function: the recap sheet once the game is over, and the game record at any time."""

from typing import Annotated, Any

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.openapi.params import Path
from aws_lambda_powertools.logging import correlation_paths
from aws_lambda_powertools.utilities.typing import LambdaContext

from connect6.api import runtime
from connect6.api.models import GAME_ID_PATTERN, ID_PATTERN
from connect6.api.observability import logger, metrics, tracer
from connect6.api.resolver import make_app
from connect6.api.responses import documented, json_response
from connect6.game.shapes import RecapSheet, RecordResponse

app = make_app()
GameId = Annotated[str, Path(pattern=GAME_ID_PATTERN)]
PlayerId = Annotated[str, Path(pattern=ID_PATTERN)]


@app.get("/v1/games/<game_id>/players/<player_id>/recap", summary="The connect6_game_recap sheet",
         responses=documented(200, RecapSheet, "the recap", {
             404: "game_not_found, player_not_found", 409: "game_not_finished"}))
@tracer.capture_method
def recap(game_id: GameId, player_id: PlayerId) -> Response[Any]:
    return json_response(runtime.service().recap(game_id, player_id))


@app.get("/v1/games/<game_id>/players/<player_id>/record", summary="The game record (Little Golem)",
         responses=documented(200, RecordResponse, "the record so far", {
             404: "game_not_found, player_not_found"}))
@tracer.capture_method
def record(game_id: GameId, player_id: PlayerId) -> Response[Any]:
    return json_response(runtime.service().record(game_id, player_id))


@logger.inject_lambda_context(correlation_id_path=correlation_paths.API_GATEWAY_HTTP)
@tracer.capture_lambda_handler
@metrics.log_metrics
def lambda_handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    return app.resolve(event, context)
