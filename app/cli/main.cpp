// lanescope-cli: the headless front end (CLI.md). Links model, importers, analysis and
// exporters, never Qt: `render`, which paints with the timeline, runs lanescope-cli-render.
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "app/cli/CliSupport.h"
#include "app/cli/Commands.h"
#include "app/log/Logging.h"
#include "importers/MemoryPolicy.h"

namespace {

constexpr const char* kUsage =
    "usage: lanescope-cli COMMAND ...\n"
    "  info FILE [--format json|table]\n"
    "  stats FILE --report NAME[,NAME...] [--format csv|json|table] [--range START_NS:END_NS]\n"
    "  analyze FILE --rule NAME[:opt=value...] [--format csv|json|table]\n"
    "  compare FILE|SUMMARY_DIR ... [--align clock|nccl|mpi|none] [--nudge US,...] [--format json|table]\n"
    "  summarize FILE --out DIR\n"
    "  profile FILE [--range START_NS:END_NS] [--tid TID ...] [--pid PID ...]\n"
    "          [--view flat|top-down|bottom-up|threads] [--format csv|json|table]\n"
    "  pytorch FILE --view overview|operators|kernels|memory|modules [--format csv|json|table]\n"
    "          [--group-by name|stack|shapes (operators: by name, by name and Python call stack, or by name\n"
    "          and input shapes)]\n"
    "  diff BASELINE CANDIDATE [--format csv|json|table]\n"
    "  critical-path FILE... [--range START_NS:END_NS | --step N | --nvtx NAME] [--what-if REGEX=FACTOR]\n"
    "          [--format csv|json|table]\n"
    "  nccl FILE... [--summary] [--format csv|json|table]\n"
    "  render FILE --out OUT.png [--size WxH] [--range START_NS:END_NS]\n"
    "  export FILE --to perfetto --out OUT.pftrace [--no-display-annotations]\n"
    "  export FILE --to sqlite --out OUT.sqlite [--force] [--with-lanescope-tables]\n"
    "  sql FILE [QUERY | -] [--format csv|json|table]   (tables: docs/sql.md)\n"
    "  --version\n"
    "  --verbose (before or after COMMAND): debug log lines on stderr (imports, stages, timings)\n"
    "  --reader native|nsys (anywhere): how .nsys-rep/.qdrep files are read: by Lanescope itself\n"
    "      (the default), or converted by the installed nsys export (cached; LANESCOPE_NSYS=off forbids it)\n"
    "FILE: an Nsight Systems SQLite export, .nsys-rep/.qdrep, a PyTorch profiler / Chrome trace\n"
    "      (.json, .json.gz), or a Perfetto trace (.pftrace)\n";

#ifdef LANESCOPE_HAS_RENDER
// Runs lanescope-cli-render (beside this program) with the render arguments and the global
// options given; returns only when it cannot be run. Built where the viewer is (the render
// program paints with the timeline).
int execRender(int argc, char** argv, bool verbose, const std::string& reader) {
    std::error_code ec;
    const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
    const std::string program = (ec ? std::filesystem::path(argv[0]) : self).parent_path() / "lanescope-cli-render";
    std::vector<char*> args{const_cast<char*>(program.c_str())};
    std::string verboseWord = "--verbose", readerWord = "--reader", readerValue = reader;
    if (verbose) args.push_back(verboseWord.data());
    if (!reader.empty()) args.insert(args.end(), {readerWord.data(), readerValue.data()});
    args.insert(args.end(), argv + 2, argv + argc);
    args.push_back(nullptr);
    ::execv(program.c_str(), args.data());
    std::fprintf(stderr, "lanescope-cli: render needs %s: %s\n", program.c_str(), std::strerror(errno));
    return lanescope::cli::kExitUsage;
}
#endif

}  // namespace

int main(int argc, char** argv) {
    using namespace lanescope::cli;
    lanescope::returnFreedMemoryToTheSystem();
    const bool verbose = takeVerbose(argc, argv);
    const auto reader = takeReader(argc, argv);
    if (!reader) {
        std::fprintf(stderr, "lanescope-cli: --reader wants native or nsys\n%s", kUsage);
        return kExitUsage;
    }
    lanescope::logging::init("lanescope-cli", false, verbose);
    if (argc < 2) {
        std::fputs(kUsage, stderr);
        return kExitUsage;
    }
    const std::string command = argv[1];
    spdlog::debug("lanescope-cli {} {}", LANESCOPE_VERSION, command);
    if (command == "--version") {
        std::printf("lanescope-cli %s\n", LANESCOPE_VERSION);
        return kExitOk;
    }
    if (command == "--help" || command == "-h") {
        std::fputs(kUsage, stdout);
        return kExitOk;
    }
    if (command == "info") return runInfo(argc, argv, 2);
    if (command == "stats") return runStats(argc, argv, 2);
    if (command == "analyze") return runAnalyze(argc, argv, 2);
    if (command == "profile") return runProfile(argc, argv, 2);
    if (command == "pytorch") return runPytorch(argc, argv, 2);
    if (command == "export") return runExport(argc, argv, 2);
    if (command == "sql") return runSql(argc, argv, 2);
    if (command == "compare") return runCompare(argc, argv, 2);
    if (command == "summarize") return runSummarize(argc, argv, 2);
    if (command == "diff") return runDiff(argc, argv, 2);
    if (command == "critical-path") return runCriticalPath(argc, argv, 2);
    if (command == "nccl") return runNccl(argc, argv, 2);
#ifdef LANESCOPE_HAS_RENDER
    if (command == "render") return execRender(argc, argv, verbose, *reader);
#endif
    std::fprintf(stderr, "lanescope-cli: unknown command '%s'\n%s", command.c_str(), kUsage);
    return kExitUsage;
}
