"""The package's own version (the oneDNN API it implements is dnnl_version())."""

__version__ = "0.1.0"
