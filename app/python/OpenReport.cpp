#include "app/python/OpenReport.h"

#include <chrono>
#include <condition_variable>
#include <exception>
#include <optional>
#include <stop_token>
#include <thread>
#include <vector>

#include "app/cli/CliSupport.h"
#include "app/cli/SavedModels.h"
#include "app/python/Errors.h"
#include "app/python/ImportFraction.h"
#include "importers/cache/ReportCache.h"

namespace py = pybind11;

namespace lanescope::python {
namespace {

// The import running on its own thread, and the caller's wait for it. With a cache, the report
// is read back from its saved model when there is one, and saved there after an import.
class ImportThread {
public:
    ImportThread(std::string path, const ImportOptions& options, const ReportCache* cache)
        : thread_([this, path = std::move(path), options, cache] {
              std::vector<std::string> notes;
              bool fromCache = false;
              ImportResult result = cache ? throughCache(path, options, *cache, fromCache, notes)
                                          : cli::importReport(path, options, fraction_, stop_.get_token());
              std::lock_guard lock(mutex_);
              notes_ = std::move(notes);
              fromCache_ = fromCache;
              result_.emplace(std::move(result));
              done_.notify_all();
          }) {}
    ImportThread(const ImportThread&) = delete;
    ImportThread& operator=(const ImportThread&) = delete;
    // Stops the import when it is still running (an exception left the caller's loop).
    ~ImportThread() {
        stop_.request_stop();
        py::gil_scoped_release release;
        thread_.join();
    }

    // Waits up to `timeout` for the import to end, without the GIL; true once it has.
    bool waitFor(std::chrono::milliseconds timeout) {
        py::gil_scoped_release release;
        std::unique_lock lock(mutex_);
        return done_.wait_for(lock, timeout, [this] { return result_.has_value(); });
    }
    double fraction() const { return fraction_.fraction(); }
    // The result, once waitFor said the import ended; whether it was read from the cache, and
    // what the cache had to say (an entry it could not use, a model it could not save).
    ImportResult& result() { return *result_; }
    bool fromCache() const { return fromCache_; }
    const std::vector<std::string>& notes() const { return notes_; }

private:
    // The saved model of `path` when the cache holds a usable one, else an import, saved.
    ImportResult throughCache(const std::string& path, const ImportOptions& options, const ReportCache& cache,
                              bool& fromCache, std::vector<std::string>& notes) {
        const std::stop_token stop = stop_.get_token();
        cli::SavedModel saved = cli::readSavedModel(cache, path, options, stop, notes);
        if (saved.report) {
            fromCache = true;
            return ImportResult(std::move(saved.report));
        }
        ImportResult result = cli::importReport(path, options, fraction_, stop);
        if (result.ok()) cli::saveModel(cache, *result.report(), saved.key, path, notes);
        return result;
    }

    ImportFraction fraction_;
    std::stop_source stop_;
    std::mutex mutex_;
    std::condition_variable done_;
    std::optional<ImportResult> result_;  // guarded by mutex_
    bool fromCache_ = false;              // guarded by mutex_, set with result_
    std::vector<std::string> notes_;      // guarded by mutex_, set with result_
    std::thread thread_;                  // last: started once the members above exist
};

}  // namespace

std::unique_ptr<OpenedReport> openReport(const std::filesystem::path& path, const std::string& reader,
                                         const py::object& progress, bool cache) {
    if (reader != "native" && reader != "nsys")
        throw py::value_error("reader must be \"native\" or \"nsys\", not \"" + reader + "\"");
    ImportOptions options;
    options.nsys_reader = reader == "nsys" ? NsysReader::NsysExport : NsysReader::Native;
    double reported = -1;
    auto report = [&](double fraction) {
        if (progress.is_none() || fraction <= reported) return;
        reported = fraction;
        progress(fraction);
    };
    report(0.0);
    const std::optional<ReportCache> models =
        cache && ReportCache::enabled() ? std::optional<ReportCache>(std::in_place) : std::nullopt;
    ImportThread import(path.string(), options, models ? &*models : nullptr);
    while (!import.waitFor(std::chrono::milliseconds(50))) {
        if (PyErr_CheckSignals() != 0) throw py::error_already_set();
        report(import.fraction());
    }
    warnEach(import.notes());
    if (!import.result().ok()) throw Error(import.result().error().message);
    std::unique_ptr<Report> model = std::move(import.result().report());
    report(import.fraction());  // the stages passed since the last look
    report(1.0);
    return std::make_unique<OpenedReport>(std::move(model), import.fromCache());
}

}  // namespace lanescope::python
