#include "SiteTable.h"

#include "sleuth/slicer/source_hash.h"

#include <cstdio>

namespace sleuth::instrumenter {

std::string cStringLiteral(const std::string &S) {
  std::string Out = "\"";
  for (unsigned char C : S) {
    if (C == '"' || C == '\\') {
      Out += '\\';
      Out += char(C);
    } else if (C == '?') {
      Out += "\\?"; // no trigraphs in C89
    } else if (C < 0x20 || C >= 0x7f) {
      char Buf[8];
      std::snprintf(Buf, sizeof Buf, "\\%03o", C);
      Out += Buf;
    } else {
      Out += char(C);
    }
  }
  return Out + "\"";
}

std::string SiteTable::tables(const std::string &AbsolutePath, const std::string &Source,
                              const std::string &Suffix) const {
  std::string Out;
  Out += "static const struct sleuth_site __sleuth_sites" + Suffix + "[] = {\n";
  std::vector<unsigned> Cds;
  for (const Site &S : Sites) {
    unsigned Begin = unsigned(Cds.size());
    Cds.insert(Cds.end(), S.Controllers.begin(), S.Controllers.end());
    Out += "  {" + std::to_string(unsigned(S.Kind)) + ", " + std::to_string(S.Flags) + ", " +
           std::to_string(S.Line) + ", " + std::to_string(S.Column) + ", " +
           std::to_string(S.Function) + ", " + std::to_string(Begin) + ", " +
           std::to_string(S.Controllers.size()) + ", " + cStringLiteral(S.Name) + "},\n";
  }
  if (Sites.empty()) // C forbids empty initializer lists
    Out += "  {0, 0, 0, 0, 0, 0, 0, \"\"}\n";
  Out += "};\n";
  Out += "static const unsigned __sleuth_cds" + Suffix + "[] = {";
  for (unsigned C : Cds)
    Out += std::to_string(C) + ", ";
  Out += "0};\n";
  Out += "static const struct sleuth_func __sleuth_funcs" + Suffix + "[] = {\n";
  for (const FunctionEntry &F : Functions)
    Out += "  {" + std::to_string(F.BeginLine) + ", " + std::to_string(F.EndLine) + ", " +
           cStringLiteral(F.Name) + "},\n";
  if (Functions.empty())
    Out += "  {0, 0, \"\"}\n";
  Out += "};\n";
  // What the run records per site (zero-initialized: C allows no empty initializer), and the
  // checked reads' caches, two slots each.
  size_t NumStates = Sites.empty() ? 1 : Sites.size();
  Out += "static struct sleuth_site_state __sleuth_ss" + Suffix + "[" + std::to_string(NumStates) +
         "];\n";
  Out += "static unsigned __sleuth_rc" + Suffix + "[" + std::to_string(2 * ReadSlots + 2) + "];\n";
  Out += "static const unsigned __sleuth_sd" + Suffix + "[] = {";
  for (auto [Site, Origin] : StaticData)
    Out += std::to_string(Site) + "u, " + std::to_string(Origin) + "u, ";
  Out += "0u};\n";
  size_t NumFuncStates = Functions.empty() ? 1 : Functions.size();
  Out += "static struct sleuth_func_state __sleuth_fs" + Suffix + "[" +
         std::to_string(NumFuncStates) + "];\n";
  // Not marked unused, since the probes use it (clang's -Wused-but-marked-unused, which cjson
  // enables): a pointer that is marked unused, and never used, keeps it from being unused
  // when no function was instrumented.
  // The source's content hash goes with its path into the dependence file, so that the slicer
  // can tell when the file changed after the run.
  Out += "static struct sleuth_tu __sleuth_tu" + Suffix + " = {" + cStringLiteral(AbsolutePath) +
         ", \"" + sourceHash(Source) + "\", __sleuth_sites" + Suffix + ", " +
         std::to_string(Sites.size()) + ", __sleuth_cds" + Suffix + ", __sleuth_funcs" + Suffix +
         ", " + std::to_string(Functions.size()) + ", __sleuth_ss" + Suffix + ", __sleuth_fs" +
         Suffix + ", __sleuth_sd" + Suffix + ", " + std::to_string(StaticData.size()) +
         ", 0, 0, 0};\n";
  Out += "static struct sleuth_tu *const __sleuth_tu_ref" + Suffix +
         " __attribute__((unused)) = &__sleuth_tu" + Suffix + ";\n";
  Out += "static unsigned *const __sleuth_rc_ref" + Suffix +
         " __attribute__((unused)) = __sleuth_rc" + Suffix + ";\n";
  return Out;
}

} // namespace sleuth::instrumenter
