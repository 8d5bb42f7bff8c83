"""Shared by every suite. Kept small on purpose: suite-specific fixtures live next to their tests."""

from __future__ import annotations

import os

# Never let a test reach a real AWS account by accident: fake credentials and a fixed region
# for any boto3 client created anywhere in the test process.
os.environ.setdefault("AWS_ACCESS_KEY_ID", "testing")
os.environ.setdefault("AWS_SECRET_ACCESS_KEY", "testing")
os.environ.setdefault("AWS_DEFAULT_REGION", "us-east-1")
