#pragma once
#include <string>
#include <string_view>

namespace lanescope::nsysrep {

// What differs between Nsight Systems versions in the events this reader decodes, all in one
// place (docs/nsys-rep-format.md, "Across versions"). Everything else kept its field numbers
// from 2020.3 to 2026.1.
struct VersionQuirks {
    int year = 0;  // 2025 for "2025.3.1.0"; 0 when the version is unknown
    // CUPTI synchronization: syncType is field 2 of the sync record up to 2023.x, field 4 from
    // 2025.1 (field 2 there holds an older copy).
    int sync_type_field = 2;
    // The newest version whose reports were compared with their exports event by event; a
    // newer report opens with the diagnostic nsys_rep_version_unverified.
    bool verified = true;
};

inline VersionQuirks quirksFor(std::string_view nsysVersion) {
    VersionQuirks q;
    int year = 0, minor = 0;
    size_t i = 0;
    for (; i < nsysVersion.size() && nsysVersion[i] >= '0' && nsysVersion[i] <= '9'; ++i)
        year = year * 10 + (nsysVersion[i] - '0');
    if (i < nsysVersion.size() && nsysVersion[i] == '.')
        for (++i; i < nsysVersion.size() && nsysVersion[i] >= '0' && nsysVersion[i] <= '9'; ++i)
            minor = minor * 10 + (nsysVersion[i] - '0');
    q.year = year;
    if (year >= 2025) q.sync_type_field = 4;
    // Compared event by event: 2020.3 to 2025.5 (exports of 2025.6 and 2026.1 reports hold no
    // CUDA events to compare).
    q.verified = year < 2025 || (year == 2025 && minor <= 5);  // year 0: no version given
    return q;
}

}  // namespace lanescope::nsysrep
