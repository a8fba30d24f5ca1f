// lanescope-cli profile: the CPU samples and thread scheduling of a report (CLI.md;
// definitions in docs/analyses.md, "CPU profile").
#include <charconv>
#include <cstdio>
#include <cstring>

#include "analysis/CpuProfile.h"
#include "app/cli/CliSupport.h"
#include "app/cli/Commands.h"
#include "app/cli/TableOutput.h"

namespace lanescope::cli {
namespace {

constexpr const char* kProfileUsage =
    "usage: lanescope-cli profile FILE [--range START_NS:END_NS] [--tid TID ...] [--pid PID ...]\n"
    "           [--view flat|top-down|bottom-up|threads] [--format csv|json|table]\n"
    "  flat (default): Self,Total,Self (%),Total (%),Function,Module per function\n"
    "  top-down, bottom-up: the call trees, a row per node with its depth\n"
    "  threads: PID,TID,Thread,Samples,Running (ns),Switches per thread\n"
    "  --tid and --pid take one or more ids (repeated, or separated by commas)\n";

bool parseIds(std::string_view text, std::vector<int64_t>& out) {
    size_t begin = 0;
    while (begin <= text.size()) {
        const size_t end = std::min(text.find(',', begin), text.size());
        int64_t id = 0;
        const auto [ptr, ec] = std::from_chars(text.data() + begin, text.data() + end, id);
        if (end == begin || ec != std::errc() || ptr != text.data() + end) return false;
        out.push_back(id);
        begin = end + 1;
    }
    return true;
}

bool isIdList(const char* word) { return word[0] != '-' && std::strspn(word, "0123456789,") == std::strlen(word); }

}  // namespace

int runProfile(int argc, char** argv, int first) {
    auto usage = [](const std::string& why) {
        std::fprintf(stderr, "lanescope-cli profile: %s\n%s", why.c_str(), kProfileUsage);
        return kExitUsage;
    };
    std::vector<std::string> positional;
    SampleSelection selection;
    std::string view = "flat", format = "table";
    for (int i = first; i < argc; ++i) {
        const std::string word = argv[i];
        if (word == "--tid" || word == "--pid") {
            std::vector<int64_t>& ids = word == "--tid" ? selection.tids : selection.pids;
            const size_t before = ids.size();
            while (i + 1 < argc && isIdList(argv[i + 1]))
                if (!parseIds(argv[++i], ids)) return usage(word + " wants numbers");
            if (ids.size() == before) return usage(word + " wants one or more ids");
        } else if (word == "--view" || word == "--format" || word == "--range") {
            if (i + 1 >= argc) return usage(word + " wants a value");
            const std::string value = argv[++i];
            if (word == "--view") view = value;
            if (word == "--format") format = value;
            if (word == "--range") {
                const auto range = parseRange(value);
                if (!range) return usage("--range wants START_NS:END_NS with START_NS <= END_NS");
                selection.range = *range;
            }
        } else if (word.starts_with("--")) {
            return usage("unknown option " + word);
        } else {
            positional.push_back(word);
        }
    }
    if (positional.size() != 1) return usage("expected one FILE");
    if (view != "flat" && view != "top-down" && view != "bottom-up" && view != "threads")
        return usage("unknown --view " + view);
    if (format != "csv" && format != "json" && format != "table") return usage("unknown --format " + format);

    const auto report = loadReport(positional[0]);
    if (!report) return kExitBadInput;
    StatsTable table;
    if (view == "threads") {
        table = threadActivityTable(*report, threadActivity(*report, selection));
    } else {
        const StackCounts counts = countSamples(*report, selection);
        if (view == "flat")
            table = flatProfileTable(*report, counts);
        else if (view == "top-down")
            table = callTreeTable(*report, counts, topDownTree(*report, counts), "top-down");
        else
            table = callTreeTable(*report, counts, bottomUpTree(*report, counts), "bottom-up");
    }
    const std::string out = format == "table" && table.rows.empty()
                                ? "no CPU samples or context switches in the selection\n"
                                : formattedTable(table, format);
    return writeOut(out) ? kExitOk : kExitBadInput;
}

}  // namespace lanescope::cli
