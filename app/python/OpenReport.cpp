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
              Outcome outcome =
                  cache ? throughCache(path, options, *cache)
                        : Outcome{cli::importReport(path, options, fraction_, stop_.get_token()), false, {}};
              std::lock_guard lock(mutex_);
              outcome_.emplace(std::move(outcome));
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
        return done_.wait_for(lock, timeout, [this] { return outcome_.has_value(); });
    }
    double fraction() const { return fraction_.fraction(); }

    // The result; whether it was read back from the cache, and what the cache had to say (an
    // entry it could not use, a model it could not save).
    struct Outcome {
        ImportResult result;
        bool from_cache = false;
        std::vector<std::string> notes;
    };
    // Once waitFor said the import ended.
    Outcome& outcome() { return *outcome_; }

private:
    // The saved model of `path` when the cache holds a usable one, else an import, saved.
    Outcome throughCache(const std::string& path, const ImportOptions& options, const ReportCache& cache) {
        const std::stop_token stop = stop_.get_token();
        std::vector<std::string> notes;
        cli::SavedModel saved = cli::readSavedModel(cache, path, options, stop, notes);
        if (saved.report) return {ImportResult(std::move(saved.report)), true, std::move(notes)};
        ImportResult result = cli::importReport(path, options, fraction_, stop);
        if (result.ok()) cli::saveModel(cache, *result.report(), saved.key, path, notes);
        return {std::move(result), false, std::move(notes)};
    }

    ImportFraction fraction_;
    std::stop_source stop_;
    std::mutex mutex_;
    std::condition_variable done_;
    std::optional<Outcome> outcome_;  // guarded by mutex_
    std::thread thread_;              // last: started once the members above exist
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
    ImportThread::Outcome& outcome = import.outcome();
    warnEach(outcome.notes);
    if (!outcome.result.ok()) throw Error(outcome.result.error().message);
    std::unique_ptr<Report> model = std::move(outcome.result.report());
    report(import.fraction());  // the stages passed since the last look
    report(1.0);
    return std::make_unique<OpenedReport>(std::move(model), outcome.from_cache);
}

}  // namespace lanescope::python
