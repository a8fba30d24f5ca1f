// Fuzz target: any bytes, written to a file with the extension of one format, then imported.
// The importer must return a report or a one-line error, never crash or hang; on a report, the
// PyTorch views (analysis/pytorch/PytorchViews.h), the decoder of every NVTX extended payload
// the critical path and the collectives must not either: the path is either refused
// (std::invalid_argument: nothing to walk) or covers its range exactly.
// Built in every build: under clang with -DLANESCOPE_LIBFUZZER=ON it is a libFuzzer target;
// otherwise MutationDriver.cpp runs it over seeds and deterministic mutations of them.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

#include "analysis/communication/CollectiveInstances.h"
#include "analysis/critical_path/CriticalPath.h"
#include "analysis/pytorch/PytorchViews.h"
#include "importers/Importer.h"
#include "model/NvtxPayloadDecoder.h"

#ifndef LANESCOPE_FUZZ_EXTENSION
#error "LANESCOPE_FUZZ_EXTENSION must name the file extension, e.g. \".json\""
#endif

namespace {

// The whole report's critical path, with a what-if rule: refused, or contiguous segments in time
// order that cover the range exactly, the what-if never longer.
void checkCriticalPath(const lanescope::Report& report) {
    lanescope::CriticalPathOptions options;
    options.what_if.push_back({".", 2.0});
    lanescope::CriticalPath path;
    try {
        path = lanescope::computeCriticalPath({&report}, options);
    } catch (const std::invalid_argument&) {
        return;  // nothing to walk
    }
    const lanescope::PathSegments& s = path.segments;
    int64_t at = path.begin_ns;
    for (size_t i = 0; i < s.size(); ++i) {
        if (s.start_ns[i] != at || s.end_ns[i] <= s.start_ns[i])
            __builtin_trap();  // a hole, an overlap or an empty one
        at = s.end_ns[i];
    }
    if (at != path.end_ns && !(s.size() == 0 && path.begin_ns == path.end_ns)) __builtin_trap();
    if (path.what_if_length_ns && *path.what_if_length_ns > path.end_ns - path.begin_ns) __builtin_trap();
}

// Every NVTX extended payload decoded, as the Details panel and SQL decode them (fields, or one
// field "bytes" for a damaged one): never out of its bytes.
void decodeEveryPayload(const lanescope::Report& report) {
    for (const lanescope::NvtxPayloadRow& row : report.nvtx_payloads.rows)
        (void)(row.mark ? lanescope::nvtxMarkPayloadFields(report, row.lane, row.event)
                        : lanescope::nvtxPayloadFields(report, row.lane, row.event));
}

// Every NCCL collective with its size and bandwidths: a size is never negative but for unknown
// (-1), a bandwidth never negative.
void checkCollectives(const lanescope::Report& report) {
    const lanescope::CommunicationAnalysis a = lanescope::analyzeCommunication({&report});
    const lanescope::CollectiveRows& r = a.rows;
    for (size_t i = 0; i < r.size(); ++i)
        if (r.size_bytes[i] < -1 || r.algbw_gbps[i] < 0 || r.busbw_gbps[i] < 0 || r.duration_ns[i] < 0)
            __builtin_trap();
    (void)lanescope::summarizeCollectives(r);
}

}  // namespace

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
        decodeEveryPayload(*result.report());
        checkCriticalPath(*result.report());
        checkCollectives(*result.report());
    }
    std::filesystem::remove(file);  // a run may be the last: leave nothing in the temp folder
    return 0;
}
