#include "importers/nsysrep/SessionClock.h"

#include <charconv>
#include <map>
#include <utility>

#include "importers/nsysrep/ProtoReader.h"

namespace lanescope::nsysrep {
namespace {

// An offset written as decimal text of a 64-bit two's-complement value, either signed
// ("-7646435850") or as its unsigned wrap ("18446743826464792440").
std::optional<int64_t> parseOffset(std::string_view text) {
    if (text.empty()) return std::nullopt;
    if (text.front() == '-') {
        int64_t v = 0;
        auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
        if (ec != std::errc() || p != text.data() + text.size()) return std::nullopt;
        return v;
    }
    uint64_t v = 0;
    auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || p != text.data() + text.size()) return std::nullopt;
    return static_cast<int64_t>(v);
}

}  // namespace

SessionTimes sessionTimes(std::string_view summary, int nsysYear) {
    std::map<std::pair<uint64_t, uint64_t>, int64_t> offsets;  // (from, to) clock -> offset
    std::optional<int64_t> stop;
    try {
        ProtoReader reader(summary, 0);
        for (ProtoField f; reader.next(f);) {
            if (f.number == 18 && f.wire == 0) stop = f.i64();
            if (f.number != 16 || f.wire != 2) continue;
            ProtoReader table(f.bytes, 0);
            for (ProtoField entry; table.next(entry);) {
                if (entry.number != 1 || entry.wire != 2) continue;
                ProtoReader fields(entry.bytes, 0);
                uint64_t from = 0, to = 0;
                std::optional<int64_t> offset;
                for (ProtoField e; fields.next(e);) {
                    if (e.number == 1 && e.wire == 0)
                        from = e.value;
                    else if (e.number == 2 && e.wire == 0)
                        to = e.value;
                    else if (e.number == 5 && e.wire == 2)
                        offset = parseOffset(e.bytes);
                }
                if (offset) offsets[{from, to}] = *offset;
            }
        }
    } catch (const MalformedProto&) {
        // what was read stays; the events do not depend on it
    }
    auto at = [&](uint64_t from, uint64_t to) -> std::optional<int64_t> {
        auto it = offsets.find({from, to});
        return it == offsets.end() ? std::nullopt : std::optional<int64_t>(it->second);
    };
    // In unsigned arithmetic: the terms are two's complement and their sum fits.
    auto minus = [](uint64_t a, std::optional<int64_t> b) { return a - static_cast<uint64_t>(*b); };
    SessionTimes times;
    const auto eventsToSession = at(7, 1), sessionToMonotonic = at(1, 3), monotonicToUtc = at(3, 9);
    if (eventsToSession) {
        times.session_clock_start_ns = static_cast<int64_t>(minus(0, eventsToSession));
        if (stop) {
            constexpr int64_t kFloor2020Ns = 100'000;  // 2020 reports: the stop floored to 100 us
            times.session_clock_stop_ns = nsysYear == 2020 ? *stop - *stop % kFloor2020Ns : *stop;
        }
    }
    if (eventsToSession && sessionToMonotonic && monotonicToUtc)
        times.start_utc_ns =
            static_cast<int64_t>(minus(minus(minus(0, eventsToSession), sessionToMonotonic), monotonicToUtc));
    constexpr int64_t kDayNs = 86'400'000'000'000;  // time zones are within a day of UTC
    if (const auto local = at(9, 10); local && *local >= -kDayNs && *local <= kDayNs) times.utc_minus_local_ns = *local;
    return times;
}

}  // namespace lanescope::nsysrep
