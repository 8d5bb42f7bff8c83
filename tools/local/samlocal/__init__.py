"""One local runner for template.yaml, used by the integration tests and by ``tools/local/local_api.py``.

* :mod:`.template` — the template (cfn-lint's decoder) and the intrinsics it uses (Ref, GetAtt, Sub);
* :mod:`.service` — functions, routes, environment, handler import, Lambda context, the moto table
  (with its stream) and bus, schedules, the stream → function mapping, OpenAPI merged from every
  resolver with each route's auth from the template;
* :mod:`.events` — API Gateway HTTP API v2 events and responses, scheduled events;
* :mod:`.streams` — Lambda's DynamoDB event source mapping, in small;
* :mod:`.concurrency` — what a threaded local server needs to be as strict as AWS (moto applying one
  request at a time, a clock the sweeper can run ahead on, Powertools metrics under a lock).
"""

from .events import build_event, scheduled_event, to_http
from .service import Function, LambdaContext, Route, Service, create_table
from .template import ACCOUNT, REGION, STACK, Resolver, load_template

__all__ = [
    "ACCOUNT", "REGION", "STACK", "Function", "LambdaContext", "Resolver", "Route", "Service",
    "build_event", "create_table", "load_template", "scheduled_event", "to_http",
]
