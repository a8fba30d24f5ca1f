#include "tests/bench/BenchInput.h"

#include <unistd.h>

#include <cstdio>
#include <exception>
#include <filesystem>
#include <optional>

#include "importers/Importer.h"
#include "tests/bench/Commands.h"
#include "tests/support/SyntheticReport.h"

namespace lanescope::bench {
namespace {

// A file in the temporary directory, removed when this goes out of scope.
struct TempFile {
    std::filesystem::path path =
        std::filesystem::temp_directory_path() / ("lanescope-bench-" + std::to_string(getpid()) + ".sqlite");
    ~TempFile() {
        std::error_code ec;
        std::filesystem::remove(path, ec);
    }
};

}  // namespace

BenchInput loadBenchInput(const Args& args, const ImportOptions& options) {
    BenchInput input;
    if (args.has("events") == (args.positional.size() == 1) || args.positional.size() > 1) {
        input.exit_code = usageError("needs either --events N or one FILE");
        return input;
    }
    std::optional<TempFile> temp;
    std::filesystem::path file;
    if (args.has("events")) {
        const auto events = parseCount(args.options.at("events"));
        if (!events) {
            input.exit_code = usageError("--events needs a positive count");
            return input;
        }
        file = temp.emplace().path;
        std::error_code ec;
        std::filesystem::remove(file, ec);  // left by a crashed run with our pid
        try {
            writeSyntheticReport(file, *events);
        } catch (const std::exception& e) {
            std::fprintf(stderr, "lanescope-bench: %s\n", e.what());
            input.exit_code = kExitBadInput;
            return input;
        }
    } else {
        file = args.positional.front();
    }
    NullProgress progress;
    ImportResult result = importFile(file, options, progress);
    if (!result.ok()) {
        std::fprintf(stderr, "%s\n", result.error().message.c_str());
        input.exit_code = kExitBadInput;
        return input;
    }
    input.report = std::move(result.report());
    return input;
}

}  // namespace lanescope::bench
