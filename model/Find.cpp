#include "model/Find.h"

#include <algorithm>
#include <regex>
#include <string_view>

namespace lanescope {
namespace {

char asciiLower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

bool containsFolded(std::string_view haystack, std::string_view lowerNeedle) {
    return std::search(haystack.begin(), haystack.end(), lowerNeedle.begin(), lowerNeedle.end(),
                       [](char h, char n) { return asciiLower(h) == n; }) != haystack.end();
}

// Per name id: not yet decided, matches, does not match.
enum Decision : uint8_t { kUnknown = 0, kMatch = 1, kNoMatch = 2 };

}  // namespace

FindMatcher::FindMatcher(const FindQuery& query) : query_(query), needle_(query.text) {
    if (query.regex) {
        auto flags = std::regex::ECMAScript | std::regex::optimize;
        if (!query.case_sensitive) flags |= std::regex::icase;
        try {
            regex_ = std::make_shared<const std::regex>(query.text, flags);
        } catch (const std::regex_error& e) {
            error_ = "invalid regular expression \"" + query.text + "\": " + e.what();
        }
    } else if (!query.case_sensitive) {
        std::transform(needle_.begin(), needle_.end(), needle_.begin(), asciiLower);
    }
}

bool FindMatcher::matches(std::string_view name) const {
    if (!error_.empty()) return false;
    if (query_.regex) return std::regex_search(name.begin(), name.end(), *regex_);
    if (query_.case_sensitive) return name.find(needle_) != std::string_view::npos;
    return containsFolded(name, needle_);
}

FindResult findEvents(const Report& report, const FindQuery& query) {
    FindResult result;
    if (query.text.empty()) return result;

    const FindMatcher matcher(query);
    if (!matcher.error().empty()) {
        result.error = matcher.error();
        return result;
    }
    auto matches = [&](std::string_view name) { return matcher.matches(name); };

    // Hits with their start, sorted, then stripped to EventRefs.
    struct Hit {
        int64_t start;
        uint32_t lane;
        uint32_t index;
    };
    std::vector<Hit> hits;
    std::vector<uint8_t> decided(report.strings.size(), kUnknown);
    try {
        for (size_t li = 0; li < report.lanes.size(); ++li) {
            const Lane& lane = report.lanes[li];
            if (holdsDerivedEvents(lane.kind)) continue;
            const IntervalColumns& ev = lane.events;
            for (size_t i = 0; i < ev.size(); ++i) {
                const uint32_t id = ev.name_id[i];
                if (id >= decided.size()) continue;  // not a string of this report
                uint8_t& d = decided[id];
                if (d == kUnknown) d = matches(report.str(id)) ? kMatch : kNoMatch;
                if (d == kMatch) hits.push_back({ev.start_ns[i], static_cast<uint32_t>(li), static_cast<uint32_t>(i)});
            }
        }
    } catch (const std::regex_error& e) {  // error_complexity / error_stack while matching
        result.error = "regular expression \"" + query.text + "\" failed: " + e.what();
        return result;
    }
    std::sort(hits.begin(), hits.end(), [](const Hit& a, const Hit& b) {
        if (a.start != b.start) return a.start < b.start;
        if (a.lane != b.lane) return a.lane < b.lane;
        return a.index < b.index;
    });
    result.hits.reserve(hits.size());
    for (const Hit& h : hits) result.hits.push_back({h.lane, h.index});
    return result;
}

size_t nextHit(const Report& report, const std::vector<EventRef>& hits, int64_t t_ns) {
    auto it = std::partition_point(hits.begin(), hits.end(), [&](const EventRef& r) {
        return report.lanes[r.lane].events.start_ns[r.index] < t_ns;
    });
    return static_cast<size_t>(it - hits.begin());
}

}  // namespace lanescope
