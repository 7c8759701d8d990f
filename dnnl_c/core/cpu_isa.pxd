# The CPU's instruction sets and the ISA limit (ONEDNN_MAX_CPU_ISA).

# False when ONEDNN_MAX_CPU_ISA names an ISA without bf16 instructions: then
# bf16 compute primitives answer dnnl_unimplemented, as oneDNN does there.
cdef bint bf16_allowed() noexcept nogil
