"""`python -m controller.cli ...` runs `mjtable ...` from a source tree (a git worktree, a
checkout without the console script installed) with that tree's code."""

import sys

from controller.cli import main

sys.exit(main())
