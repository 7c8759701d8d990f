"""The kind-agnostic core of dnnl_c (C level only; see __init__.pxd)."""
