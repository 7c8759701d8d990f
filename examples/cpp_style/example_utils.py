"""The helpers cnn_training_bf16.cpp takes from oneDNN's example_utils.hpp,
for the C++-style API (dnnl)."""

import sys

import numpy as np

import dnnl
import dnnl_c


class example_allows_unimplemented(Exception):
    """Raised by an example that may legitimately find no implementation."""

    def __init__(self, message):
        super().__init__(message)
        self.message = message


def engine_kind2str_upper(kind):
    return {dnnl.engine.kind.cpu: "CPU", dnnl.engine.kind.gpu: "GPU"}.get(kind, "<Unknown engine>")


def handle_example_errors(example, engine_kind, *args):
    """Runs example(engine_kind, *args); prints the outcome oneDNN's way and
    returns the exit code: 0 passed (or allowed unimplemented), 1 a
    dnnl.error, 2 another error."""
    exit_code = 0
    try:
        example(engine_kind, *args)
    except example_allows_unimplemented as e:
        print(e.message)
        exit_code = 0
    except dnnl.error as e:
        print("oneDNN error caught: \n\tStatus: %s\n\tMessage: %s"
              % (dnnl_c.dnnl_status2str(e.status), e.message))
        exit_code = 1
    except Exception as e:  # noqa: BLE001 (mirrors catch (std::exception &))
        print("Error in the example: %s." % e)
        exit_code = 2
    print("Example %s on %s." % ("passed" if exit_code == 0 else "failed",
                                 engine_kind2str_upper(engine_kind)))
    return exit_code


def validate_engine_kind(akind):
    if akind == dnnl.engine.kind.gpu and dnnl.engine.get_count(dnnl.engine.kind.gpu) == 0:
        print("Application couldn't find GPU, please run with CPU instead.")
        sys.exit(0)
    return akind


def parse_engine_kind(argv, extra_args=0):
    if len(argv) == 1:
        return validate_engine_kind(dnnl.engine.kind.cpu)
    if len(argv) <= extra_args + 2:
        if argv[1] == "cpu":
            return validate_engine_kind(dnnl.engine.kind.cpu)
        if argv[1] == "gpu":
            return validate_engine_kind(dnnl.engine.kind.gpu)
    print("Inappropriate engine kind.\nPlease run the example like this: %s [cpu|gpu]%s."
          % (argv[0], " [extra arguments]" if extra_args else ""))
    sys.exit(1)


def product(dims):
    p = 1
    for d in dims:
        p *= d
    return p


def write_to_dnnl_memory(data, mem):
    """Copies the bytes of NumPy array `data` into the memory (memcpy of
    get_desc().get_size() bytes)."""
    size = mem.get_desc().get_size()
    handle = mem.get_data_handle()
    if handle is not None:
        np.frombuffer(handle, np.uint8)[:size] = \
            np.ascontiguousarray(data).reshape(-1).view(np.uint8)[:size]


def read_from_dnnl_memory(data, mem):
    """Copies the memory's bytes into NumPy array `data`."""
    size = mem.get_desc().get_size()
    handle = mem.get_data_handle()
    if handle is not None:
        data.reshape(-1).view(np.uint8)[:size] = np.frombuffer(handle, np.uint8)[:size]
