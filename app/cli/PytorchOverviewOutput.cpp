// The PyTorch overview view (steps and their summary) as csv, json or text.
#include "app/cli/PytorchOverviewOutput.h"

#include <string_view>
#include <variant>
#include <vector>

#include "analysis/JsonWriter.h"
#include "app/cli/TableOutput.h"

namespace lanescope::cli {
namespace {

// One row as an object keyed by the table's headers; an empty text cell (an estimate the
// trace does not record) as null.
void appendRow(JsonWriter& j, const StatsTable& table, const std::vector<StatsTable::Cell>& row, std::string_view key) {
    j.beginObject(key);
    for (size_t c = 0; c < row.size(); ++c) {
        const std::string& name = table.header[c];
        if (const auto* number = std::get_if<int64_t>(&row[c]))
            j.value(name, *number);
        else if (const auto* real = std::get_if<StatsTable::Real>(&row[c]))
            j.value(name, real->value, real->decimals);
        else if (const auto& text = std::get<std::string>(row[c]); text.empty())
            j.raw(name, "null");
        else
            j.value(name, text);
    }
    j.endObject();
}

}  // namespace

std::string formattedOverview(const StepOverview& view, const std::string& format) {
    if (format == "csv") return toCsv(view.steps);
    if (format == "json") {
        JsonWriter j;
        j.beginObject();
        j.value("report", view.steps.name);
        j.beginArray("rows");
        for (const auto& row : view.steps.rows) appendRow(j, view.steps, row, {});
        j.endArray();
        if (view.summary.rows.empty()) {
            j.raw("summary", "{}");
        } else {
            appendRow(j, view.summary, view.summary.rows.front(), "summary");
        }
        j.endObject();
        return j.str();
    }
    std::string text = textTable(view.steps);
    if (!view.summary.rows.empty()) text += textTable(view.summary);  // textTable ends in a blank line
    return text;
}

std::string overviewSummaryLine(const StepOverview& view) {
    if (view.summary.rows.empty()) return {};
    const auto& row = view.summary.rows.front();
    return formatCell(row[0]) + " steps: min " + formatCell(row[1]) + " ns, median " + formatCell(row[2]) +
           " ns, max " + formatCell(row[3]) + " ns, slowest " + formatCell(row[4]);
}

}  // namespace lanescope::cli
