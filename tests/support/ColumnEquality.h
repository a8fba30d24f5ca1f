#pragma once
#include <algorithm>
#include <vector>

#include "model/Column.h"

namespace lanescope {

// Whether a model column holds the same elements as a plain vector, for CHECK(column ==
// std::vector<T>{...}) in tests (found by argument-dependent lookup).
template <typename T>
bool operator==(const Column<T>& column, const std::vector<T>& elements) {
    return std::equal(column.begin(), column.end(), elements.begin(), elements.end());
}

}  // namespace lanescope
