#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "model/Report.h"

namespace lanescope::sql {

// The callchains of the OS runtime and CUDA API calls' backtraces as nsys's export numbers them:
// one chain per call that has a backtrace, never shared, numbered in the order OSRT_API
// (CUPTI_ACTIVITY_KIND_RUNTIME) lists the calls, the report file's (FileOrderRows.h). OSRT_CALLCHAINS
// ids start at 1, CUDA_CALLCHAINS ids at 0. 8 bytes a backtrace, made on first use and kept with
// the report (Report::derived).
struct BacktraceChains {
    static constexpr int64_t kFirstOsrtId = 1;
    static constexpr int64_t kFirstCudaId = 0;
    static constexpr uint32_t kNoChain = UINT32_MAX;
    // By row of Report::backtraces: its chain's number among those of its kind (its id less the
    // kind's first id); kNoChain for a backtrace no listed call has.
    std::vector<uint32_t> number;
    // By chain number: the row of Report::backtraces of the OS runtime (CUDA API) call's backtrace.
    std::vector<uint32_t> osrt;
    std::vector<uint32_t> cuda;
};
const BacktraceChains& backtraceChains(const Report& report);

// The callchain id of call `event` of an OsRuntime or CudaApi lane (OSRT_API, CUPTI_ACTIVITY_KIND_RUNTIME);
// nullopt when the call has no backtrace. O(log backtraces).
std::optional<int64_t> callchainIdOf(const Report& report, const Lane& lane, uint32_t event);

}  // namespace lanescope::sql
