"""Property-based fuzzing of cydnnl with Hypothesis state machines.

* `values`  - hostile argument values as Python source (`Expr`), so every call
  the fuzzers make can be written to a log as a line of a runnable script.
* `capi`    - the state machine over `dnnl_c`: a rule per C-style function,
  handles drawn from Bundles of live, destroyed and bogus handles.
* `problems` - consistent shapes for each primitive family, so sequences get
  past descriptor creation to execute.
* `objlayer` - the state machine over the `dnnl` object layer.
* `runner`  - runs a machine in a child process that logs each call before
  making it; the parent turns a crash of the child into a failure that shows
  the calls leading to it. `python -m fuzz --help` (from tests/).
"""
