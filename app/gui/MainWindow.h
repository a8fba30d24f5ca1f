#pragma once
#include <QMainWindow>
#include <QStringList>
#include <functional>
#include <memory>
#include <vector>

#include "model/Report.h"
#include "timeline/RowTree.h"

class QTreeWidget;
class QTextBrowser;
class QMenu;
class QProgressDialog;

namespace lanescope {

// The viewer's main window: menus, the row tree of every open report and a summary panel.
// Imports run off the GUI thread with a progress dialog and Cancel.
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    MainWindow();
    ~MainWindow() override;
    void openFiles(const QStringList& paths);
    // Called once every requested file has loaded or failed (true when all loaded).
    void setAllLoadedCallback(std::function<void(bool)> callback) { allLoaded_ = std::move(callback); }

protected:
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;
    void closeEvent(QCloseEvent* event) override;

private:
    void buildMenus();
    void openDialog();
    void closeCurrent();
    void importNext();
    void addReport(std::shared_ptr<const Report> report);
    void rebuildTree();
    void showSelection();
    void rememberRecent(const QString& path);
    void updateRecentMenu();

    std::vector<std::shared_ptr<const Report>> reports_;
    QStringList queue_;
    bool anyFailed_ = false;
    bool importing_ = false;
    RowOrder rowOrder_ = RowOrder::GpuFirst;
    QTreeWidget* tree_;
    QTextBrowser* summary_;
    QMenu* recentMenu_ = nullptr;
    QProgressDialog* progress_ = nullptr;
    std::function<void(bool)> allLoaded_;
};

}  // namespace lanescope
