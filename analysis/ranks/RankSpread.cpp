#include "analysis/ranks/RankSpread.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

namespace lanescope {

SkewPercentiles skewPercentiles(std::vector<int64_t> values) {
    SkewPercentiles p;
    p.count = values.size();
    if (values.empty()) return p;
    std::sort(values.begin(), values.end());
    auto at = [&](double percent) {
        const auto rank = static_cast<size_t>(std::ceil(percent / 100.0 * double(values.size())));
        return values[std::clamp<size_t>(rank, 1, values.size()) - 1];
    };
    p.p50_ns = at(50);
    p.p90_ns = at(90);
    p.p99_ns = at(99);
    p.max_ns = values.back();
    return p;
}

RankSpread rankSpread(const RankComparison& c) {
    RankSpread out;
    struct Seen {
        StepSpread spread;
        int64_t first_end = std::numeric_limits<int64_t>::max(), last_end = std::numeric_limits<int64_t>::min();
    };
    std::map<int64_t, Seen> byNumber;
    for (size_t r = 0; r < c.ranks.size(); ++r) {
        const RankMetrics& m = c.ranks[r];
        for (const StepRange& s : m.steps) {
            Seen& seen = byNumber[s.number];
            StepSpread& sp = seen.spread;
            const int64_t duration = s.end_ns - s.start_ns, end = s.end_ns + m.offset_ns;
            sp.number = s.number;
            ++sp.ranks;
            if (sp.slowest < 0 || duration > sp.slowest_ns) {
                sp.slowest = static_cast<int>(r);
                sp.slowest_ns = duration;
            }
            if (sp.fastest < 0 || duration < sp.fastest_ns) {
                sp.fastest = static_cast<int>(r);
                sp.fastest_ns = duration;
            }
            seen.first_end = std::min(seen.first_end, end);
            seen.last_end = std::max(seen.last_end, end);
        }
    }
    std::vector<int64_t> endSkew;
    for (auto& [number, seen] : byNumber) {
        if (seen.spread.ranks < 2) continue;
        seen.spread.end_skew_ns = seen.last_end - seen.first_end;
        endSkew.push_back(seen.spread.end_skew_ns);
        out.steps.push_back(seen.spread);
    }
    out.step_end_skew = skewPercentiles(std::move(endSkew));

    std::vector<int64_t> arrival;
    for (const MatchedCollective& mc : c.collectives) {
        if (mc.present < 2) continue;
        int64_t first = std::numeric_limits<int64_t>::max(), last = std::numeric_limits<int64_t>::min();
        for (int64_t t : mc.arrival_ns) {
            if (t == std::numeric_limits<int64_t>::min()) continue;  // not run by that rank
            first = std::min(first, t);
            last = std::max(last, t);
        }
        arrival.push_back(last - first);
    }
    out.arrival_skew = skewPercentiles(std::move(arrival));
    return out;
}

}  // namespace lanescope
