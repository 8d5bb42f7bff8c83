"""Expire-invites function (EventBridge Scheduler, every 5 minutes): releases seats whose
invitation hold ran out, found through the sparse expiry index, never a scan. Safe to run twice
at once and against a redemption: each game write is conditional, exactly one wins."""

from typing import Any

from aws_lambda_powertools.utilities.typing import LambdaContext

from connect6.api import runtime
from connect6.api.observability import Metric, count, logger, metrics, tracer

BATCH = 100


@logger.inject_lambda_context
@tracer.capture_lambda_handler
@metrics.log_metrics
def lambda_handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    service = runtime.service()
    released = 0
    # Keep going while whole batches come back, leaving time to spare before the timeout.
    while True:
        sweep = service.expire_holds(limit=BATCH)
        released += sweep.released
        remaining = context.get_remaining_time_in_millis() if context is not None else 60_000
        if sweep.examined < BATCH or remaining < 10_000:
            break
    count(Metric.HOLDS_RELEASED, released)
    logger.info("expired holds released", extra={"released": released, "schedule": event.get("id")})
    return {"released": released}
