#pragma once
#include "importers/Importer.h"

namespace lanescope {

// Chrome trace JSON as the PyTorch profiler (Kineto) writes it, `.json` or `.json.gz`:
// the `traceEvents` array (X complete, B/E, i/I instants, C counters, M metadata, flows),
// categories cpu_op/user_annotation (NVTX-like lanes per thread), cuda_runtime/cuda_driver
// (CUDA API lanes), kernel/gpu_memcpy/gpu_memset (per device and stream) and
// gpu_user_annotation; old category names (Operator, Runtime, Kernel, Memcpy, Memset) too.
// Times: ts/dur are microseconds whatever displayTimeUnit says (a display hint only); they
// become integer nanoseconds from the number text, no floating-point rounding.
class KinetoImporter final : public Importer {
public:
    std::string_view formatName() const override { return "kineto-json"; }
    bool canRead(std::string_view head, const std::filesystem::path& path) const override;
    ImportResult import(const std::filesystem::path& path, const ImportOptions& options,
                        ProgressSink& progress, std::stop_token stop) const override;
};

}  // namespace lanescope
