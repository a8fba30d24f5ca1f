#pragma once
#include <cstdint>
#include <string>

namespace lanescope {

// A counter's value as a chart labels it, 4 significant digits: "0", "87.5", "9999", then with
// an SI prefix from 10,000 up ("12.35 k", "22.37 M", "1.995 G", up to "P"), so that a value
// recorded in Hz or bytes reads at a glance; e-notation only below 0.001 and beyond 10^18.
std::string formatCounterValue(double value);

// A size in bytes with a binary unit, 4 significant digits: "512 B", "4 MiB", "1.5 KiB",
// "4.147 MiB", up to "PiB" (a collective's size, a power-of-two bucket).
std::string formatBytes(int64_t bytes);

}  // namespace lanescope
