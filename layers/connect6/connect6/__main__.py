"""``python -m connect6 …``: the same command line as the ``connect6`` script."""

from connect6.cli import main

raise SystemExit(main())
