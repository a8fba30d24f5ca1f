#pragma once
#include <QRegularExpression>
#include <QSyntaxHighlighter>
#include <QTextCharFormat>

namespace lanescope {

// Colours SQL in the Query panel's editor: keywords, numbers, 'strings', "identifiers" and
// comments (-- to the end of the line, /* ... */ across lines), in the theme's colours.
class SqlHighlighter : public QSyntaxHighlighter {
public:
    explicit SqlHighlighter(QTextDocument* document);
    // Takes the colours of the current theme (light or dark) and colours the text again.
    void updateColours();

protected:
    void highlightBlock(const QString& text) override;

private:
    QRegularExpression keywords_;
    QRegularExpression tokens_;  // numbers, strings, quoted names, comments
    QTextCharFormat keyword_, number_, string_, comment_;
};

}  // namespace lanescope
