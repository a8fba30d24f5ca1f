#pragma once
#include <pybind11/pybind11.h>

#include "model/Report.h"

namespace lanescope::python {

// Report.nvtx_payloads(): every decoded field of the NVTX extended payloads of the threads'
// ranges and marks (model/NvtxPayloadDecoder.h; not the NCCL rows' copies), one row a field:
// start_ns, end_ns (a mark's is its start), name (the event's), field, value (as text), sorted
// by start, an event's fields in order. No payloads: the columns alone.
pybind11::object nvtxPayloadsFrame(const Report& report);

}  // namespace lanescope::python
