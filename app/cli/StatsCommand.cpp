#include <algorithm>
#include <charconv>
#include <cstdio>
#include <utility>
#include <vector>

#include "analysis/JsonWriter.h"
#include "analysis/Registry.h"
#include "app/cli/CliSupport.h"
#include "app/cli/Commands.h"
#include "app/cli/TableOutput.h"

namespace lanescope::cli {
namespace {

std::string usageText() {
    std::string names;
    for (const StatsReportEntry& entry : statsReports()) names += (names.empty() ? "" : ", ") + std::string(entry.name);
    return "usage: lanescope-cli stats FILE --report NAME[,NAME...] [--format csv|json|table] "
           "[--range START_NS:END_NS]\n  NAME: " +
           names + "\n  options after a name: :base (kernels' short names), :rows=N (um_sum, um_cpu_page_faults_sum)\n";
}

std::vector<std::string> splitNames(const std::string& list) {
    std::vector<std::string> names;
    size_t begin = 0;
    while (begin <= list.size()) {
        const size_t end = std::min(list.find(',', begin), list.size());
        if (end > begin) names.push_back(list.substr(begin, end - begin));
        begin = end + 1;
    }
    return names;
}

}  // namespace

int runStats(int argc, char** argv, int first) {
    const ParsedArgs args = parseArgs(argc, argv, first, {"report", "format", "range"});
    const std::string format = args.options.count("format") ? args.options.at("format") : "table";
    auto usage = [&](const std::string& why) {
        std::fprintf(stderr, "lanescope-cli stats: %s\n%s", why.c_str(), usageText().c_str());
        return kExitUsage;
    };
    if (!args.error.empty()) return usage(args.error);
    if (args.positional.size() != 1) return usage("expected one FILE");
    if (!args.options.count("report")) return usage("--report is required");
    if (format != "csv" && format != "json" && format != "table") return usage("unknown --format " + format);
    const auto names = splitNames(args.options.at("report"));
    std::vector<StatsRequest> requests;
    for (const auto& name : names) {
        requests.push_back(parseStatsRequest(name));
        if (!requests.back().error.empty()) return usage(requests.back().error);
    }
    TimeRange range;
    if (args.options.count("range")) {
        auto parsed = parseRange(args.options.at("range"));
        if (!parsed) return usage("--range wants START_NS:END_NS with START_NS <= END_NS");
        range = *parsed;
    }
    auto report = loadReport(args.positional[0]);
    if (!report) return kExitBadInput;

    std::string out;
    JsonWriter json;
    if (format == "json") json.beginArray();
    for (const StatsRequest& request : requests) {
        if (format == "csv") {  // a trace's rows written as they are made, never held all at once
            if (requests.size() > 1 && !writeOut("# " + std::string(request.entry->name) + "\n")) return kExitBadInput;
            if (!writeStatsCsv(*request.entry, *report, range, request.options,
                               [](std::string_view text) { return writeOut(std::string(text)); }))
                return kExitBadInput;
            continue;
        }
        if (format == "json") {  // a trace's rows written as they are made, as for CSV
            StatsOptions options = request.options;
            bool begun = false, written = true;
            options.on_trace_row = [&](const StatsTable& table, std::vector<StatsTable::Cell>&& row) {
                if (!std::exchange(begun, true)) beginJsonTable(json, table);
                appendJsonRow(json, table.header, row);
                if (json.str().size() > (size_t{4} << 20)) written = written && writeOut(json.take());
            };
            const StatsTable table = request.entry->compute(*report, range, options);
            if (begun)
                endJsonTable(json);
            else
                appendJson(json, table);  // a summary, or a trace without rows
            if (!written) return kExitBadInput;
            continue;
        }
        out += textTable(request.entry->compute(*report, range, request.options));  // needs every row's width
    }
    if (format == "json") {
        json.endArray();
        out = json.str();
    }
    return writeOut(out) ? kExitOk : kExitBadInput;
}

}  // namespace lanescope::cli
