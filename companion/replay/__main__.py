"""``python -m companion.replay replay FILE`` (the same as ``companion replay FILE``)."""

import sys

from companion.replay.cli import main

sys.exit(main())
