// lanescope.compare: `lanescope-cli compare --format json` of several ranks, as a dict.
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "analysis/ranks/RankCompare.h"
#include "app/cli/CompareJson.h"
#include "app/cli/RankInputs.h"
#include "app/python/Bindings.h"
#include "app/python/Errors.h"

namespace py = pybind11;

namespace lanescope::python {
namespace {

py::object compare(const std::vector<std::filesystem::path>& paths, const std::string& align, bool cache) {
    if (paths.empty()) throw py::value_error("compare wants two reports or rank summary folders or more");
    const auto mode = parseAlignMode(align);
    if (!mode) throw py::value_error("align must be auto, nccl, mpi, clock or none, not " + align);
    const std::optional<ReportCache> models =
        cache && ReportCache::enabled() ? std::optional<ReportCache>(std::in_place) : std::nullopt;
    std::vector<std::string> notes;  // what the cache had to say
    std::string json, error;
    {
        py::gil_scoped_release release;
        NullProgress progress;
        const std::vector<std::string> args(paths.begin(), paths.end());
        const std::vector<RankInput> inputs = models ? cli::loadRankInputs(args, {}, progress, error, *models, notes)
                                                     : cli::loadRankInputs(args, {}, progress, error);
        if (inputs.size() == 1) error = "compare wants two ranks or more: " + args[0] + " holds one";
        if (inputs.size() >= 2) json = cli::compareJson(inputs, compareRankInputs(inputs, *mode, {}));
    }
    warnEach(notes);
    if (json.empty()) throw Error(error);
    return py::module_::import("json").attr("loads")(json);
}

}  // namespace

void bindCompare(py::module_& m) {
    m.def("compare", &compare, py::arg("paths"), py::arg("align") = "auto", py::arg("cache") = false,
          "The ranks of one job compared (`lanescope-cli compare --format json` as a dict): paths are\n"
          "reports or rank summary folders (`lanescope-cli summarize`), one per rank, imported in\n"
          "parallel; align: auto, nccl, mpi, clock or none (CLI.md). cache=True: as open(cache=True),\n"
          "each report read back from its saved model when there is one, else imported and saved.");
}

}  // namespace lanescope::python
