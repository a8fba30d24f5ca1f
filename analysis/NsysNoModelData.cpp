#include "analysis/NsysNoModelData.h"

namespace lanescope {
namespace {

// A report over data Lanescope's model does not hold (MPI messages, OpenACC, system calls): nsys prints nothing for a
// report without such data, and so does Lanescope. The header is kept for the table and JSON views.
StatsTable noData(const char* name, std::vector<std::string> header) {
    StatsTable table;
    table.name = name;
    table.header = std::move(header);
    return table;
}

}  // namespace

StatsTable mpiEventTrace(const Report&, TimeRange) {
    return noData("mpi_event_trace", {"Start (ns)", "End (ns)", "Duration (ns)", "Event", "Pid", "Tid", "Tag", "Rank",
                                      "PeerRank", "RootRank", "Size (MB)", "CollSendSize (MB)", "CollRecvSize (MB)"});
}
StatsTable mpiMsgSizeSum(const Report&, TimeRange) {
    return noData("mpi_msg_size_sum", {"Total Message Volume (MB)", "Instances", "Avg (MB)", "Med (MB)", "Min (MB)",
                                       "Max (MB)", "StdDev (MB)", "Source", "Name"});
}
StatsTable openaccSum(const Report&, TimeRange) {
    return noData("openacc_sum", {"Time (%)", "Total Time (ns)", "Num Calls", "Avg (ns)", "Med (ns)", "Min (ns)",
                                  "Max (ns)", "StdDev (ns)", "Name"});
}
StatsTable syscallSum(const Report&, TimeRange) {
    return noData("syscall_sum", {"Time (%)", "Total Time (ns)", "Num Calls", "Avg (ns)", "Med (ns)", "Min (ns)",
                                  "Max (ns)", "StdDev (ns)", "Name"});
}
}  // namespace lanescope
