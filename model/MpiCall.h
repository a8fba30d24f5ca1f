#pragma once
#include <string_view>

namespace lanescope {

// What an MPI call is, by its name (as nsys records it: "MPI_Allreduce", "MPI_Sendrecv", ...).
enum class MpiCallClass {
    Other,                  // MPI_Init, MPI_Finalize, MPI_Comm_rank, MPI_Test, ...
    Collective,             // blocking: MPI_Allreduce, MPI_Barrier, MPI_Bcast, MPI_Allgather, ...
    NonblockingCollective,  // MPI_Iallreduce, MPI_Ibarrier, ...: completed by a later MPI_Wait*
    Wait,                   // MPI_Wait, MPI_Waitall, MPI_Waitany, MPI_Waitsome
    PointToPoint,           // MPI_Send, MPI_Recv, MPI_Sendrecv, MPI_Isend, MPI_Probe, ...
};
MpiCallClass classifyMpiCall(std::string_view name);

}  // namespace lanescope
