//===- Names.cpp - Shortening identifiers
//----------------------------------===//
//
// Renaming changes no structure but shrinks bytes, and it makes the final
// reproducer readable. Each instance renames one entity at every place its
// name is written; names not found by the visitor keep the old spelling, and
// the test script rejects candidates where that matters.
//
//===----------------------------------------------------------------------===//
#include "AstUtil.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/TypeLoc.h"

#include <map>
#include <set>

using namespace clang;

namespace sleuth::reducer {
namespace {

/// The declaration that stands for an entity, whatever declaration or
/// template instantiation a reference happens to point at.
const Decl *entity(const Decl *D) {
  if (!D)
    return nullptr;
  if (auto *TD = dyn_cast<TemplateDecl>(D))
    if (TD->getTemplatedDecl())
      D = TD->getTemplatedDecl();
  if (auto *FD = dyn_cast<FunctionDecl>(D))
    if (const FunctionDecl *P = FD->getTemplateInstantiationPattern())
      D = P;
  if (auto *CTS = dyn_cast<ClassTemplateSpecializationDecl>(D))
    if (CTS->getSpecializationKind() != TSK_ExplicitSpecialization)
      D = CTS->getSpecializedTemplate()->getTemplatedDecl();
  if (auto *RD = dyn_cast<CXXRecordDecl>(D))
    if (const CXXRecordDecl *P = RD->getTemplateInstantiationPattern())
      D = P;
  return D->getCanonicalDecl();
}

class ReferenceFinder : public RecursiveASTVisitor<ReferenceFinder> {
public:
  std::map<const Decl *, std::set<SourceLocation>> Refs;

  void add(const Decl *D, SourceLocation L) {
    if (D && L.isValid())
      Refs[entity(D)].insert(L);
  }
  bool VisitNamedDecl(NamedDecl *D) {
    if (D->isImplicit())
      return true;
    if (auto *CD = dyn_cast<CXXConstructorDecl>(D))
      add(CD->getParent(), CD->getLocation());
    else if (auto *DD = dyn_cast<CXXDestructorDecl>(D))
      DtorNames.emplace_back(DD->getParent(), DD->getLocation());
    else if (D->getDeclName().isIdentifier() && !isa<TemplateDecl>(D))
      add(D, D->getLocation());
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    add(E->getDecl(), E->getLocation());
    return true;
  }
  bool VisitMemberExpr(MemberExpr *E) {
    add(E->getMemberDecl(), E->getMemberLoc());
    return true;
  }
  bool VisitTagTypeLoc(TagTypeLoc TL) {
    add(TL.getDecl(), TL.getNameLoc());
    return true;
  }
  bool VisitTypedefTypeLoc(TypedefTypeLoc TL) {
    add(TL.getTypedefNameDecl(), TL.getNameLoc());
    return true;
  }
  bool VisitInjectedClassNameTypeLoc(InjectedClassNameTypeLoc TL) {
    add(TL.getDecl(), TL.getNameLoc());
    return true;
  }
  bool VisitTemplateSpecializationTypeLoc(TemplateSpecializationTypeLoc TL) {
    add(TL.getTypePtr()->getTemplateName().getAsTemplateDecl(), TL.getTemplateNameLoc());
    return true;
  }
  bool VisitDesignatedInitExpr(DesignatedInitExpr *E) {
    for (const DesignatedInitExpr::Designator &D : E->designators())
      if (D.isFieldDesignator() && D.getFieldDecl())
        add(D.getFieldDecl(), D.getFieldLoc());
    return true;
  }
  bool TraverseConstructorInitializer(CXXCtorInitializer *Init) {
    if (Init->isWritten() && Init->getMember())
      add(Init->getMember(), Init->getMemberLocation());
    return RecursiveASTVisitor::TraverseConstructorInitializer(Init);
  }
  bool TraverseNestedNameSpecifierLoc(NestedNameSpecifierLoc NNS) {
    if (NNS && NNS.getNestedNameSpecifier()->getKind() == NestedNameSpecifier::Namespace)
      add(NNS.getNestedNameSpecifier()->getAsNamespace(), NNS.getLocalBeginLoc());
    return RecursiveASTVisitor::TraverseNestedNameSpecifierLoc(NNS);
  }

  std::vector<std::pair<const Decl *, SourceLocation>> DtorNames;
};

bool isReservedName(llvm::StringRef N) {
  return N == "main" || N.starts_with("__builtin") || N == "std" || N == "initializer_list" ||
         N == "type_info";
}

/// Identifiers that are free to use: not keywords, not in the text.
class NameSupply {
public:
  explicit NameSupply(const SourceUnit &U) {
    for (std::size_t I = 0; I < U.Tokens.size(); ++I)
      Taken.insert(std::string(U.tokenText(I)));
    for (const char *K : {"do", "if", "or", "in", "is", "as", "asm", "and", "for", "int", "new",
                          "not", "try", "xor"})
      Taken.insert(K);
  }
  std::string next() {
    for (;;) {
      std::string N = spell(Counter++);
      if (!Taken.count(N))
        return N;
    }
  }

private:
  static std::string spell(std::size_t I) {
    std::string S;
    S += char('a' + I % 26);
    for (I /= 26; I; I /= 36)
      S += "abcdefghijklmnopqrstuvwxyz0123456789"[I % 36];
    return S;
  }
  std::set<std::string> Taken;
  std::size_t Counter = 0;
};

/// Renames a declared entity (variable, function, field, type, namespace)
/// to a short unused name everywhere it is written.
class ShortenNames : public Transformation {
public:
  const char *name() const override { return "shorten-names"; }
  const char *description() const override { return "rename a declaration to a short unused name"; }
  Level level() const override { return Lexical; }
  void collect(const SourceUnit &U, std::vector<Change> &Out) const override {
    AstHelper H(U);
    ReferenceFinder F;
    std::map<const Decl *, std::vector<std::size_t>> DtorOffsets;
    F.TraverseDecl(U.AST->getTranslationUnitDecl());
    for (auto &[D, L] : F.DtorNames) {
      // `~S`: the location may point at '~' or at the name after it.
      std::optional<std::size_t> At = H.offset(L);
      if (!At)
        continue;
      std::size_t I = U.tokenAtOrAfter(*At);
      if (I < U.Tokens.size() && U.tokenText(I) == "~")
        ++I;
      if (I < U.Tokens.size()) {
        F.Refs[entity(D)]; // Make sure the entity is considered.
        DtorOffsets[entity(D)].push_back(U.Tokens[I].Offset);
      }
    }
    struct Candidate {
      std::vector<std::size_t> Offsets;
      std::string Old;
      std::size_t Gain;
    };
    std::vector<Candidate> Cands;
    for (auto &[D, Locs] : F.Refs) {
      auto *ND = dyn_cast<NamedDecl>(D);
      if (!ND || !ND->getDeclName().isIdentifier())
        continue;
      std::string Old = ND->getName().str();
      if (Old.size() <= 1 || isReservedName(Old))
        continue;
      Candidate C{{}, Old, 0};
      bool Ok = true;
      for (SourceLocation L : Locs) {
        if (L.isInvalid())
          continue;
        std::optional<std::size_t> At = H.offset(L);
        if (!At) {
          Ok = false; // Written outside the main file or in a macro.
          break;
        }
        std::size_t I = U.tokenAtOrAfter(*At);
        if (I >= U.Tokens.size() || U.Tokens[I].Offset != *At || U.tokenText(I) != Old) {
          Ok = false;
          break;
        }
        C.Offsets.push_back(*At);
      }
      for (std::size_t At : DtorOffsets[D])
        if (At + Old.size() <= U.Text.size() && U.Text.compare(At, Old.size(), Old) == 0)
          C.Offsets.push_back(At);
      if (!Ok || C.Offsets.empty())
        continue;
      std::sort(C.Offsets.begin(), C.Offsets.end());
      C.Offsets.erase(std::unique(C.Offsets.begin(), C.Offsets.end()), C.Offsets.end());
      C.Gain = C.Offsets.size() * Old.size();
      Cands.push_back(std::move(C));
    }
    // The most written names get the shortest replacements.
    std::stable_sort(Cands.begin(), Cands.end(),
                     [](const Candidate &A, const Candidate &B) { return A.Gain > B.Gain; });
    NameSupply Names(U);
    for (Candidate &C : Cands) {
      std::string New = Names.next();
      if (New.size() >= C.Old.size())
        continue;
      Change Ch;
      for (std::size_t At : C.Offsets)
        Ch.Edits.push_back({At, C.Old.size(), New});
      Out.push_back(std::move(Ch));
    }
  }
};

} // namespace

void addNameTransformations(TransformationList &L) {
  L.push_back(std::make_unique<ShortenNames>());
}

} // namespace sleuth::reducer
