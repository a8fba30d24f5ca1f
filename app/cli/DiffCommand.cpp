// lanescope-cli diff: a baseline and a candidate run compared by name (CLI.md).
#include <cstdio>

#include "analysis/JsonWriter.h"
#include "analysis/ranks/RunDiff.h"
#include "app/cli/CliSupport.h"
#include "app/cli/Commands.h"
#include "app/cli/TextTable.h"

namespace lanescope::cli {
namespace {

constexpr const char* kUsage = "usage: lanescope-cli diff BASELINE CANDIDATE [--format csv|json|table]\n";

std::string toJson(const Report& base, const Report& cand, const std::vector<DiffRow>& rows) {
    JsonWriter j;
    j.beginObject();
    j.value("baseline", base.meta.source_path);
    j.value("candidate", cand.meta.source_path);
    j.beginArray("rows");
    for (const DiffRow& r : rows) {
        j.beginObject();
        j.value("category", r.category);
        j.value("name", r.name);
        j.value("base_count", r.base_count);
        j.value("base_total_ns", r.base_total_ns);
        j.value("base_mean_ns", r.baseMean(), 1);
        j.value("cand_count", r.cand_count);
        j.value("cand_total_ns", r.cand_total_ns);
        j.value("cand_mean_ns", r.candMean(), 1);
        j.value("delta_ns", r.delta());
        r.hasRatio() ? j.value("ratio", r.ratio(), 3) : j.raw("ratio", "null");
        j.value("status", r.status());
        j.endObject();
    }
    j.endArray();
    j.endObject();
    return j.str();
}

std::string toTable(const StatsTable& table) {
    std::vector<std::vector<std::string>> rows;
    for (const auto& cells : table.rows) {
        std::vector<std::string> text;
        for (const auto& cell : cells) text.push_back(formatCell(cell));
        rows.push_back(std::move(text));
    }
    std::vector<bool> numeric(table.header.size(), true);  // an empty ratio right-aligns too
    numeric[0] = numeric[1] = numeric.back() = false;
    return rows.empty() ? "diff: no kernels, CUDA calls or NVTX ranges in either report\n"
                        : renderTextTable(table.header, rows, numeric, 60);
}

}  // namespace

int runDiff(int argc, char** argv, int first) {
    const ParsedArgs args = parseArgs(argc, argv, first, {"format"});
    auto usage = [](const std::string& why) {
        std::fprintf(stderr, "lanescope-cli diff: %s\n%s", why.c_str(), kUsage);
        return kExitUsage;
    };
    if (!args.error.empty()) return usage(args.error);
    if (args.positional.size() != 2) return usage("expected BASELINE and CANDIDATE");
    const std::string format = args.options.count("format") ? args.options.at("format") : "table";
    if (format != "csv" && format != "json" && format != "table") return usage("unknown --format " + format);
    const auto reports = loadReports(args.positional);
    if (reports.empty()) return kExitBadInput;
    const std::vector<DiffRow> rows = diffRuns(*reports[0], *reports[1]);
    std::string out;
    if (format == "csv")
        out = toCsv(diffTable(rows));
    else if (format == "json")
        out = toJson(*reports[0], *reports[1], rows);
    else
        out = toTable(diffTable(rows));
    return writeOut(out) ? kExitOk : kExitBadInput;
}

}  // namespace lanescope::cli
