#pragma once
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace lanescope::bench {

// Wall-clock time since construction, on the steady clock.
class Stopwatch {
public:
    double seconds() const { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count(); }

private:
    std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

// CPU seconds of this process so far (user + system, all threads).
double processCpuNow();

// The median of the values (the mean of the middle two for an even count); 0 when empty.
double median(std::vector<double> values);
// The smallest value; 0 when empty.
double minimum(const std::vector<double>& values);

// Sizes in "MB" are mebibytes (2^20 bytes) throughout lanescope-bench.
inline constexpr double kBytesPerMb = 1024.0 * 1024.0;
double fileMb(const std::filesystem::path& path);

// What a function run in a child process returned, and the child's peak resident set size.
struct ChildRun {
    bool ok = false;         // the child exited with status 0
    std::string output;      // what the function returned, as the child wrote it to a pipe
    double peak_rss_mb = 0;  // the child's peak RSS (wait4's ru_maxrss), in MB
    double cpu_s = 0;        // the child's user + system CPU time, all its threads, in s
};

// Runs `work` in a forked child so that its memory peak is its own and not the maximum over
// everything this process did before. The caller must have no other threads (fork).
ChildRun runInChild(const std::function<std::string()>& work);

}  // namespace lanescope::bench
