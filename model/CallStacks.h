#pragma once
#include <cstddef>
#include <cstdint>
#include <tuple>
#include <vector>

#include "model/Column.h"

namespace lanescope {

inline constexpr uint32_t kNoStack = UINT32_MAX;

// Every call stack of a report, stored once: a prefix tree whose nodes are (caller node,
// frame). A stack id is the node of its innermost frame; following `node_parent` from it
// visits the frames from innermost to outermost (kNoStack ends the walk). Identical stacks
// share one node, stacks with a common outer part share those nodes, and frames are
// deduplicated by (function, module). Node ids are in creation order: a node's parent has a
// smaller id. Used by CPU samples and the backtraces of CUDA API and OS runtime calls.
struct CallStacks {
    // Unique frames, in creation order.
    Column<uint32_t> frame_function;  // into Report::strings: the function (symbol) name
    Column<uint32_t> frame_module;    // into Report::strings: the module (library) path
    // The tree, one entry per node, in creation order.
    Column<uint32_t> node_frame;   // index into the frame columns
    Column<uint32_t> node_parent;  // the calling node, or kNoStack for an outermost frame

    size_t nodeCount() const { return node_frame.size(); }
    size_t frameCount() const { return frame_function.size(); }
    // The frames of a stack, innermost first (frame indexes).
    std::vector<uint32_t> framesOf(uint32_t stack) const;
    size_t memoryBytes() const;
};

// What Nsight Systems recorded of one frame of one backtrace or sample beyond its function and
// module (nsys's *_CALLCHAINS kernelMode, thumbCode, unresolved, originalIP, unwindMethod): the
// stacks merge frames by (function, module), so these are kept per occurrence. A field the file
// leaves out is kAbsentFrameField (the export's NULL), not 0. 16 bytes.
inline constexpr uint8_t kAbsentFrameField = 0xFF;
struct FrameDetail {
    int64_t original_ip = 0;  // the instruction address as recorded (signed, as the export writes it)
    uint8_t kernel_mode = kAbsentFrameField;
    uint8_t thumb_code = kAbsentFrameField;
    uint8_t unresolved = kAbsentFrameField;
    uint8_t unwind_method = kAbsentFrameField;
    bool has_original_ip = false;
};
inline constexpr uint32_t kNoFrameDetails = UINT32_MAX;

// The backtrace of one CPU call (CUDA API or OS runtime) that has one, found by the call's
// thread and start. Sorted by (thread, lane kind, start_ns).
struct CallBacktrace {
    int32_t thread = -1;        // index into Report::threads
    uint8_t lane_kind = 0;      // the LaneKind of the call's lane (CudaApi or OsRuntime)
    int64_t start_ns = 0;       // the call's start on the report's timeline
    uint32_t stack = kNoStack;  // into Report::stacks
    // Into Report::backtrace_frame_details: the first of its frames' details, innermost first
    // (as many as the stack's frames); kNoFrameDetails when the report records none.
    uint32_t first_detail = kNoFrameDetails;

    auto key() const { return std::tuple(thread, lane_kind, start_ns); }
};

}  // namespace lanescope
