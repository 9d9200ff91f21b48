#include "PathTable.h"

#include "../SiteTable.h"

namespace sleuth::instrumenter {

std::string PathTable::tables(const std::string &AbsolutePath, const std::string &Hash,
                              const std::string &Suffix) const {
  // C89 compilers need only accept string literals of 509 characters (-Woverlength-strings
  // under -pedantic): the text goes out in pieces, which the runtime writes one after another.
  constexpr std::size_t Piece = 400;
  std::string Out = "static const char *const __sleuth_path_text" + Suffix + "[] = {";
  unsigned Pieces = 0;
  for (const std::string &Line : Lines) {
    std::string Text = Line + "\n";
    for (std::size_t At = 0; At < Text.size(); At += Piece, ++Pieces)
      Out += cStringLiteral(Text.substr(At, Piece)) + ",\n";
  }
  if (Pieces == 0) {
    Out += "\"\"";
    Pieces = 1;
  }
  Out += "};\n";
  Out += "static struct sleuth_path_unit " + PathUnit + Suffix + " = {" +
         cStringLiteral(AbsolutePath) + ", \"" + Hash + "\", __sleuth_path_text" + Suffix + ", " +
         std::to_string(Pieces) + "u, " + std::to_string(NumSites) + "u, 0u, SLEUTH_COV_NULL};\n";
  Out += "static void __sleuth_path_init" + Suffix + "(void) __attribute__((constructor));\n";
  Out += "static void __sleuth_path_init" + Suffix + "(void) { sleuth_path_register(&" + PathUnit +
         Suffix + "); }\n";
  return Out;
}

} // namespace sleuth::instrumenter
