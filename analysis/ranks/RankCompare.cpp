#include "analysis/ranks/RankCompare.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <limits>
#include <thread>

namespace lanescope {
namespace {

constexpr int64_t kMissing = std::numeric_limits<int64_t>::min();

// The per-report part, independent of the others: steps, GPU shares, collectives per kind,
// point-to-point MPI calls.
void measureRank(const Report& report, const std::vector<Collective>& collectives, const MpiActivity& mpi,
                 RankMetrics& m) {
    m.label = rankLabel(report);
    m.rank = rankOf(report);
    m.steps = findSteps(report);
    std::vector<int64_t> durations;
    durations.reserve(m.steps.size());
    for (const StepRange& s : m.steps) durations.push_back(s.end_ns - s.start_ns);
    m.step_ns = summarize(durations);
    m.shares = gpuShares(report);
    for (const Collective& c : collectives) {
        CollectiveKindTimes& k = m.collectives[c.kind];
        ++k.count;
        k.kernel_ns += c.end_ns - c.start_ns;
    }
    m.point_to_point = mpi.point_to_point;
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

// Compares reports placed on one timeline by `alignment`.
RankComparison compareAligned(const std::vector<const Report*>& reports,
                              const std::vector<std::vector<Collective>>& collectives,
                              const std::vector<MpiActivity>& mpi, RankAlignment alignment) {
    const size_t n = reports.size();
    RankComparison out;
    out.ranks.resize(n);
    parallelFor(n, [&](size_t i) { measureRank(*reports[i], collectives[i], mpi[i], out.ranks[i]); });
    for (size_t i = 0; i < n; ++i) out.ranks[i].offset_ns = alignment.offsets_ns[i];

    uint32_t contested = 0;
    if (alignment.reference >= 0) {
        const auto& refList = collectives[size_t(alignment.reference)];
        std::map<std::string, uint32_t> ordinals;
        for (size_t c = 0; c < refList.size(); ++c) {
            MatchedCollective mc;
            mc.kind = refList[c].kind;
            mc.ordinal = ordinals[mc.kind]++;
            mc.kernels.assign(n, EventRef{UINT32_MAX, 0});
            mc.arrival_ns.assign(n, kMissing);
            mc.end_ns.assign(n, kMissing);
            mc.wait_ns.assign(n, 0);
            std::vector<int64_t> blockStart(n, kMissing);
            for (size_t i = 0; i < n; ++i) {
                const auto& matches = alignment.matches[i];
                if (c >= matches.size() || matches[c] < 0) continue;
                const Collective& mine = collectives[i][size_t(matches[c])];
                mc.kernels[i] = mine.kernel;
                mc.arrival_ns[i] = mine.start_ns + alignment.offsets_ns[i];
                mc.end_ns[i] = mine.end_ns + alignment.offsets_ns[i];
                blockStart[i] = mine.block_start_ns + alignment.offsets_ns[i];
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

RankComparison compareRanks(const std::vector<const Report*>& reports, AlignMode mode,
                            const std::vector<int64_t>& nudges) {
    const size_t n = reports.size();
    std::vector<std::vector<Collective>> nccl(n);
    std::vector<MpiActivity> mpi(n);
    parallelFor(n, [&](size_t i) {
        nccl[i] = ncclCollectives(*reports[i]);
        mpi[i] = mpiActivity(*reports[i]);
    });
    auto every = [n](const auto& has) {
        bool all = n > 0;
        for (size_t i = 0; i < n; ++i) all = all && has(i);
        return all;
    };
    if (mode == AlignMode::Auto)
        mode = every([&](size_t i) { return !nccl[i].empty(); })              ? AlignMode::Nccl
               : every([&](size_t i) { return !mpi[i].collectives.empty(); }) ? AlignMode::Mpi
                                                                              : AlignMode::Clock;
    bool anyNccl = false;
    for (const auto& list : nccl) anyNccl = anyNccl || !list.empty();
    const bool useMpi = mode == AlignMode::Mpi || (mode != AlignMode::Nccl && !anyNccl);
    std::vector<std::vector<Collective>> collectives(n);
    for (size_t i = 0; i < n; ++i) collectives[i] = useMpi ? std::move(mpi[i].collectives) : std::move(nccl[i]);

    RankAlignment alignment = alignRanks(reports, collectives, mode);
    for (size_t i = 0; i < nudges.size() && i < alignment.offsets_ns.size(); ++i) alignment.offsets_ns[i] += nudges[i];
    RankComparison out = compareAligned(reports, collectives, mpi, std::move(alignment));
    if (n > 0) out.collectives_from = useMpi ? "mpi" : "nccl";
    return out;
}

}  // namespace lanescope
