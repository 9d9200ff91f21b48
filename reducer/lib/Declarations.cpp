//===- Declarations.cpp - Transformations on declarations -----------------===//
//
// Whole declarations go first: in a preprocessed file most of the text is
// library declarations that the crash never touches.
//
//===----------------------------------------------------------------------===//
#include "AstUtil.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"

#include <map>
#include <set>

using namespace clang;

namespace sleuth::reducer {
namespace {

/// Whether any declaration in the group is used by name anywhere.
bool isReferenced(const Decl *D) {
  if (D->isReferenced() || D->isUsed(false))
    return true;
  if (auto *TD = dyn_cast<TemplateDecl>(D))
    if (const NamedDecl *P = TD->getTemplatedDecl())
      return P->isReferenced() || P->isUsed(false);
  if (auto *RD = dyn_cast<CXXRecordDecl>(D))
    if (const ClassTemplateDecl *CT = RD->getDescribedClassTemplate())
      return CT->isReferenced();
  if (isa<NamespaceDecl>(D))
    return true; // Namespaces are removed member by member, or whole by
                 // remove-decl.
  if (isa<StaticAssertDecl, AccessSpecDecl, LinkageSpecDecl, UsingDirectiveDecl, EmptyDecl,
          FileScopeAsmDecl>(D))
    return true;
  return false;
}

/// Deletes whole declarations that nothing refers to, at any nesting level
/// outside function bodies. In a preprocessed file this is most of the text,
/// so the first candidate (all of them at once) often removes almost all.
class RemoveUnusedDecl : public Transformation {
public:
  const char *name() const override { return "remove-unused-decl"; }
  const char *description() const override { return "remove declarations that nothing refers to"; }
  Level level() const override { return Declarations; }
  void collect(const SourceUnit &U, std::vector<Change> &Out) const override {
    AstHelper H(U);
    forEachDeclContext(U.AST->getTranslationUnitDecl(), [&](DeclContext *DC) {
      for (auto &G : declGroups(DC, H)) {
        bool Used = false;
        for (Decl *D : G)
          Used |= isReferenced(D);
        if (Used)
          continue;
        Span S = *H.span(G.front());
        for (Decl *D : G)
          S.End = std::max(S.End, H.span(D)->End);
        S = H.withSemicolon(S);
        Out.push_back(replaceRange(S.Begin, S.End));
      }
    });
  }
};

/// Deletes top-level declarations, and the declarations inside namespaces and
/// `extern "C"` blocks, each together with its trailing semicolon.
class RemoveDecl : public Transformation {
public:
  const char *name() const override { return "remove-decl"; }
  const char *description() const override {
    return "remove a top-level or namespace-level declaration";
  }
  Level level() const override { return Declarations; }
  void collect(const SourceUnit &U, std::vector<Change> &Out) const override {
    AstHelper H(U);
    visit(U.AST->getTranslationUnitDecl(), H, Out);
  }

private:
  void visit(DeclContext *DC, const AstHelper &H, std::vector<Change> &Out) const {
    for (auto &G : declGroups(DC, H)) {
      Span S = *H.span(G.front());
      for (Decl *D : G)
        S.End = std::max(S.End, H.span(D)->End);
      S = H.withSemicolon(S);
      Out.push_back(replaceRange(S.Begin, S.End));
      for (Decl *D : G)
        if (isa<NamespaceDecl, LinkageSpecDecl, ExportDecl>(D))
          visit(cast<DeclContext>(D), H, Out);
    }
  }
};

/// Replaces a namespace or `extern "C" { }` block by its contents: deletes
/// `namespace N {` and the matching `}` together. Deleting either alone leaves
/// unbalanced braces, which a validity check (`--valid-with`) rejects, so
/// without this pass a valid reproducer would keep every namespace.
class UnwrapNamespace : public Transformation {
public:
  const char *name() const override { return "unwrap-namespace"; }
  const char *description() const override {
    return "replace a namespace or extern \"C\" block by its contents";
  }
  Level level() const override { return Declarations; }
  void collect(const SourceUnit &U, std::vector<Change> &Out) const override {
    AstHelper H(U);
    forEachDeclContext(U.AST->getTranslationUnitDecl(), [&](DeclContext *DC) {
      for (Decl *D : DC->decls()) {
        SourceLocation RBrace;
        if (auto *N = dyn_cast<NamespaceDecl>(D))
          RBrace = N->getRBraceLoc();
        else if (auto *L = dyn_cast<LinkageSpecDecl>(D); L && L->hasBraces())
          RBrace = L->getRBraceLoc();
        else
          continue;
        std::optional<Span> S = H.span(D);
        std::optional<std::size_t> Close = H.offset(RBrace);
        if (!S || !Close || U.Text.compare(*Close, 1, "}") != 0)
          continue;
        std::size_t Open = U.tokenAtOrAfter(S->Begin);
        while (Open < U.Tokens.size() && U.Tokens[Open].Offset < *Close && U.tokenText(Open) != "{")
          ++Open;
        if (Open >= U.Tokens.size() || U.Tokens[Open].Offset >= *Close)
          continue;
        Change C;
        C.Edits.push_back({S->Begin, U.Tokens[Open].Offset + 1 - S->Begin, ""});
        C.Edits.push_back({*Close, 1, ""});
        Out.push_back(std::move(C));
      }
    });
  }
};

/// Deletes a member of a class, struct or union (fields, methods, nested
/// types, access specifiers, friends).
class RemoveMember : public Transformation {
public:
  const char *name() const override { return "remove-member"; }
  const char *description() const override { return "remove a member of a class, struct or union"; }
  Level level() const override { return Members; }
  void collect(const SourceUnit &U, std::vector<Change> &Out) const override {
    AstHelper H(U);
    forEachDeclContext(U.AST->getTranslationUnitDecl(), [&](DeclContext *DC) {
      if (!isa<RecordDecl>(DC))
        return;
      for (auto &G : declGroups(DC, H)) {
        Span S = *H.span(G.front());
        for (Decl *D : G)
          S.End = std::max(S.End, H.span(D)->End);
        if (!isa<AccessSpecDecl>(G.front()))
          S = H.withSemicolon(S);
        Out.push_back(replaceRange(S.Begin, S.End));
      }
    });
  }
};

/// Visits function definitions written in the main file, including those in
/// class and function templates (but not their instantiations).
class FunctionFinder : public RecursiveASTVisitor<FunctionFinder> {
public:
  std::vector<FunctionDecl *> Functions;
  bool VisitFunctionDecl(FunctionDecl *FD) {
    if (!FD->isImplicit())
      Functions.push_back(FD);
    return true;
  }
};

/// Replaces a function body by `{}`: the body is often where the reduction
/// stops mattering, and an empty body keeps the declaration valid.
class EmptyFunctionBody : public Transformation {
public:
  const char *name() const override { return "empty-function-body"; }
  const char *description() const override { return "replace a function body by {}"; }
  Level level() const override { return Members; }
  bool largestFirst() const override { return true; }
  void collect(const SourceUnit &U, std::vector<Change> &Out) const override {
    AstHelper H(U);
    FunctionFinder F;
    F.TraverseDecl(U.AST->getTranslationUnitDecl());
    for (FunctionDecl *FD : F.Functions) {
      auto *Body = dyn_cast_or_null<CompoundStmt>(FD->doesThisDeclarationHaveABody() ? FD->getBody()
                                                                                     : nullptr);
      if (!Body || Body->body_empty())
        continue;
      if (std::optional<Span> S = H.span(Body))
        Out.push_back(replaceRange(S->Begin, S->End, "{}"));
    }
  }
};

/// Turns a function definition into a declaration: `void f() {...}` becomes
/// `void f();`, dropping a constructor's initializer list as well.
class FunctionBodyToDecl : public Transformation {
public:
  const char *name() const override { return "function-body-to-decl"; }
  const char *description() const override {
    return "replace a function body by ; (definition to declaration)";
  }
  Level level() const override { return Members; }
  bool largestFirst() const override { return true; }
  void collect(const SourceUnit &U, std::vector<Change> &Out) const override {
    AstHelper H(U);
    FunctionFinder F;
    F.TraverseDecl(U.AST->getTranslationUnitDecl());
    for (FunctionDecl *FD : F.Functions) {
      Stmt *Body = FD->doesThisDeclarationHaveABody() ? FD->getBody() : nullptr;
      if (!Body || !isa<CompoundStmt>(Body))
        continue;
      std::optional<Span> S = H.span(Body);
      if (!S)
        continue;
      if (auto *CD = dyn_cast<CXXConstructorDecl>(FD)) {
        for (CXXCtorInitializer *Init : CD->inits()) {
          if (!Init->isWritten())
            continue;
          // Back up to the ':' that introduces the initializer list.
          std::optional<std::size_t> B = H.offset(Init->getSourceLocation());
          if (!B)
            continue;
          std::size_t Colon = U.tokenEndingBefore(*B);
          while (Colon != std::string::npos && U.tokenText(Colon) != ":")
            Colon = Colon ? Colon - 1 : std::string::npos;
          if (Colon != std::string::npos)
            S->Begin = std::min(S->Begin, U.Tokens[Colon].Offset);
          break;
        }
      }
      Out.push_back(replaceRange(S->Begin, S->End, ";"));
    }
  }
};

/// Finds calls and constructions of each function, by canonical declaration.
class CallFinder : public RecursiveASTVisitor<CallFinder> {
public:
  struct Site {
    std::vector<Expr *> Args;
  };
  std::map<const FunctionDecl *, std::vector<Site>> Calls;
  std::set<const FunctionDecl *> Unsafe; ///< Used other than by a plain call.

  static const FunctionDecl *key(const FunctionDecl *FD) {
    if (!FD)
      return nullptr;
    if (const FunctionDecl *P = FD->getTemplateInstantiationPattern())
      FD = P;
    return FD->getCanonicalDecl();
  }
  bool VisitCallExpr(CallExpr *CE) {
    const FunctionDecl *FD = key(CE->getDirectCallee());
    if (!FD)
      return true;
    if (isa<CXXOperatorCallExpr>(CE)) {
      Unsafe.insert(FD);
      return true;
    }
    Calls[FD].push_back({std::vector<Expr *>(CE->arg_begin(), CE->arg_end())});
    return true;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *CE) {
    const FunctionDecl *FD = key(CE->getConstructor());
    if (FD)
      Calls[FD].push_back({std::vector<Expr *>(CE->arg_begin(), CE->arg_end())});
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *UO) {
    // &f: the function's type matters, so its parameters must stay.
    if (UO->getOpcode() == UO_AddrOf)
      if (auto *DRE = dyn_cast<DeclRefExpr>(UO->getSubExpr()->IgnoreParens()))
        if (auto *FD = dyn_cast<FunctionDecl>(DRE->getDecl()))
          Unsafe.insert(key(FD));
    return true;
  }
};

/// Removes one parameter from a function, from all of its declarations and
/// from every call that passes it.
class RemoveParam : public Transformation {
public:
  const char *name() const override { return "remove-param"; }
  const char *description() const override {
    return "remove a function parameter and the matching call arguments";
  }
  Level level() const override { return Expressions; }
  void collect(const SourceUnit &U, std::vector<Change> &Out) const override {
    AstHelper H(U);
    CallFinder Calls;
    Calls.TraverseDecl(U.AST->getTranslationUnitDecl());
    FunctionFinder F;
    F.TraverseDecl(U.AST->getTranslationUnitDecl());
    std::set<const FunctionDecl *> Done;
    for (FunctionDecl *FD : F.Functions) {
      const FunctionDecl *Key = CallFinder::key(FD);
      if (!Key || !Done.insert(Key).second || Calls.Unsafe.count(Key) ||
          FD->isOverloadedOperator() || FD->isMain() ||
          FD->getTemplateSpecializationKind() == TSK_ImplicitInstantiation ||
          (isa<CXXMethodDecl>(FD) && cast<CXXMethodDecl>(FD)->isVirtual()))
        continue;
      unsigned N = FD->getNumParams();
      for (unsigned I = 0; I < N; ++I) {
        Change C;
        bool Ok = true;
        for (const FunctionDecl *R : Key->redecls()) {
          std::vector<Span> Params;
          for (const ParmVarDecl *P : R->parameters()) {
            std::optional<Span> S = H.span(P);
            if (!S) {
              Ok = false;
              break;
            }
            Params.push_back(*S);
          }
          if (!Ok || Params.size() != N)
            break;
          C.Edits.push_back(H.deleteListElementEdit(Params, I));
        }
        auto It = Calls.Calls.find(Key);
        if (Ok && It != Calls.Calls.end()) {
          for (const CallFinder::Site &Site : It->second) {
            std::vector<Span> Args;
            for (Expr *A : Site.Args) {
              if (isa<CXXDefaultArgExpr>(A))
                break;
              if (std::optional<Span> S = H.span(A))
                Args.push_back(*S);
              else
                Ok = false;
            }
            if (I < Args.size())
              C.Edits.push_back(H.deleteListElementEdit(Args, I));
          }
        }
        if (Ok && !C.Edits.empty())
          Out.push_back(std::move(C));
      }
    }
  }
};

/// Removes a default argument, of a function parameter (`int x = 3`) or of a
/// template parameter (`class T = int`).
class RemoveDefaultArg : public Transformation {
public:
  const char *name() const override { return "remove-default-arg"; }
  const char *description() const override {
    return "remove the default argument of a function or template parameter";
  }
  Level level() const override { return Expressions; }
  void collect(const SourceUnit &U, std::vector<Change> &Out) const override {
    AstHelper H(U);
    struct Finder : RecursiveASTVisitor<Finder> {
      const AstHelper &H;
      std::vector<Change> &Out;
      Finder(const AstHelper &H, std::vector<Change> &Out) : H(H), Out(Out) {}
      void removeFrom(SourceLocation NameEnd, SourceLocation DeclEnd) {
        std::optional<Span> Decl = H.span(SourceRange(DeclEnd, DeclEnd));
        std::optional<std::size_t> From = H.offset(NameEnd);
        if (!Decl || !From)
          return;
        // Delete from the end of the name (or type) to the end of the default.
        std::size_t I = H.unit().tokenAtOrAfter(*From);
        if (I >= H.unit().Tokens.size())
          return;
        std::size_t Begin = H.unit().Tokens[I].end();
        std::size_t Eq = H.unit().tokenAtOrAfter(Begin);
        if (Eq < H.unit().Tokens.size() && H.unit().tokenText(Eq) == "=" && Decl->End > Begin)
          Out.push_back(replaceRange(Begin, Decl->End));
      }
      bool VisitParmVarDecl(ParmVarDecl *P) {
        if (!P->hasDefaultArg() || P->hasInheritedDefaultArg())
          return true;
        SourceLocation NameEnd = P->getLocation();
        if (!P->getIdentifier()) {
          if (TypeSourceInfo *TSI = P->getTypeSourceInfo())
            NameEnd = TSI->getTypeLoc().getEndLoc();
        }
        removeFrom(NameEnd, P->getEndLoc());
        return true;
      }
      bool VisitTemplateTypeParmDecl(TemplateTypeParmDecl *P) {
        if (P->hasDefaultArgument() && !P->defaultArgumentWasInherited())
          removeFrom(P->getIdentifier() ? P->getLocation() : P->getBeginLoc(), P->getEndLoc());
        return true;
      }
      bool VisitNonTypeTemplateParmDecl(NonTypeTemplateParmDecl *P) {
        if (P->hasDefaultArgument() && !P->defaultArgumentWasInherited())
          removeFrom(P->getLocation(), P->getEndLoc());
        return true;
      }
    } F(H, Out);
    F.TraverseDecl(U.AST->getTranslationUnitDecl());
  }
};

/// Removes a base class from a class definition.
class RemoveBase : public Transformation {
public:
  const char *name() const override { return "remove-base"; }
  const char *description() const override { return "remove a base class from a class definition"; }
  Level level() const override { return Expressions; }
  void collect(const SourceUnit &U, std::vector<Change> &Out) const override {
    AstHelper H(U);
    forEachDeclContext(U.AST->getTranslationUnitDecl(), [&](DeclContext *DC) {
      auto *RD = dyn_cast<CXXRecordDecl>(DC);
      if (!RD || !RD->isThisDeclarationADefinition() || RD->isImplicit() || RD->getNumBases() == 0)
        return;
      std::vector<Span> Bases;
      for (const CXXBaseSpecifier &B : RD->bases()) {
        std::optional<Span> S = H.span(B.getSourceRange());
        if (!S)
          return;
        Bases.push_back(*S);
      }
      for (std::size_t I = 0; I < Bases.size(); ++I) {
        if (Bases.size() > 1) {
          Out.push_back(H.deleteListElement(Bases, I));
          continue;
        }
        // The only base: delete the ':' before it as well.
        std::size_t Colon = U.tokenEndingBefore(Bases[I].Begin);
        if (Colon != std::string::npos && U.tokenText(Colon) == ":")
          Out.push_back(replaceRange(U.Tokens[Colon].Offset, Bases[I].End));
      }
    });
  }
};

} // namespace

void addDeclarationTransformations(TransformationList &L) {
  L.push_back(std::make_unique<RemoveUnusedDecl>());
  L.push_back(std::make_unique<RemoveDecl>());
  L.push_back(std::make_unique<UnwrapNamespace>());
  L.push_back(std::make_unique<RemoveMember>());
  L.push_back(std::make_unique<EmptyFunctionBody>());
  L.push_back(std::make_unique<FunctionBodyToDecl>());
  L.push_back(std::make_unique<RemoveParam>());
  L.push_back(std::make_unique<RemoveDefaultArg>());
  L.push_back(std::make_unique<RemoveBase>());
}

} // namespace sleuth::reducer
