#!/bin/bash
# The Debugging Book's faulty remove_html_markup() in C++, built in coverage
# mode, three tests (one failing): the faulty condition ranks first among
# branch outcomes, and its symptom `quote = !quote` first among lines.
# usage: e2e_remove_html_markup.sh SLEUTH TESTS_DIR WORKDIR; exit 77 = skipped
set -u
SLEUTH=$1 WORK=$3
rm -rf "$WORK" && mkdir -p "$WORK" && cd "$WORK" || exit 1
echo 'int main(void) { return 0; }' > probe.c
if ! "$SLEUTH" instrument --mode coverage probe.c -- > /dev/null 2>&1; then
  echo "skipped: 'sleuth instrument --mode coverage' does not work yet"; exit 77
fi
cat > remove_html_markup.cpp <<'SRC'
#include <cstdio>
#include <string>

std::string remove_html_markup(const std::string &s) {
    bool tag = false;
    bool quote = false;
    std::string out = "";

    for (char c : s) {
        if (c == '<' && !quote)
            tag = true;
        else if (c == '>' && !quote)
            tag = false;
        else if (c == '"' || (c == '\'' && tag))
            quote = !quote;
        else if (!tag)
            out = out + c;
    }
    return out;
}

int main(int argc, char **argv) {
    std::printf("%s\n", remove_html_markup(argc > 1 ? argv[1] : "").c_str());
    return 0;
}
SRC
SLEUTH_MODE=coverage "$SLEUTH" c++ -std=c++20 -O0 -o rhm remove_html_markup.cpp || exit 1
printf 'abc\n' > abc.txt
printf '"abc"\n' > quoted.txt
cat > tests.txt <<'T'
name=plain stdout=abc.txt ./rhm abc
name=tags stdout=abc.txt ./rhm '<b>abc</b>'
name=quotes stdout=quoted.txt ./rhm '"abc"'
T
failures=0
out=$("$SLEUTH" localize --tests tests.txt --color never --top 3) || { echo "$out"; exit 1; }
echo "$out"
echo "$out" | sed -n 3p | grep -q "remove_html_markup.cpp:15  *quote = !quote;" ||
  { echo "FAIL: the symptom line is not first"; failures=1; }
out=$("$SLEUTH" localize --from .sleuth-localize --events branch --color never --top 3) || exit 1
echo "$out"
echo "$out" | sed -n 3p | grep -q "remove_html_markup.cpp:14:" ||
  { echo "FAIL: the faulty condition is not first among branch outcomes"; failures=1; }
for f in tarantula ochiai dstar blockrank; do
  "$SLEUTH" localize --from .sleuth-localize --formula $f --view none --json $f.json || failures=1
done
exit $failures
