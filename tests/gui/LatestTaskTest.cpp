// LatestTask (app/gui/LatestTask.h): a superseded run stops at its next cancellation point and
// its result is dropped; the owner's destruction stops the run under way, so closing a window
// does not wait for it.
#include <QObject>
#include <QTest>
#include <atomic>
#include <chrono>
#include <memory>
#include <thread>

#include "analysis/Cancellation.h"
#include "app/gui/LatestTask.h"
#include "app/gui/WorkPool.h"
#include "tests/gui/GuiTestMain.h"

using namespace lanescope;

namespace {

// Work that runs until cancelled or for `seconds`, checking like a loop over events does;
// counts how it ended.
struct Endings {
    std::atomic<int> cancelled{0}, finished{0};
};
int longWork(const std::shared_ptr<Endings>& endings, double seconds, int value) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    try {
        while (std::chrono::steady_clock::now() < until) {
            cancellationPoint();
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
    } catch (const Cancelled&) {
        ++endings->cancelled;
        throw;
    }
    ++endings->finished;
    return value;
}

}  // namespace

class LatestTaskTest : public QObject {
    Q_OBJECT

private slots:
    void aSupersededRunStopsAndOnlyTheLatestResultArrives() {
        QObject owner;
        LatestTask<int> task(&owner);
        auto endings = std::make_shared<Endings>();
        std::vector<int> results;
        task.run([endings] { return longWork(endings, 30.0, 1); }, [&](int v) { results.push_back(v); });
        QTest::qWait(50);
        task.run([endings] { return longWork(endings, 0.05, 2); }, [&](int v) { results.push_back(v); });
        QVERIFY(QTest::qWaitFor([&] { return !task.busy(); }, 5000));  // not the 30 s of the first
        QCOMPARE(endings->cancelled.load(), 1);
        QCOMPARE(endings->finished.load(), 1);
        QCOMPARE(results, std::vector<int>{2});
    }

    void destroyingTheOwnerStopsTheRunUnderWay() {
        auto endings = std::make_shared<Endings>();
        {
            QObject owner;
            LatestTask<int> task(&owner);
            task.run([endings] { return longWork(endings, 30.0, 1); }, [](int) { QFAIL("a result after its owner"); });
            QTest::qWait(50);
        }
        const auto start = std::chrono::steady_clock::now();
        workPool()->waitForDone();  // what closing the application waits for
        QVERIFY(std::chrono::steady_clock::now() - start < std::chrono::seconds(5));
        QCOMPARE(endings->cancelled.load(), 1);
        QCOMPARE(endings->finished.load(), 0);
    }
};

int runLatestTaskTest(int argc, char** argv) {
    return runGuiTest<LatestTaskTest>(argc, argv, "LatestTaskTest", "lanescope-latest-task-test");
}

#include "LatestTaskTest.moc"
