#include <exception>
#include <filesystem>

#include "tests/bench/Args.h"
#include "tests/bench/Commands.h"
#include "tests/bench/KinetoTraceWriter.h"
#include "tests/bench/Measure.h"
#include "tests/support/SyntheticReport.h"

namespace lanescope::bench {

namespace {

// Writes a Kineto trace and prints its figures; the exit code.
int generateKineto(const std::filesystem::path& out, uint64_t events) {
    const Stopwatch watch;
    const KinetoTraceCounts counts = writeKinetoTrace(out, events);
    const double seconds = watch.seconds();
    printValue("events", counts.complete());
    printValue("cpu_op", counts.cpu_op);
    printValue("python_function", counts.python);
    printValue("user_annotation", counts.annotation);
    printValue("cuda_api", counts.cuda_api);
    printValue("kernels", counts.kernels);
    printValue("memcpy", counts.memcpy);
    printValue("memset", counts.memset);
    printValue("gpu_user_annotation", counts.gpu_annotation);
    printValue("flow_events", counts.flows);
    printValue("instants", counts.instants);
    printValue("counter_events", counts.counters);
    printValue("metadata_events", counts.metadata);
    printValue("file_mb", fileMb(out), 1);
    printValue("generate_s", seconds, 3);
    return kExitOk;
}

// Writes an nsys SQLite export and prints its figures; the exit code.
int generateNsys(const std::filesystem::path& out, uint64_t events, uint64_t seed) {
    const Stopwatch watch;
    const SyntheticCounts counts = writeSyntheticReport(out, events, seed);
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

}  // namespace

// lanescope-bench generate [--format nsys|kineto] --events N --out FILE [--seed S] [--force]
// (--seed, nsys only: other durations, e.g. one per rank of a many-rank job)
int generateCommand(int argc, char** argv) {
    const Args args = parseArgs(argc, argv, 2, {"events", "out", "format", "seed"}, {"force"});
    if (!args.error.empty()) return usageError(args.error);
    if (!args.positional.empty()) return usageError("generate takes no positional arguments");
    const auto events = args.options.count("events") ? parseCount(args.options.at("events")) : std::nullopt;
    if (!events) return usageError("generate needs --events N, a positive count");
    if (!args.options.count("out")) return usageError("generate needs --out FILE");
    const std::string format = args.options.count("format") ? args.options.at("format") : "nsys";
    if (format != "nsys" && format != "kineto") return usageError("--format is nsys or kineto");
    const auto seed = args.options.count("seed") ? parseCount(args.options.at("seed")) : kSyntheticSeed;
    if (!seed || (format == "kineto" && args.options.count("seed")))
        return usageError("--seed wants a positive number, for --format nsys");

    const std::filesystem::path out = args.options.at("out");
    std::error_code ec;
    if (std::filesystem::exists(out, ec)) {
        if (!args.flags.count("force")) {
            std::fprintf(stderr, "lanescope-bench: %s exists (--force overwrites it)\n", out.c_str());
            return kExitUsage;
        }
        std::filesystem::remove(out, ec);
    }
    try {
        return format == "kineto" ? generateKineto(out, *events) : generateNsys(out, *events, *seed);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "lanescope-bench: %s\n", e.what());
        std::filesystem::remove(out, ec);
        return kExitBadInput;
    }
}

}  // namespace lanescope::bench
