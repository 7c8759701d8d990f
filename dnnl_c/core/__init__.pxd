# The core, for the primitive families: `from dnnl_c.core cimport *` gives
# the types and every core function a family may use. (Users cimport the
# public API from dnnl_c.dnnl instead.)

from dnnl_c.core.types cimport *
from dnnl_c.core.verbose cimport *
from dnnl_c.core.objects cimport *
from dnnl_c.core.util cimport *
from dnnl_c.core.memory_desc_wrapper cimport *
from dnnl_c.core.memory_desc cimport *
from dnnl_c.core.engine_stream cimport *
from dnnl_c.core.memory cimport *
from dnnl_c.core.attr cimport *
from dnnl_c.core.attr_quant cimport *
from dnnl_c.core.post_ops cimport *
from dnnl_c.core.cpu_isa cimport *
from dnnl_c.core.service cimport *
from dnnl_c.core.registry cimport *
from dnnl_c.core.primitive_desc cimport *
from dnnl_c.core.pd_info cimport *
from dnnl_c.core.primitive_cache cimport *
from dnnl_c.core.primitive cimport *
from dnnl_c.core.gemm cimport *
