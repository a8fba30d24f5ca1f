#pragma once
#include <chrono>
#include <filesystem>
#include <stop_token>
#include <string>
#include <vector>

namespace lanescope {

struct SubprocessResult {
    bool started = false;
    int exit_code = -1;      // valid when the child exited normally
    bool signalled = false;  // killed by a signal (crash), or by us
    bool timed_out = false;
    bool cancelled = false;
    std::string output;  // stdout and stderr together, the last 64 KiB
};

// Runs argv[0] with the arguments as a list (no shell), its output captured through a
// temporary file, in its own process group so a timeout or a stop request ends the child and
// everything it started (SIGTERM, then SIGKILL after 2 s).
SubprocessResult runSubprocess(const std::vector<std::string>& argv, std::chrono::seconds timeout,
                               std::stop_token stop);

}  // namespace lanescope
