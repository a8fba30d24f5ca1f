// The recording machine's properties (Report::system_properties) as a person reads them
// (describeMachine), natively and from nsys's export; the rows themselves are checked against
// the exports in query_gpu_tables_tests (TARGET_INFO_SYSTEM_ENV).
#include "Absent.h"
#include "model/SystemProperties.h"
#include "support/ReportSql.h"

using namespace lanescope;
using namespace lanescope::test;

TEST_CASE("the machine of a 2025.3 capture: host, OS, CPU and drivers") {
    for (const char* file : {"nsys-2025.3/train_metrics.nsys-rep", "nsys-2025.3/train_metrics.sqlite"}) {
        INFO(file);
        const auto report = importOk(dataFile(file));
        CHECK(describeMachine(*report) ==
              "vm, Ubuntu 24.04.3 LTS, 16 \xC3\x97 Intel(R) Xeon(R) Processor, NVIDIA driver 580.159.04, CUDA 13.0");
        CHECK(systemPropertyName(kHostname) == "Hostname");
        CHECK(systemProperty(*report, kNvDriverVersion) == std::optional<std::string_view>("580.159.04"));
        CHECK_FALSE(systemProperty(*report, 123456));
    }
}

TEST_CASE("the machine of a 2020.5 MPI rank: the driver recorded as digits, no host") {
    const auto path = sharedFile("public/mpi-jacobi/openhackathons-org__gpubootcamp__report3.qdrep");
    if (path.empty()) LANESCOPE_SKIP_ABSENT("../shared/corpus/public/mpi-jacobi");
    const auto report = importOk(path);
    CHECK(systemProperty(*report, kNvDriverVersion) == std::optional<std::string_view>("4603203"));
    CHECK(describeMachine(*report) ==
          "Ubuntu 20.04.2 LTS, 80 \xC3\x97 Intel(R) Xeon(R) CPU E5-2698 v4 @ 2.20GHz, NVIDIA driver 460.32.03, CUDA "
          "11.2");
}

TEST_CASE("a report that records no machine describes none") {
    const auto report = importOk(dataFile("kineto/pytorch_profiled_gpu.pt.trace.json.gz"));
    CHECK(report->system_properties.empty());
    CHECK(describeMachine(*report).empty());
}
