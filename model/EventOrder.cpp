#include "model/EventOrder.h"

#include <algorithm>
#include <array>
#include <functional>
#include <limits>
#include <numeric>
#include <optional>
#include <string_view>
#include <thread>

#include "model/EventDetails.h"
#include "model/Occupancy.h"

namespace lanescope {
namespace {

constexpr size_t kParallelFrom = 1 << 16;  // rows; below this one thread is faster

// Runs work(begin, end) over [0, n) in two halves on two threads when n is large.
void forHalves(size_t n, const std::function<void(size_t, size_t)>& work) {
    if (n < kParallelFrom) {
        work(0, n);
        return;
    }
    std::thread other(work, n / 2, n);
    work(0, n / 2);
    other.join();
}

// The place of each 8-bit code's label among all codes' labels, alphabetically (equal labels,
// such as every "Unknown", share a place).
std::array<int64_t, 256> labelRanks(const std::function<std::string_view(uint8_t)>& label) {
    std::array<std::pair<std::string_view, int>, 256> all;
    for (int c = 0; c < 256; ++c) all[size_t(c)] = {label(uint8_t(c)), c};
    std::sort(all.begin(), all.end());
    std::array<int64_t, 256> rank{};
    int64_t r = 0;
    for (size_t i = 0; i < all.size(); ++i) {
        if (i > 0 && all[i].first != all[i - 1].first) ++r;
        rank[size_t(all[i].second)] = r;
    }
    return rank;
}

const KernelConfig* configOf(const Report& r, EventKind kind, uint32_t payload) {
    if (kind != EventKind::Kernel || payload >= r.kernels.size()) return nullptr;
    const uint32_t c = r.kernels[payload].config;
    return c < r.kernel_configs.size() ? &r.kernel_configs[c] : nullptr;
}

std::optional<int64_t> correlationOf(const Report& r, EventKind kind, uint32_t payload) {
    switch (kind) {
        case EventKind::CudaApiCall:
            return payload == kNoPayload ? std::nullopt : std::optional<int64_t>(payload);
        case EventKind::Kernel:
            if (payload < r.kernels.size()) return r.kernels[payload].correlation_id;
            break;
        case EventKind::Memcpy:
            if (payload < r.memcpys.size()) return r.memcpys[payload].correlation_id;
            break;
        case EventKind::Memset:
            if (payload < r.memsets.size()) return r.memsets[payload].correlation_id;
            break;
        case EventKind::Sync:
            if (payload < r.syncs.size()) return r.syncs[payload].correlation_id;
            break;
        default:
            break;
    }
    return std::nullopt;
}

std::optional<uint64_t> bytesOf(const Report& r, EventKind kind, uint32_t payload) {
    if (kind == EventKind::Memcpy && payload < r.memcpys.size()) return r.memcpys[payload].bytes;
    if (kind == EventKind::Memset && payload < r.memsets.size()) return r.memsets[payload].bytes;
    return std::nullopt;
}

const NvtxInfo* nvtxOf(const Report& r, EventKind kind, uint32_t payload) {
    return kind == EventKind::NvtxRange && payload < r.nvtx.size() ? &r.nvtx[payload] : nullptr;
}

bool isTextField(EventField f) { return f == EventField::Name || f == EventField::Row || f == EventField::Domain; }

// The string id (of the event's own report) behind a text field.
std::optional<uint32_t> textIdOf(const EventRows& rows, const SourcedEvent& e, EventField field) {
    const Lane& lane = rows.lane(e);
    switch (field) {
        case EventField::Name:
            return lane.events.name_id[e.index];
        case EventField::Row:
            return lane.name_id;
        case EventField::Domain:
            if (const NvtxInfo* n =
                    nvtxOf(*rows.source(e).report, lane.events.kind[e.index], lane.events.payload[e.index]))
                return n->domain_name_id;
            return std::nullopt;
        default:
            return std::nullopt;
    }
}

std::string_view textOf(const Report& r, uint32_t id, EventField field) {
    if (field == EventField::Domain && id == 0) return "default";
    return id < r.strings.size() ? r.str(id) : std::string_view();
}

// For a text field: the alphabetical place of every string id the rows use, per report.
class TextRanks {
public:
    TextRanks(const EventRows& rows, const EventRowOrder* subset, EventField field) : field_(field) {
        for (const EventSource& s : rows.sources())
            if (std::find(reports_.begin(), reports_.end(), s.report) == reports_.end()) reports_.push_back(s.report);
        ranks_.resize(reports_.size());
        std::vector<std::vector<uint8_t>> used(reports_.size());
        for (size_t r = 0; r < reports_.size(); ++r) used[r].assign(reports_[r]->strings.size() + 1, 0);
        std::vector<size_t> reportOfSource;
        for (const EventSource& s : rows.sources())
            reportOfSource.push_back(size_t(std::find(reports_.begin(), reports_.end(), s.report) - reports_.begin()));
        const size_t n = subset ? subset->size() : rows.size();
        for (size_t k = 0; k < n; ++k) {
            const SourcedEvent e = rows.at(subset ? (*subset)[k] : k);
            std::vector<uint8_t>& u = used[reportOfSource[e.source]];
            if (const auto id = textIdOf(rows, e, field)) u[std::min<size_t>(*id, u.size() - 1)] = 1;
        }
        struct Entry {
            std::string_view text;
            uint32_t report, id;
        };
        std::vector<Entry> entries;
        for (size_t r = 0; r < reports_.size(); ++r)
            for (size_t id = 0; id < used[r].size(); ++id)
                if (used[r][id])
                    entries.push_back({textOf(*reports_[r], uint32_t(id), field), uint32_t(r), uint32_t(id)});
        std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.text < b.text; });
        for (size_t r = 0; r < reports_.size(); ++r) ranks_[r].assign(used[r].size(), 0);
        int64_t rank = 0;
        for (size_t i = 0; i < entries.size(); ++i) {
            if (i > 0 && entries[i].text != entries[i - 1].text) ++rank;
            ranks_[entries[i].report][entries[i].id] = uint32_t(rank);
        }
        sourceRanks_.reserve(rows.sources().size());
        for (size_t s = 0; s < rows.sources().size(); ++s) sourceRanks_.push_back(&ranks_[reportOfSource[s]]);
    }
    std::optional<int64_t> key(const EventRows& rows, const SourcedEvent& e) const {
        const auto id = textIdOf(rows, e, field_);
        if (!id) return std::nullopt;
        const std::vector<uint32_t>& ranks = *sourceRanks_[e.source];
        return ranks[std::min<size_t>(*id, ranks.size() - 1)];
    }

private:
    EventField field_;
    std::vector<const Report*> reports_;
    std::vector<std::vector<uint32_t>> ranks_;               // per report, by string id
    std::vector<const std::vector<uint32_t>*> sourceRanks_;  // per source
};

// The sort key of a non-text field; nullopt where the event has no such field.
std::optional<int64_t> numberKey(const EventRows& rows, const SourcedEvent& e, EventField field) {
    static const std::array<int64_t, 256> kKindRank =
        labelRanks([](uint8_t c) { return std::string_view(eventKindLabel(static_cast<EventKind>(c))); });
    static const std::array<int64_t, 256> kCopyRank =
        labelRanks([](uint8_t c) { return std::string_view(copyKindLabel(static_cast<CopyKind>(c))); });
    static const std::array<int64_t, 256> kMemRank =
        labelRanks([](uint8_t c) { return std::string_view(memKindLabel(static_cast<MemKind>(c))); });
    static const std::array<int64_t, 256> kSyncRank =
        labelRanks([](uint8_t c) { return std::string_view(syncTypeLabel(c)); });
    const Report& r = *rows.source(e).report;
    const IntervalColumns& ev = rows.lane(e).events;
    const uint32_t i = e.index, payload = ev.payload[i];
    const EventKind kind = ev.kind[i];
    switch (field) {
        case EventField::Start:
            return rows.startNs(e);
        case EventField::End:
            return rows.endNs(e);
        case EventField::Duration:
            return ev.endNs(i) - ev.start_ns[i];
        case EventField::Kind:
            return kKindRank[uint8_t(kind)];
        case EventField::Depth:
            return ev.depth[i];
        case EventField::CorrelationId:
            return correlationOf(r, kind, payload);
        case EventField::Grid:
            if (const KernelConfig* c = configOf(r, kind, payload))
                return int64_t(uint64_t(c->grid[0]) * c->grid[1] * c->grid[2]);
            return std::nullopt;
        case EventField::Block:
            if (const KernelConfig* c = configOf(r, kind, payload))
                return int64_t(uint64_t(c->block[0]) * c->block[1] * c->block[2]);
            return std::nullopt;
        case EventField::Registers:
            if (const KernelConfig* c = configOf(r, kind, payload)) return c->registers_per_thread;
            return std::nullopt;
        case EventField::SharedMemory:
            if (const KernelConfig* c = configOf(r, kind, payload))
                return int64_t(c->static_shared_bytes) + c->dynamic_shared_bytes;
            return std::nullopt;
        case EventField::Occupancy:
            if (const KernelConfig* c = configOf(r, kind, payload))
                if (const auto o = kernelOccupancy(r, rows.lane(e), *c))
                    return int64_t(o->warps_per_sm) * 1'000'000 / std::max<uint32_t>(1, o->max_warps_per_sm);
            return std::nullopt;
        case EventField::Bytes:
            if (const auto b = bytesOf(r, kind, payload)) return int64_t(*b);
            return std::nullopt;
        case EventField::Throughput: {
            const int64_t ns = ev.endNs(i) - ev.start_ns[i];
            if (const auto b = bytesOf(r, kind, payload); b && ns > 0)
                return int64_t(double(*b) * 1e9 / double(ns));  // bytes per second
            return std::nullopt;
        }
        case EventField::CopyKind:
            if (kind == EventKind::Memcpy && payload < r.memcpys.size())
                return kCopyRank[uint8_t(r.memcpys[payload].copy_kind)];
            return std::nullopt;
        case EventField::Memory:
            // "Device" sorts before "Device → Pinned": (first kind, then 0 or 1 + second kind).
            if (kind == EventKind::Memcpy && payload < r.memcpys.size())
                return kMemRank[uint8_t(r.memcpys[payload].src_kind)] * 512 + 1 +
                       kMemRank[uint8_t(r.memcpys[payload].dst_kind)];
            if (kind == EventKind::Memset && payload < r.memsets.size())
                return kMemRank[uint8_t(r.memsets[payload].mem_kind)] * 512;
            return std::nullopt;
        case EventField::SyncType:
            if (kind == EventKind::Sync && payload < r.syncs.size()) return kSyncRank[r.syncs[payload].sync_type];
            return std::nullopt;
        case EventField::Color:
            if (const NvtxInfo* n = nvtxOf(r, kind, payload); n && n->has_color) return n->color & 0xFFFFFF;
            return std::nullopt;
        default:
            return std::nullopt;
    }
}

// A row and its sort key.
struct RadixItem {
    uint64_t key;
    uint32_t position;
};

// Sorts by key, stably (equal keys keep their order), keys at most maxKey: a least-significant
// digit radix sort, 11 bits a pass, as many passes as maxKey needs (two for keys below 4
// million). O(n) per pass, with a buffer as large as the items.
void radixSort(std::vector<RadixItem>& items, uint64_t maxKey) {
    constexpr int kBits = 11;
    constexpr size_t kBuckets = size_t(1) << kBits;
    std::vector<RadixItem> buffer(items.size());
    for (int shift = 0; shift < 64 && (maxKey >> shift) != 0; shift += kBits) {
        std::vector<size_t> start(kBuckets + 1, 0);
        for (const RadixItem& item : items) ++start[((item.key >> shift) & (kBuckets - 1)) + 1];
        for (size_t b = 1; b <= kBuckets; ++b) start[b] += start[b - 1];
        for (const RadixItem& item : items) buffer[start[(item.key >> shift) & (kBuckets - 1)]++] = item;
        items.swap(buffer);
    }
}

}  // namespace

EventRowOrder filterEventRows(const EventRows& rows, const FindQuery& query, std::string* error) {
    EventRowOrder kept;
    if (query.text.empty()) {
        kept.resize(rows.size());
        std::iota(kept.begin(), kept.end(), 0U);
        return kept;
    }
    const FindMatcher matcher(query);
    if (!matcher.error().empty()) {
        if (error) *error = matcher.error();
        return kept;
    }
    // Per source: a decision per string id of its report (0 unknown, 1 match, 2 no match),
    // shared between the sources of one report.
    std::vector<std::vector<uint8_t>> decided;
    std::vector<size_t> decisionOf;
    std::vector<const Report*> reports;
    for (const EventSource& s : rows.sources()) {
        auto it = std::find(reports.begin(), reports.end(), s.report);
        if (it == reports.end()) {
            reports.push_back(s.report);
            decided.emplace_back(s.report->strings.size(), 0);
            it = reports.end() - 1;
        }
        decisionOf.push_back(size_t(it - reports.begin()));
    }
    try {
        for (size_t row = 0; row < rows.size(); ++row) {
            const SourcedEvent e = rows.at(row);
            const uint32_t id = rows.lane(e).events.name_id[e.index];
            std::vector<uint8_t>& d = decided[decisionOf[e.source]];
            if (id >= d.size()) continue;
            if (d[id] == 0) d[id] = matcher.matches(rows.source(e).report->str(id)) ? 1 : 2;
            if (d[id] == 1) kept.push_back(uint32_t(row));
        }
    } catch (const std::regex_error& e) {
        if (error) *error = "regular expression \"" + query.text + "\" failed: " + e.what();
        kept.clear();
    }
    return kept;
}

EventRowOrder sortEventRows(const EventRows& rows, const EventRowOrder* subset, EventField field, bool descending) {
    const size_t n = subset ? subset->size() : rows.size();
    auto positionAt = [&](size_t k) { return subset ? (*subset)[k] : uint32_t(k); };
    if (field == EventField::Start && !descending) {  // the rows' own order
        if (subset) return *subset;
        EventRowOrder all(n);
        std::iota(all.begin(), all.end(), 0U);
        return all;
    }
    // Keys as distances from the first in the chosen direction, so that a stable ascending
    // sort of them is the order wanted; rows without the field one past the last.
    std::vector<RadixItem> items(n);
    std::optional<TextRanks> text;
    if (isTextField(field)) text.emplace(rows, subset, field);
    std::vector<uint8_t> has(n);
    forHalves(n, [&](size_t begin, size_t end) {
        for (size_t k = begin; k < end; ++k) {
            const SourcedEvent e = rows.at(positionAt(k));
            const std::optional<int64_t> key = text ? text->key(rows, e) : numberKey(rows, e, field);
            items[k] = {uint64_t(key.value_or(0)), positionAt(k)};
            has[k] = key.has_value();
        }
    });
    int64_t low = std::numeric_limits<int64_t>::max(), high = std::numeric_limits<int64_t>::min();
    for (size_t k = 0; k < n; ++k)
        if (has[k]) {
            low = std::min(low, int64_t(items[k].key));
            high = std::max(high, int64_t(items[k].key));
        }
    const uint64_t span = low <= high ? uint64_t(high) - uint64_t(low) : 0;
    const uint64_t last = span == std::numeric_limits<uint64_t>::max() ? span : span + 1;
    forHalves(n, [&](size_t begin, size_t end) {
        for (size_t k = begin; k < end; ++k) {
            const uint64_t key = items[k].key;  // the int64_t key's bits
            items[k].key = !has[k] ? last : descending ? uint64_t(high) - key : key - uint64_t(low);
        }
    });
    has = {};
    radixSort(items, last);
    EventRowOrder order(n);
    for (size_t k = 0; k < n; ++k) order[k] = items[k].position;
    return order;
}

}  // namespace lanescope
