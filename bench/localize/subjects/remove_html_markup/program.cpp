// The Debugging Book's remove_html_markup(), correct: strips tags, keeps quoted text.
#include <cstdio>
#include <string>

static std::string remove_html_markup(const std::string &s) {
    bool tag = false;
    bool quote = false;
    std::string out;
    for (char c : s) {
        if (c == '<' && !quote)
            tag = true;
        else if (c == '>' && !quote)
            tag = false;
        else if ((c == '"' || c == '\'') && tag)
            quote = !quote;
        else if (!tag)
            out += c;
    }
    return out;
}

int main(int argc, char **argv) {
    for (int i = 1; i < argc; ++i)
        std::printf("%s\n", remove_html_markup(argv[i]).c_str());
    return 0;
}
