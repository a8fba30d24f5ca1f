#include "app/gui/panels/query/SqlHighlighter.h"

#include <QApplication>
#include <QPalette>

#include "app/gui/Theme.h"

namespace lanescope {
namespace {

constexpr int kInComment = 1;  // block state: a /* comment goes on into the next line

const char* const kKeywords =
    "select|from|where|group|by|order|having|limit|offset|join|left|right|inner|outer|cross|natural|on|using|as|"
    "and|or|not|in|is|null|like|glob|between|case|when|then|else|end|distinct|all|union|intersect|except|with|"
    "recursive|exists|asc|desc|collate|cast|over|partition|window|filter|values|escape|nulls|first|last";

}  // namespace

SqlHighlighter::SqlHighlighter(QTextDocument* document)
    : QSyntaxHighlighter(document),
      keywords_(QString("(?<![.\\w])(%1)\\b").arg(kKeywords), QRegularExpression::CaseInsensitiveOption),  // not k.end
      tokens_(
          R"((--[^\n]*)|('(?:[^']|'')*'?)|("(?:[^"]|"")*"?)|(\b\d+(?:\.\d*)?(?:[eE][-+]?\d+)?\b|\b0x[0-9a-fA-F]+\b))") {
    updateColours();
}

void SqlHighlighter::updateColours() {
    const bool dark = isDark(QApplication::palette());
    keyword_.setForeground(dark ? QColor("#7fb4ff") : QColor("#1f4fb0"));
    keyword_.setFontWeight(QFont::Bold);
    number_.setForeground(dark ? QColor("#e3a86b") : QColor("#a34f00"));
    string_.setForeground(dark ? QColor("#9ad08a") : QColor("#2b7a1e"));
    comment_.setForeground(QApplication::palette().color(QPalette::PlaceholderText));
    comment_.setFontItalic(true);
    rehighlight();
}

void SqlHighlighter::highlightBlock(const QString& text) {
    qsizetype from = 0;
    setCurrentBlockState(0);
    if (previousBlockState() == kInComment) {  // inside a /* comment from an earlier line
        const qsizetype close = text.indexOf("*/");
        from = close < 0 ? text.size() : close + 2;
        setFormat(0, from, comment_);
        if (close < 0) {
            setCurrentBlockState(kInComment);
            return;
        }
    }
    // Keywords first; strings, names and comments over them.
    for (auto it = keywords_.globalMatch(text, from); it.hasNext();) {
        const QRegularExpressionMatch m = it.next();
        setFormat(int(m.capturedStart()), int(m.capturedLength()), keyword_);
    }
    while (from < text.size()) {
        const qsizetype open = text.indexOf("/*", from);
        const QRegularExpressionMatch m = tokens_.match(text, from);
        if (open >= 0 && (!m.hasMatch() || open < m.capturedStart())) {
            const qsizetype close = text.indexOf("*/", open + 2);
            const qsizetype stop = close < 0 ? text.size() : close + 2;
            setFormat(int(open), int(stop - open), comment_);
            if (close < 0) setCurrentBlockState(kInComment);
            from = stop;
            continue;
        }
        if (!m.hasMatch()) break;
        const QTextCharFormat& format = !m.captured(1).isEmpty()   ? comment_
                                        : !m.captured(2).isEmpty() ? string_
                                        : !m.captured(3).isEmpty() ? QTextCharFormat()
                                                                   : number_;
        setFormat(int(m.capturedStart()), int(m.capturedLength()), format);
        from = m.capturedEnd();
    }
}

}  // namespace lanescope
