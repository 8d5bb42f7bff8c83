"""Recap function: the recap sheet once the game is over, and the game record at any time.
The routes are in :mod:`connect6.api.routes.recap`."""

from typing import Any

from aws_lambda_powertools.logging import correlation_paths
from aws_lambda_powertools.utilities.typing import LambdaContext

from connect6.api import runtime
from connect6.api.observability import logger, metrics, tracer
from connect6.api.resolver import make_app
from connect6.api.routes import recap

# The settings this function needs: in Lambda a missing one fails the cold start, naming it.
runtime.require("table_name")
app = make_app()
app.include_router(recap.router)


@logger.inject_lambda_context(correlation_id_path=correlation_paths.API_GATEWAY_HTTP)
@tracer.capture_lambda_handler
@metrics.log_metrics
def lambda_handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    return app.resolve(event, context)
