#pragma once
#include <string>

#include "analysis/JsonWriter.h"
#include "analysis/StatsTable.h"

namespace lanescope::cli {

// A statistics table as one JSON object {"report": name, "rows": [{header: cell, ...}]}.
void appendJson(JsonWriter& j, const StatsTable& table);
// A statistics table as aligned text: its name, then a header and the rows.
std::string textTable(const StatsTable& table);
// A statistics table in one of the commands' formats: "csv" (toCsv), "json" (appendJson's
// object) or else aligned text (textTable).
std::string formattedTable(const StatsTable& table, const std::string& format);

}  // namespace lanescope::cli
