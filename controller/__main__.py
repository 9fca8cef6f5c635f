"""`python -m controller` runs the `mjtable` command line."""

import sys

from controller.cli import main

sys.exit(main())
