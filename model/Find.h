#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <regex>
#include <string>
#include <string_view>
#include <vector>

#include "model/Report.h"

namespace lanescope {

// One interval event of a report: Report::lanes[lane].events[index]. 8 bytes.
struct EventRef {
    uint32_t lane = 0;
    uint32_t index = 0;
    bool operator==(const EventRef&) const = default;
};

// What to look for in event names. `text` is a substring unless `regex` is set, in which case
// it is an ECMAScript regular expression (std::regex) searched anywhere in the name (anchor it
// with ^...$ to match whole names). Case folding is ASCII only for substrings.
struct FindQuery {
    std::string text;
    bool regex = false;
    bool case_sensitive = false;
};

// A FindQuery made ready to test names: the regular expression compiled once, the needle
// folded once. error() is non-empty (and nothing matches) for an invalid regular expression;
// matches() throws std::regex_error when a regular expression gives up on a name.
class FindMatcher {
public:
    explicit FindMatcher(const FindQuery& query);
    const std::string& error() const { return error_; }
    bool matches(std::string_view name) const;

private:
    FindQuery query_;
    std::string needle_;  // lower-case unless case-sensitive
    std::shared_ptr<const std::regex> regex_;
    std::string error_;
};

// The answer to a FindQuery. `hits` are interval events (instants not included) sorted by
// (start_ns ascending, lane, index); they never repeat. Events of NCCL lanes are skipped:
// those are copies of events found in their own lanes. `error` is empty on success; for an
// invalid regular expression it says why and `hits` is empty.
struct FindResult {
    std::vector<EventRef> hits;
    std::string error;
};

// All interval events whose name matches. Matching is decided once per distinct name id, not
// per event: O(distinct names) string or regex work plus one O(events) scan, then a sort of
// the hits. An empty `text` finds nothing (and is not an error).
FindResult findEvents(const Report& report, const FindQuery& query);

// For next/previous navigation over `hits` as findEvents returns them: the index of the first
// hit starting at or after t_ns (hits.size() if none). The last hit starting before t_ns is
// the one before it (none when the result is 0). O(log hits).
size_t nextHit(const Report& report, const std::vector<EventRef>& hits, int64_t t_ns);

}  // namespace lanescope
