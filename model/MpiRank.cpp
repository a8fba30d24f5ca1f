#include "model/MpiRank.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdint>
#include <iterator>
#include <limits>

namespace lanescope {

int mpiRankInText(std::string_view text) {
    constexpr std::string_view kKey = "mpi rank";
    auto lower = [](char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); };
    for (size_t at = 0; at + kKey.size() <= text.size(); ++at) {
        size_t k = 0;
        while (k < kKey.size() && lower(text[at + k]) == kKey[k]) ++k;
        if (k < kKey.size()) continue;
        size_t i = at + kKey.size();
        while (i < text.size() && (text[i] == ' ' || text[i] == ':' || text[i] == '=' || text[i] == '#')) ++i;
        int rank = -1;
        for (; i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])); ++i) {
            if (rank > std::numeric_limits<int>::max() / 10 - 1) return -1;
            rank = std::max(rank, 0) * 10 + (text[i] - '0');
        }
        if (rank >= 0 && (i == text.size() || !std::isalnum(static_cast<unsigned char>(text[i])))) return rank;
    }
    return -1;
}

EnvironmentRank rankInEnvironment(std::string_view environment) {
    EnvironmentRank best;
    size_t bestOrder = std::size(kRankVariables);
    for (size_t at = 0; at < environment.size();) {
        const size_t end = std::min(environment.find_first_of(std::string_view(";\0", 2), at), environment.size());
        const std::string_view entry = environment.substr(at, end - at);
        at = end + 1;
        const size_t eq = entry.find('=');
        if (eq == std::string_view::npos) continue;
        const std::string_view name = entry.substr(0, eq), value = entry.substr(eq + 1);
        for (size_t order = 0; order < bestOrder; ++order) {
            if (name != kRankVariables[order]) continue;
            int rank = 0;
            const auto [p, ec] = std::from_chars(value.data(), value.data() + value.size(), rank);
            if (ec == std::errc() && p == value.data() + value.size() && rank >= 0) {
                best = {rank, kRankVariables[order]};
                bestOrder = order;
            }
            break;
        }
    }
    return best;
}

std::string rankSource(const Report& report) {
    if (report.meta.rank < 0) return rankInFileName(report.meta.fileName()) >= 0 ? "file name" : "";
    if (recordedMpiRank(report) == report.meta.rank) return "recorded";
    return report.meta.format.starts_with("nsys") ? "environment" : "distributedInfo";
}

int recordedMpiRank(const Report& report) {
    int64_t firstAt = std::numeric_limits<int64_t>::max();
    int found = -1;
    for (const Lane& lane : report.lanes) {
        if (lane.kind != LaneKind::Nvtx) continue;
        const InstantColumns& marks = lane.instants;
        for (size_t i = 0; i < marks.size() && marks.time_ns[i] < firstAt; ++i)
            if (const int rank = mpiRankInText(report.str(marks.name_id[i])); rank >= 0) {
                firstAt = marks.time_ns[i];
                found = rank;
            }
    }
    if (found >= 0) return found;
    for (const Thread& thread : report.threads)
        if (const int rank = mpiRankInText(report.str(thread.name_id)); rank >= 0) return rank;
    return -1;
}

}  // namespace lanescope
