"""``python -m relay``: the same command line as ``gravity-relay``."""

from .cli import main

raise SystemExit(main())
