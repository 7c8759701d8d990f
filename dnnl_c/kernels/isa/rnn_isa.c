/* The LSTM cell compiled for one ISA level (setup.py compiles this file once
   per level; see kernels/include/cydnnl_isa.h): the gate loops of
   rnn_cell.h vectorise at the level's width. */
#include "kernels/include/rnn_cell.h"
#include "kernels/include/rnn_isa.h"

const cydnnl_rnn_cells_t CYDNNL_ISA_FN(cydnnl_rnn_cells) = {cydnnl_lstm_fwd_cell,
                                                            cydnnl_lstm_bwd_cell};
