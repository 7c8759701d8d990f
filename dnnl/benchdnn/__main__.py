"""python -m dnnl.benchdnn"""

import sys

from dnnl.benchdnn.main import main

sys.exit(main())
