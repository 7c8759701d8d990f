from typing import Any, Optional

from dnnl._enums import _engine_kind
from dnnl._handle import handle

class engine(handle):
    kind = _engine_kind
    def __init__(self, akind: Optional[int] = ..., index: int = ..., *, c_engine: Any = ...,
                 weak: bool = ...) -> None: ...
    @staticmethod
    def get_count(akind: int) -> int: ...
    def get_kind(self) -> _engine_kind: ...
