#include "app/cli/CliSupport.h"

#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstring>

#include "app/log/ImportLog.h"
#include "importers/ImportFiles.h"
#include "importers/Importer.h"

namespace lanescope::cli {

TerminalProgress::TerminalProgress() : enabled_(::isatty(STDERR_FILENO) == 1) {}

TerminalProgress::~TerminalProgress() {
    if (enabled_ && drawn_) std::fprintf(stderr, "\r\033[K");
}

void TerminalProgress::progress(std::string_view stage, uint64_t done, uint64_t total) {
    if (!enabled_) return;
    std::lock_guard lock(mutex_);
    const auto now = std::chrono::steady_clock::now();
    if (drawn_ && now - last_ < std::chrono::milliseconds(100)) return;
    last_ = now;
    drawn_ = true;
    if (total > 0)
        std::fprintf(stderr, "\r\033[K%.*s %3d%%", static_cast<int>(stage.size()), stage.data(),
                     static_cast<int>(std::min<uint64_t>(100, done * 100 / total)));
    else
        std::fprintf(stderr, "\r\033[K%.*s…", static_cast<int>(stage.size()), stage.data());
}

ParsedArgs parseArgs(int argc, char** argv, int first, const std::vector<std::string>& known,
                     const std::vector<std::string>& flags) {
    ParsedArgs parsed;
    auto listed = [](const std::vector<std::string>& list, const std::string& name) {
        return std::find(list.begin(), list.end(), name) != list.end();
    };
    for (int i = first; i < argc; ++i) {
        std::string word = argv[i];
        if (word.size() < 3 || !word.starts_with("--")) {
            parsed.positional.push_back(word);
            continue;
        }
        std::string name = word.substr(2), value;
        const auto eq = name.find('=');
        const bool inlineValue = eq != std::string::npos;
        if (inlineValue) {
            value = name.substr(eq + 1);
            name = name.substr(0, eq);
        }
        if (listed(flags, name)) {
            parsed.options[name] = "1";
        } else if (!listed(known, name)) {
            parsed.error = "unknown option --" + name;
            return parsed;
        } else if (inlineValue) {
            parsed.options[name] = value;
        } else if (i + 1 < argc) {
            parsed.options[name] = argv[++i];
        } else {
            parsed.error = "--" + name + " needs a value";
            return parsed;
        }
    }
    return parsed;
}

ImportOptions& defaultImportOptions() {
    static ImportOptions options;
    return options;
}

bool takeVerbose(int& argc, char** argv) {
    const int before = argc;
    argc = int(std::remove_if(argv + 1, argv + argc, [](const char* a) { return std::strcmp(a, "--verbose") == 0; }) -
               argv);
    argv[argc] = nullptr;
    return argc != before;
}

std::optional<std::string> takeReader(int& argc, char** argv) {
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--reader") != 0) continue;
        if (i + 1 >= argc) return std::nullopt;
        std::string value = argv[i + 1];
        std::copy(argv + i + 2, argv + argc + 1, argv + i);
        argc -= 2;
        if (value != "native" && value != "nsys") return std::nullopt;
        defaultImportOptions().nsys_reader = value == "nsys" ? NsysReader::NsysExport : NsysReader::Native;
        return value;
    }
    return std::string();
}

ImportResult importReport(const std::string& path, const ImportOptions& options, ProgressSink& progress,
                          std::stop_token stop) {
    logging::LoggedProgress logged(path, progress);
    ImportResult result = importFile(path, options, logged, std::move(stop));
    logging::logImport(path, result, logged);
    return result;
}

std::vector<std::shared_ptr<const Report>> importReports(const std::vector<std::string>& paths,
                                                         const ImportOptions& options, ProgressSink& progress,
                                                         std::string& error) {
    logging::LoggedProgress logged(std::to_string(paths.size()) + " files", progress);
    std::vector<ImportResult> results =
        importFiles(std::vector<std::filesystem::path>(paths.begin(), paths.end()), options, logged);
    std::vector<std::shared_ptr<const Report>> reports;
    for (size_t i = 0; i < results.size(); ++i) logging::logImport(paths[i], results[i], logged);
    for (ImportResult& result : results) {
        if (!result.ok()) {
            error = result.error().message;
            return {};
        }
        reports.push_back(std::move(result.report()));
    }
    return reports;
}

std::unique_ptr<Report> loadReport(const std::string& path, const ImportOptions& options) {
    TerminalProgress terminal;
    ImportResult result = importReport(path, options, terminal);
    if (!result.ok()) {
        std::fprintf(stderr, "lanescope-cli: %s\n", result.error().message.c_str());
        return nullptr;
    }
    return std::move(result.report());
}

std::vector<std::shared_ptr<const Report>> loadReports(const std::vector<std::string>& paths) {
    TerminalProgress terminal;
    std::string error;
    auto reports = importReports(paths, defaultImportOptions(), terminal, error);
    if (!error.empty()) std::fprintf(stderr, "lanescope-cli: %s\n", error.c_str());
    return reports;
}

namespace {

bool parseInt(std::string_view text, int64_t& out) {
    const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
    return ec == std::errc{} && ptr == text.data() + text.size();
}

// "START:END" in ns on the report's timeline.
}  // namespace

std::optional<TimeRange> parseRange(const std::string& text) {
    const auto colon = text.find(':');
    TimeRange range;
    if (colon == std::string::npos || !parseInt(std::string_view(text).substr(0, colon), range.begin_ns) ||
        !parseInt(std::string_view(text).substr(colon + 1), range.end_ns) || range.end_ns < range.begin_ns)
        return std::nullopt;
    return range;
}

bool writeOut(const std::string& text) {
    return std::fwrite(text.data(), 1, text.size(), stdout) == text.size() && std::fflush(stdout) == 0;
}

}  // namespace lanescope::cli
