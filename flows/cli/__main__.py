"""``python -m flows.cli``: the same as the ``cslearn`` command."""

import sys

from flows.cli import main

sys.exit(main())
