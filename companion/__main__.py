"""``python -m companion``: the same as the ``companion`` command (for a checkout without the
console script, e.g. ``python3 -m companion simulate FILE``)."""

from companion.cli import main

raise SystemExit(main())
