#pragma once
#include <string>

#include "analysis/JsonWriter.h"
#include "analysis/StatsTable.h"

namespace lanescope::cli {

// A statistics table as one JSON object {"report": name, "rows": [{header: cell, ...}]}.
void appendJson(JsonWriter& j, const StatsTable& table);
// A statistics table as aligned text: its name, then a header and the rows.
std::string textTable(const StatsTable& table);

}  // namespace lanescope::cli
