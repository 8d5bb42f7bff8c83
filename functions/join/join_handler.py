"""Join function: runs, the join sheet, joining, invitations (the public invite routes).
The routes are in :mod:`connect6.api.routes.join`."""

from typing import Any

from aws_lambda_powertools.logging import correlation_paths
from aws_lambda_powertools.utilities.typing import LambdaContext

from connect6.api import runtime
from connect6.api.observability import logger, metrics, tracer
from connect6.api.resolver import make_app
from connect6.api.routes import join

# The settings this function needs: in Lambda a missing one fails the cold start, naming it.
runtime.require("table_name", "computer_budget_s", "public_base_url", "invite_token_secret_arn")
app = make_app()
app.include_router(join.router)


@logger.inject_lambda_context(correlation_id_path=correlation_paths.API_GATEWAY_HTTP)
@tracer.capture_lambda_handler
@metrics.log_metrics
def lambda_handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    return app.resolve(event, context)
