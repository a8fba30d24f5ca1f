#pragma once
// Lanescope's own Perfetto exports give each slice its event kind as its category and its
// side-table fields as debug annotations under machine keys, numbers as numbers, and each CPU
// sample its call stack (formats/perfetto/PerfettoConventions.h, docs/perfetto-export.md).
// This reads them back, so that an export reimports with the kinds, side tables, correlation
// ids, threads and stacks it was written from. Display annotations ("Bytes" = "16,777,216 B
// (16.78 MB)") are never read: changing a Details-panel label cannot change what an export
// means.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "formats/perfetto/PerfettoConventions.h"
#include "importers/StackInterner.h"
#include "model/Report.h"

namespace lanescope {

// One frame of a call stack as the trace spells it.
struct FrameText {
    std::string function, module;
};

// A thread as a trace names it, before the report's threads exist.
struct TraceThreadId {
    int64_t pid = 0, tid = 0;
};

// One slice's (or CPU sample's) machine annotations, by key. A key given twice keeps its last
// value; a value of the wrong type (a number as text, a string for a number) is not kept and
// counted instead.
class SliceFields {
public:
    using Key = perfetto_format::Key;
    void setUint(Key key, uint64_t value) { set(key, Value::Uint, value); }
    void setInt(Key key, int64_t value) { set(key, Value::Int, static_cast<uint64_t>(value)); }
    void setBool(Key key, bool value) { set(key, Value::Bool, value ? 1u : 0u); }
    void setString(Key key, std::string value) { set(key, Value::String, 0).text = std::move(value); }
    void setFrames(Key key, std::vector<FrameText> frames) { set(key, Value::Frames, 0).frames = std::move(frames); }
    void wrongType() { ++wrong_types_; }

    bool has(Key key) const { return values_[index(key)].type != Value::None; }
    std::optional<uint64_t> uint(Key key) const {
        const Value& v = values_[index(key)];
        return v.type == Value::Uint ? std::optional<uint64_t>(v.number) : std::nullopt;
    }
    std::optional<bool> boolean(Key key) const {
        const Value& v = values_[index(key)];
        return v.type == Value::Bool ? std::optional<bool>(v.number != 0) : std::nullopt;
    }
    std::optional<int64_t> int64(Key key) const {
        const Value& v = values_[index(key)];
        return v.type == Value::Int ? std::optional<int64_t>(static_cast<int64_t>(v.number)) : std::nullopt;
    }
    const std::string* string(Key key) const {
        const Value& v = values_[index(key)];
        return v.type == Value::String ? &v.text : nullptr;
    }
    // The frames of a stack, innermost first.
    const std::vector<FrameText>* frames(Key key) const {
        const Value& v = values_[index(key)];
        return v.type == Value::Frames ? &v.frames : nullptr;
    }
    uint64_t wrongTypes() const { return wrong_types_; }

private:
    struct Value {
        enum Type : uint8_t { None, Uint, Int, Bool, String, Frames } type = None;
        uint64_t number = 0;            // Uint, Bool; Int as its two's complement
        std::string text;               // String
        std::vector<FrameText> frames;  // Frames, innermost first
    };
    static size_t index(Key key) { return static_cast<size_t>(key); }
    Value& set(Key key, Value::Type type, uint64_t number) {
        Value& v = values_[index(key)];
        v = Value{};
        v.type = type;
        v.number = number;
        return v;
    }

    std::array<Value, perfetto_format::kKeyCount> values_{};
    uint64_t wrong_types_ = 0;
};

// Rebuilds side-table rows from machine annotations. Kernel configurations and NVTX
// attributes are shared by the slices that have equal ones, as the other importers share
// them; the maps below remember the rows made so far, keyed by their values.
class SliceDetailsReader {
public:
    // `runThreads` receives the thread of each core run read (see payload).
    SliceDetailsReader(Report& report, std::vector<TraceThreadId>& runThreads) : r_(report), runs_(runThreads) {}
    // The slice's kind: its lanescope.kind annotation when that names a kind, else `category`
    // (the kind its category names, if any).
    static std::optional<EventKind> kindOf(const SliceFields& fields, std::optional<EventKind> category);
    // Appends the side-table row of a slice of `kind` (fields missing, of the wrong type or
    // out of range keep the row's defaults) and returns the slice's payload: the row, the
    // correlation id of a CUDA API call (kNoPayload without one), kNoPayload for an OS runtime
    // call, the state and core of a thread state. A core run's payload is, until the lanes
    // are built, the index of its thread in `runThreads` (kNoPayload without pid and tid).
    // Counts values of the wrong type or out of range as `perfetto_annotation_invalid`.
    uint32_t payload(EventKind kind, const SliceFields& fields);
    // The stack id of a CPU sample's lanescope.stack, interned into the stacks being built;
    // kNoStack without one.
    uint32_t stack(const SliceFields& fields);
    // The stacks interned so far, for Report::stacks; the reader keeps none.
    CallStacks releaseStacks() { return stacks_.release(); }

private:
    uint32_t kernelConfig(const SliceFields& fields);
    uint32_t nvtxRow(const SliceFields& fields);
    uint32_t threadState(const SliceFields& fields);
    uint32_t coreRun(const SliceFields& fields);
    // The value of an enumeration key within 0..count-1; `fallback` when absent or beyond.
    uint8_t enumValue(const SliceFields& fields, perfetto_format::Key key, uint8_t count, uint8_t fallback);
    template <typename T>
    T number(const SliceFields& fields, perfetto_format::Key key);

    Report& r_;
    std::vector<TraceThreadId>& runs_;                   // the thread of each core run, in the order read
    std::unordered_map<std::string, uint32_t> configs_;  // values -> kernel_configs row
    std::unordered_map<std::string, uint32_t> nvtx_;     // values -> nvtx row
    StackInterner stacks_;                               // the CPU samples' stacks
};

}  // namespace lanescope
