//===- Types.cpp - Transformations on templates and typedefs --------------===//
#include "AstUtil.h"

#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/TypeLoc.h"

#include <algorithm>
#include <map>

using namespace clang;

namespace sleuth::reducer {
namespace {

/// Where each class template is named with arguments (`S<int>`), and each
/// typedef is used, outside template instantiations.
class TypeUseFinder : public RecursiveASTVisitor<TypeUseFinder> {
public:
  std::map<const TemplateDecl *, std::vector<TemplateSpecializationTypeLoc>> Specializations;
  std::map<const TemplateDecl *, std::vector<const DeclRefExpr *>> ExplicitArgRefs;
  std::map<const TypedefNameDecl *, std::vector<SourceLocation>> TypedefUses;

  bool VisitTemplateSpecializationTypeLoc(TemplateSpecializationTypeLoc TL) {
    if (TemplateDecl *TD = TL.getTypePtr()->getTemplateName().getAsTemplateDecl())
      Specializations[cast<TemplateDecl>(TD->getCanonicalDecl())].push_back(TL);
    return true;
  }
  bool VisitTypedefTypeLoc(TypedefTypeLoc TL) {
    TypedefUses[TL.getTypedefNameDecl()->getCanonicalDecl()].push_back(TL.getNameLoc());
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *DRE) {
    if (!DRE->hasExplicitTemplateArgs())
      return true;
    if (auto *FD = dyn_cast<FunctionDecl>(DRE->getDecl()))
      if (FunctionTemplateDecl *FT = FD->getPrimaryTemplate())
        ExplicitArgRefs[cast<TemplateDecl>(FT->getCanonicalDecl())].push_back(DRE);
    return true;
  }
};

TypeUseFinder findTypeUses(const SourceUnit &U) {
  TypeUseFinder F;
  F.TraverseDecl(U.AST->getTranslationUnitDecl());
  return F;
}

/// Collects templates declared in the main file.
class TemplateFinder : public RecursiveASTVisitor<TemplateFinder> {
public:
  std::vector<TemplateDecl *> Found;
  bool VisitClassTemplateDecl(ClassTemplateDecl *D) {
    Found.push_back(D);
    return true;
  }
  bool VisitFunctionTemplateDecl(FunctionTemplateDecl *D) {
    Found.push_back(D);
    return true;
  }
};

bool hasSpecializations(const TemplateDecl *TD) {
  auto *CT = dyn_cast<ClassTemplateDecl>(TD);
  if (!CT)
    return false;
  SmallVector<ClassTemplatePartialSpecializationDecl *, 4> Partial;
  const_cast<ClassTemplateDecl *>(CT)->getPartialSpecializations(Partial);
  if (!Partial.empty())
    return true;
  for (ClassTemplateSpecializationDecl *S : const_cast<ClassTemplateDecl *>(CT)->specializations())
    if (S->getSpecializationKind() == TSK_ExplicitSpecialization)
      return true;
  return false;
}

/// Turns a class template into a plain class: drops `template <...>` from
/// the definition and the argument lists from every use.
class ClassTemplateToClass : public Transformation {
public:
  const char *name() const override { return "class-template-to-class"; }
  const char *description() const override {
    return "turn a class template into a class, dropping template arguments";
  }
  Level level() const override { return Expressions; }
  void collect(const SourceUnit &U, std::vector<Change> &Out) const override {
    AstHelper H(U);
    TypeUseFinder Uses = findTypeUses(U);
    TemplateFinder Templates;
    Templates.TraverseDecl(U.AST->getTranslationUnitDecl());
    for (TemplateDecl *TD : Templates.Found) {
      auto *CT = dyn_cast<ClassTemplateDecl>(TD);
      if (!CT || !CT->isThisDeclarationADefinition() || hasSpecializations(CT) ||
          CT->getCanonicalDecl() != CT)
        continue;
      TemplateParameterList *TPL = CT->getTemplateParameters();
      std::optional<Span> Header = H.span(SourceRange(TPL->getTemplateLoc(), TPL->getRAngleLoc()));
      if (!Header)
        continue;
      Change C;
      C.Edits.push_back({Header->Begin, Header->size(), ""});
      for (TemplateSpecializationTypeLoc TL : Uses.Specializations[CT]) {
        std::optional<Span> Args = H.span(SourceRange(TL.getLAngleLoc(), TL.getRAngleLoc()));
        if (Args)
          C.Edits.push_back({Args->Begin, Args->size(), ""});
      }
      Out.push_back(std::move(C));
    }
  }
};

/// Removes one parameter of a class or function template, and the matching
/// argument wherever arguments are written explicitly.
class RemoveTemplateParam : public Transformation {
public:
  const char *name() const override { return "remove-template-param"; }
  const char *description() const override {
    return "remove a template parameter and the matching template arguments";
  }
  Level level() const override { return Expressions; }
  void collect(const SourceUnit &U, std::vector<Change> &Out) const override {
    AstHelper H(U);
    TypeUseFinder Uses = findTypeUses(U);
    TemplateFinder Templates;
    Templates.TraverseDecl(U.AST->getTranslationUnitDecl());
    for (TemplateDecl *TD : Templates.Found) {
      if (TD->getCanonicalDecl() != TD || hasSpecializations(TD))
        continue;
      TemplateParameterList *TPL = TD->getTemplateParameters();
      if (TPL->size() < 2)
        continue; // Removing the last one is class-template-to-class.
      std::vector<Span> Params;
      for (NamedDecl *P : *TPL)
        if (std::optional<Span> S = H.span(P))
          Params.push_back(*S);
      if (Params.size() != TPL->size())
        continue;
      for (unsigned I = 0; I < TPL->size(); ++I) {
        Change C;
        C.Edits.push_back(H.deleteListElementEdit(Params, I));
        for (TemplateSpecializationTypeLoc TL : Uses.Specializations[TD]) {
          std::vector<Span> Args;
          for (unsigned A = 0; A < TL.getNumArgs(); ++A)
            if (std::optional<Span> S = H.span(TL.getArgLoc(A).getSourceRange()))
              Args.push_back(*S);
          if (Args.size() == TL.getNumArgs() && I < Args.size())
            C.Edits.push_back(H.deleteListElementEdit(Args, I));
        }
        for (const DeclRefExpr *DRE : Uses.ExplicitArgRefs[TD]) {
          std::vector<Span> Args;
          for (const TemplateArgumentLoc &AL : DRE->template_arguments())
            if (std::optional<Span> S = H.span(AL.getSourceRange()))
              Args.push_back(*S);
          if (Args.size() == DRE->getNumTemplateArgs() && I < Args.size())
            C.Edits.push_back(H.deleteListElementEdit(Args, I));
        }
        Out.push_back(std::move(C));
      }
    }
  }
};

/// Replaces every use of a typedef (or alias) by the type it names and
/// deletes the typedef.
class InlineTypedef : public Transformation {
public:
  const char *name() const override { return "inline-typedef"; }
  const char *description() const override {
    return "replace the uses of a typedef by its type and remove it";
  }
  Level level() const override { return Expressions; }
  void collect(const SourceUnit &U, std::vector<Change> &Out) const override {
    AstHelper H(U);
    TypeUseFinder Uses = findTypeUses(U);
    for (auto &[TD, Locs] : Uses.TypedefUses) {
      if (TD->getDescribedTemplate() || !H.isInMainFile(TD->getLocation()))
        continue;
      TypeSourceInfo *TSI = TD->getTypeSourceInfo();
      std::optional<Span> Type = TSI ? H.span(TSI->getTypeLoc().getSourceRange()) : std::nullopt;
      std::optional<Span> Decl = H.span(TD);
      std::optional<std::size_t> Name = H.offset(TD->getLocation());
      if (!Type || !Decl || !Name)
        continue;
      // `typedef int A[3];` and function pointer typedefs wrap the name in
      // the type; those cannot be pasted at a use.
      if (isa<TypedefDecl>(TD) && Type->End > *Name)
        continue;
      std::string Text(H.text(*Type));
      if (Text.find('{') != std::string::npos)
        continue;
      Change C;
      Span Whole = H.withSemicolon(*Decl);
      C.Edits.push_back({Whole.Begin, Whole.size(), ""});
      std::size_t NameLen = TD->getName().size();
      for (SourceLocation L : Locs)
        if (std::optional<std::size_t> At = H.offset(L))
          C.Edits.push_back({*At, NameLen, Text});
      Out.push_back(std::move(C));
    }
    // Typedefs that are never used are remove-unused-decl's business.
  }
};

/// Replaces an empty struct or class by `int`: its definition goes and every
/// use of its name becomes `int`. A crash seldom needs a type of its own
/// when the type has nothing in it, and `int` is one token where the
/// definition is at least four.
class EmptyStructToInt : public Transformation {
public:
  const char *name() const override { return "empty-struct-to-int"; }
  const char *description() const override { return "replace an empty struct or class by int"; }
  Level level() const override { return Expressions; }
  void collect(const SourceUnit &U, std::vector<Change> &Out) const override {
    AstHelper H(U);
    struct Finder : RecursiveASTVisitor<Finder> {
      const AstHelper &H;
      std::vector<RecordDecl *> Empty;
      std::map<const Decl *, std::vector<Span>> Uses;
      explicit Finder(const AstHelper &H) : H(H) {}
      bool VisitRecordDecl(RecordDecl *RD) {
        if (!RD->isThisDeclarationADefinition() || !RD->getIdentifier() || RD->isUnion() ||
            !H.isInMainFile(RD->getLocation()))
          return true;
        if (auto *CRD = dyn_cast<CXXRecordDecl>(RD))
          if (CRD->getNumBases() || CRD->isLambda() || CRD->getDescribedClassTemplate() ||
              isa<ClassTemplateSpecializationDecl>(CRD))
            return true;
        for (Decl *D : RD->decls())
          if (!D->isImplicit())
            return true;
        Empty.push_back(RD);
        return true;
      }
      void use(const RecordDecl *RD, SourceLocation Begin, SourceLocation End) {
        if (std::optional<Span> S = H.span(SourceRange(Begin, End)))
          Uses[RD->getCanonicalDecl()].push_back(*S);
      }
      bool VisitRecordTypeLoc(RecordTypeLoc TL) {
        use(TL.getDecl(), TL.getNameLoc(), TL.getNameLoc());
        return true;
      }
      bool VisitElaboratedTypeLoc(ElaboratedTypeLoc TL) {
        // `struct A` as a whole becomes `int`.
        if (TL.getElaboratedKeywordLoc().isValid())
          if (auto RT = TL.getNamedTypeLoc().getAs<RecordTypeLoc>())
            use(RT.getDecl(), TL.getElaboratedKeywordLoc(), RT.getNameLoc());
        return true;
      }
    } F(H);
    F.TraverseDecl(U.AST->getTranslationUnitDecl());
    for (RecordDecl *RD : F.Empty) {
      Change C;
      std::vector<Span> Deleted;
      for (const Decl *R : RD->redecls())
        if (std::optional<Span> S = H.span(R))
          Deleted.push_back(H.withSemicolon(*S));
      std::vector<Span> Uses = F.Uses[RD->getCanonicalDecl()];
      std::sort(Uses.begin(), Uses.end(), [](Span A, Span B) {
        return A.Begin != B.Begin ? A.Begin < B.Begin : A.End > B.End;
      });
      for (Span D : Deleted)
        C.Edits.push_back({D.Begin, D.size(), ""});
      std::size_t Covered = 0;
      for (Span S : Uses) {
        // The name inside `struct A` is replaced with the whole.
        if (S.End <= Covered)
          continue;
        bool InDeleted = std::any_of(Deleted.begin(), Deleted.end(),
                                     [&](Span D) { return D.Begin <= S.Begin && S.End <= D.End; });
        if (!InDeleted)
          C.Edits.push_back({S.Begin, S.size(), "int"});
        Covered = S.End;
      }
      if (!C.Edits.empty())
        Out.push_back(std::move(C));
    }
  }
};

} // namespace

void addTypeTransformations(TransformationList &L) {
  L.push_back(std::make_unique<ClassTemplateToClass>());
  L.push_back(std::make_unique<RemoveTemplateParam>());
  L.push_back(std::make_unique<InlineTypedef>());
  L.push_back(std::make_unique<EmptyStructToInt>());
}

} // namespace sleuth::reducer
