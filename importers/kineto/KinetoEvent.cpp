// Reading one Chrome-trace event of a PyTorch profiler (Kineto) trace into an Event.
#include "importers/kineto/KinetoEvent.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>

namespace lanescope::kineto {

namespace od = simdjson::ondemand;
using namespace std::string_view_literals;

bool microsToNs(std::string_view text, int64_t& ns) {
    while (!text.empty() && (text.back() == ' ' || text.back() == '\n' || text.back() == '\r' || text.back() == '\t'))
        text.remove_suffix(1);
    if (text.empty()) return false;
    size_t i = 0;
    const bool negative = text[0] == '-';
    if (negative) ++i;
    int64_t whole = 0;
    size_t digits = 0;
    for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i, ++digits) {
        if (whole > (std::numeric_limits<int64_t>::max() / 1000 - 9) / 10) return false;
        whole = whole * 10 + (text[i] - '0');
    }
    if (digits == 0) return false;
    int64_t frac = 0;
    if (i < text.size() && text[i] == '.') {
        ++i;
        int n = 0;
        bool roundUp = false;
        for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i, ++n) {
            if (n < 3)
                frac = frac * 10 + (text[i] - '0');
            else if (n == 3)
                roundUp = text[i] >= '5';
        }
        for (int k = std::min(n, 3); k < 3; ++k) frac *= 10;
        if (roundUp) ++frac;
    }
    if (i < text.size()) {  // exponent: fall back to double
        double v = 0;
        auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
        if (ec != std::errc() || !std::isfinite(v) || std::fabs(v) > 9e15) return false;
        ns = static_cast<int64_t>(std::llround(v * 1000.0));
        return true;
    }
    ns = whole * 1000 + frac;
    if (negative) ns = -ns;
    return true;
}

int64_t toInt(od::value v) {
    switch (v.type()) {
        case od::json_type::number: {
            int64_t i = 0;
            if (v.get_int64().get(i) == simdjson::SUCCESS) return i;
            double d = 0;
            if (v.get_double().get(d) == simdjson::SUCCESS) return static_cast<int64_t>(d);
            return 0;
        }
        case od::json_type::string: {
            std::string_view s = v.get_string();
            int64_t i = 0;
            std::from_chars(s.data(), s.data() + s.size(), i);
            return i;
        }
        default:
            return 0;
    }
}

namespace {

bool isJsonSpace(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

// Writes `json` canonically (canonicalJson) through `put(char)`; returns whether the text
// written differs from `json`.
template <typename Put>
bool writeCanonical(std::string_view json, Put&& put) {
    bool changed = false, inString = false, escaped = false;
    for (size_t i = 0; i < json.size(); ++i) {
        const char c = json[i];
        if (inString) {
            put(c);
            if (escaped)
                escaped = false;
            else if (c == '\\')
                escaped = true;
            else if (c == '"')
                inString = false;
        } else if (c == ',') {
            put(',');
            put(' ');
            changed |= i + 1 >= json.size() || json[i + 1] != ' ' || (i + 2 < json.size() && isJsonSpace(json[i + 2]));
            while (i + 1 < json.size() && isJsonSpace(json[i + 1])) ++i;
        } else if (isJsonSpace(c)) {
            changed = true;
        } else {
            put(c);
            inString = c == '"';
        }
    }
    return changed;
}

void readTriple(od::value v, uint32_t out[3]) {
    if (v.type() != od::json_type::array) return;
    int i = 0;
    for (auto element : v.get_array()) {
        const int64_t n = toInt(element.value());
        if (i < 3) out[i++] = static_cast<uint32_t>(std::clamp<int64_t>(n, 0, UINT32_MAX));
    }
}

// A non-negative finite JSON number as a float; -1 (not recorded) otherwise.
float nonNegative(od::value v) {
    double d = -1;
    if (v.type() != od::json_type::number || v.get_double().get(d) != simdjson::SUCCESS || !std::isfinite(d) || d < 0)
        return -1;
    return static_cast<float>(d);
}

}  // namespace

std::string_view canonicalJson(std::string_view json, std::string& scratch) {
    if (!writeCanonical(json, [](char) {})) return json;
    scratch.clear();
    writeCanonical(json, [&](char c) { scratch.push_back(c); });
    return scratch;
}

void readEvent(od::object obj, Event& e) {
    for (auto field : obj) {
        const std::string_view key = field.unescaped_key();
        od::value v = field.value();
        if (key == "ph"sv) {
            if (v.type() != od::json_type::string) continue;
            std::string_view ph = v.get_string();
            e.ph = ph.empty() ? 0 : ph[0];
        } else if (key == "cat"sv) {
            if (v.type() == od::json_type::string) e.cat = v.get_string();
        } else if (key == "name"sv) {
            if (v.type() == od::json_type::string) e.name = v.get_string();
        } else if (key == "pid"sv || key == "tid"sv) {
            int64_t& n = key == "pid"sv ? e.pid : e.tid;
            std::string_view& text = key == "pid"sv ? e.pidText : e.tidText;
            if (v.type() == od::json_type::string) {
                std::string_view s = v.get_string();
                auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), n);
                if (s.empty() || ec != std::errc() || p != s.data() + s.size()) text = s.empty() ? "\"\"" : s;
            } else {
                n = toInt(v);
            }
        } else if (key == "ts"sv || key == "dur"sv) {
            int64_t ns = 0;
            if (v.type() == od::json_type::number && microsToNs(v.raw_json_token(), ns)) {
                if (key == "ts"sv)
                    e.ts = ns, e.hasTs = true;
                else
                    e.dur = ns, e.hasDur = true;
            }
        } else if (key == "args"sv) {
            if (v.type() != od::json_type::object) continue;
            for (auto arg : v.get_object()) {
                const std::string_view k = arg.unescaped_key();
                od::value a = arg.value();
                if (e.ph == 'C') {
                    if (a.type() == od::json_type::number) e.counterValues.emplace_back(k, double(a.get_double()));
                    continue;
                }
                if (k == "device"sv)
                    e.device = toInt(a);
                else if (k == "stream"sv)
                    e.stream = toInt(a);
                else if (k == "context"sv)
                    e.context = toInt(a);
                else if (k == "correlation"sv)
                    e.correlation = toInt(a);
                else if (k == "wait_on_stream"sv)
                    e.waitOnStream = toInt(a);
                else if (k == "wait_on_cuda_event_record_corr_id"sv)
                    e.waitOnRecordCorrelation = toInt(a);
                else if (k == "wait_on_cuda_event_id"sv)
                    e.waitOnEventId = toInt(a);
                else if (k == "bytes"sv)
                    e.bytes = toInt(a);
                else if (k == "registers per thread"sv)
                    e.registers = toInt(a);
                else if (k == "shared memory"sv)
                    e.shared = toInt(a);
                else if (k == "Bytes"sv)
                    e.memory.bytes = toInt(a), e.memory.hasMemory = true;
                else if (k == "Addr"sv)
                    e.memory.address = toInt(a);
                else if (k == "Total Allocated"sv)
                    e.memory.totalAllocated = toInt(a);
                else if (k == "Total Reserved"sv)
                    e.memory.totalReserved = toInt(a);
                else if (k == "Device Id"sv)
                    e.memory.deviceId = toInt(a);
                else if (k == "Device Type"sv)
                    e.memory.deviceType = toInt(a);
                else if (k == "blocks per SM"sv)
                    e.blocksPerSm = nonNegative(a);
                else if (k == "warps per SM"sv)
                    e.warpsPerSm = nonNegative(a);
                else if (k == "est. achieved occupancy %"sv)
                    e.occupancyPct = nonNegative(a);
                else if (k == "grid"sv)
                    readTriple(a, e.grid);
                else if (k == "block"sv)
                    readTriple(a, e.block);
                else if (k == "Collective name"sv && a.type() == od::json_type::string)
                    e.comms.name = a.get_string(), e.comms.hasComms = true;
                else if (k == "In msg nelems"sv)
                    e.comms.inNelems = toInt(a);
                else if (k == "Out msg nelems"sv)
                    e.comms.outNelems = toInt(a);
                else if (k == "Group size"sv)
                    e.comms.groupSize = toInt(a);
                else if (k == "dtype"sv && a.type() == od::json_type::string)
                    e.comms.dtype = a.get_string();
                else if (k == "Process Group Name"sv && a.type() == od::json_type::string)
                    e.comms.groupName = a.get_string();
                else if (k == "Process Group Ranks"sv && a.type() == od::json_type::string)
                    e.comms.groupRanks = a.get_string();
                else if (k == "name"sv && a.type() == od::json_type::string)
                    e.argName = a.get_string();
                else if (k == "Input Dims"sv && a.type() == od::json_type::array) {
                    od::array dims;
                    std::string_view text;
                    if (a.get_array().get(dims) == simdjson::SUCCESS && dims.raw_json().get(text) == simdjson::SUCCESS)
                        e.inputDims = text;
                }
            }
        }
    }
}

}  // namespace lanescope::kineto
