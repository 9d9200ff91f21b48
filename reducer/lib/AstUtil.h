//===- AstUtil.h - Helpers shared by AST transformations --------*- C++ -*-===//
#pragma once

#include "Transformation.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"

#include <optional>
#include <utility>

namespace sleuth::reducer {

/// A half-open byte range [Begin, End) in the main file.
struct Span {
  std::size_t Begin = 0, End = 0;
  std::size_t size() const { return End - Begin; }
};

/// Maps Clang source ranges to byte offsets of the main file and offers the
/// token-level edits most transformations need.
class AstHelper {
public:
  explicit AstHelper(const SourceUnit &U);

  clang::ASTContext &ctx() const { return *U.AST; }
  clang::SourceManager &sm() const { return U.AST->getSourceManager(); }
  const SourceUnit &unit() const { return U; }

  /// Byte range of a token range, if it is written in the main file and not
  /// inside a macro expansion.
  std::optional<Span> span(clang::SourceRange R) const;
  std::optional<Span> span(const clang::Decl *D) const { return span(D->getSourceRange()); }
  std::optional<Span> span(const clang::Stmt *S) const { return span(S->getSourceRange()); }
  /// Offset of a location's token in the main file.
  std::optional<std::size_t> offset(clang::SourceLocation L) const;
  /// S extended over a directly following ';'.
  Span withSemicolon(Span S) const;
  std::string_view text(Span S) const { return std::string_view(U.Text).substr(S.Begin, S.size()); }
  bool isInMainFile(clang::SourceLocation L) const;

  /// A change deleting element I of a comma-separated list whose elements
  /// span Elems, together with the comma that separates it from a neighbour.
  Change deleteListElement(const std::vector<Span> &Elems, std::size_t I) const;
  /// Edit form of deleteListElement (for changes with several edits).
  Edit deleteListElementEdit(const std::vector<Span> &Elems, std::size_t I) const;

private:
  const SourceUnit &U;
};

/// Visits every declaration context written in the main file (translation
/// unit, namespaces, linkage specs, records), not function bodies.
template <typename Fn> void forEachDeclContext(clang::DeclContext *DC, const Fn &F) {
  F(DC);
  for (clang::Decl *D : DC->decls()) {
    if (D->isImplicit())
      continue;
    if (auto *CT = llvm::dyn_cast<clang::ClassTemplateDecl>(D))
      D = CT->getTemplatedDecl();
    if (auto *Child = llvm::dyn_cast<clang::DeclContext>(D))
      if (llvm::isa<clang::NamespaceDecl, clang::LinkageSpecDecl, clang::RecordDecl,
                    clang::ExportDecl>(D))
        forEachDeclContext(Child, F);
  }
}

/// Declarations written directly in DC, grouped so that `int a, b;` and
/// `struct S {} s;` form one group (they share their first token).
std::vector<std::vector<clang::Decl *>> declGroups(clang::DeclContext *DC, const AstHelper &H);

} // namespace sleuth::reducer
