"""Move function: the move sheet, moves (the computer replies inside the request), resign, draw
offers, hints and undo. The routes are in :mod:`connect6.api.routes.moves`."""

from typing import Any

from aws_lambda_powertools.logging import correlation_paths
from aws_lambda_powertools.utilities.typing import LambdaContext

from connect6.api.observability import logger, metrics, tracer
from connect6.api.resolver import make_app
from connect6.api.routes import moves

app = make_app()
app.include_router(moves.router)


@logger.inject_lambda_context(correlation_id_path=correlation_paths.API_GATEWAY_HTTP)
@tracer.capture_lambda_handler
@metrics.log_metrics
def lambda_handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    return app.resolve(event, context)
