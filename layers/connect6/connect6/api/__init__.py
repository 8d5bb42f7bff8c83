"""The HTTP layer shared by the handlers: request/response models, error mapping, the resolver
setup, idempotency, the runtime wiring (store, event bus) from environment variables."""
