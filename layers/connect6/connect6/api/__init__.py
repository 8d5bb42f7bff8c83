"""The HTTP edge shared by the handlers: the routes (:mod:`.routes`), request models, parameters,
error mapping, the resolver set-up, hostile-input guards, idempotency, invitation tokens, log
redaction, observability, settings and the runtime wiring (store, event bus) from the environment.
Event delivery is its own package beside this one (``connect6.delivery``)."""
