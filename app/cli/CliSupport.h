#pragma once
#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

#include "importers/Importer.h"
#include "model/Report.h"
#include "model/TimeRange.h"

namespace lanescope::cli {

// Exit codes of the command line contract (CLI.md).
inline constexpr int kExitOk = 0, kExitUsage = 1, kExitBadInput = 2;

// Command-line words after the subcommand: positional arguments and --name value options
// (also --name=value). Flags listed in `flags` take no value.
struct ParsedArgs {
    std::vector<std::string> positional;
    std::map<std::string, std::string> options;
    std::string error;  // set when the words do not parse
};
ParsedArgs parseArgs(int argc, char** argv, int first, const std::vector<std::string>& known,
                     const std::vector<std::string>& flags = {});

// The options every command imports with (main sets the reader from --reader).
ImportOptions& defaultImportOptions();

// The global options, valid anywhere on the command line. takeVerbose takes every --verbose
// out of argv and says whether there was one. takeReader takes "--reader native|nsys" out,
// sets defaultImportOptions() from it and returns it ("" when absent); nullopt when its value
// is missing or neither of the two.
bool takeVerbose(int& argc, char** argv);
std::optional<std::string> takeReader(int& argc, char** argv);

// "stage 42%" on one stderr line, redrawn at most 10 times a second, only on a terminal.
class TerminalProgress final : public ProgressSink {
public:
    TerminalProgress();
    ~TerminalProgress() override;
    TerminalProgress(const TerminalProgress&) = delete;
    TerminalProgress& operator=(const TerminalProgress&) = delete;
    void progress(std::string_view stage, uint64_t done, uint64_t total) override;

private:
    bool enabled_;
    bool drawn_ = false;
    std::mutex mutex_;
    std::chrono::steady_clock::time_point last_{};
};

// Imports a file, logged (app/log/ImportLog.h), its progress sent to `progress`, cancelled
// through `stop`: the import of every front end (the command line, the Python module).
ImportResult importReport(const std::string& path, const ImportOptions& options, ProgressSink& progress,
                          std::stop_token stop = {});
// Imports several files in parallel (the ranks of one job), each logged, in the given order;
// `progress` receives "importing files" K of N. On the first failure returns an empty list and
// its one-line reason in `error`.
std::vector<std::shared_ptr<const Report>> importReports(const std::vector<std::string>& paths,
                                                         const ImportOptions& options, ProgressSink& progress,
                                                         std::string& error);

// importReport showing a progress line on stderr when it is a terminal. On failure prints
// the one-line reason to stderr and returns nullptr.
std::unique_ptr<Report> loadReport(const std::string& path, const ImportOptions& options = defaultImportOptions());

// importReports with defaultImportOptions(), showing a progress line on stderr when it is a
// terminal. On the first failure prints its one-line reason to stderr and returns an empty list.
std::vector<std::shared_ptr<const Report>> loadReports(const std::vector<std::string>& paths);

// "START:END" in ns on the report's timeline; nullopt when malformed or START > END.
std::optional<TimeRange> parseRange(const std::string& text);

// Writes text to stdout; false when stdout failed (closed pipe, full disk).
bool writeOut(const std::string& text);

}  // namespace lanescope::cli
