// The path engine's what-if: every item's new times after scaling some and replaying the dependencies.
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "analysis/critical_path/PathEngine.h"

namespace lanescope::critical_path_detail {

void PathEngine::replay(const std::vector<double>& factorOfItem, int64_t A, std::vector<int64_t>& newS,
                        std::vector<int64_t>& newE) const {
    const std::vector<int64_t>& S = items_.start;
    const std::vector<int64_t>& E = items_.end;
    const size_t n = items_.size();
    std::vector<int32_t> waited(n, -1);
    size_t ticks = 0;
    for (size_t i = 0; i < n; ++i) {
        tick(ticks);
        if (items_.side[i] == kCpuSide && kept_[i] && items_.sync[i] != SyncKind::None)
            waited[i] = waitedOp(int32_t(i), S, E);
    }
    auto active = [&](size_t i) { return items_.side[i] == kGpuSide || kept_[i]; };
    // Node 2i: item i's new start, 2i + 1: its new end. 0 new, 1 on the stack, 2 done.
    std::vector<uint8_t> state(2 * n, 0);
    newS.assign(S.begin(), S.end());
    newE.assign(E.begin(), E.end());
    auto selfWaitingLaunch = [&](int32_t op, int32_t dep) {
        return items_.side[dep] == kCpuSide && waited[size_t(dep)] == op;
    };
    // The nodes a node needs.
    auto needs = [&](size_t node, std::vector<size_t>& out) {
        out.clear();
        const int32_t it = int32_t(node / 2);
        if (E[it] <= A) return;
        if (node % 2 == 0) {
            int32_t deps[3];
            const int k = dependencies(it, deps);
            for (int q = 0; q < k; ++q)
                out.push_back(selfWaitingLaunch(it, deps[q]) ? 2 * size_t(deps[q]) : 2 * size_t(deps[q]) + 1);
            return;
        }
        out.push_back(2 * size_t(it));
        if (waited[size_t(it)] >= 0) out.push_back(2 * size_t(waited[size_t(it)]) + 1);
        if (!group_of_.empty() && group_of_[it] >= 0)
            for (int32_t y : groups_[size_t(group_of_[it])])
                if (y != it) out.push_back(2 * size_t(y));
    };
    auto scaledDuration = [&](int64_t duration, int32_t it) -> int64_t {
        const double f = factorOfItem[size_t(it)];
        if (f == 1.0) return duration;
        return int64_t(std::floor(static_cast<long double>(duration) / static_cast<long double>(f) + 0.5L));
    };
    auto evaluate = [&](size_t node) {
        const int32_t it = int32_t(node / 2);
        if (E[it] <= A) return;  // keeps its times
        if (node % 2 == 0) {
            int32_t deps[3];
            const int k = dependencies(it, deps);
            if (k == 0) {
                newS[it] = S[it];
                return;
            }
            const int32_t bind = binding(deps, k, S[it], S, E);
            int64_t best = INT64_MIN;
            for (int q = 0; q < k; ++q) {
                const int32_t d = deps[q];
                int64_t v;
                if (selfWaitingLaunch(it, d))
                    v = newS[d] + (S[it] - S[d]);
                else if (d == bind)
                    v = newE[d] + (S[it] - E[d]);
                else
                    v = newE[d] + std::min<int64_t>(0, S[it] - E[d]);
                best = std::max(best, v);
            }
            newS[it] = best;
            return;
        }
        const int64_t start = newS[it];
        const int32_t w = waited[size_t(it)];
        if (w >= 0) {
            if (E[w] > S[it])
                newE[it] = std::max(start, newE[w] + (E[it] - E[w]));
            else
                newE[it] = std::max(start + scaledDuration(E[it] - S[it], it), newE[w]);
            return;
        }
        if (!group_of_.empty() && group_of_[it] >= 0) {
            const std::vector<int32_t>& group = groups_[size_t(group_of_[it])];
            int64_t arrival = INT64_MIN, newArrival = INT64_MIN;
            for (int32_t y : group) arrival = std::max(arrival, S[y]);
            if (arrival > S[it]) {
                for (int32_t y : group) newArrival = std::max(newArrival, newS[y]);
                const int64_t transfer = scaledDuration(std::max<int64_t>(0, E[it] - arrival), it);
                newE[it] = std::max(start, newArrival + transfer);
                return;
            }
        }
        newE[it] = start + scaledDuration(E[it] - S[it], it);
    };
    std::vector<std::pair<size_t, bool>> stack;
    std::vector<size_t> scratch;
    for (size_t i = 0; i < n; ++i) {
        if (!active(i)) continue;
        for (size_t root : {2 * i, 2 * i + 1}) {
            if (state[root] == 2) continue;
            stack.emplace_back(root, false);
            while (!stack.empty()) {
                tick(ticks);
                auto [node, ready] = stack.back();
                stack.pop_back();
                if (state[node] == 2) continue;
                if (!ready) {
                    if (state[node] == 1) throw std::runtime_error("critical path: dependency cycle in what-if");
                    state[node] = 1;
                    stack.emplace_back(node, true);
                    needs(node, scratch);
                    for (size_t m : scratch)
                        if (state[m] != 2) stack.emplace_back(m, false);
                    continue;
                }
                evaluate(node);
                state[node] = 2;
            }
        }
    }
}

}  // namespace lanescope::critical_path_detail
