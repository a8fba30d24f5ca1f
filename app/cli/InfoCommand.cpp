#include <algorithm>
#include <cstdio>

#include "app/cli/CliSupport.h"
#include "app/cli/Commands.h"
#include "app/cli/ReportInfo.h"
#include "app/cli/TextTable.h"
#include "model/DiagnosticKinds.h"

namespace lanescope::cli {
namespace {

std::string infoTable(const Report& r) {
    const EventCounts counts = r.counts();
    std::vector<std::vector<std::string>> rows = {
        {"file", r.meta.source_path},
        {"format", r.meta.format},
        {"producer", r.meta.producer + " " + r.meta.version},
        {"read by", r.meta.reader.empty() ? r.meta.format + " importer" : r.meta.reader + " reader"},
        {"session start (UTC)", utcText(r.meta.start_utc_ns)},
        {"duration", std::to_string((r.meta.end_ns - r.meta.begin_ns) / 1000000) + " ms"},
        {"processes", std::to_string(r.processes.size())},
        {"threads", std::to_string(r.threads.size())},
    };
    for (const Gpu& g : r.gpus) rows.push_back({"GPU " + std::to_string(g.device_id), std::string(r.str(g.name_id))});
    for (const auto& [name, value] : countList(counts)) rows.push_back({name, std::to_string(value)});
    std::string out = renderTextTable({"field", "value"}, rows, {false, false}, 100);
    if (!r.nsys_messages.empty()) {
        std::vector<std::vector<std::string>> messages;
        for (size_t row : nsysMessagesByTime(r.nsys_messages)) {
            const NsysMessage& m = r.nsys_messages[row];
            messages.push_back({std::to_string(m.time_ns), nsysMessageSeverityName(m.severity),
                                nsysMessageSourceName(m.source), m.text});
        }
        out += "\nNsight Systems messages\n" +
               renderTextTable({"time (ns)", "severity", "source", "text"}, messages, {true, false, false, false}, 240);
    }
    if (r.diagnostics.empty()) return out + "\nno diagnostics\n";
    // What the importer skipped or repaired, most severe first, each with what it means.
    std::vector<std::pair<const std::string*, DiagnosticDescription>> described;
    for (const auto& [name, n] : r.diagnostics) described.emplace_back(&name, describeDiagnostic(name));
    std::stable_sort(described.begin(), described.end(),
                     [](const auto& a, const auto& b) { return a.second.severity > b.second.severity; });
    std::vector<std::vector<std::string>> diagnostics;
    for (const auto& [name, d] : described)
        diagnostics.push_back(
            {*name, std::to_string(r.diagnostics.at(*name)), std::string(severityName(d.severity)), d.explanation});
    return out + "\n" +
           renderTextTable({"diagnostic", "count", "severity", "explanation"}, diagnostics, {false, true, false, false},
                           240);
}

}  // namespace

int runInfo(int argc, char** argv, int first) {
    const ParsedArgs args = parseArgs(argc, argv, first, {"format"});
    const std::string format = args.options.count("format") ? args.options.at("format") : "table";
    if (!args.error.empty() || args.positional.size() != 1 || (format != "json" && format != "table")) {
        std::fprintf(
            stderr, "%s\nusage: lanescope-cli info FILE [--format json|table]\n",
            args.error.empty() ? "lanescope-cli info: bad arguments" : ("lanescope-cli info: " + args.error).c_str());
        return kExitUsage;
    }
    auto report = loadReport(args.positional[0]);
    if (!report) return kExitBadInput;
    return writeOut(format == "json" ? infoJson(*report) : infoTable(*report)) ? kExitOk : kExitBadInput;
}

}  // namespace lanescope::cli
