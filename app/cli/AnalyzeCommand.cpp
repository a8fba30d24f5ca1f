#include <algorithm>
#include <cstdio>

#include "analysis/GpuGaps.h"
#include "analysis/JsonWriter.h"
#include "analysis/Registry.h"
#include "app/cli/CliSupport.h"
#include "app/cli/Commands.h"
#include "app/cli/TextTable.h"

namespace lanescope::cli {
namespace {

constexpr const char* kUsage =
    "usage: lanescope-cli analyze FILE --rule NAME[:opt=value...] [--format csv|json|table]\n"
    "  NAME: gpu_gaps[:gap=MS][:rows=N], gpu_time_util[:threshold=PCT][:chunks=N], cuda_api_sync,\n"
    "        cuda_memcpy_sync, cuda_memcpy_async, cuda_memset_sync\n";

void rowsJson(JsonWriter& j, const StatsTable& table, size_t row) {
    for (size_t c = 0; c < table.header.size(); ++c) {
        const auto& cell = table.rows[row][c];
        if (const auto* i = std::get_if<int64_t>(&cell))
            j.value(table.header[c], *i);
        else if (const auto* r = std::get_if<StatsTable::Real>(&cell))
            j.value(table.header[c], r->value, r->decimals);
        else
            j.value(table.header[c], std::get<std::string>(cell));
    }
}

}  // namespace

int runAnalyze(int argc, char** argv, int first) {
    const ParsedArgs args = parseArgs(argc, argv, first, {"rule", "format"});
    const std::string format = args.options.count("format") ? args.options.at("format") : "table";
    auto usage = [&](const std::string& why) {
        std::fprintf(stderr, "lanescope-cli analyze: %s\n%s", why.c_str(), kUsage);
        return kExitUsage;
    };
    if (!args.error.empty()) return usage(args.error);
    if (args.positional.size() != 1) return usage("expected one FILE");
    if (!args.options.count("rule")) return usage("--rule is required");
    if (format != "csv" && format != "json" && format != "table") return usage("unknown --format " + format);
    std::string specError;
    const auto spec = parseRuleSpec(args.options.at("rule"), &specError);
    if (!spec) return usage(specError);
    const std::string name = spec->name;
    const RuleOptions& options = spec->options;
    const RuleEntry* rule = findRule(name);
    if (!rule) return usage("unknown rule " + name);
    GapOptions gapOptions;
    if (name == "gpu_gaps") {  // checked before the report is read: a usage error, exit 1
        try {
            gapOptions = gapOptionsFrom(options);
        } catch (const std::invalid_argument& e) {
            return usage(e.what());
        }
    }
    auto report = loadReport(args.positional[0]);
    if (!report) return kExitBadInput;

    std::vector<GpuGap> gaps;
    StatsTable table;
    try {
        if (name == "gpu_gaps") {  // the gaps themselves, for their causes below
            gaps = findGpuGaps(*report, gapOptions);
            table = gpuGapsTable(*report, gaps);
        } else {
            table = rule->run(*report, options).table;
        }
    } catch (const std::invalid_argument& e) {  // a rule's option out of range
        return usage(e.what());
    }

    std::string out;
    if (format == "csv") {
        if (!table.rows.empty()) out = toCsv(table);  // nsys prints nothing when a rule finds nothing
    } else if (format == "json") {
        JsonWriter j;
        j.beginObject();
        j.value("rule", name);
        j.beginArray("rows");
        for (size_t r = 0; r < table.rows.size(); ++r) {
            j.beginObject();
            rowsJson(j, table, r);
            if (r < gaps.size()) {
                j.value("cause", gapCauseName(gaps[r].cause));
                j.value("cause_text", gaps[r].cause_text);
                j.beginArray("cause_nvtx_ranges");
                for (uint32_t id : gaps[r].nvtx_names) j.value("", report->str(id));
                j.endArray();
            }
            j.endObject();
        }
        j.endArray();
        j.endObject();
        out = j.str();
    } else {
        std::vector<std::vector<std::string>> rows;
        std::vector<bool> numeric;
        std::vector<std::string> header = table.header;
        if (!gaps.empty()) header.push_back("Cause");
        for (size_t r = 0; r < table.rows.size(); ++r) {
            std::vector<std::string> cells;
            for (const auto& cell : table.rows[r]) cells.push_back(formatCell(cell));
            if (r < gaps.size()) cells.push_back(gaps[r].cause_text);
            rows.push_back(std::move(cells));
        }
        if (!table.rows.empty())
            for (const auto& cell : table.rows.front()) numeric.push_back(!std::holds_alternative<std::string>(cell));
        out =
            table.rows.empty() ? name + ": nothing found\n" : name + "\n" + renderTextTable(header, rows, numeric, 100);
    }
    return writeOut(out) ? kExitOk : kExitBadInput;
}

}  // namespace lanescope::cli
