"""``python -m relay``: the same command line as ``gravity-relay``."""

from relay.doors.cli import main

raise SystemExit(main())
