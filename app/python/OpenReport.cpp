#include "app/python/OpenReport.h"

#include <chrono>
#include <condition_variable>
#include <exception>
#include <optional>
#include <stop_token>
#include <thread>

#include "app/cli/CliSupport.h"
#include "app/python/Errors.h"
#include "app/python/ImportFraction.h"

namespace py = pybind11;

namespace lanescope::python {
namespace {

// The import running on its own thread, and the caller's wait for it.
class ImportThread {
public:
    ImportThread(std::string path, const ImportOptions& options)
        : thread_([this, path = std::move(path), options] {
              ImportResult result = cli::importReport(path, options, fraction_, stop_.get_token());
              std::lock_guard lock(mutex_);
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
    // The result, once waitFor said the import ended.
    ImportResult& result() { return *result_; }

private:
    ImportFraction fraction_;
    std::stop_source stop_;
    std::mutex mutex_;
    std::condition_variable done_;
    std::optional<ImportResult> result_;  // guarded by mutex_
    std::thread thread_;                  // last: started once the members above exist
};

}  // namespace

std::unique_ptr<OpenedReport> openReport(const std::filesystem::path& path, const std::string& reader,
                                         const py::object& progress) {
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
    ImportThread import(path.string(), options);
    while (!import.waitFor(std::chrono::milliseconds(50))) {
        if (PyErr_CheckSignals() != 0) throw py::error_already_set();
        report(import.fraction());
    }
    if (!import.result().ok()) throw Error(import.result().error().message);
    std::unique_ptr<Report> model = std::move(import.result().report());
    report(import.fraction());  // the stages passed since the last look
    report(1.0);
    return std::make_unique<OpenedReport>(std::move(model));
}

}  // namespace lanescope::python
