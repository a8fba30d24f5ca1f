// lanescope-cli-render: `lanescope-cli render` (CLI.md), a program of its own so that the other
// commands never load Qt's GUI libraries. lanescope-cli runs it with the render arguments.
#include <cstdio>

#include "app/cli/CliSupport.h"
#include "app/cli/Commands.h"
#include "app/log/Logging.h"
#include "importers/MemoryPolicy.h"

int main(int argc, char** argv) {
    using namespace lanescope::cli;
    lanescope::returnFreedMemoryToTheSystem();
    const bool verbose = takeVerbose(argc, argv);
    if (!takeReader(argc, argv)) {
        std::fputs("lanescope-cli: --reader wants native or nsys\n", stderr);
        return kExitUsage;
    }
    lanescope::logging::init("lanescope-cli", false, verbose);
    return runRender(argc, argv, 1);
}
