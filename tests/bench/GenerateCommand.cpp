#include <exception>
#include <filesystem>

#include "tests/bench/Args.h"
#include "tests/bench/Commands.h"
#include "tests/bench/Measure.h"
#include "tests/bench/SyntheticReport.h"

namespace lanescope::bench {

// lanescope-bench generate --events N --out FILE [--force]
int generateCommand(int argc, char** argv) {
    const Args args = parseArgs(argc, argv, 2, {"events", "out"}, {"force"});
    if (!args.error.empty()) return usageError(args.error);
    if (!args.positional.empty()) return usageError("generate takes no positional arguments");
    const auto events =
        args.options.count("events") ? parseCount(args.options.at("events")) : std::nullopt;
    if (!events) return usageError("generate needs --events N, a positive count");
    if (!args.options.count("out")) return usageError("generate needs --out FILE");

    const std::filesystem::path out = args.options.at("out");
    std::error_code ec;
    if (std::filesystem::exists(out, ec)) {
        if (!args.flags.count("force")) {
            std::fprintf(stderr, "lanescope-bench: %s exists (--force overwrites it)\n",
                         out.c_str());
            return kExitUsage;
        }
        std::filesystem::remove(out, ec);
    }
    const Stopwatch watch;
    SyntheticCounts counts;
    try {
        counts = writeSyntheticReport(out, *events);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "lanescope-bench: %s\n", e.what());
        std::filesystem::remove(out, ec);
        return kExitBadInput;
    }
    const double seconds = watch.seconds();
    printValue("events", counts.total());
    printValue("kernels", counts.kernels);
    printValue("memcpy", counts.memcpy);
    printValue("memset", counts.memset);
    printValue("cuda_api", counts.cuda_api);
    printValue("nvtx", counts.nvtx);
    printValue("osrt", counts.osrt);
    printValue("file_mb", fileMb(out), 1);
    printValue("generate_s", seconds, 3);
    return kExitOk;
}

}  // namespace lanescope::bench
