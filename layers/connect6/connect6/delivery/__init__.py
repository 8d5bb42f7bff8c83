"""Event delivery: the games table's stream → EventBridge. Each game write's outbox
(:mod:`.outbox`), published in order, at least once (:mod:`.eventbus`). Beside the HTTP layer
(``connect6.api``), never importing it: the publish-events function uses this package without the
resolver."""
