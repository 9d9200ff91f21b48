//===- Schemata.cpp - Many mutants in one source, chosen at run time -----===//
//
// Mutant schemata (Untch, Offutt, Harrold, ISSTA 1993): instead of one build per mutant, one
// source holds them all, each behind a guard on a switch read at start-up, so that a test
// suite can run mutant N of a single binary by setting SLEUTH_MUTANT=N.
//
// Each mutant names its guard node (Mutant::GuardOffset/GuardLength): the expression or
// statement that contains its edit. Guard nodes are AST nodes, so their ranges nest; nodes
// with the same range share one guard. A node's text is rewritten bottom-up: inner nodes first,
// then the node itself becomes
//   (__sleuth_mutant() == 7 ? (a - b) : __sleuth_mutant() == 8 ? (a * b) : (a + b))
// or, for a deleted statement,
//   { if (__sleuth_mutant() != 9) x++; }
// A mutant's own alternative is the original text of its node with only its edit applied:
// while it is selected, every other guard takes its original branch anyway.
//
//===----------------------------------------------------------------------===//
#include "sleuth/mutator/mutator.h"

#include <algorithm>
#include <map>
#include <string>

namespace sleuth::mutator {
namespace {

struct Node {
  std::size_t Begin = 0, End = 0;
  bool Statement = false, Condition = false;
  std::vector<const Mutant *> Mutants;
  std::vector<Node *> Children;
};

/// The prelude: defines `__sleuth_mutant()` without any #include (an include before the
/// file's own `#define _GNU_SOURCE` would change what its headers declare). It is valid C89
/// and C++ and reads SLEUTH_MUTANT from `environ` on first use.
std::string prelude(std::string_view FileName) {
  std::string Quoted;
  for (char C : FileName) {
    if (C == '"' || C == '\\')
      Quoted += '\\';
    Quoted += C;
  }
  return "/* Mutant schemata of " + std::string(FileName) +
         ", written by `sleuth mutate --schemata`:\n"
         "   SLEUTH_MUTANT=N runs mutant N (the ids of `sleuth mutate --list`), unset or 0 the\n"
         "   original program. */\n"
         "#ifdef __cplusplus\n"
         "extern \"C\" char **environ;\n"
         "#else\n"
         "extern char **environ;\n"
         "#endif\n"
         "static int __sleuth_mutant_id = -1;\n"
         "__attribute__((unused)) static int __sleuth_mutant(void) {\n"
         "  if (__sleuth_mutant_id < 0) {\n"
         "    char **Entry;\n"
         "    int Id = 0;\n"
         "    for (Entry = environ; Entry && *Entry; ++Entry) {\n"
         "      const char *Name = \"SLEUTH_MUTANT=\", *Value = *Entry;\n"
         "      while (*Name && *Value == *Name) {\n"
         "        ++Name;\n"
         "        ++Value;\n"
         "      }\n"
         "      if (*Name)\n"
         "        continue;\n"
         "      while (*Value >= '0' && *Value <= '9' && Id < 100000000)\n"
         "        Id = Id * 10 + (*Value++ - '0');\n"
         "      break;\n"
         "    }\n"
         "    __sleuth_mutant_id = Id;\n"
         "  }\n"
         "  return __sleuth_mutant_id;\n"
         "}\n"
         "#line 1 \"" +
         Quoted + "\"\n";
}

/// Whether a copy of Text may be written on one line: not when a line comment, a directive, a
/// raw string or a line continuation would change meaning.
bool joinable(std::string_view Text) {
  if (Text.find('\n') == Text.npos)
    return true;
  return Text.find("//") == Text.npos && Text.find('#') == Text.npos &&
         Text.find("R\"") == Text.npos && Text.find("\\\n") == Text.npos;
}

/// A copy of Text on one line, so that every line of the file keeps its number after the
/// prelude: coverage of the schemata then maps back to the original by a fixed offset.
std::string copyOnOneLine(std::string_view Text) {
  std::string Out(Text);
  for (char &C : Out)
    if (C == '\n' || C == '\r')
      C = ' ';
  return Out;
}

class Writer {
public:
  explicit Writer(std::string_view Text) : Text(Text) {}

  /// Text[Begin, End) with the children's guards in place.
  std::string render(std::size_t Begin, std::size_t End, const std::vector<Node *> &Children) {
    std::string Out;
    std::size_t At = Begin;
    for (const Node *Child : Children) {
      Out.append(Text.substr(At, Child->Begin - At));
      Out += guard(*Child);
      At = Child->End;
    }
    Out.append(Text.substr(At, End - At));
    return Out;
  }

private:
  std::string guard(const Node &N) {
    std::string Original = render(N.Begin, N.End, N.Children);
    std::string Switch(SchemataSwitch);
    if (N.Statement) {
      std::string Condition;
      for (const Mutant *M : N.Mutants)
        Condition += (Condition.empty() ? "" : " && ") + Switch + "() != " + std::to_string(M->Id);
      return "{ if (" + Condition + ") " + Original + " }";
    }
    // In a condition, a negation `!(C)` is an int or a bool while C may be a pointer: the
    // other branches are converted as the condition would be.
    auto branch = [&](const std::string &S) { return N.Condition ? "!!(" + S + ")" : S; };
    std::string Out = "(";
    for (const Mutant *M : N.Mutants) {
      std::string Node(Text.substr(N.Begin, N.End - N.Begin));
      std::size_t At = M->Offset - N.Begin;
      std::string Mutated =
          copyOnOneLine(Node.substr(0, At) + M->Replacement + Node.substr(At + M->Length));
      bool Negation = N.Condition && M->Guard == GuardKind::Condition;
      Out += Switch + "() == " + std::to_string(M->Id) + " ? (" +
             (Negation ? Mutated : branch(Mutated)) + ") : ";
    }
    return Out + "(" + branch(Original) + "))";
  }

  std::string_view Text;
};

} // namespace

Schemata buildSchemata(std::string_view Text, std::string_view FileName,
                       const std::vector<Mutant> &Mutants) {
  Schemata Result;
  std::map<std::pair<std::size_t, std::size_t>, Node> Nodes;
  for (const Mutant &M : Mutants) {
    std::size_t End = M.GuardOffset + M.GuardLength;
    if (!M.Unguardable.empty()) {
      Result.Excluded.push_back({M.Id, M.Unguardable});
      continue;
    }
    if (M.GuardLength == 0 || End > Text.size() || M.Offset < M.GuardOffset ||
        M.Offset + M.Length > End) {
      Result.Excluded.push_back({M.Id, "it has no guard node"});
      continue;
    }
    if (M.Guard != GuardKind::Statement && !joinable(Text.substr(M.GuardOffset, M.GuardLength))) {
      Result.Excluded.push_back({M.Id, "its expression spans lines around a comment"});
      continue;
    }
    Node &N = Nodes[{M.GuardOffset, End}];
    N.Begin = M.GuardOffset;
    N.End = End;
    N.Statement |= M.Guard == GuardKind::Statement;
    N.Condition |= M.Guard == GuardKind::Condition;
    N.Mutants.push_back(&M);
  }
  // Outer nodes before the nodes they contain: by start, then by decreasing end.
  std::vector<Node *> Order;
  for (auto &[Range, N] : Nodes)
    Order.push_back(&N);
  std::stable_sort(Order.begin(), Order.end(), [](const Node *A, const Node *B) {
    return A->Begin != B->Begin ? A->Begin < B->Begin : A->End > B->End;
  });
  std::vector<Node *> Roots, Open;
  for (Node *N : Order) {
    while (!Open.empty() && Open.back()->End <= N->Begin)
      Open.pop_back();
    if (!Open.empty() && N->End > Open.back()->End) {
      // AST nodes nest; a guard node that overlaps another only in part (text shared through
      // a macro) cannot be wrapped without cutting the other.
      for (const Mutant *M : N->Mutants)
        Result.Excluded.push_back({M->Id, "its expression overlaps another in part"});
      continue;
    }
    if (N->Statement && N->Condition) {
      for (const Mutant *M : N->Mutants)
        Result.Excluded.push_back({M->Id, "its statement is also a condition"});
      continue;
    }
    (Open.empty() ? Roots : Open.back()->Children).push_back(N);
    for (const Mutant *M : N->Mutants)
      Result.Included.push_back(M->Id);
    Open.push_back(N);
  }
  std::sort(Result.Included.begin(), Result.Included.end());
  std::sort(Result.Excluded.begin(), Result.Excluded.end(),
            [](const Schemata::LeftOut &A, const Schemata::LeftOut &B) { return A.Id < B.Id; });
  std::string Prelude = prelude(FileName);
  Result.PreludeLines = unsigned(std::count(Prelude.begin(), Prelude.end(), '\n'));
  Result.Text = Prelude + Writer(Text).render(0, Text.size(), Roots);
  return Result;
}

} // namespace sleuth::mutator
