// Sets up spdlog for lanescope and lanescope-cli (Logging.h).
#include "app/log/Logging.h"

#include <spdlog/sinks/null_sink.h>
#include <spdlog/sinks/rotating_file_sink.h>
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

#include <cstdlib>
#include <vector>

namespace lanescope::logging {
namespace {

constexpr size_t kFileBytes = 512 * 1024;  // per file; lanescope.log plus two older ones
constexpr size_t kFiles = 2;

}  // namespace

std::filesystem::path logFilePath() {
    const char* state = std::getenv("XDG_STATE_HOME");
    if (state && *state) return std::filesystem::path(state) / "lanescope" / "lanescope.log";
    const char* home = std::getenv("HOME");
    return std::filesystem::path(home && *home ? home : ".") / ".local" / "state" / "lanescope" / "lanescope.log";
}

std::filesystem::path init(std::string_view program, bool toFile, bool verbose) {
    std::vector<spdlog::sink_ptr> sinks;
    std::filesystem::path opened;
    if (toFile) {
        const std::filesystem::path path = logFilePath();
        std::error_code ec;
        std::filesystem::create_directories(path.parent_path(), ec);
        try {
            auto file = std::make_shared<spdlog::sinks::rotating_file_sink_mt>(path.string(), kFileBytes, kFiles);
            file->set_level(verbose ? spdlog::level::debug : spdlog::level::info);
            sinks.push_back(std::move(file));
            opened = path;
        } catch (const spdlog::spdlog_ex&) {
            // An unwritable state directory costs the log, never the program.
        }
    }
    if (verbose) {
        auto err = std::make_shared<spdlog::sinks::stderr_sink_mt>();
        err->set_level(spdlog::level::debug);
        sinks.push_back(std::move(err));
    }
    const bool silent = sinks.empty();
    if (silent) sinks.push_back(std::make_shared<spdlog::sinks::null_sink_mt>());
    auto logger = std::make_shared<spdlog::logger>(std::string(program), sinks.begin(), sinks.end());
    // Silent: nothing is even formatted (no allocation when an import ran out of memory).
    logger->set_level(silent ? spdlog::level::off : spdlog::level::debug);
    logger->set_pattern("%Y-%m-%d %H:%M:%S.%e %n[%P] %l: %v");
    logger->flush_on(spdlog::level::info);
    spdlog::set_default_logger(std::move(logger));
    return opened;
}

}  // namespace lanescope::logging
