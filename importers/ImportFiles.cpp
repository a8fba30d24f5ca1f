#include "importers/ImportFiles.h"

#include <algorithm>
#include <atomic>
#include <optional>
#include <string>
#include <thread>

#include "importers/MemoryEstimate.h"

namespace lanescope {

std::vector<ImportResult> importFiles(const std::vector<std::filesystem::path>& paths, const ImportOptions& options,
                                      ProgressSink& progress, std::stop_token stop) {
    const unsigned cores = options.threads ? options.threads : std::max(1u, std::thread::hardware_concurrency());
    const size_t workers = std::min<size_t>(paths.size(), cores);
    ImportOptions each = options;
    each.threads = std::max<unsigned>(1, cores / std::max<size_t>(1, workers));
    // The reports share the memory there is when they start (the finished ones stay open):
    // each is refused when it would not fit beside the estimates of those let in before it.
    std::atomic<uint64_t> promised{0};
    if (!each.memory_promised) {
        each.memory_limit_bytes = availableMemory(options);
        each.memory_promised = &promised;
    }

    std::vector<std::optional<ImportResult>> results(paths.size());
    std::atomic<size_t> next{0}, done{0};
    auto work = [&] {
        NullProgress quiet;  // per-file stages would interleave; the count of files done is shown
        for (size_t i; (i = next++) < paths.size();) {
            results[i].emplace(importFile(paths[i], each, quiet, stop));
            progress.progress("importing files", ++done, paths.size());
        }
    };
    progress.progress("importing files", 0, paths.size());
    {
        std::vector<std::jthread> pool;
        for (size_t w = 1; w < workers; ++w) pool.emplace_back(work);
        work();
    }
    std::vector<ImportResult> out;
    out.reserve(paths.size());
    for (auto& r : results) out.push_back(std::move(*r));
    return out;
}

}  // namespace lanescope
