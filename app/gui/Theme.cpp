// Light, dark and system palettes for the whole application (Theme.h).
#include "app/gui/Theme.h"

#include <QApplication>
#include <QSettings>
#include <QStyle>
#include <QStyleFactory>

namespace lanescope {
namespace {

// What the desktop gave before any theme was applied.
struct SystemLook {
    QString style;
    QPalette palette;
};

Theme current = Theme::System;

const SystemLook& systemLook() {
    static const SystemLook look{QApplication::style()->name(), QApplication::palette()};
    return look;
}

QPalette darkPalette() {
    const QColor window(0x2B, 0x2D, 0x30), base(0x1E, 0x1F, 0x22), text(0xDF, 0xE1, 0xE5), button(0x3C, 0x3F, 0x41);
    const QColor disabledText(0x7F, 0x83, 0x8A);
    QPalette p;
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, window);
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::PlaceholderText, disabledText);
    p.setColor(QPalette::Button, button);
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, QColor(0xFF, 0x6B, 0x6B));
    p.setColor(QPalette::Light, button.lighter(140));
    p.setColor(QPalette::Midlight, button.lighter(115));
    p.setColor(QPalette::Mid, QColor(0x8C, 0x90, 0x96));  // also the key column of the Details panel
    p.setColor(QPalette::Dark, window.darker(140));
    p.setColor(QPalette::Shadow, Qt::black);
    p.setColor(QPalette::Highlight, QColor(0x2F, 0x65, 0xCA));
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::ToolTipBase, button);
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::Link, QColor(0x58, 0x9D, 0xF6));
    p.setColor(QPalette::LinkVisited, QColor(0xB0, 0x8C, 0xF0));
    for (auto role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        p.setColor(QPalette::Disabled, role, disabledText);
    p.setColor(QPalette::Disabled, QPalette::Highlight, button);
    return p;
}

}  // namespace

QString themeName(Theme theme) {
    switch (theme) {
        case Theme::Light:
            return "light";
        case Theme::Dark:
            return "dark";
        case Theme::System:
            break;
    }
    return "system";
}

std::optional<Theme> themeFromName(const QString& name) {
    for (Theme t : {Theme::System, Theme::Light, Theme::Dark})
        if (name == themeName(t)) return t;
    return std::nullopt;
}

Theme savedTheme() { return themeFromName(QSettings().value("view/theme").toString()).value_or(Theme::System); }

void saveTheme(Theme theme) { QSettings().setValue("view/theme", themeName(theme)); }

Theme currentTheme() { return current; }

void applyTheme(Theme theme) {
    const SystemLook& system = systemLook();
    current = theme;
    if (theme == Theme::System) {
        QApplication::setStyle(system.style);
        QApplication::setPalette(system.palette);
        return;
    }
    QApplication::setStyle(QStyleFactory::create("Fusion"));
    QApplication::setPalette(theme == Theme::Dark ? darkPalette() : QApplication::style()->standardPalette());
}

bool isDark(const QPalette& palette) { return palette.color(QPalette::Window).lightness() < 128; }

}  // namespace lanescope
