#include "model/MpiCall.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <string>

namespace lanescope {
namespace {

// The blocking collectives, without "MPI_"; their nonblocking forms are "MPI_I" + the name
// with its first letter in lower case (MPI_Iallreduce, MPI_Ireduce_scatter, ...).
constexpr std::array<std::string_view, 17> kCollectives = {
    "Allreduce", "Barrier",   "Bcast",     "Allgather", "Allgatherv", "Reduce_scatter", "Reduce_scatter_block",
    "Alltoall",  "Alltoallv", "Alltoallw", "Reduce",    "Gather",     "Gatherv",        "Scatter",
    "Scatterv",  "Scan",      "Exscan"};
constexpr std::array<std::string_view, 18> kPointToPoint = {
    "Send",   "Recv",   "Sendrecv", "Sendrecv_replace", "Ssend",  "Bsend",   "Rsend", "Isend", "Irecv", "Issend",
    "Ibsend", "Irsend", "Probe",    "Iprobe",           "Mprobe", "Improbe", "Mrecv", "Imrecv"};
constexpr std::array<std::string_view, 4> kWaits = {"Wait", "Waitall", "Waitany", "Waitsome"};

template <size_t N>
bool listed(const std::array<std::string_view, N>& list, std::string_view name) {
    return std::find(list.begin(), list.end(), name) != list.end();
}

}  // namespace

MpiCallClass classifyMpiCall(std::string_view name) {
    if (!name.starts_with("MPI_")) return MpiCallClass::Other;
    const std::string_view base = name.substr(4);
    if (listed(kCollectives, base)) return MpiCallClass::Collective;
    if (listed(kWaits, base)) return MpiCallClass::Wait;
    if (listed(kPointToPoint, base)) return MpiCallClass::PointToPoint;
    if (base.size() > 2 && base[0] == 'I' && std::islower(static_cast<unsigned char>(base[1]))) {
        std::string blocking(base.substr(1));
        blocking[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(blocking[0])));
        if (listed(kCollectives, blocking)) return MpiCallClass::NonblockingCollective;
    }
    return MpiCallClass::Other;
}

}  // namespace lanescope
