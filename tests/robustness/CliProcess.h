// Runs lanescope-cli as a child process (no shell) with a time limit and extra environment
// variables, and tells exactly how it ended: exit code, signal, or killed after the limit.
#pragma once
#include <chrono>
#include <map>
#include <string>
#include <vector>

namespace lanescope::test {

struct CliRun {
    bool timedOut = false;  // killed after the limit: a hang
    int signal = 0;         // the signal that ended it, 0 when it exited
    int exitCode = -1;      // valid when signal == 0 and !timedOut
    std::string out;
    std::string err;
    double seconds = 0;

    bool exited() const { return !timedOut && signal == 0; }
    std::string describe() const;  // "exit 2", "signal 11", "timed out after 30 s"
};

// Runs LANESCOPE_CLI with args; env entries are set (or replaced) in the child's environment.
CliRun runCli(const std::vector<std::string>& args, std::chrono::seconds limit,
              const std::map<std::string, std::string>& env = {});

}  // namespace lanescope::test
