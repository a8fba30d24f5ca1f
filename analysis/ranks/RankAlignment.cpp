#include "analysis/ranks/RankAlignment.h"

#include <algorithm>
#include <limits>
#include <map>

namespace lanescope {
namespace {

// Collectives of one report grouped by kind: indexes into its list, sorted by end_ns.
using ByKind = std::map<std::string, std::vector<int32_t>>;
// (reference collective, other report's collective) index pairs.
using Pairs = std::vector<std::pair<int32_t, int32_t>>;

ByKind groupByKind(const CollectiveColumns& list) {
    std::vector<std::vector<int32_t>> byKindId(list.kind_names.size());
    for (size_t i = 0; i < list.size(); ++i) byKindId[list.kind[i]].push_back(static_cast<int32_t>(i));
    ByKind groups;
    for (size_t k = 0; k < byKindId.size(); ++k) {
        std::vector<int32_t>& indexes = groups[list.kind_names[k]] = std::move(byKindId[k]);
        std::stable_sort(indexes.begin(), indexes.end(),
                         [&list](int32_t a, int32_t b) { return list.end_ns[size_t(a)] < list.end_ns[size_t(b)]; });
    }
    return groups;
}

int64_t median(std::vector<int64_t> values) {
    const size_t mid = values.size() / 2;
    std::nth_element(values.begin(), values.begin() + long(mid), values.end());
    if (values.size() % 2) return values[mid];
    const int64_t upper = values[mid];
    const int64_t lower = *std::max_element(values.begin(), values.begin() + long(mid));
    return lower + (upper - lower) / 2;
}

// Collectives whose ends coincide on every rank (each waits for all the others' data);
// rooted ones (Broadcast, Reduce, MPI_Bcast, MPI_Gather, ...), point-to-point ones and
// nonblocking MPI ones (whose wait may start after the others finished) let some ranks finish early.
bool endsTogether(std::string_view kind) {
    return kind == "AllReduce" || kind == "AllGather" || kind == "ReduceScatter" || kind == "AllToAll" ||
           kind == "MPI_Allreduce" || kind == "MPI_Allgather" || kind == "MPI_Allgatherv" ||
           kind == "MPI_Reduce_scatter" || kind == "MPI_Reduce_scatter_block" || kind == "MPI_Alltoall" ||
           kind == "MPI_Alltoallv" || kind == "MPI_Alltoallw" || kind == "MPI_Barrier";
}

// NCCL runs the collectives of a communicator in the same order on every rank, so the k-th of a
// kind on one rank is the (k + s)-th on another, s being what one capture missed at its start.
// With a guess of the shift between the timelines, s (at most kMaxSkip either way) is the one
// whose ends fall nearest the guess (median distance); without one, s = 0.
Pairs pairInOrder(const CollectiveColumns& refList, const ByKind& ref, const CollectiveColumns& otherList,
                  const ByKind& other, std::optional<int64_t> guess) {
    constexpr long kMaxSkip = 16;
    Pairs pairs;
    for (const auto& [kind, r] : ref) {
        auto found = other.find(kind);
        if (found == other.end()) continue;
        const std::vector<int32_t>& o = found->second;
        const long nr = long(r.size()), no = long(o.size());
        long best = 0;
        if (guess) {
            int64_t bestCost = std::numeric_limits<int64_t>::max();
            for (long skip = -std::min(kMaxSkip, nr - 1); skip <= std::min(kMaxSkip, no - 1); ++skip) {
                std::vector<int64_t> distance;
                for (long k = std::max(0L, -skip); k < nr && k + skip < no; ++k) {
                    const int64_t d =
                        refList.end_ns[size_t(r[size_t(k)])] - otherList.end_ns[size_t(o[size_t(k + skip)])] - *guess;
                    distance.push_back(d < 0 ? -d : d);
                }
                const int64_t cost = median(std::move(distance));
                if (cost < bestCost || (cost == bestCost && std::labs(skip) < std::labs(best))) {
                    bestCost = cost;
                    best = skip;
                }
            }
        }
        for (long k = std::max(0L, -best); k < nr && k + best < no; ++k)
            pairs.emplace_back(r[size_t(k)], o[size_t(k + best)]);
    }
    return pairs;
}

// The shift that makes the other's ends fall on the reference's: the median difference of
// the pairs whose ends coincide (of all pairs when no such kind matched).
int64_t medianShift(const Pairs& pairs, const CollectiveColumns& refList, const CollectiveColumns& otherList) {
    std::vector<int64_t> together, all;
    for (auto [r, o] : pairs) {
        const int64_t d = refList.end_ns[size_t(r)] - otherList.end_ns[size_t(o)];
        all.push_back(d);
        if (endsTogether(refList.kindName(size_t(r)))) together.push_back(d);
    }
    return median(together.empty() ? std::move(all) : std::move(together));
}

}  // namespace

std::optional<AlignMode> parseAlignMode(std::string_view name) {
    if (name == "clock") return AlignMode::Clock;
    if (name == "nccl") return AlignMode::Nccl;
    if (name == "none") return AlignMode::None;
    if (name == "mpi") return AlignMode::Mpi;
    if (name == "auto") return AlignMode::Auto;
    return std::nullopt;
}

const char* alignModeName(AlignMode mode) {
    switch (mode) {
        case AlignMode::Clock:
            return "clock";
        case AlignMode::Nccl:
            return "nccl";
        case AlignMode::None:
            return "none";
        case AlignMode::Mpi:
            return "mpi";
        case AlignMode::Auto:
            return "auto";
    }
    return "";
}

RankAlignment alignRanks(const std::vector<RankInput>& ranks, const std::vector<const CollectiveColumns*>& collectives,
                         AlignMode mode) {
    const size_t n = ranks.size();
    RankAlignment a;
    a.mode = mode;
    a.matches.resize(n);
    a.residual_median_ns.assign(n, -1);
    a.residual_max_ns.assign(n, -1);
    if (n == 0) return a;

    auto clockKnown = [&](size_t i) { return ranks[i].start_utc_ns != 0; };
    std::vector<int64_t> clock(n, 0);
    for (size_t i = 1; i < n; ++i)
        if (clockKnown(0) && clockKnown(i)) clock[i] = ranks[i].start_utc_ns - ranks[0].start_utc_ns;

    // Offsets from the collectives: each report's matched ends onto the reference's.
    std::vector<int64_t> byCollectives = clock;
    for (size_t i = 0; i < n && a.reference < 0; ++i)
        if (!collectives[i]->empty()) a.reference = static_cast<int>(i);
    if (a.reference >= 0) {
        const size_t ref = size_t(a.reference);
        const CollectiveColumns& refList = *collectives[ref];
        const ByKind refKinds = groupByKind(refList);
        a.matches[ref].resize(refList.size());
        for (size_t c = 0; c < refList.size(); ++c) a.matches[ref][c] = static_cast<int32_t>(c);
        for (size_t i = 0; i < n; ++i) {
            if (i == ref || collectives[i]->empty()) continue;
            const CollectiveColumns& list = *collectives[i];
            const ByKind kinds = groupByKind(list);
            // The clocks give a first guess when both have one; a second pass pairs again with
            // the shift the first found.
            std::optional<int64_t> guess;
            if (clockKnown(ref) && clockKnown(i)) guess = ranks[i].start_utc_ns - ranks[ref].start_utc_ns;
            Pairs pairs = pairInOrder(refList, refKinds, list, kinds, guess);
            if (pairs.empty()) continue;
            int64_t shift = medianShift(pairs, refList, list);
            pairs = pairInOrder(refList, refKinds, list, kinds, shift);
            shift = medianShift(pairs, refList, list);
            byCollectives[i] = byCollectives[ref] + shift;
            a.matches[i].assign(refList.size(), -1);
            for (auto [r, o] : pairs) a.matches[i][size_t(r)] = o;
        }
    }

    const bool byMatches = mode == AlignMode::Nccl || mode == AlignMode::Mpi;
    switch (mode) {
        case AlignMode::Clock:
        case AlignMode::Auto:
            a.offsets_ns = clock;
            break;
        case AlignMode::Nccl:
        case AlignMode::Mpi:
            a.offsets_ns = byCollectives;
            break;
        case AlignMode::None:
            a.offsets_ns.assign(n, 0);
            break;
    }
    const std::string family = mode == AlignMode::Mpi ? "MPI" : "NCCL";
    for (size_t i = 0; i < n; ++i) {
        if ((mode == AlignMode::Clock || mode == AlignMode::Auto) && i > 0 && !(clockKnown(0) && clockKnown(i)))
            a.notes.push_back(ranks[i].file_name + ": no session start time on both sides; not moved");
        if (byMatches && collectives[i]->empty())
            a.notes.push_back(ranks[i].file_name + ": no " + family + " collectives; aligned by clock");
        else if (byMatches && a.matches[i].empty())
            a.notes.push_back(ranks[i].file_name + ": no collective matches the first report's; aligned by clock");
    }

    if (a.reference >= 0) {
        const size_t ref = size_t(a.reference);
        for (size_t i = 0; i < n; ++i) {
            std::vector<int64_t> skew, togetherSkew;
            for (size_t c = 0; c < a.matches[i].size(); ++c) {
                if (a.matches[i][c] < 0) continue;
                const int64_t mine = collectives[i]->end_ns[size_t(a.matches[i][c])] + a.offsets_ns[i];
                const int64_t theirs = collectives[ref]->end_ns[c] + a.offsets_ns[ref];
                skew.push_back(mine > theirs ? mine - theirs : theirs - mine);
                if (endsTogether(collectives[ref]->kindName(c))) togetherSkew.push_back(skew.back());
            }
            if (!togetherSkew.empty()) skew = std::move(togetherSkew);
            if (skew.empty()) continue;
            a.residual_max_ns[i] = *std::max_element(skew.begin(), skew.end());
            a.residual_median_ns[i] = median(std::move(skew));
        }
    }
    return a;
}

}  // namespace lanescope
