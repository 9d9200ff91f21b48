// The Debugging Book's remove_html_markup(): strips tags, but keeps quotes it should drop.
#include <cassert>
#include <cstdio>
#include <string>

std::string remove_html_markup(const std::string s) {
    bool tag = false;
    bool quote = false;
    std::string out = "";

    for (char c : s) {
        assert(tag || !quote);

        if (c == '<' && !quote)
            tag = true;
        else if (c == '>' && !quote)
            tag = false;
        else if ((c == '"' || c == '\'') && tag)
            quote = !quote;
        else if (!tag)
            out = out + c;
    }

    return out;
}

int main() {
    std::string result = remove_html_markup("<foo>bar</foo>");
    std::printf("%s\n", result.c_str());
    return 0;
}

// The slices differ from the book's listing in one way: the statements of the range-based `for`
// are control dependent on the loop's test, as a `while` body is on its condition. The book's
// Python tracker makes no test node for `for` loops; that is a limit of its tracker, not of the
// dependence model.
