// The main() of gui_suite, the one executable that holds every GUI test: its first argument
// names the test (the ctest name, tests/gui/CMakeLists.txt), which runs in this process alone
// with the rest of the arguments, as its own executable did before the tests were linked once.
#include <cstdio>
#include <cstring>

int runCallTreeTest(int argc, char** argv);
int runChromeTest(int argc, char** argv);
int runCommunicationPanelTest(int argc, char** argv);
int runCpuSideTest(int argc, char** argv);
int runCriticalPathPanelTest(int argc, char** argv);
int runDetailsPayloadTest(int argc, char** argv);
int runDiagnosticsTest(int argc, char** argv);
int runEventsPanelTest(int argc, char** argv);
int runEveryFileTest(int argc, char** argv);
int runLatestTaskTest(int argc, char** argv);
int runLoadingTest(int argc, char** argv);
int runMainWindowTest(int argc, char** argv);
int runPytorchPanelTest(int argc, char** argv);
int runQueryPanelTest(int argc, char** argv);
int runRankSummariesTest(int argc, char** argv);
int runRanksTest(int argc, char** argv);
int runSettingsTest(int argc, char** argv);
int runTimelineCacheTest(int argc, char** argv);
int runViewSessionTest(int argc, char** argv);

namespace {

struct GuiTest {
    const char* name;
    int (*run)(int argc, char** argv);
};

// In the order tests/gui/CMakeLists.txt adds them.
constexpr GuiTest kGuiTests[] = {
    {"gui_tests", runMainWindowTest},
    {"gui_settings_tests", runSettingsTest},
    {"gui_chrome_tests", runChromeTest},
    {"gui_session_tests", runViewSessionTest},
    {"gui_latest_task_tests", runLatestTaskTest},
    {"gui_diagnostics_tests", runDiagnosticsTest},
    {"gui_cpu_side_tests", runCpuSideTest},
    {"gui_details_payload_tests", runDetailsPayloadTest},
    {"gui_every_file_tests", runEveryFileTest},
    {"gui_events_tests", runEventsPanelTest},
    {"gui_call_tree_tests", runCallTreeTest},
    {"gui_ranks_tests", runRanksTest},
    {"gui_rank_summaries_tests", runRankSummariesTest},
    {"gui_timeline_cache_tests", runTimelineCacheTest},
    {"gui_loading_tests", runLoadingTest},
    {"gui_query_tests", runQueryPanelTest},
    {"gui_pytorch_tests", runPytorchPanelTest},
    {"gui_critical_path_tests", runCriticalPathPanelTest},
    {"gui_communication_tests", runCommunicationPanelTest},
};

}  // namespace

int main(int argc, char** argv) {
    if (argc >= 2) {
        for (const GuiTest& test : kGuiTests) {
            if (std::strcmp(argv[1], test.name) == 0) {
                argv[1] = argv[0];  // the test sees its program name and its own options
                return test.run(argc - 1, argv + 1);
            }
        }
    }
    std::fprintf(stderr, "usage: gui_suite TEST [QtTest options]; TEST is one of:\n");
    for (const GuiTest& test : kGuiTests) std::fprintf(stderr, "  %s\n", test.name);
    return 1;
}
