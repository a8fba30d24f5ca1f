#pragma once
#include <string_view>

namespace lanescope::nsysrep {

// The target's environment as the Raw Sampling Data summary records it: field 1 { 1 device
// state name ("Local (CLI)"), 2 { repeated 1 property { 1 name enum, 2 value } }, 3 global vid };
// property 610 (DeviceEnvironment) is "NAME=value" entries separated by '\0', the same text as
// the export's TARGET_INFO_SYSTEM_ENV row of that name, which separates them by ';' (verified
// on reports of 2020.5, 2022.2, 2022.4 and 2025.3). A view into `summary`; empty when absent
// or damaged.
std::string_view deviceEnvironment(std::string_view summary);

}  // namespace lanescope::nsysrep
