#pragma once
#include <cstdint>
#include <string_view>
#include <vector>

namespace lanescope::nsysrep {

// One property of the target as the Raw Sampling Data summary records it: field 1 { 1 device
// state name ("Local (CLI)"), 2 { repeated 1 property { 1 name enum, 2 value } }, 3 global vid },
// a row of the export's TARGET_INFO_SYSTEM_ENV (devStateName, nameEnum, value). Views into the
// summary.
struct RecordedSystemProperty {
    std::string_view device_state;
    uint64_t number = 0;
    std::string_view value;
};

// Every property, in the summary's order; those read before damage when it is damaged.
std::vector<RecordedSystemProperty> systemProperties(std::string_view summary);

// Property 610 (DeviceEnvironment): "NAME=value" entries separated by '\0', the same text as
// the export's TARGET_INFO_SYSTEM_ENV row of that name, which separates them by ';' (verified
// on reports of 2020.5, 2022.2, 2022.4 and 2025.3). A view into `summary`; empty when absent
// or damaged.
std::string_view deviceEnvironment(std::string_view summary);

}  // namespace lanescope::nsysrep
