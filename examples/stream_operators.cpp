// The program's own operator<< returns the stream it printed into: what a line printed through
// it (in the middle of a chain, at its end, called by name, or returned by another of the
// program's functions) depends on what it printed.
#include <iostream>
#include <string>

struct Doc {
  std::string title;
  int pages;
};

static std::ostream &operator<<(std::ostream &os, const Doc &d) {
  return os << d.title << " (" << d.pages << " pages)";
}

static std::ostream &header(std::ostream &os, const Doc &d) { return os << d.title << ": "; }

static std::ostream &describe(std::ostream &os, const Doc &d) {
  return header(os, d) << d.pages << " pages";
}

int main(int argc, char **) {
  int pages = 120;
  int extra = 7 + argc;
  Doc doc{"Guide", pages + extra};
  std::string label = "doc: ";
  std::cout << label << doc << "\n";
  std::cout << doc;
  std::cout << "\n";
  operator<<(std::cout, doc);
  std::cout << "\n";
  describe(std::cout, doc) << "\n";
}
