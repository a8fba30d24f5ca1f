#include <cstdio>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "importers/Importer.h"
#include "importers/cache/ReportCache.h"
#include "tests/bench/Args.h"
#include "tests/bench/Commands.h"
#include "tests/bench/Measure.h"

namespace lanescope::bench {
namespace {

// A fresh folder for the cache, removed with everything in it when this goes.
struct TemporaryFolder {
    std::filesystem::path path;
    TemporaryFolder() {
        std::string name = (std::filesystem::temp_directory_path() / "lanescope-bench-cache-XXXXXX").string();
        if (::mkdtemp(name.data())) path = name;
    }
    ~TemporaryFolder() {
        std::error_code ec;
        if (!path.empty()) std::filesystem::remove_all(path, ec);
    }
};

}  // namespace

// lanescope-bench cache FILE [--runs K]: the report cache on FILE. The import (once, on every
// core), then K times each: the key (the whole file hashed), storing the model, loading it back
// (from a warm page cache); medians. key_noted_s: the key of the file unchanged since its
// content hash was noted (ReportCache::keyFor), as a reopen finds it. Sizes: the entry on disk, per interval event
// (slices, as `import` counts them) and per million of them, against the model in memory. load_peak_rss_mb: the peak
// RSS of a process that only loads the model, measured first: one child imports and stores the model, another loads it
// (before this process starts a thread: runInChild forks).
int cacheCommand(int argc, char** argv) {
    const Args args = parseArgs(argc, argv, 2, {"runs"});
    if (!args.error.empty()) return usageError(args.error);
    if (args.positional.size() != 1) return usageError("cache needs one FILE");
    const auto runs = args.options.count("runs") ? parseCount(args.options.at("runs")) : 5;
    if (!runs) return usageError("--runs needs a positive count");
    const std::filesystem::path file = args.positional.front();

    const TemporaryFolder folder;
    if (folder.path.empty()) {
        std::fprintf(stderr, "lanescope-bench: cannot make a temporary folder\n");
        return kExitBadInput;
    }
    const ReportCache cache(folder.path / "models");
    // The key of the stored model, or "" on failure.
    const ChildRun stored = runInChild([&] {
        ImportOptions options;
        options.threads = std::max(1u, std::thread::hardware_concurrency());
        NullProgress progress;
        ImportResult result = importFile(file, options, progress);
        const auto made = ReportCache::key(file, "bench");
        std::string error;
        return result.ok() && made && cache.store(*result.report(), *made, error) ? *made : std::string();
    });
    const ChildRun loadAlone = runInChild([&] {
        std::string why;
        return !stored.output.empty() && cache.load(stored.output, file, why) ? std::string("ok") : std::string();
    });
    if (!stored.ok || stored.output.empty() || !loadAlone.ok || loadAlone.output.empty()) {
        std::fprintf(stderr, "lanescope-bench: %s cannot be stored and loaded in a child\n", file.string().c_str());
        return kExitBadInput;
    }

    ImportOptions options;
    options.threads = std::max(1u, std::thread::hardware_concurrency());
    NullProgress progress;
    const Stopwatch importWatch;
    ImportResult imported = importFile(file, options, progress);
    const double importSeconds = importWatch.seconds();
    if (!imported.ok()) {
        std::fprintf(stderr, "%s\n", imported.error().message.c_str());
        return kExitBadInput;
    }
    const Report& report = *imported.report();

    std::vector<double> keySeconds, storeSeconds, loadSeconds;
    std::string key;
    for (uint64_t run = 0; run < *runs; ++run) {
        const Stopwatch keyWatch;
        const auto made = ReportCache::key(file, "bench");
        keySeconds.push_back(keyWatch.seconds());
        std::string error, why;
        const Stopwatch storeWatch;
        if (!made || !cache.store(report, *made, error)) {
            std::fprintf(stderr, "lanescope-bench: not stored: %s\n", made ? error.c_str() : "the file cannot be read");
            return kExitBadInput;
        }
        storeSeconds.push_back(storeWatch.seconds());
        const Stopwatch loadWatch;
        const auto loaded = cache.load(*made, file, why);
        loadSeconds.push_back(loadWatch.seconds());
        if (!loaded) {
            std::fprintf(stderr, "lanescope-bench: not loaded: %s\n", why.c_str());
            return kExitBadInput;
        }
        key = *made;
    }

    // The key as the viewer finds it on a reopen: the file's content hash noted by the first
    // call (when the file last changed 2 s or more ago), taken from the note by the second.
    (void)cache.keyFor(file, "bench");
    const Stopwatch notedWatch;
    const auto notedKey = cache.keyFor(file, "bench");
    const double notedSeconds = notedWatch.seconds();
    const bool agrees = notedKey && notedKey == ReportCache::key(file, "bench");

    const uint64_t events = report.counts().slices;
    const double entryBytes = double(std::filesystem::file_size(cache.entryPath(key)));
    printValue("events", events);
    printValue("import_s", importSeconds, 3);
    printValue("key_s", median(keySeconds), 3);
    printValue("key_mb_s", fileMb(file) / median(keySeconds), 0);
    if (agrees) printValue("key_noted_s", notedSeconds, 4);
    printValue("store_s", median(storeSeconds), 3);
    printValue("load_s", median(loadSeconds), 3);
    printValue("load_s_min", minimum(loadSeconds), 3);
    printValue("load_peak_rss_mb", loadAlone.peak_rss_mb, 1);
    printValue("file_mb", fileMb(file), 1);
    printValue("cache_mb", entryBytes / kBytesPerMb, 1);
    printValue("cache_bytes_per_event", events ? entryBytes / double(events) : 0.0, 1);
    printValue("cache_mb_per_million_events", events ? entryBytes / kBytesPerMb / (double(events) / 1e6) : 0.0, 1);
    printValue("model_mb", double(report.memoryBytes()) / kBytesPerMb, 1);
    return kExitOk;
}

}  // namespace lanescope::bench
