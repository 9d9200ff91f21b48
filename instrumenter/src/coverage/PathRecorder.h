// Coverage mode's path recording (SLEUTH_PATH=1): each function reports its entry (and, through
// a cleanup, its exit) and the values its parameters came with; each assignment, declaration,
// branch condition, call statement and return reports that it ran with the value it produced.
// Each such site is described in the statement IR's text form in the unit's PathTable, so that
// the localizer can encode a failing run's path as a trace formula (SAT-TAR, BugAssist).
// What the IR cannot express (library calls, floating point, structs, globals) is described as
// `(x)`: the localizer then takes the value the run recorded.
#pragma once

#include "../Context.h"
#include "PathTable.h"

#include "clang/AST/Decl.h"

#include <map>
#include <string>

namespace sleuth::instrumenter {

class PathRecorder {
public:
  /// FirstEdit is Ctx.editCount() before FunctionCoverage queued the function's edits: a
  /// statement's probe goes inside the block counter placed before it.
  PathRecorder(Context &Ctx, PathTable &Table, const clang::FunctionDecl *Function,
               std::string UnitName, std::size_t FirstEdit);

  /// Whether the recorder handles this kind of function (plain functions, not templates,
  /// methods, lambdas or variadic functions).
  static bool applies(const clang::FunctionDecl *F);

  /// Adds the function's sites to the table and queues its probes.
  void run();

private:
  void visit(const clang::Stmt *S);
  void statement(const clang::Stmt *S);
  void declaration(const clang::DeclStmt *S, bool InBlock);
  void expressionStatement(const clang::Expr *E);
  bool print(const clang::CallExpr *Call);
  bool appendToArray(const clang::Expr *E);
  /// The prefix of a wrap that discards the value of the call statement E.
  static std::string discarded(const clang::Expr *E);
  void condition(const clang::Expr *Cond);
  void returned(const clang::ReturnStmt *S);

  /// The IR text of an rvalue expression; `(x)` where the IR cannot express it.
  std::string expr(const clang::Expr *E);
  /// The IR text of an lvalue the IR can write (a local scalar, an element of a local array,
  /// `*p`); "" if it is none.
  std::string lvalue(const clang::Expr *E);
  /// The IR's name of a scalar type: i32, u8, bool, p:i32 (a pointer to an integer); "" if none.
  static std::string typeName(clang::QualType T, const clang::ASTContext &Ast);
  /// The variable id of V (declared in the table on first use), or -1 if the IR cannot hold it.
  int variable(const clang::VarDecl *V);

  /// `site ID FUNC LINE COLUMN KIND`, the start of a site's table line.
  std::string siteHead(unsigned Site, clang::SourceLocation At, const char *Kind) const;
  std::string step(unsigned Site, const std::string &Value) const;
  /// Wraps the value at R (of type T) so that it reports itself as Site's value; Prefix names
  /// the temporary.
  void wrapReporting(clang::CharSourceRange R, clang::QualType T, unsigned Site,
                     const std::string &Prefix);

  Context &Ctx;
  PathTable &Table;
  const clang::FunctionDecl *Function;
  std::string Unit; // `&__sleuth_path_unitSUFFIX`
  std::size_t FirstEdit;
  unsigned FunctionSite = 0;
  std::map<const clang::VarDecl *, int> Variables;
  unsigned Temporaries = 0;
};

} // namespace sleuth::instrumenter
