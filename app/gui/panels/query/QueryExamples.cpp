#include "app/gui/panels/query/QueryExamples.h"

namespace lanescope {

std::vector<QueryExample> queryExamples(int64_t begin_ns, int64_t end_ns) {
    const std::string kernels = "CUPTI_ACTIVITY_KIND_KERNEL", runtime = "CUPTI_ACTIVITY_KIND_RUNTIME";
    return {
        {"Kernels by name: count, total, min, max",
         "-- Kernels by name, the longest in all first (ns)\n"
         "SELECT s.value AS kernel, count(*) AS count, sum(k.end - k.start) AS total_ns,\n"
         "       min(k.end - k.start) AS min_ns, max(k.end - k.start) AS max_ns\n"
         "FROM CUPTI_ACTIVITY_KIND_KERNEL AS k\n"
         "JOIN StringIds AS s ON s.id = k.shortName\n"
         "GROUP BY s.value\n"
         "ORDER BY total_ns DESC",
         {kernels}},
        {"The 100 longest kernels (click one to see it)",
         "SELECT k.start, k.end, k.end - k.start AS duration_ns, k.deviceId, k.streamId, s.value AS kernel\n"
         "FROM CUPTI_ACTIVITY_KIND_KERNEL AS k\n"
         "JOIN StringIds AS s ON s.id = k.shortName\n"
         "ORDER BY duration_ns DESC\n"
         "LIMIT 100",
         {kernels}},
        {"CUDA API calls by name",
         "SELECT s.value AS call, count(*) AS count, sum(r.end - r.start) AS total_ns,\n"
         "       max(r.end - r.start) AS max_ns\n"
         "FROM CUPTI_ACTIVITY_KIND_RUNTIME AS r\n"
         "JOIN StringIds AS s ON s.id = r.nameId\n"
         "GROUP BY s.value\n"
         "ORDER BY total_ns DESC",
         {runtime}},
        {"Kernels and their launch calls (correlationId)",
         "-- Each kernel with the API call that launched it: same correlationId, same process\n"
         "SELECT k.start, k.end, k.deviceId, k.streamId, ks.value AS kernel, rs.value AS launched_by,\n"
         "       k.start - r.start AS launch_to_start_ns\n"
         "FROM CUPTI_ACTIVITY_KIND_KERNEL AS k\n"
         "JOIN CUPTI_ACTIVITY_KIND_RUNTIME AS r ON r.correlationId = k.correlationId\n"
         "     AND (r.globalTid >> 24) & 0xFFFFFF = (k.globalPid >> 24) & 0xFFFFFF\n"
         "JOIN StringIds AS ks ON ks.id = k.shortName\n"
         "JOIN StringIds AS rs ON rs.id = r.nameId\n"
         "ORDER BY launch_to_start_ns DESC",
         {kernels, runtime}},
        {"NVTX ranges by text",
         "-- Push/pop (59) and start/end (60) ranges\n"
         "SELECT coalesce(n.text, s.value) AS range, count(*) AS count,\n"
         "       sum(n.end - n.start) AS total_ns, max(n.end - n.start) AS max_ns\n"
         "FROM NVTX_EVENTS AS n\n"
         "LEFT JOIN StringIds AS s ON s.id = n.textId\n"
         "WHERE n.eventType IN (59, 60)\n"
         "GROUP BY 1\n"
         "ORDER BY total_ns DESC",
         {"NVTX_EVENTS"}},
        {"Memory copies by kind",
         "-- bytes per ns are GB/s\n"
         "SELECT copyKind, CASE copyKind WHEN 1 THEN 'Host to Device' WHEN 2 THEN 'Device to Host'\n"
         "       WHEN 8 THEN 'Device to Device' WHEN 9 THEN 'Host to Host' WHEN 10 THEN 'Peer to Peer'\n"
         "       ELSE 'other' END AS kind,\n"
         "       count(*) AS count, sum(bytes) AS bytes, sum(end - start) AS total_ns,\n"
         "       round(1.0 * sum(bytes) / sum(end - start), 3) AS GB_per_s\n"
         "FROM CUPTI_ACTIVITY_KIND_MEMCPY\n"
         "GROUP BY copyKind\n"
         "ORDER BY bytes DESC",
         {"CUPTI_ACTIVITY_KIND_MEMCPY"}},
        {"The busiest threads in OS runtime calls",
         "SELECT o.globalTid, (o.globalTid >> 24) & 0xFFFFFF AS pid, o.globalTid & 0xFFFFFF AS tid,\n"
         "       s.value AS thread, count(*) AS calls, sum(o.end - o.start) AS total_ns\n"
         "FROM OSRT_API AS o\n"
         "LEFT JOIN ThreadNames AS t ON t.globalTid = o.globalTid\n"
         "LEFT JOIN StringIds AS s ON s.id = t.nameId\n"
         "GROUP BY o.globalTid\n"
         "ORDER BY total_ns DESC\n"
         "LIMIT 20",
         {"OSRT_API"}},
        {"Kernels starting in the selected range",
         "-- The selected (else the visible) range, ns on this report's timeline\n"
         "SELECT count(*) AS kernels, sum(end - start) AS busy_ns\n"
         "FROM CUPTI_ACTIVITY_KIND_KERNEL\n"
         "WHERE start >= " +
             std::to_string(begin_ns) + " AND start < " + std::to_string(end_ns),
         {kernels}},
    };
}

}  // namespace lanescope
