import sys

from pbem.cli import run

sys.exit(run())
