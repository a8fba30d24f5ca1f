#pragma once
#include <filesystem>
#include <string_view>

namespace lanescope::logging {

// Where the viewer writes its log: $XDG_STATE_HOME/lanescope/lanescope.log, else
// ~/.local/state/lanescope/lanescope.log.
std::filesystem::path logFilePath();

// Replaces spdlog's default logger (which would write to stdout) with ours: with toFile a small
// rotating file at logFilePath() (info and up, debug with verbose), with verbose debug lines on
// stderr too; neither: a logger that drops everything. Returns the log file opened, or an
// empty path. The log is for diagnosis: what a user must read is also shown in the window or
// on stderr.
std::filesystem::path init(std::string_view program, bool toFile, bool verbose);

}  // namespace lanescope::logging
