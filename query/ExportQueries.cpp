#include "query/ExportQueries.h"

namespace lanescope::sql {

std::vector<NamedQuery> exportQueries(int64_t rangeBegin, int64_t rangeEnd) {
    return {
        {"kernels_by_name",
         "SELECT s.value AS name, count(*) AS calls, sum(k.end - k.start) AS total_ns, min(k.end - k.start) AS min_ns, "
         "max(k.end - k.start) AS max_ns\nFROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = "
         "k.demangledName\n"
         "GROUP BY s.value ORDER BY total_ns DESC"},
        {"kernels_per_stream",
         "SELECT deviceId, streamId, count(*) AS kernels, sum(gridX * gridY * gridZ) AS blocks, "
         "sum(blockX * blockY * blockZ) AS threads_per_block, sum(registersPerThread) AS registers, "
         "sum(staticSharedMemory + dynamicSharedMemory) AS shared_bytes\nFROM CUPTI_ACTIVITY_KIND_KERNEL\n"
         "GROUP BY deviceId, streamId ORDER BY deviceId, streamId"},
        {"cuda_api_by_name",
         "SELECT s.value AS name, count(*) AS calls, sum(r.end - r.start) AS total_ns, max(r.end - r.start) AS max_ns\n"
         "FROM CUPTI_ACTIVITY_KIND_RUNTIME r JOIN StringIds s ON s.id = r.nameId\nGROUP BY s.value ORDER BY total_ns "
         "DESC"},
        {"kernels_by_launch_call",
         "SELECT s.value AS launched_by, count(*) AS kernels, sum(k.start - r.start) AS launch_to_start_ns\n"
         "FROM CUPTI_ACTIVITY_KIND_KERNEL k\nJOIN CUPTI_ACTIVITY_KIND_RUNTIME r ON r.correlationId = k.correlationId\n"
         "  AND (r.globalTid >> 24) & 0xFFFFFF = (k.globalPid >> 24) & 0xFFFFFF\nJOIN StringIds s ON s.id = r.nameId\n"
         "GROUP BY s.value ORDER BY kernels DESC"},
        {"memcpy_by_kind",
         "SELECT copyKind, count(*) AS copies, sum(bytes) AS bytes, sum(end - start) AS total_ns\n"
         "FROM CUPTI_ACTIVITY_KIND_MEMCPY GROUP BY copyKind ORDER BY copyKind"},
        {"nvtx_by_text",
         "SELECT coalesce(n.text, s.value) AS name, count(*) AS ranges, sum(n.end - n.start) AS total_ns\n"
         "FROM NVTX_EVENTS n LEFT JOIN StringIds s ON s.id = n.textId\nWHERE n.eventType IN (59, 60)\n"
         "GROUP BY 1 ORDER BY total_ns DESC"},
        {"osrt_by_name",
         "SELECT s.value AS name, count(*) AS calls, sum(o.end - o.start) AS total_ns\n"
         "FROM OSRT_API o JOIN StringIds s ON s.id = o.nameId\nGROUP BY s.value ORDER BY total_ns DESC"},
        {"kernels_in_range",
         "SELECT count(*) AS kernels, sum(end - start) AS total_ns\nFROM CUPTI_ACTIVITY_KIND_KERNEL\nWHERE start >= " +
             std::to_string(rangeBegin) + " AND start < " + std::to_string(rangeEnd)},
        {"thread_names_per_pid",
         "SELECT p.pid, p.name AS process, s.value AS thread\nFROM ThreadNames t JOIN StringIds s ON s.id = t.nameId\n"
         "JOIN PROCESSES p ON p.globalPid = (t.globalTid >> 24) << 24\nORDER BY p.pid, thread"},
    };
}

}  // namespace lanescope::sql
