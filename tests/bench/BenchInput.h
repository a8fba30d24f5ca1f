#pragma once
#include <memory>

#include "importers/Importer.h"
#include "model/Report.h"
#include "tests/bench/Args.h"

namespace lanescope::bench {

// The report a figure is measured on: the FILE argument, or, with --events N, a synthetic
// report of N events written to a temporary file (removed afterwards) and imported.
// On failure prints the reason and sets exit_code (kExitUsage or kExitBadInput).
struct BenchInput {
    std::unique_ptr<Report> report;
    int exit_code = 0;
};
BenchInput loadBenchInput(const Args& args, const ImportOptions& options = {});

}  // namespace lanescope::bench
