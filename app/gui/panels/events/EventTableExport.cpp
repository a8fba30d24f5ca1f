#include "app/gui/panels/events/EventTableExport.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <system_error>

#include "analysis/StatsTable.h"
#include "model/EventTableText.h"

namespace lanescope {
namespace {

std::string tsvCell(std::string text) {
    for (char& c : text)
        if (c == '\t' || c == '\n' || c == '\r') c = ' ';
    return text;
}

}  // namespace

std::string eventTableTsv(const EventTableContents& contents, const std::vector<EventField>& fields,
                          const std::vector<size_t>& rows) {
    std::string out;
    for (size_t f = 0; f < fields.size(); ++f) out += (f ? "\t" : "") + std::string(eventFieldTitle(fields[f]));
    out += '\n';
    if (!contents.rows) return out;
    for (size_t row : rows) {
        if (row >= contents.size()) continue;
        const SourcedEvent e = contents.at(row);
        for (size_t f = 0; f < fields.size(); ++f) {
            if (f) out += '\t';
            out += tsvCell(eventCellText(*contents.rows, e, fields[f]));
        }
        out += '\n';
    }
    return out;
}

bool writeEventTableCsv(const EventTableContents& contents, const std::vector<EventField>& fields,
                        const std::string& path, std::string* error) {
    const std::string partial = path + ".partial";
    auto fail = [&](const std::string& why) {
        if (error) *error = why;
        std::error_code ignored;
        std::filesystem::remove(partial, ignored);
        return false;
    };
    {
        std::ofstream out(partial, std::ios::binary | std::ios::trunc);
        if (!out) return fail("cannot write " + partial);
        std::string line;
        for (EventField f : fields) line += csvField(eventFieldTitle(f)) + ",";
        line += "Start (ns),End (ns),Duration (ns)\n";
        out << line;
        for (size_t row = 0; row < contents.size(); ++row) {
            const SourcedEvent e = contents.at(row);
            line.clear();
            for (EventField f : fields) line += csvField(eventCellText(*contents.rows, e, f)) + ",";
            const int64_t start = contents.rows->startNs(e), end = contents.rows->endNs(e);
            line += std::to_string(start) + ',' + std::to_string(end) + ',' + std::to_string(end - start) + '\n';
            out << line;
        }
        out.flush();
        if (!out) return fail("cannot write " + partial + " (disk full?)");
    }
    std::error_code ec;
    std::filesystem::rename(partial, path, ec);
    if (ec) return fail("cannot rename " + partial + " to " + path + ": " + ec.message());
    return true;
}

}  // namespace lanescope
