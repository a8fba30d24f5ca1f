// lanescope-cli nccl: every NCCL collective with its size, bandwidths and waits, over one report
// or the ranks of one job (CLI.md; the definitions in docs/analyses.md, "Communication").
#include <cmath>
#include <cstdio>

#include "analysis/communication/CollectiveInstances.h"
#include "app/cli/CliSupport.h"
#include "app/cli/Commands.h"
#include "app/cli/TextTable.h"

namespace lanescope::cli {
namespace {

constexpr const char* kNcclUsage = "usage: lanescope-cli nccl FILE... [--summary] [--format csv|json|table]\n";

// The cells as a text table, numbers right-aligned.
std::string cellTableText(const CellTable& table) {
    std::vector<bool> numeric(table.header.size(), true);
    for (size_t c = 0; c < table.header.size(); ++c)
        numeric[c] = table.header[c] != "Operation" && table.header[c] != "Communicator";
    return renderTextTable(table.header, table.rows, numeric, 40);
}

}  // namespace

int runNccl(int argc, char** argv, int first) {
    const ParsedArgs args = parseArgs(argc, argv, first, {"format"}, {"summary"});
    auto usage = [](const std::string& why) {
        std::fprintf(stderr, "lanescope-cli nccl: %s\n%s", why.c_str(), kNcclUsage);
        return kExitUsage;
    };
    if (!args.error.empty()) return usage(args.error);
    if (args.positional.empty()) return usage("expected FILE");
    const std::string format = args.options.count("format") ? args.options.at("format") : "table";
    if (format != "csv" && format != "json" && format != "table") return usage("unknown --format " + format);
    const bool summary = args.options.count("summary") > 0;
    const auto loaded = loadReports(args.positional);
    if (loaded.empty()) return kExitBadInput;
    std::vector<const Report*> reports;
    for (const auto& r : loaded) reports.push_back(r.get());
    const CommunicationAnalysis analysis = analyzeCommunication(reports);
    for (const std::string& note : analysis.notes) std::fprintf(stderr, "lanescope-cli nccl: %s\n", note.c_str());
    std::string out;
    if (format == "json") {
        out = communicationJson(analysis);
    } else {
        const CellTable table =
            summary ? collectiveSummaryCells(summarizeCollectives(analysis.rows)) : collectiveRowCells(analysis);
        out = format == "csv" ? cellTableCsv(table) : cellTableText(table);
    }
    return writeOut(out) ? kExitOk : kExitBadInput;
}

}  // namespace lanescope::cli
