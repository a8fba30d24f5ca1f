#pragma once
#include <string>

#include "analysis/StatsTable.h"
#include "app/cli/JsonWriter.h"

namespace lanescope::cli {

// A statistics table as one JSON object {"report": name, "rows": [{header: cell, ...}]}.
void appendJson(JsonWriter& j, const StatsTable& table);
// A statistics table as aligned text: its name, then a header and the rows.
std::string textTable(const StatsTable& table);

}  // namespace lanescope::cli
