from typing import Any

from dnnl._enums import status

def sgemm(transa: str, transb: str, M: int, N: int, K: int, alpha: float, A: Any, lda: int,
          B: Any, ldb: int, beta: float, C: Any, ldc: int) -> status: ...
def gemm_bf16bf16f32(transa: str, transb: str, M: int, N: int, K: int, alpha: float, A: Any,
                     lda: int, B: Any, ldb: int, beta: float, C: Any, ldc: int) -> status: ...
def gemm_u8s8s32(transa: str, transb: str, offsetc: str, M: int, N: int, K: int, alpha: float,
                 A: Any, lda: int, ao: int, B: Any, ldb: int, bo: int, beta: float, C: Any,
                 ldc: int, co: Any) -> status: ...
def gemm_s8s8s32(transa: str, transb: str, offsetc: str, M: int, N: int, K: int, alpha: float,
                 A: Any, lda: int, ao: int, B: Any, ldb: int, bo: int, beta: float, C: Any,
                 ldc: int, co: Any) -> status: ...
