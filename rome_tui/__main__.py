import sys

from rome_tui.cli import main

sys.exit(main())
