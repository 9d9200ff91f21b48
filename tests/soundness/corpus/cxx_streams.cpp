// The program's own operator<< returning the stream by reference.
#include <iostream>
#include <string>

struct Doc {
  std::string title;
  int pages;
};

static std::ostream &operator<<(std::ostream &os, const Doc &d) {
  return os << d.title << " (" << d.pages << " pages)";
}

int main() {
  int pages = 120;
  int extra = 8;
  Doc doc{"Guide", pages + extra};
  std::string label = "doc: ";
  std::cout << label << doc << "\n";
  doc.pages = 1;
  std::cout << doc.pages * 2 << "\n";
}
