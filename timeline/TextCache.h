#pragma once
#include <QFont>
#include <QHash>
#include <QStaticText>
#include <QString>

namespace lanescope {

// Labels drawn every frame (row names, event names), elided to a width and prepared once:
// text shaping is the costliest part of painting, so each (text, width step of 8 px, mode)
// is shaped only the first time. Cleared when the font changes or it grows past 20,000.
class TextCache {
public:
    // The text elided to at most `width` px, ready to draw at its top-left corner.
    const QStaticText& elided(const QString& text, int width, Qt::TextElideMode mode, const QFont& font);

private:
    struct Key {
        QString text;
        int width;
        int mode;
        bool operator==(const Key&) const = default;
    };
    friend size_t qHash(const Key& k, size_t seed) { return qHashMulti(seed, k.text, k.width, k.mode); }
    QHash<Key, QStaticText> entries_;
    QFont font_;
};

}  // namespace lanescope
