#include "app/cli/TableOutput.h"

#include "app/cli/TextTable.h"

namespace lanescope::cli {

void beginJsonTable(JsonWriter& j, const StatsTable& table) {
    j.beginObject();
    j.value("report", table.name);
    j.beginArray("rows");
}

void appendJsonRow(JsonWriter& j, const std::vector<std::string>& header, const std::vector<StatsTable::Cell>& row) {
    j.beginObject();
    for (size_t c = 0; c < row.size(); ++c) {
        const auto& cell = row[c];
        if (const auto* i = std::get_if<int64_t>(&cell))
            j.value(header[c], *i);
        else if (const auto* real = std::get_if<StatsTable::Real>(&cell))
            j.value(header[c], real->value, real->decimals);
        else
            j.value(header[c], std::get<std::string>(cell));
    }
    j.endObject();
}

void endJsonTable(JsonWriter& j) {
    j.endArray();
    j.endObject();
}

void appendJson(JsonWriter& j, const StatsTable& table) {
    beginJsonTable(j, table);
    for (const auto& row : table.rows) appendJsonRow(j, table.header, row);
    endJsonTable(j);
}

std::string textTable(const StatsTable& table) {
    std::vector<std::vector<std::string>> rows;
    std::vector<bool> numeric;
    for (const auto& row : table.rows) {
        std::vector<std::string> cells;
        for (const auto& cell : row) cells.push_back(formatCell(cell));
        rows.push_back(std::move(cells));
    }
    if (!table.rows.empty())
        for (const auto& cell : table.rows.front()) numeric.push_back(!std::holds_alternative<std::string>(cell));
    return table.name + "\n" + renderTextTable(table.header, rows, numeric) + "\n";
}

std::string formattedTable(const StatsTable& table, const std::string& format) {
    if (format == "csv") return toCsv(table);
    if (format == "json") {
        JsonWriter json;
        appendJson(json, table);
        return json.str();
    }
    return textTable(table);
}

}  // namespace lanescope::cli
