#include "timeline/TextCache.h"

#include <QFontMetrics>

namespace lanescope {

const QStaticText& TextCache::elided(const QString& text, int width, Qt::TextElideMode mode, const QFont& font) {
    if (font != font_ || entries_.size() > 20000) {
        entries_.clear();
        font_ = font;
    }
    const int step = width / 8 * 8;  // at most `width`, so the text always fits
    const Key key{text, step, int(mode)};
    auto it = entries_.find(key);
    if (it == entries_.end()) {
        QStaticText prepared(QFontMetrics(font).elidedText(text, mode, step));
        prepared.setTextFormat(Qt::PlainText);
        prepared.prepare(QTransform(), font);
        it = entries_.insert(key, prepared);
    }
    return *it;
}

}  // namespace lanescope
