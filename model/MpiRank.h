#pragma once
#include <string>
#include <string_view>

#include "model/Report.h"

namespace lanescope {

// The rank in a text an MPI program or nsys records: "MPI Rank 4", "[MPI Rank 4]",
// "mpi rank: 4" (case-insensitive; ' ', ':', '=', '#' between; digits not followed by a letter
// or digit), or -1.
int mpiRankInText(std::string_view text);

// A rank the launcher put in the target's environment, as the report captured it: "NAME=value"
// entries separated by ';' (the SQLite export's TARGET_INFO_SYSTEM_ENV DeviceEnvironment) or
// '\0' (the .nsys-rep). The first variable of kRankVariables with a decimal value wins.
struct EnvironmentRank {
    int rank = -1;              // -1: none of the variables
    std::string_view variable;  // the one that gave it, e.g. "OMPI_COMM_WORLD_RANK"
};
// In order: Open MPI, MPICH and Intel MPI (PMI), PMIx launchers, torchrun / torch.distributed,
// then Slurm. SLURM_PROCID is last: under `srun mpirun ...` or `srun torchrun ...` it numbers the
// launcher's tasks (every rank of a node has the same one), not the ranks.
inline constexpr std::string_view kRankVariables[] = {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK", "RANK",
                                                      "SLURM_PROCID"};
EnvironmentRank rankInEnvironment(std::string_view environment);

// The N of the first "rank<N>" in a file name (case-insensitive; '_', '-', '.' may come
// between), or -1.
int rankInFileName(std::string name);

// Where rankOf (model/Report.h) found a report's rank, in the order it looks: "recorded" (an
// NVTX mark or thread name "MPI Rank N", which finishReport puts in meta.rank before anything
// else), "environment" (a rank variable of the captured environment, which the Nsight Systems
// importers put there), "distributedInfo" (Kineto), "file name"; "" when the rank is unknown.
std::string rankSource(const Report& report);

// The MPI rank a report records: the first NVTX mark (an instant of an NVTX lane) whose text
// names one, else the first thread name that does; -1 when none. O(NVTX instants + threads).
int recordedMpiRank(const Report& report);

}  // namespace lanescope
