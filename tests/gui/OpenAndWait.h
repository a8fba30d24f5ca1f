#pragma once
#include <QStringList>
#include <QTest>
#include <string>
#include <vector>

#include "TestPaths.h"
#include "app/gui/MainWindow.h"

// Opens test data files (relative to tests/data) in `window` as File > Open does, and waits until
// they have all loaded; false when one failed or they took longer than `timeoutMs`.
inline bool openAndWait(lanescope::MainWindow& window, const std::vector<std::string>& relatives,
                        int timeoutMs = 30000) {
    bool done = false, ok = false;
    window.setAllLoadedCallback([&](bool allOk) {
        done = true;
        ok = allOk;
    });
    QStringList files;
    for (const std::string& relative : relatives)
        files << QString::fromStdString(lanescope::test::dataFile(relative).string());
    window.openFiles(files);
    const bool loaded = QTest::qWaitFor([&] { return done; }, timeoutMs) && ok;
    window.setAllLoadedCallback({});  // done and ok end here: a later load must not reach them
    return loaded;
}
