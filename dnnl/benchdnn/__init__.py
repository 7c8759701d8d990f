"""benchdnn for cydnnl: `python -m dnnl.benchdnn --conv|--eltwise|--lrn|--pool|
--reorder|--rnn [options] PROBLEM...` reads oneDNN's benchdnn problem
descriptors, options and input files (inputs/<driver>/), runs each problem
through the object layer, checks the results against the NumPy references
of this package (ref_*.py, written from oneDNN's formulas) or times them,
and prints benchdnn's summary line."""
