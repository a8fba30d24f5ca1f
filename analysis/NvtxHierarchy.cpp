#include "analysis/NvtxHierarchy.h"

#include <algorithm>
#include <functional>
#include <limits>
#include <tuple>

namespace lanescope {
namespace {

constexpr uint32_t kNone = kNoNvtxParent;

// Prefix minimum over end ranks (ends in descending order), of (length, -order): the
// shortest range inserted so far that ends at or after a given end, the latest on ties.
class ShortestEnclosing {
public:
    explicit ShortestEnclosing(size_t n) : tree_(n + 1, Item{}) {}
    void insert(size_t rank, int64_t length, uint32_t order) {
        const Item item{length, order};
        for (size_t i = rank + 1; i < tree_.size(); i += i & (~i + 1))
            if (better(item, tree_[i])) tree_[i] = item;
    }
    // The order of the best range among ranks 0..rank, or kNone.
    uint32_t query(size_t rank) const {
        Item best{};
        for (size_t i = rank + 1; i > 0; i -= i & (~i + 1))
            if (better(tree_[i], best)) best = tree_[i];
        return best.order;
    }

private:
    struct Item {
        int64_t length = std::numeric_limits<int64_t>::max();
        uint32_t order = kNone;
    };
    static bool better(const Item& a, const Item& b) {
        if (b.order == kNone) return a.order != kNone;
        if (a.order == kNone) return false;
        return a.length < b.length || (a.length == b.length && a.order > b.order);
    }
    std::vector<Item> tree_;
};

// The hierarchy of a thread with one NVTX lane as a stack, in lane order (start ascending,
// longer first): the shortest range containing a range is then the innermost open one, as long
// as every two ranges are nested or apart. False as soon as two only overlap.
bool stackHierarchy(const IntervalColumns& ev, std::vector<uint32_t>& parent, std::vector<int32_t>& level) {
    std::vector<uint32_t> open;
    for (uint32_t i = 0; i < ev.size(); ++i) {
        if (ev.kind[i] != EventKind::NvtxRange) continue;
        // The open ranges start at or before this one: those ending before it ends hold it not.
        while (!open.empty() && ev.endNs(open.back()) < ev.endNs(i)) {
            if (ev.endNs(open.back()) > ev.start_ns[i]) return false;  // the two only overlap
            open.pop_back();
        }
        if (!open.empty()) {
            parent[i] = open.back();
            level[i] = level[open.back()] + 1;
        }
        open.push_back(i);
    }
    return true;
}

}  // namespace

ThreadRanges threadRanges(const Report& report, const std::vector<uint32_t>& nvtxLanes) {
    ThreadRanges t;
    t.lanes = nvtxLanes;
    for (uint32_t li : nvtxLanes) {
        t.base.push_back(t.size);
        t.size += static_cast<uint32_t>(report.lanes[li].events.size());
    }
    return t;
}

// Ranges are swept in (start ascending, end descending, local id) order, so every container of
// a range is inserted before the range itself is queried.
void computeHierarchy(const Report& report, const ThreadRanges& flat, std::vector<uint32_t>& parent,
                      std::vector<int32_t>& level) {
    // Nested ranges on one lane (every nsys report's push/pop ranges): one pass, no sort.
    if (flat.lanes.size() == 1 && stackHierarchy(report.lanes[flat.lanes[0]].events, parent, level)) return;
    std::fill(parent.begin(), parent.end(), kNone);
    std::fill(level.begin(), level.end(), 0);
    std::vector<uint32_t> ids;
    for (size_t k = 0; k < flat.lanes.size(); ++k) {
        const IntervalColumns& ev = report.lanes[flat.lanes[k]].events;
        for (uint32_t i = 0; i < ev.size(); ++i)
            if (ev.kind[i] == EventKind::NvtxRange) ids.push_back(flat.base[k] + i);
    }
    auto startOf = [&](uint32_t id) {
        const EventRef r = flat.ref(id);
        return report.lanes[r.lane].events.start_ns[r.index];
    };
    auto endOf = [&](uint32_t id) {
        const EventRef r = flat.ref(id);
        return report.lanes[r.lane].events.endNs(r.index);
    };
    std::sort(ids.begin(), ids.end(), [&](uint32_t a, uint32_t b) {
        const int64_t sa = startOf(a), sb = startOf(b), ea = endOf(a), eb = endOf(b);
        return std::tie(sa, eb, a) < std::tie(sb, ea, b);
    });
    std::vector<int64_t> ends;
    ends.reserve(ids.size());
    for (uint32_t id : ids) ends.push_back(endOf(id));
    std::sort(ends.begin(), ends.end(), std::greater<>());
    ends.erase(std::unique(ends.begin(), ends.end()), ends.end());

    ShortestEnclosing tree(ends.size());
    for (uint32_t order = 0; order < ids.size(); ++order) {
        const uint32_t id = ids[order];
        const int64_t end = endOf(id);
        const size_t rank =
            static_cast<size_t>(std::lower_bound(ends.begin(), ends.end(), end, std::greater<>()) - ends.begin());
        const uint32_t best = tree.query(rank);
        if (best != kNone) {
            parent[id] = ids[best];
            level[id] = level[ids[best]] + 1;
        }
        tree.insert(rank, end - startOf(id), order);
    }
}

}  // namespace lanescope
