from typing import Optional

from dnnl._engine import engine
from dnnl._enums import _stream_flags
from dnnl._handle import handle

class stream(handle):
    flags = _stream_flags
    def __init__(self, aengine: Optional[engine] = ..., aflags: Optional[int] = ...) -> None: ...
    def get_engine(self) -> engine: ...
    def wait(self) -> stream: ...
