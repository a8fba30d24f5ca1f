#pragma once
#include "importers/Importer.h"
#include "importers/kineto/JsonEventStream.h"

namespace lanescope {

// Chrome trace JSON as the PyTorch profiler (Kineto) writes it, `.json` or `.json.gz`:
// the `traceEvents` array (X complete, B/E, i/I instants, C counters, M metadata, flows),
// categories cpu_op/user_annotation (NVTX-like lanes per thread), cuda_runtime/cuda_driver
// (CUDA API lanes), kernel/gpu_memcpy/gpu_memset (per device and stream) and
// gpu_user_annotation; old category names (Operator, Runtime, Kernel, Memcpy, Memset) too.
// Times: ts/dur are microseconds whatever displayTimeUnit says (a display hint only); they
// become integer nanoseconds from the number text, no floating-point rounding.
// The file is read in blocks (JsonEventStream): memory holds the model, a few pieces of events
// and the header, not the file. The pieces are parsed on ImportOptions::threads threads
// (PiecePipeline) and the model is built from them in file order: the report is the same
// whatever the number of threads.
// Flows: ac2g flows are not kept (the correlation ids in the args link launches to GPU work);
// fwdbwd flows (a forward op -> its backward op, in every trace recorded with autograd) are not
// shown, the model having no links between CPU ops, and are counted once per flow as the
// diagnostic json_fwdbwd_flows_not_shown; other flows are counted as json_flow_ignored.
class KinetoImporter final : public Importer {
public:
    // `sizes`: the stream's block sizes (tests make them tiny).
    explicit KinetoImporter(kineto::StreamSizes sizes = {}) : sizes_(sizes) {}
    std::string_view formatName() const override { return "kineto-json"; }
    bool canRead(std::string_view head, const std::filesystem::path& path) const override;
    ImportResult import(const std::filesystem::path& path, const ImportOptions& options, ProgressSink& progress,
                        std::stop_token stop) const override;
    MemoryEstimate estimateMemory(const std::filesystem::path& path) const override;

private:
    kineto::StreamSizes sizes_;
};

}  // namespace lanescope
