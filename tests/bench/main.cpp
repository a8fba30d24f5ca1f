// lanescope-bench: figures for import, statistics and (later) rendering, as key=value lines.
// See docs: CLI.md, section lanescope-bench.
#include <cstdio>
#include <string>

#include "importers/MemoryPolicy.h"
#include "tests/bench/Commands.h"

namespace lanescope::bench {
namespace {

constexpr const char* kUsage =
    "usage:\n"
    "  lanescope-bench generate [--format nsys|kineto] --events N --out FILE [--force]\n"
    "      write a synthetic Nsight Systems SQLite export (FILE.sqlite, the default) or PyTorch\n"
    "      profiler trace (FILE.json or FILE.json.gz) with N interval events\n"
    "  lanescope-bench import FILE [--runs K] [--threads N]\n"
    "      import time and memory, median of K runs (default 5); JSON MB/s for JSON traces;\n"
    "      for an nsys SQLite export, raw_scan_s: a bare sqlite3 scan of the same rows\n"
    "  lanescope-bench stats [--events N | FILE] [--runs K] [--set default|all]\n"
    "      the reports nsys stats prints by default and GPU gaps, over the whole trace and its\n"
    "      middle tenth; with all (the default) also every summary report, each alone, the traces\n"
    "  lanescope-bench compare [--ranks K --events N | FILE...] [--runs R]\n"
    "      K rank reports opened together and compared (NCCL alignment, metrics, straggler)\n"
    "  lanescope-bench render [--events N[,N...] | FILE] [--size WxH] [--frames K]\n"
    "      frame build + paint times over 12 zoom levels, whole trace to 1 us (default 1920x1080)\n"
    "  lanescope-bench critical-path [--events N | FILE] [--runs K]\n"
    "      the critical path of the whole trace, and with a what-if (kernels 2x faster):\n"
    "      critical_path_ms=, critical_path_what_if_ms=\n"
    "  lanescope-bench nccl [--ranks K] [--collectives N] [--runs R]\n"
    "      every collective of K synthetic ranks (default 64 x 10,000) matched, sized, waits and summary:\n"
    "      nccl_analysis_ms=, nccl_summary_ms=, communication_panel_ms= (the panel shown, offscreen)\n"
    "  lanescope-bench profile [--samples N] [--runs K]\n"
    "      the CPU profile (flat, top-down, bottom-up) of N synthetic samples, whole and a tenth\n"
    "  lanescope-bench events [--events N | FILE] [--runs K]\n"
    "      the Events table: open (row index + first frame), sort, filter and scroll over N events\n"
    "      (default 10,000,000, built in memory) or FILE's largest lane; merge of several rows\n"
    "  lanescope-bench open FILE [--after-ms M] [--from-cache [--model-only]] [--pytorch VIEW] [--panels]\n"
    "      the viewer opening FILE offscreen against the import alone: first_paint_s, open_s,\n"
    "      peak RSS, and how long the GUI thread stalls while it loads and for M ms after\n"
    "      (default 3000); --from-cache: reopening it from its saved model and kept Statistics\n"
    "      table (--model-only: the model alone); --panels: then each bottom panel brought to\n"
    "      the front in turn, the time to fill it and the longest stall\n"
    "  lanescope-bench cache FILE [--runs K]\n"
    "      the report cache: the import once, then the key, storing and loading the model\n"
    "      (median of K runs, default 5); the entry's bytes per event; the model's own size;\n"
    "      the peak RSS of a load alone (load_peak_rss_mb)\n"
    "  lanescope-bench sql FILE [--export NSYS_EXPORT.sqlite] [--runs K]\n"
    "      the queries users write for nsys exports on FILE in memory, and with --export\n"
    "      by sqlite3 on nsys's export of it: first and median ms of each, same rows or not\n"
    "  lanescope-bench pytorch FILE [--runs K]\n"
    "      the PyTorch operators view on FILE: the first run (with the correlation index) and\n"
    "      the median of K more (default 5), pytorch_operators_ms; then the median of K runs of\n"
    "      the memory view and of its allocations table (pytorch_memory_ms, pytorch_memory_table_ms),\n"
    "      of the modules view (pytorch_modules_ms), of the operators by call stack\n"
    "      (pytorch_operator_stacks_ms) and by input shapes (pytorch_operator_shapes_ms)\n"
    "      the overview: the median of K runs, pytorch_overview_ms\n"
    "exit status: 0 done, 1 bad arguments, 2 input that cannot be imported or written\n";

}  // namespace

int usageError(const std::string& message) {
    std::fprintf(stderr, "lanescope-bench: %s\n%s", message.c_str(), kUsage);
    return kExitUsage;
}

}  // namespace lanescope::bench

int main(int argc, char** argv) {
    using namespace lanescope::bench;
    lanescope::returnFreedMemoryToTheSystem();
    if (argc < 2) return usageError("missing subcommand");
    const std::string command = argv[1];
    if (command == "generate") return generateCommand(argc, argv);
    if (command == "import") return importCommand(argc, argv);
    if (command == "stats") return statsCommand(argc, argv);
    if (command == "render") return renderCommand(argc, argv);
    if (command == "compare") return compareCommand(argc, argv);
    if (command == "profile") return profileCommand(argc, argv);
    if (command == "events") return eventsCommand(argc, argv);
    if (command == "open") return openCommand(argc, argv);
    if (command == "cache") return cacheCommand(argc, argv);
    if (command == "sql") return sqlCommand(argc, argv);
    if (command == "pytorch") return pytorchCommand(argc, argv);
    if (command == "critical-path") return criticalPathCommand(argc, argv);
    if (command == "nccl") return ncclCommand(argc, argv);
    if (command == "--help" || command == "help") {
        std::fputs(kUsage, stdout);
        return kExitOk;
    }
    return usageError("unknown subcommand " + command);
}
