#pragma once
#include <string>

#include "analysis/pytorch/MemoryView.h"

namespace lanescope::cli {

// The memory view in a command format (docs/CLI.md, `pytorch --view memory`):
// - "table": the devices table, a blank line, the allocations table (aligned text);
// - "json": one object {"report": "pytorch_memory", "devices": [...], "allocations": [...]},
//   each row an object keyed by the headers, a free or lifetime not recorded as null;
// - "csv": the allocations table alone (stdout); devicesSummary gives the devices for stderr.
std::string formattedMemoryView(const Report& report, const MemoryView& view, const std::string& format);

// One line per device ("CUDA 0: peak allocated 123 B at 456 ns, peak reserved ..."), for stderr
// beside the csv allocations.
std::string devicesSummary(const MemoryView& view);

}  // namespace lanescope::cli
