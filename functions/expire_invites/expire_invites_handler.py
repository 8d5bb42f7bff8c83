"""Expire-invites function, the one scheduled sweep (EventBridge Scheduler, every 5 minutes):
releases seats whose invitation hold ran out, moves holds written before the index shards to their
shard, then stores losses on time and sends turn reminders (v1.2), each found through its sparse
index shard by shard, never a scan, bounded in games and time. Safe to run twice at once and
against a redemption or a move: each game write is conditional, exactly one wins."""

from typing import Any

from aws_lambda_powertools.utilities.typing import LambdaContext

from connect6.api import runtime
from connect6.api.observability import Metric, count, logger, metrics, tracer

BATCH = 100

# The settings this function needs: in Lambda a missing one fails the cold start, naming it.
runtime.require("table_name", "holds_index_name", "clocks_index_name")


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
    # Holds keyed HOLD (before the shards) move to their shard, a bounded batch a run; the sweep
    # above reads the legacy key too until none is left.
    migrate = getattr(service.repo, "migrate_legacy_holds", None)
    migrated = migrate(BATCH) if migrate is not None else 0
    remaining_s = (context.get_remaining_time_in_millis() if context is not None else 60_000) / 1000
    clocks = service.sweep_clocks(budget_s=max(1.0, min(40.0, remaining_s - 10)))
    logger.info("sweep", extra={"released": released, "legacy_holds_moved": migrated,
                                "timed_out": clocks.timed_out, "reminded": clocks.reminded,
                                "clocks_examined": clocks.examined,
                                "clocks_stopped_early": clocks.stopped_early, "schedule": event.get("id")})
    return {"released": released, "legacy_holds_moved": migrated, "timed_out": clocks.timed_out,
            "reminded": clocks.reminded}
