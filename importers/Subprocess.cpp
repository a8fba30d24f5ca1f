#include "importers/Subprocess.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <iterator>
#include <thread>

extern char** environ;

namespace lanescope {
namespace {

std::string tail(const std::filesystem::path& file, size_t maxBytes) {
    std::ifstream in(file, std::ios::binary);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    return text.size() > maxBytes ? text.substr(text.size() - maxBytes) : text;
}

}  // namespace

SubprocessResult runSubprocess(const std::vector<std::string>& argv, std::chrono::seconds timeout,
                               std::stop_token stop) {
    SubprocessResult result;
    char outTemplate[] = "/tmp/lanescope-subprocess-XXXXXX";
    const int outFd = ::mkstemp(outTemplate);
    if (outFd < 0) {
        result.output = "cannot create a temporary file for the output";
        return result;
    }
    const std::filesystem::path outPath = outTemplate;

    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, outFd, STDOUT_FILENO);
    posix_spawn_file_actions_adddup2(&actions, outFd, STDERR_FILENO);
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&attr, 0);

    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    pid_t pid = 0;
    const int rc = ::posix_spawn(&pid, args[0], &actions, &attr, args.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
    ::close(outFd);
    if (rc != 0) {
        result.output = "cannot start " + argv[0];
        std::filesystem::remove(outPath);
        return result;
    }
    result.started = true;

    const auto deadline = std::chrono::steady_clock::now() + timeout;
    auto killedAt = std::chrono::steady_clock::time_point::max();
    int status = 0;
    while (true) {
        const pid_t done = ::waitpid(pid, &status, WNOHANG);
        if (done == pid || done < 0) break;
        const auto now = std::chrono::steady_clock::now();
        if (killedAt == std::chrono::steady_clock::time_point::max()) {
            if (stop.stop_requested()) result.cancelled = true;
            if (now > deadline) result.timed_out = true;
            if (result.cancelled || result.timed_out) {
                ::kill(-pid, SIGTERM);
                killedAt = now;
            }
        } else if (now - killedAt > std::chrono::seconds(2)) {
            ::kill(-pid, SIGKILL);
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
    if (WIFSIGNALED(status)) result.signalled = true;
    result.output = tail(outPath, 64 * 1024);
    std::filesystem::remove(outPath);
    return result;
}

}  // namespace lanescope
