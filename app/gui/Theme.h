#pragma once
#include <QPalette>
#include <QString>
#include <optional>

namespace lanescope {

// The window's colours: the desktop's own palette and style (System), or the Fusion style
// with a light or a dark palette. Chosen in View > Theme (remembered as "view/theme") or for
// one run with --theme. The timeline derives its colours from whichever palette is in force
// (TimelinePalette::from), so it follows every change.
enum class Theme { System, Light, Dark };

QString themeName(Theme theme);                           // "system", "light", "dark"
std::optional<Theme> themeFromName(const QString& name);  // nullopt when unknown
Theme savedTheme();                                       // from QSettings, System when unset
void saveTheme(Theme theme);

// Sets the application's style and palette; the first call notes the system's to go back to.
void applyTheme(Theme theme);
Theme currentTheme();  // the last applied, System before any

// Qt 6.4 has no QStyleHints::colorScheme(): a palette is dark when its window colour is.
bool isDark(const QPalette& palette);

}  // namespace lanescope
