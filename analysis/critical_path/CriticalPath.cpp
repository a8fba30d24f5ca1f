// The critical path's public functions (CriticalPath.h): range, owner, walk and what-if over a PathEngine, totals.
#include "analysis/critical_path/CriticalPath.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <regex>
#include <stdexcept>
#include <tuple>
#include <unordered_map>

#include "analysis/communication/CollectiveSizes.h"
#include "analysis/critical_path/PathEngine.h"
#include "analysis/ranks/Collectives.h"
#include "analysis/ranks/RankAlignment.h"
#include "analysis/ranks/RankInput.h"
#include "analysis/ranks/Steps.h"

namespace lanescope {
namespace critical_path_detail {

std::array<int64_t, kPathCategoryCount> totalsByCategory(const PathSegments& segs) {
    std::array<int64_t, kPathCategoryCount> totals{};
    for (size_t i = 0; i < segs.size(); ++i) totals[size_t(segs.category[i])] += segs.end_ns[i] - segs.start_ns[i];
    return totals;
}

std::vector<PathNameTotal> topNames(const std::vector<const Report*>& reports, const PathSegments& segs) {
    std::map<std::pair<std::string_view, std::string_view>, std::pair<PathCategory, int64_t>> totals;
    for (size_t i = 0; i < segs.size(); ++i) {
        const PathCategory c = segs.category[i];
        auto& slot = totals[{kCategoryNames[size_t(c)], reports[segs.report[i]]->str(segs.name_id[i])}];
        slot.first = c;
        slot.second += segs.end_ns[i] - segs.start_ns[i];
    }
    std::vector<PathNameTotal> out;
    for (const auto& [key, value] : totals) out.push_back({value.first, std::string(key.second), value.second});
    std::stable_sort(out.begin(), out.end(), [](const PathNameTotal& a, const PathNameTotal& b) {
        if (a.ns != b.ns) return a.ns > b.ns;
        const std::string_view ca = kCategoryNames[size_t(a.category)], cb = kCategoryNames[size_t(b.category)];
        if (ca != cb) return ca < cb;
        return a.name < b.name;
    });
    if (out.size() > 50) out.resize(50);
    return out;
}

void storeSegments(const std::vector<Segment>& segs, CriticalPath& path) {
    std::unordered_map<std::string, uint32_t> labelIds;
    for (size_t k = 0; k < path.lane_labels.size(); ++k) labelIds.emplace(path.lane_labels[k], uint32_t(k));
    PathSegments& out = path.segments;
    for (const Segment& s : segs) {
        out.start_ns.push_back(s.start);
        out.end_ns.push_back(s.end);
        out.category.push_back(s.category);
        out.report.push_back(s.report);
        out.name_id.push_back(s.name_id);
        out.lane.push_back(s.lane);
        out.event.push_back(s.event);
        auto [it, inserted] = labelIds.emplace(s.lane_label, uint32_t(path.lane_labels.size()));
        if (inserted) path.lane_labels.push_back(s.lane_label);
        out.lane_label.push_back(it->second);
    }
}

// The sizes and bandwidths of the path's NCCL kernels, from what their reports record.
std::vector<PathCollective> pathCollectives(const std::vector<const Report*>& reports, const PathSegments& segs) {
    if (std::find(segs.category.begin(), segs.category.end(), PathCategory::Communication) == segs.category.end())
        return {};
    // Every report's collectives, as the communication analysis reads them (ranks counted across reports).
    std::vector<std::vector<Collective>> lists(reports.size());
    std::vector<std::vector<CollectiveMeta>> metas(reports.size());
    for (size_t r = 0; r < reports.size(); ++r) {
        lists[r] = ncclCollectives(*reports[r]);
        std::string note;
        metas[r] = collectiveMetas(*reports[r], lists[r], note);
    }
    countRanksOfCommunicators(metas);
    std::map<std::tuple<uint16_t, int32_t, int32_t>, size_t> collectiveOf;  // (report, lane, event) -> index
    for (size_t r = 0; r < reports.size(); ++r)
        for (size_t c = 0; c < lists[r].size(); ++c)
            collectiveOf.emplace(
                std::tuple(uint16_t(r), int32_t(lists[r][c].kernel.lane), int32_t(lists[r][c].kernel.index)), c);
    std::vector<PathCollective> out;
    for (size_t i = 0; i < segs.size(); ++i) {
        if (segs.category[i] != PathCategory::Communication || segs.event[i] < 0) continue;
        const uint16_t r = segs.report[i];
        const auto found = collectiveOf.find(std::tuple(r, segs.lane[i], segs.event[i]));
        if (found == collectiveOf.end()) continue;
        const Collective& k = lists[r][found->second];
        const CollectiveMeta& m = metas[r][found->second];
        const CollectiveOp op = m.op != CollectiveOp::Other ? m.op : collectiveOpOf(k.kind);
        const int64_t size = collectiveSize(m, op), duration = k.end_ns - k.start_ns;
        if (size < 0) continue;
        PathCollective c;
        c.segment = uint32_t(i);
        c.size_bytes = size;
        c.algbw_gbps = duration > 0 ? double(size) / double(duration) : std::nan("");
        c.busbw_gbps = c.algbw_gbps * busBandwidthFactor(op, m.ranks);
        out.push_back(c);
    }
    return out;
}

}  // namespace critical_path_detail

std::string_view pathCategoryName(PathCategory category) {
    return critical_path_detail::kCategoryNames[size_t(category)];
}

std::optional<WhatIfRule> parseWhatIfRule(std::string_view text) {
    const size_t eq = text.rfind('=');
    if (eq == std::string_view::npos || eq == 0) return std::nullopt;
    const std::string factorText(text.substr(eq + 1));
    char* end = nullptr;
    const double factor = std::strtod(factorText.c_str(), &end);
    if (factorText.empty() || end != factorText.c_str() + factorText.size() || !(factor > 0) || !std::isfinite(factor))
        return std::nullopt;
    WhatIfRule rule{std::string(text.substr(0, eq)), factor};
    try {
        std::regex check(rule.regex);
    } catch (const std::regex_error&) {
        return std::nullopt;
    }
    return rule;
}

std::optional<OwnedRange> stepOwnedRange(const Report& report, int64_t number) {
    for (const StepRange& s : findSteps(report)) {
        if (s.number != number) continue;
        if (s.range.lane >= report.lanes.size()) return std::nullopt;
        return OwnedRange{s.start_ns, s.end_ns, report.lanes[s.range.lane].thread};
    }
    return std::nullopt;
}

std::optional<OwnedRange> nvtxOwnedRange(const Report& report, std::string_view name) {
    const uint32_t id = report.strings.find(name);
    if (id == UINT32_MAX) return std::nullopt;
    std::optional<OwnedRange> best;
    for (const Lane& lane : report.lanes) {
        if ((lane.kind != LaneKind::Nvtx && lane.kind != LaneKind::NvtxStartEnd) || lane.thread < 0) continue;
        for (size_t i = 0; i < lane.events.size(); ++i) {
            if (lane.events.name_id[i] != id || lane.events.kind[i] != EventKind::NvtxRange) continue;
            if (!best || lane.events.start_ns[i] < best->begin_ns)
                best = OwnedRange{lane.events.start_ns[i], lane.events.endNs(i), lane.thread};
            break;  // the lane's first of that name (sorted by start)
        }
    }
    return best;
}

CriticalPath computeCriticalPath(const std::vector<const Report*>& reports, const CriticalPathOptions& options) {
    using namespace critical_path_detail;
    if (reports.empty()) throw std::invalid_argument("no report");
    const bool several = reports.size() > 1;
    CriticalPath path;
    path.several_ranks = several;

    // Alignment as the Ranks panel does it: NCCL collectives when every rank has some.
    std::vector<int64_t> offsets(reports.size(), 0);
    RankAlignment alignment;
    std::vector<CollectiveColumns> collectives;
    if (several) {
        std::vector<RankInput> inputs(reports.size());
        collectives.resize(reports.size());
        bool allNccl = true;
        for (size_t r = 0; r < reports.size(); ++r) {
            inputs[r].file_name = reports[r]->meta.fileName();
            inputs[r].source_path = reports[r]->meta.source_path;
            inputs[r].start_utc_ns = reports[r]->meta.start_utc_ns;
            collectives[r] = toColumns(ncclCollectives(*reports[r]));
            allNccl = allNccl && !collectives[r].empty();
        }
        std::vector<const CollectiveColumns*> lists;
        for (const CollectiveColumns& c : collectives) lists.push_back(&c);
        alignment = alignRanks(inputs, lists, allNccl ? AlignMode::Nccl : AlignMode::Clock);
        offsets = alignment.offsets_ns;
        path.notes = alignment.notes;
        if (!allNccl) path.notes.push_back("not every rank has NCCL collectives: aligned by clock");
    }

    path.offsets_ns = offsets;
    PathEngine engine(reports, offsets, several);
    Items& items = engine.items_;

    // Matched collectives: the reference's each with the ones matched to it.
    if (several && alignment.reference >= 0) {
        engine.group_of_.assign(items.size(), -1);
        const size_t ref = size_t(alignment.reference);
        for (size_t c = 0; c < collectives[ref].size(); ++c) {
            std::vector<int32_t> group;
            for (size_t r = 0; r < reports.size(); ++r) {
                if (alignment.matches[r].empty() || c >= alignment.matches[r].size()) continue;
                const int32_t k = alignment.matches[r][c];
                if (k < 0) continue;
                const EventRef ev = collectives[r].ref[size_t(k)];
                const int32_t item = engine.itemOfEvent(r, ev.lane, ev.index);
                if (item >= 0) group.push_back(item);
            }
            if (group.size() < 2) continue;
            for (int32_t it : group) engine.group_of_[size_t(it)] = int32_t(engine.groups_.size());
            engine.groups_.push_back(std::move(group));
        }
    }

    int64_t A = 0, B = 0;
    if (options.range) {
        A = options.range->first;
        B = options.range->second;
    } else {
        bool any = false;
        int64_t lo = INT64_MAX, hi = INT64_MIN;
        for (size_t i = 0; i < items.size(); ++i) lo = std::min(lo, items.start[i]), hi = std::max(hi, items.end[i]);
        any = items.size() > 0;
        for (size_t r = 0; r < reports.size(); ++r)
            engine.forEachNamingRange(r, [&](int64_t, int64_t, const NamingRange& range) {
                lo = std::min(lo, range.start);
                hi = std::max(hi, range.end);
                any = true;
            });
        if (!any) throw std::invalid_argument("no events");
        A = lo;
        B = hi;
    }
    if (B < A) throw std::invalid_argument("range end before start");
    path.begin_ns = A;
    path.end_ns = B;

    std::optional<std::pair<int64_t, int64_t>> owner;
    if (options.owner_thread >= 0 && size_t(options.owner_thread) < reports[0]->threads.size()) {
        const Report& rep = *reports[0];
        const Thread& th = rep.threads[size_t(options.owner_thread)];
        owner = std::pair{th.process >= 0 ? rep.processes[size_t(th.process)].pid : int64_t{0}, th.tid};
    } else {
        owner = engine.mainThread();
    }

    storeSegments(engine.walk(A, B, owner, items.start, items.end), path);
    path.collectives = pathCollectives(reports, path.segments);
    path.by_category = totalsByCategory(path.segments);
    path.by_name = topNames(reports, path.segments);

    if (!options.what_if.empty()) {
        std::vector<std::regex> regexes;
        for (const WhatIfRule& rule : options.what_if) regexes.emplace_back(rule.regex);
        std::vector<double> factor(items.size(), 1.0);
        std::map<std::pair<uint16_t, uint32_t>, double> factorOfName;
        for (size_t i = 0; i < items.size(); ++i) {
            const auto key = std::pair{items.report[i], items.name_id[i]};
            auto found = factorOfName.find(key);
            if (found == factorOfName.end()) {
                double f = 1.0;
                const std::string name(reports[key.first]->str(key.second));
                for (size_t k = 0; k < regexes.size(); ++k)
                    if (std::regex_search(name, regexes[k])) {
                        f = options.what_if[k].factor;
                        break;
                    }
                found = factorOfName.emplace(key, f).first;
            }
            factor[i] = found->second;
        }
        const int32_t first = engine.startItem(owner, A, B, items.start, items.end);
        std::vector<int64_t> newS, newE;
        engine.replay(factor, A, newS, newE);
        const int64_t newB = first < 0 ? B : newE[size_t(first)] + (B - items.end[size_t(first)]);
        path.what_if_length_ns = newB - A;
        if (newB > A) {
            CriticalPath replayed;
            storeSegments(engine.walk(A, newB, owner, newS, newE), replayed);
            path.what_if_by_category = totalsByCategory(replayed.segments);
            path.what_if_by_name = topNames(reports, replayed.segments);
        }
    }
    return path;
}

std::string_view segmentName(const std::vector<const Report*>& reports, const CriticalPath& path, size_t segment) {
    return reports[path.segments.report[segment]]->str(path.segments.name_id[segment]);
}

}  // namespace lanescope