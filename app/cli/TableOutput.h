#pragma once
#include <string>
#include <vector>

#include "analysis/JsonWriter.h"
#include "analysis/StatsTable.h"

namespace lanescope::cli {

// A statistics table as one JSON object {"report": name, "rows": [{header: cell, ...}]}.
void appendJson(JsonWriter& j, const StatsTable& table);
// The same in three parts, for a table written as its rows are made: the object's opening (name
// and the rows array), one row, and the closing.
void beginJsonTable(JsonWriter& j, const StatsTable& table);
void appendJsonRow(JsonWriter& j, const std::vector<std::string>& header, const std::vector<StatsTable::Cell>& row);
void endJsonTable(JsonWriter& j);
// A statistics table as aligned text: its name, then a header and the rows.
std::string textTable(const StatsTable& table);
// A statistics table in one of the commands' formats: "csv" (toCsv), "json" (appendJson's
// object) or else aligned text (textTable).
std::string formattedTable(const StatsTable& table, const std::string& format);

}  // namespace lanescope::cli
