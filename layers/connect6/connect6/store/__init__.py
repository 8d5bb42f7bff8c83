"""The repository: DynamoDB with conditional writes, and an in-memory fake with the same rules."""

from connect6.store.dynamo import DynamoStore
from connect6.store.keys import DEFAULT_HOLDS_INDEX
from connect6.store.memory import MemoryStore

__all__ = ["DEFAULT_HOLDS_INDEX", "DynamoStore", "MemoryStore"]
