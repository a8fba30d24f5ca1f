#pragma once
#include <filesystem>

namespace lanescope {

// Where `nsys` is: `configured` if set, else $LANESCOPE_NSYS, else PATH, else the usual
// install places (/usr/local/cuda/bin, /opt/nvidia/nsight-systems/*/bin, /usr/lib/nsight-systems/bin).
// Empty when none is found.
std::filesystem::path locateNsys(const std::filesystem::path& configured);

// True when LANESCOPE_NSYS=off: Nsight Systems must never be run.
bool nsysForbidden();

// $XDG_CACHE_HOME/lanescope, else ~/.cache/lanescope, else a folder under the temp dir.
std::filesystem::path defaultCacheDir();

}  // namespace lanescope
