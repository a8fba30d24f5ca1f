#include <algorithm>
#include <cstdio>
#include <memory>
#include <string_view>
#include <thread>

#include "importers/Importer.h"
#include "importers/kineto/BlockReader.h"
#include "tests/bench/Args.h"
#include "tests/bench/Commands.h"
#include "tests/bench/Measure.h"
#include "tests/bench/RawScan.h"
#include "tests/bench/StageTimes.h"

namespace lanescope::bench {
namespace {

// What one import run reports from its child process, as one line: "ok SECONDS SLICES BYTES
// FORMAT STAGES" (wall seconds of importFile, Report::counts().slices, Report::memoryBytes(),
// ReportMeta::format, StageTimes::encode) or "error MESSAGE" with the importer's one-line
// message.
std::string importOnce(const std::filesystem::path& file, const ImportOptions& options) {
    StageTimes stages;
    const Stopwatch watch;
    ImportResult result = importFile(file, options, stages);
    const double seconds = watch.seconds();
    if (!result.ok()) return "error " + result.error().message;
    const Report& report = *result.report();
    char line[160];
    std::snprintf(line, sizeof line, "ok %.9f %" PRIu64 " %zu %s ", seconds, report.counts().slices,
                  report.memoryBytes(), report.meta.format.c_str());
    return line + StageTimes::encode(stages.finish());
}

// Each stage's wall time and the cores it kept busy (CPU time over wall time), and the
// longest stage that kept fewer than 1.5 cores busy, as a share of the import: the part that
// more cores would not shorten.
void printStages(const std::vector<StageTimes::Stage>& stages, double importSeconds) {
    const StageTimes::Stage* serial = nullptr;
    for (const StageTimes::Stage& s : stages) {
        const double cores = s.wall_s > 0 ? s.cpu_s / s.wall_s : 0;
        printValue(("stage_" + s.name + "_s").c_str(), s.wall_s, 3);
        printValue(("stage_" + s.name + "_cores").c_str(), cores, 2);
        if (cores < 1.5 && (!serial || s.wall_s > serial->wall_s)) serial = &s;
    }
    if (!serial || importSeconds <= 0) return;
    std::printf("longest_serial_stage=%s\n", serial->name.c_str());
    printValue("longest_serial_stage_share", serial->wall_s / importSeconds, 3);
}

// The size of a JSON trace as the importer parses it, inflated when gzip, in MB; 0 when
// unreadable.
double jsonMb(const std::filesystem::path& file) {
    kineto::BlockReader reader;
    if (!reader.open(file)) return 0;
    auto block = std::make_unique<char[]>(4u << 20);
    uint64_t bytes = 0;
    while (const auto got = reader.read(block.get(), 4u << 20)) {
        if (*got == 0) return static_cast<double>(bytes) / kBytesPerMb;
        bytes += *got;
    }
    return 0;
}

}  // namespace

// lanescope-bench import FILE [--runs K] [--threads N]: each run imports in a fresh child
// process, so that peak RSS is that run's own and the page cache is the only thing runs share.
// N threads import (default: every core).
int importCommand(int argc, char** argv) {
    const Args args = parseArgs(argc, argv, 2, {"runs", "threads"});
    if (!args.error.empty()) return usageError(args.error);
    if (args.positional.size() != 1) return usageError("import needs one FILE");
    const auto runs = args.options.count("runs") ? parseCount(args.options.at("runs")) : 5;
    if (!runs) return usageError("--runs needs a positive count");

    const std::filesystem::path file = args.positional.front();
    const auto threads = args.options.count("threads") ? parseCount(args.options.at("threads"))
                                                       : std::optional<uint64_t>(std::thread::hardware_concurrency());
    if (!threads || *threads == 0 || *threads > 1024) return usageError("--threads needs a count from 1 to 1024");
    ImportOptions options;
    options.threads = static_cast<unsigned>(std::max<uint64_t>(1, *threads));
    std::vector<double> seconds, peakMb, rawScans;
    std::vector<std::vector<StageTimes::Stage>> stagesByRun;
    uint64_t slices = 0, bytes = 0;
    char format[64] = "";
    for (uint64_t run = 0; run < *runs; ++run) {
        const ChildRun child = runInChild([&] { return importOnce(file, options); });
        if (child.output.starts_with("error ")) {
            std::fprintf(stderr, "%s\n", child.output.substr(6).c_str());
            return kExitBadInput;
        }
        double s = 0;
        int consumed = 0;
        if (!child.ok || std::sscanf(child.output.c_str(), "ok %lf %" SCNu64 " %" SCNu64 " %63s %n", &s, &slices,
                                     &bytes, format, &consumed) != 4) {
            std::fprintf(stderr, "lanescope-bench: the import of %s crashed\n", file.c_str());
            return kExitBadInput;
        }
        seconds.push_back(s);
        peakMb.push_back(child.peak_rss_mb);
        stagesByRun.push_back(StageTimes::decode(std::string_view(child.output).substr(size_t(consumed))));
        // A SQLite file's bare scan runs right after each import, in its own child, so both
        // see the same machine load and page cache.
        if (std::string_view(format) == "nsys-sqlite") {
            const ChildRun scan = runInChild([&] {
                const auto s = rawScanSeconds(file);
                return s ? std::to_string(*s) : std::string();
            });
            if (scan.ok && !scan.output.empty()) rawScans.push_back(std::stod(scan.output));
        }
    }
    printValue("events", slices);
    printValue("import_s", median(seconds), 3);
    printValue("import_s_min", minimum(seconds), 3);
    if (!rawScans.empty()) {
        printValue("raw_scan_s", median(rawScans), 3);
        printValue("import_over_raw_scan", median(seconds) / median(rawScans), 2);
    }
    printValue("peak_rss_mb", median(peakMb), 1);
    printValue("bytes_per_event", slices ? static_cast<double>(bytes) / slices : 0.0, 1);
    printValue("threads", uint64_t{options.threads});
    printValue("file_mb", fileMb(file), 1);
    if (std::string_view(format) == "kineto-json") {  // JSON MB parsed per second
        const double json = jsonMb(file);
        if (json != fileMb(file)) printValue("json_mb", json, 1);
        printValue("ingest_mb_s", json / median(seconds), 1);
    }
    // The stages of the run whose time is the median (the upper one of an even count).
    std::vector<size_t> byTime(seconds.size());
    for (size_t i = 0; i < byTime.size(); ++i) byTime[i] = i;
    std::sort(byTime.begin(), byTime.end(), [&](size_t a, size_t b) { return seconds[a] < seconds[b]; });
    const size_t middle = byTime[byTime.size() / 2];
    printStages(stagesByRun[middle], seconds[middle]);
    return kExitOk;
}

}  // namespace lanescope::bench
