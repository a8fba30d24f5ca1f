// lanescope-cli: the headless front end (CLI.md). Links model and importers only.
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>

#include "app/cli/CliSupport.h"
#include "app/cli/Commands.h"
#include "app/log/Logging.h"

namespace {

constexpr const char* kUsage =
    "usage: lanescope-cli COMMAND ...\n"
    "  info FILE [--format json|table]\n"
    "  stats FILE --report NAME[,NAME...] [--format csv|json|table] [--range START_NS:END_NS]\n"
    "  analyze FILE --rule NAME[:opt=value...] [--format csv|json|table]\n"
    "  compare FILE FILE... [--align clock|nccl|none] [--format json|table]\n"
    "  diff BASELINE CANDIDATE [--format csv|json|table]\n"
    "  render FILE --out OUT.png [--size WxH] [--range START_NS:END_NS]\n"
    "  export FILE --to perfetto --out OUT.pftrace [--no-display-annotations]\n"
    "  --version\n"
    "  --verbose (before or after COMMAND): debug log lines on stderr (imports, stages, timings)\n"
    "  --reader native|nsys (anywhere): how .nsys-rep/.qdrep files are read: by Lanescope itself\n"
    "      (the default), or converted by the installed nsys export (cached; LANESCOPE_NSYS=off forbids it)\n"
    "FILE: an Nsight Systems SQLite export, .nsys-rep/.qdrep, a PyTorch profiler / Chrome trace\n"
    "      (.json, .json.gz), or a Perfetto trace (.pftrace)\n";

// Takes --verbose out of the arguments wherever it stands; true when it was there.
bool takeVerbose(int& argc, char** argv) {
    const int before = argc;
    argc = int(std::remove_if(argv + 1, argv + argc, [](const char* a) { return std::strcmp(a, "--verbose") == 0; }) -
               argv);
    argv[argc] = nullptr;
    return argc != before;
}

// Takes "--reader VALUE" out of the arguments wherever it stands; its value, "" when absent,
// nullopt when it has none.
std::optional<std::string> takeReader(int& argc, char** argv) {
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--reader") != 0) continue;
        if (i + 1 >= argc) return std::nullopt;
        std::string value = argv[i + 1];
        std::copy(argv + i + 2, argv + argc + 1, argv + i);
        argc -= 2;
        return value;
    }
    return std::string();
}

}  // namespace

int main(int argc, char** argv) {
    using namespace lanescope::cli;
    const bool verbose = takeVerbose(argc, argv);
    const auto reader = takeReader(argc, argv);
    if (!reader || (!reader->empty() && *reader != "native" && *reader != "nsys")) {
        std::fprintf(stderr, "lanescope-cli: --reader wants native or nsys\n%s", kUsage);
        return kExitUsage;
    }
    if (*reader == "nsys") defaultImportOptions().nsys_reader = lanescope::NsysReader::NsysExport;
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
    if (command == "export") return runExport(argc, argv, 2);
    if (command == "compare") return runCompare(argc, argv, 2);
    if (command == "diff") return runDiff(argc, argv, 2);
#ifdef LANESCOPE_HAS_RENDER
    if (command == "render") return runRender(argc, argv, 2);
#endif
    std::fprintf(stderr, "lanescope-cli: unknown command '%s'\n%s", command.c_str(), kUsage);
    return kExitUsage;
}
