// The critical path's CSV and JSON (docs/analyses.md, "Output"; CLI.md, critical-path).
#include <cmath>
#include <string>

#include "analysis/JsonWriter.h"
#include "analysis/StatsTable.h"
#include "analysis/critical_path/CriticalPath.h"

namespace lanescope {

std::string criticalPathCsv(const std::vector<const Report*>& reports, const CriticalPath& path) {
    std::string out = "Start (ns),End (ns),Duration (ns),Category,Name,Lane";
    out += path.several_ranks ? ",Rank\n" : "\n";
    const PathSegments& s = path.segments;
    for (size_t i = 0; i < s.size(); ++i) {
        out += std::to_string(s.start_ns[i]) + ',' + std::to_string(s.end_ns[i]) + ',' +
               std::to_string(s.end_ns[i] - s.start_ns[i]) + ',' + std::string(pathCategoryName(s.category[i])) + ',' +
               csvField(std::string(segmentName(reports, path, i))) + ',' + csvField(path.lane_labels[s.lane_label[i]]);
        if (path.several_ranks) out += ',' + std::to_string(s.report[i]);
        out += '\n';
    }
    return out;
}

std::string criticalPathJson(const std::vector<const Report*>& reports, const CriticalPath& path) {
    JsonWriter j;
    auto categories = [&](std::string_view key, const std::array<int64_t, kPathCategoryCount>& totals) {
        j.beginObject(key);
        for (size_t c = 0; c < kPathCategoryCount; ++c)
            if (totals[c]) j.value(pathCategoryName(PathCategory(c)), totals[c]);
        j.endObject();
    };
    auto names = [&](std::string_view key, const std::vector<PathNameTotal>& list) {
        j.beginArray(key);
        for (const PathNameTotal& n : list) {
            j.beginObject();
            j.value("category", pathCategoryName(n.category));
            j.value("name", n.name);
            j.value("ns", n.ns);
            j.endObject();
        }
        j.endArray();
    };
    j.beginObject();
    j.beginArray("range");  // [start_ns, end_ns], as CLI.md gives it
    j.value({}, path.begin_ns);
    j.value({}, path.end_ns);
    j.endArray();
    j.value("length_ns", path.end_ns - path.begin_ns);
    categories("by_category", path.by_category);
    names("by_name", path.by_name);
    j.beginArray("segments");
    const PathSegments& s = path.segments;
    size_t collective = 0;  // the next of path.collectives (sorted by segment)
    for (size_t i = 0; i < s.size(); ++i) {
        j.beginObject();
        j.value("start_ns", s.start_ns[i]);
        j.value("end_ns", s.end_ns[i]);
        j.value("category", pathCategoryName(s.category[i]));
        j.value("name", segmentName(reports, path, i));
        j.value("lane", path.lane_labels[s.lane_label[i]]);
        if (path.several_ranks) j.value("rank", int64_t{s.report[i]});
        if (collective < path.collectives.size() && path.collectives[collective].segment == i) {
            const PathCollective& c = path.collectives[collective++];
            j.value("size_bytes", c.size_bytes);
            if (!std::isnan(c.algbw_gbps)) j.value("algbw_gbps", c.algbw_gbps, 3);
            if (!std::isnan(c.busbw_gbps)) j.value("busbw_gbps", c.busbw_gbps, 3);
        }
        j.endObject();
    }
    j.endArray();
    if (path.what_if_length_ns) {
        j.value("what_if_length_ns", *path.what_if_length_ns);
        j.beginObject("what_if");
        j.beginArray("range");
        j.value({}, path.begin_ns);
        j.value({}, path.begin_ns + *path.what_if_length_ns);
        j.endArray();
        categories("by_category", path.what_if_by_category);
        names("by_name", path.what_if_by_name);
        j.endObject();
    }
    j.endObject();
    return j.str() + "\n";
}

}  // namespace lanescope
