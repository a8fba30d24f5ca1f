#include "analysis/ranks/RankCompare.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <limits>
#include <thread>

namespace lanescope {
namespace {

constexpr int64_t kMissing = std::numeric_limits<int64_t>::min();

// The per-rank part, independent of the others: steps, GPU shares, collectives per kind,
// point-to-point MPI calls.
void measureRank(const RankInput& in, const CollectiveColumns& collectives, RankMetrics& m) {
    m.label = in.label;
    m.rank = in.rank;
    m.steps = in.steps;
    std::vector<int64_t> durations;
    durations.reserve(m.steps.size());
    for (const StepRange& s : m.steps) durations.push_back(s.end_ns - s.start_ns);
    m.step_ns = summarize(durations);
    m.shares = in.shares;
    std::vector<CollectiveKindTimes> byKind(collectives.kind_names.size());
    for (size_t c = 0; c < collectives.size(); ++c) {
        CollectiveKindTimes& k = byKind[collectives.kind[c]];
        ++k.count;
        k.kernel_ns += collectives.end_ns[c] - collectives.start_ns[c];
    }
    for (size_t k = 0; k < byKind.size(); ++k)
        if (byKind[k].count) m.collectives[collectives.kind_names[k]] = byKind[k];
    m.point_to_point = in.point_to_point;
    for (const auto& [name, t] : m.point_to_point) m.point_to_point_ns += t.blocked_ns;
}

// Runs f(i) for i in [0, n) on up to the machine's cores.
template <typename F>
void parallelFor(size_t n, F f) {
    const size_t workers = std::min<size_t>(n, std::max(1u, std::thread::hardware_concurrency()));
    std::atomic<size_t> next{0};
    std::vector<std::jthread> pool;
    for (size_t w = 1; w < workers; ++w)
        pool.emplace_back([&] {
            for (size_t i; (i = next++) < n;) f(i);
        });
    for (size_t i; (i = next++) < n;) f(i);
}

Straggler findStraggler(const std::vector<RankMetrics>& ranks, uint32_t contested) {
    Straggler s;
    if (ranks.size() < 2) return s;
    auto pick = [&](auto key) {
        int best = -1;
        int64_t first = kMissing, second = kMissing;
        for (size_t i = 0; i < ranks.size(); ++i) {
            const int64_t v = key(ranks[i]);
            if (v == kMissing) continue;
            if (v > first) {
                second = first;
                first = v;
                best = static_cast<int>(i);
            } else if (v > second) {
                second = v;
            }
        }
        // A straggler stands out: with a tie at the top there is none.
        s.excess_ns = best >= 0 && second != kMissing ? first - second : 0;
        s.report = s.excess_ns > 0 ? best : -1;
    };
    if (contested > 0) {
        s.basis = "collectives";
        s.collectives = contested;
        pick([](const RankMetrics& m) { return m.caused_wait_ns; });
        if (s.report < 0) return Straggler{};
        s.caused_wait_ns = ranks[size_t(s.report)].caused_wait_ns;
        s.times_last = ranks[size_t(s.report)].times_last;
    } else {
        pick([](const RankMetrics& m) { return m.step_ns.count ? int64_t(m.step_ns.mean) : kMissing; });
        if (s.report >= 0) s.basis = "steps";
    }
    return s;
}

// Compares ranks placed on one timeline by `alignment`.
RankComparison compareAligned(const std::vector<RankInput>& inputs,
                              const std::vector<const CollectiveColumns*>& collectives, RankAlignment alignment) {
    const size_t n = inputs.size();
    RankComparison out;
    out.ranks.resize(n);
    for (size_t i = 0; i < n; ++i) {
        measureRank(inputs[i], *collectives[i], out.ranks[i]);
        out.ranks[i].offset_ns = alignment.offsets_ns[i];
    }

    uint32_t contested = 0;
    if (alignment.reference >= 0) {
        const CollectiveColumns& refList = *collectives[size_t(alignment.reference)];
        std::vector<uint32_t> ordinals(refList.kind_names.size(), 0);
        for (size_t c = 0; c < refList.size(); ++c) {
            MatchedCollective mc;
            mc.kind = refList.kindName(c);
            mc.ordinal = ordinals[refList.kind[c]]++;
            mc.kernels.assign(n, EventRef{UINT32_MAX, 0});
            mc.arrival_ns.assign(n, kMissing);
            mc.end_ns.assign(n, kMissing);
            mc.wait_ns.assign(n, 0);
            std::vector<int64_t> blockStart(n, kMissing);
            for (size_t i = 0; i < n; ++i) {
                const auto& matches = alignment.matches[i];
                if (c >= matches.size() || matches[c] < 0) continue;
                const CollectiveColumns& mine = *collectives[i];
                const size_t m = size_t(matches[c]);
                mc.kernels[i] = mine.ref[m];
                mc.arrival_ns[i] = mine.start_ns[m] + alignment.offsets_ns[i];
                mc.end_ns[i] = mine.end_ns[m] + alignment.offsets_ns[i];
                blockStart[i] = mine.block_start_ns[m] + alignment.offsets_ns[i];
                ++mc.present;
                if (mc.last < 0 || mc.arrival_ns[i] > mc.arrival_ns[size_t(mc.last)]) mc.last = static_cast<int>(i);
            }
            if (mc.present >= 2) {
                ++contested;
                RankMetrics& last = out.ranks[size_t(mc.last)];
                ++last.times_last;
                for (size_t i = 0; i < n; ++i) {
                    if (mc.arrival_ns[i] == kMissing) continue;
                    const int64_t wait = std::clamp(mc.arrival_ns[size_t(mc.last)] - blockStart[i], int64_t{0},
                                                    mc.end_ns[i] - blockStart[i]);
                    mc.wait_ns[i] = wait;
                    out.ranks[i].wait_ns += wait;
                    out.ranks[i].collectives[mc.kind].wait_ns += wait;
                    last.caused_wait_ns += wait;
                }
            }
            out.collectives.push_back(std::move(mc));
        }
    }
    out.straggler = findStraggler(out.ranks, contested);
    out.alignment = std::move(alignment);
    return out;
}

}  // namespace

RankComparison compareRankInputs(const std::vector<RankInput>& inputs, AlignMode mode,
                                 const std::vector<int64_t>& nudges) {
    const size_t n = inputs.size();
    auto every = [n](const auto& has) {
        bool all = n > 0;
        for (size_t i = 0; i < n; ++i) all = all && has(i);
        return all;
    };
    if (mode == AlignMode::Auto)
        mode = every([&](size_t i) { return !inputs[i].nccl.empty(); })  ? AlignMode::Nccl
               : every([&](size_t i) { return !inputs[i].mpi.empty(); }) ? AlignMode::Mpi
                                                                         : AlignMode::Clock;
    bool anyNccl = false;
    for (const RankInput& in : inputs) anyNccl = anyNccl || !in.nccl.empty();
    const bool useMpi = mode == AlignMode::Mpi || (mode != AlignMode::Nccl && !anyNccl);
    std::vector<const CollectiveColumns*> collectives(n);
    for (size_t i = 0; i < n; ++i) collectives[i] = useMpi ? &inputs[i].mpi : &inputs[i].nccl;

    RankAlignment alignment = alignRanks(inputs, collectives, mode);
    for (size_t i = 0; i < nudges.size() && i < alignment.offsets_ns.size(); ++i) alignment.offsets_ns[i] += nudges[i];
    RankComparison out = compareAligned(inputs, collectives, std::move(alignment));
    if (n > 0) out.collectives_from = useMpi ? "mpi" : "nccl";
    return out;
}

std::vector<RankInput> extractRankInputs(const std::vector<const Report*>& reports) {
    std::vector<RankInput> inputs(reports.size());
    parallelFor(reports.size(), [&](size_t i) { inputs[i] = extractRankInput(*reports[i]); });
    return inputs;
}

std::vector<std::vector<RankInput>> extractRanksOfEach(const std::vector<const Report*>& reports) {
    std::vector<std::vector<RankInput>> inputs(reports.size());
    parallelFor(reports.size(), [&](size_t i) { inputs[i] = extractRanksOf(*reports[i]); });
    return inputs;
}

RankComparison compareRanks(const std::vector<const Report*>& reports, AlignMode mode,
                            const std::vector<int64_t>& nudges) {
    return compareRankInputs(extractRankInputs(reports), mode, nudges);
}

}  // namespace lanescope
