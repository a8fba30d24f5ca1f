// Fuzz target: any bytes, written to a file with the extension of one format, then imported.
// The importer must return a report or a one-line error, never crash or hang; on a report, the
// PyTorch views (analysis/pytorch/PytorchViews.h) must not either.
// Built in every build: under clang with -DLANESCOPE_LIBFUZZER=ON it is a libFuzzer target;
// otherwise MutationDriver.cpp runs it over seeds and deterministic mutations of them.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "analysis/pytorch/PytorchViews.h"
#include "importers/Importer.h"

#ifndef LANESCOPE_FUZZ_EXTENSION
#error "LANESCOPE_FUZZ_EXTENSION must name the file extension, e.g. \".json\""
#endif

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    static const std::filesystem::path file =
        std::filesystem::temp_directory_path() /
        ("lanescope-fuzz-" + std::to_string(::getpid()) + LANESCOPE_FUZZ_EXTENSION);
    {
        std::ofstream out(file, std::ios::binary | std::ios::trunc);
        out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
    }
    lanescope::ImportOptions options;
    options.threads = 1;
    options.nsys_path = "/nonexistent/nsys";  // never run a converter on fuzz input
    lanescope::NullProgress progress;
    lanescope::ImportResult result = lanescope::importFile(file, options, progress);
    if (!result.ok() && result.error().message.find('\n') != std::string::npos) {
        std::fprintf(stderr, "multi-line error: %s\n", result.error().message.c_str());
        __builtin_trap();  // errors are one line
    }
    if (result.ok()) {
        (void)result.report()->counts();
        // What a damaged file gives must also hold for the analyses a user opens on it first.
        for (const lanescope::PytorchViewEntry& view : lanescope::pytorchViews())
            (void)view.compute(*result.report(), SIZE_MAX);
    }
    std::filesystem::remove(file);  // a run may be the last: leave nothing in the temp folder
    return 0;
}
