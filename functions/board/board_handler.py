"""Board function (public, read-only): the game view as JSON, a live HTML page, or an SVG picture,
each with an ETag (If-None-Match → 304). Shows names and stones, never an e-mail, token or id."""

from typing import Annotated, Any

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.openapi.params import Path
from aws_lambda_powertools.logging import correlation_paths
from aws_lambda_powertools.utilities.typing import LambdaContext

from connect6.api import http, runtime
from connect6.api.models import GAME_ID_PATTERN, GameView
from connect6.api.resolver import logger, make_app, metrics, tracer
from connect6.api.responses import HTML, JSON, SVG, conditional, documented, dump, etag_of, prefers_html

app = make_app()
GameId = Annotated[str, Path(pattern=GAME_ID_PATTERN)]


def _view(game_id: str) -> dict[str, Any]:
    return GameView.model_validate(runtime.service().view(game_id)).model_dump(mode="json")


@app.get("/v1/games/<game_id>/board", summary="The game view (JSON; a live page for Accept: text/html)",
         responses=documented(200, GameView, "the game view (JSON, or the live page for Accept: text/html)",
                              {404: "game_not_found"}, html=True, not_modified=True))
@tracer.capture_method
def board(game_id: GameId) -> Response[Any]:
    headers = http.headers(app)
    view = _view(game_id)
    if prefers_html(headers, default=False):
        from connect6.pages import board_page

        page = board_page(view)
        return conditional(headers, etag_of(page, "h"), page, HTML)
    body = dump(GameView, view)
    return conditional(headers, etag_of(body), body, JSON)


@app.get("/v1/games/<game_id>/board.svg", summary="The board as an SVG picture",
         responses=documented(200, None, "the board as an SVG picture", {404: "game_not_found"},
                              content_type=SVG, not_modified=True))
@tracer.capture_method
def board_svg(game_id: GameId) -> Response[Any]:
    from connect6.pages import board_svg as render

    picture = render(_view(game_id))
    return conditional(http.headers(app), etag_of(picture, "s"), picture, SVG)


@logger.inject_lambda_context(correlation_id_path=correlation_paths.API_GATEWAY_HTTP)
@tracer.capture_lambda_handler
@metrics.log_metrics
def lambda_handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    return app.resolve(event, context)
