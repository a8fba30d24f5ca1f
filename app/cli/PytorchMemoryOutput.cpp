// The PyTorch memory view's two tables in the command formats.
#include "app/cli/PytorchMemoryOutput.h"

#include "analysis/JsonWriter.h"
#include "app/cli/TableOutput.h"

namespace lanescope::cli {
namespace {

// The rows of a table as an array of objects; an empty text cell (a free not recorded) is null.
void appendRows(JsonWriter& j, std::string_view key, const StatsTable& table) {
    j.beginArray(key);
    for (const auto& row : table.rows) {
        j.beginObject();
        for (size_t c = 0; c < row.size(); ++c) {
            const std::string& name = table.header[c];
            if (const auto* i = std::get_if<int64_t>(&row[c]))
                j.value(name, *i);
            else if (const auto* real = std::get_if<StatsTable::Real>(&row[c]))
                j.value(name, real->value, real->decimals);
            else if (const std::string& text = std::get<std::string>(row[c]); text.empty())
                j.raw(name, "null");
            else
                j.value(name, text);
        }
        j.endObject();
    }
    j.endArray();
}

}  // namespace

std::string formattedMemoryView(const Report& report, const MemoryView& view, const std::string& format) {
    const StatsTable devices = memoryDevicesTable(view), allocations = memoryAllocationsTable(report, view);
    if (format == "csv") return toCsv(allocations);
    if (format == "json") {
        JsonWriter j;
        j.beginObject();
        j.value("report", "pytorch_memory");
        appendRows(j, "devices", devices);
        appendRows(j, "allocations", allocations);
        j.endObject();
        return j.str();
    }
    return textTable(devices) + "\n" + textTable(allocations);
}

std::string devicesSummary(const MemoryView& view) {
    std::string text;
    for (const auto& row : memoryDevicesTable(view).rows)
        text += std::get<std::string>(row[0]) + ": peak allocated " + formatCell(row[1]) + " B at " +
                formatCell(row[2]) + " ns, peak reserved " + formatCell(row[3]) + " B at " + formatCell(row[4]) +
                " ns, " + formatCell(row[5]) + " allocations, " + formatCell(row[6]) + " frees\n";
    return text;
}

}  // namespace lanescope::cli
