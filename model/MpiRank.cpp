#include "model/MpiRank.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
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
