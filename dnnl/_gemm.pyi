from typing import Any

from dnnl._enums import status

def sgemm(transa: str, transb: str, M: int, N: int, K: int, alpha: float, A: Any, lda: int,
          B: Any, ldb: int, beta: float, C: Any, ldc: int) -> status: ...
def gemm_bf16bf16f32(transa: str, transb: str, M: int, N: int, K: int, alpha: float, A: Any,
                     lda: int, B: Any, ldb: int, beta: float, C: Any, ldc: int) -> status: ...
