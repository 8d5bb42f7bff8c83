"""Publish-events function (the games table's stream): delivers each game write's outbox to
EventBridge, in stream order, at least once, reporting partial batch failures so Lambda retries
from the first record that failed (``connect6.delivery.outbox``)."""

from typing import Any

from aws_lambda_powertools.utilities.batch import BatchProcessor, EventType, process_partial_response
from aws_lambda_powertools.utilities.typing import LambdaContext

from connect6.api import runtime
from connect6.api.observability import Metric, count, logger, metrics, tracer
from connect6.delivery.outbox import OrderedDelivery

# Without a bus nothing can be delivered: in Lambda that fails the cold start (and the publisher
# refuses to acknowledge records without one anywhere).
runtime.require("event_bus_name")

# Every record fails alone or with the rest: report them all rather than raising, so Lambda retries
# from the first failed sequence number (bisecting is kept for crashes and timeouts).
processor = BatchProcessor(event_type=EventType.DynamoDBStreams, raise_on_entire_batch_failure=False)


@logger.inject_lambda_context
@tracer.capture_lambda_handler
@metrics.log_metrics
def lambda_handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    delivery = OrderedDelivery(runtime.publisher())
    response = process_partial_response(event=event, record_handler=delivery.handle, processor=processor,
                                        context=context)
    failed = len(response.get("batchItemFailures") or [])
    count(Metric.EVENTS_PUBLISHED, delivery.published)
    if failed:
        count(Metric.EVENT_RECORDS_FAILED, failed)
        logger.warning("event records not delivered; the stream retries them",
                       extra={"failed": failed, "records": len(event.get("Records") or [])})
    return dict(response)
