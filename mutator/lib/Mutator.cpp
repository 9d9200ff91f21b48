//===- Mutator.cpp - Parse one file, collect every operator's mutants ----===//
#include "Operator.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "clang/Lex/Lexer.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/FileSystem.h"

#include <algorithm>

using namespace clang;

namespace sleuth::mutator {

MutationOperator::~MutationOperator() = default;

const std::vector<const MutationOperator *> &allOperators() {
  static const std::vector<const MutationOperator *> All = [] {
    static OperatorList Owned;
    addRelationalOperator(Owned);
    addArithmeticOperator(Owned);
    addLogicalOperator(Owned);
    addConstantOperator(Owned);
    addConditionOperator(Owned);
    addStatementOperator(Owned);
    std::vector<const MutationOperator *> V;
    for (auto &O : Owned)
      V.push_back(O.get());
    return V;
  }();
  return All;
}

const std::vector<OperatorInfo> &mutationOperators() {
  static const std::vector<OperatorInfo> Infos = [] {
    std::vector<OperatorInfo> V;
    for (const MutationOperator *O : allOperators())
      V.push_back({O->name(), O->description()});
    return V;
  }();
  return Infos;
}

bool isMutationOperator(std::string_view Name) {
  for (const OperatorInfo &I : mutationOperators())
    if (I.Name == Name)
      return true;
  return false;
}

//===----------------------------------------------------------------------===//
// BodyContext
//===----------------------------------------------------------------------===//

std::optional<Span> BodyContext::span(SourceRange R) const {
  // Macro arguments too are left alone: their text may be expanded more than once, or not at
  // all, and the mutant's location would not be where the code runs.
  if (R.getBegin().isInvalid() || R.getEnd().isInvalid() || !R.getBegin().isFileID() ||
      !R.getEnd().isFileID())
    return std::nullopt;
  return guardSpan(R);
}

namespace {

/// Characters that can start or continue a punctuator: a replacement next to one of them may
/// lex as another token (`-` replacing `*` in `a*-b` gives `a--b`; `/` before `*` a comment).
bool joins(char C) {
  return std::string_view("+-*/%<>=&|^!~.:#?").find(C) != std::string_view::npos;
}

/// Whether a line of Text starts with a preprocessor directive: an edit across one could
/// unbalance conditional compilation.
bool hasDirective(std::string_view Text) {
  bool LineStart = false;
  for (char C : Text) {
    if (C == '\n')
      LineStart = true;
    else if (C == '#' && LineStart)
      return true;
    else if (C != ' ' && C != '\t')
      LineStart = false;
  }
  return false;
}

} // namespace

std::optional<Span> BodyContext::guardSpan(SourceRange R) const {
  if (R.getBegin().isInvalid() || R.getEnd().isInvalid())
    return std::nullopt;
  CharSourceRange File =
      Lexer::makeFileCharRange(CharSourceRange::getTokenRange(R), SM, Ast.getLangOpts());
  if (File.isInvalid())
    return std::nullopt;
  auto [BeginFile, BeginOffset] = SM.getDecomposedLoc(File.getBegin());
  auto [EndFile, EndOffset] = SM.getDecomposedLoc(File.getEnd());
  if (BeginFile != SM.getMainFileID() || EndFile != BeginFile || EndOffset < BeginOffset ||
      EndOffset > Text.size())
    return std::nullopt;
  return Span{BeginOffset, EndOffset};
}

void BodyContext::addGuarded(std::string_view Operator, Span S, std::string Replacement,
                             GuardKind Kind, std::optional<Span> Guard, const char *Unguardable) {
  std::string_view Original = text(S);
  if (Original == Replacement || hasDirective(Original))
    return;
  if (!Replacement.empty()) {
    if (S.Begin > 0 && joins(Text[S.Begin - 1]) && joins(Replacement.front()))
      Replacement.insert(Replacement.begin(), ' ');
    if (S.End < Text.size() && joins(Text[S.End]) && joins(Replacement.back()))
      Replacement.push_back(' ');
  }
  Mutant M;
  M.Operator = std::string(Operator);
  M.Offset = S.Begin;
  M.Length = S.End - S.Begin;
  M.Original = std::string(Original);
  M.Replacement = std::move(Replacement);
  FileID Main = SM.getMainFileID();
  SourceLocation Begin = SM.getComposedLoc(Main, unsigned(S.Begin));
  SourceLocation End = SM.getComposedLoc(Main, unsigned(S.End > S.Begin ? S.End - 1 : S.End));
  M.Line = SM.getSpellingLineNumber(Begin);
  M.Column = SM.getSpellingColumnNumber(Begin);
  M.EndLine = SM.getSpellingLineNumber(End);
  M.Function = functionName();
  M.Guard = Kind;
  if (Guard && Guard->Begin <= S.Begin && S.End <= Guard->End && !hasDirective(text(*Guard))) {
    M.GuardOffset = Guard->Begin;
    M.GuardLength = Guard->End - Guard->Begin;
  } else {
    M.Unguardable = "its expression spans a macro expansion only in part";
  }
  if (ConstantContext)
    M.Unguardable = ConstantContext;
  else if (Unguardable)
    M.Unguardable = Unguardable;
  Out.push_back(std::move(M));
}

std::string BodyContext::functionName() const {
  // Clang calls every lambda `(anonymous class)::operator()`; its place tells them apart.
  const auto *Method = dyn_cast<CXXMethodDecl>(&Function);
  if (!Method || !Method->getParent()->isLambda())
    return Function.getQualifiedNameAsString();
  SourceLocation Loc = SM.getFileLoc(Method->getParent()->getLocation());
  return "lambda at " + std::to_string(SM.getSpellingLineNumber(Loc)) + ":" +
         std::to_string(SM.getSpellingColumnNumber(Loc));
}

namespace {

//===----------------------------------------------------------------------===//
// Finding the bodies
//===----------------------------------------------------------------------===//

/// Hands every function body written in the main file to every operator. Lambdas inside a
/// function are part of its body; lambdas outside any function are bodies of their own.
class FunctionFinder : public RecursiveASTVisitor<FunctionFinder> {
public:
  FunctionFinder(ASTContext &Ast, std::string_view Text, std::vector<Mutant> &Out)
      : Ast(Ast), Text(Text), Out(Out) {}

  bool shouldVisitTemplateInstantiations() const { return false; }
  bool shouldVisitImplicitCode() const { return false; }

  bool VisitFunctionDecl(FunctionDecl *F) {
    if (!F->doesThisDeclarationHaveABody() || F->isDefaulted() || F->isDeleted() ||
        F->isInvalidDecl() || F->isConstexpr() || F->isConsteval())
      return true;
    if (F->getTemplateSpecializationKind() == TSK_ImplicitInstantiation)
      return true;
    SourceManager &SM = Ast.getSourceManager();
    if (!SM.isWrittenInMainFile(SM.getFileLoc(F->getLocation())))
      return true;
    collect(*F);
    return true;
  }

  bool VisitLambdaExpr(LambdaExpr *L) {
    const CXXMethodDecl *Call = L->getCallOperator();
    if (Call->getParent()->getParentFunctionOrMethod())
      return true; // part of the enclosing body
    // Implicitly constexpr lambdas are checked by the body visitor, on their written text.
    SourceManager &SM = Ast.getSourceManager();
    if (SM.isWrittenInMainFile(SM.getFileLoc(L->getBeginLoc())) && !Call->isConsteval())
      collect(*Call, L);
    return true;
  }

private:
  void collect(const FunctionDecl &F, LambdaExpr *Lambda = nullptr) {
    BodyContext C(Ast, F, Text, Out);
    // A lambda is walked as an expression, so that the body visitor sees its head.
    for (const MutationOperator *O : allOperators())
      O->collect(C, Lambda ? static_cast<Stmt *>(Lambda) : F.getBody());
  }

  ASTContext &Ast;
  std::string_view Text;
  std::vector<Mutant> &Out;
};

class Consumer : public ASTConsumer {
public:
  Consumer(CompilerInstance &CI, MutateResult &Result) : CI(CI), Result(Result) {}

  void HandleTranslationUnit(ASTContext &Ast) override {
    if (CI.getDiagnostics().hasErrorOccurred())
      return;
    SourceManager &SM = Ast.getSourceManager();
    Result.Text = SM.getBufferData(SM.getMainFileID()).str();
    std::vector<Mutant> Found;
    FunctionFinder Finder(Ast, Result.Text, Found);
    Finder.TraverseDecl(Ast.getTranslationUnitDecl());
    // Source order; at one position, operators in registry order, each in the order it found
    // its mutants. The walk itself is deterministic, so this only makes ids readable.
    std::vector<std::size_t> Rank;
    for (const Mutant &M : Found) {
      const auto &Ops = allOperators();
      Rank.push_back(std::size_t(
          std::find_if(Ops.begin(), Ops.end(),
                       [&](const MutationOperator *O) { return M.Operator == O->name(); }) -
          Ops.begin()));
    }
    std::vector<std::size_t> Order(Found.size());
    for (std::size_t I = 0; I < Order.size(); ++I)
      Order[I] = I;
    std::stable_sort(Order.begin(), Order.end(), [&](std::size_t A, std::size_t B) {
      if (Found[A].Offset != Found[B].Offset)
        return Found[A].Offset < Found[B].Offset;
      return Rank[A] < Rank[B];
    });
    for (std::size_t I : Order) {
      Result.Mutants.push_back(std::move(Found[I]));
      Result.Mutants.back().Id = unsigned(Result.Mutants.size());
    }
    Result.Ok = true;
  }

private:
  CompilerInstance &CI;
  MutateResult &Result;
};

class Action : public ASTFrontendAction {
public:
  explicit Action(MutateResult &Result) : Result(Result) {}
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI, StringRef) override {
    return std::make_unique<Consumer>(CI, Result);
  }

private:
  MutateResult &Result;
};

class ActionFactory : public tooling::FrontendActionFactory {
public:
  explicit ActionFactory(MutateResult &Result) : Result(Result) {}
  std::unique_ptr<FrontendAction> create() override { return std::make_unique<Action>(Result); }

private:
  MutateResult &Result;
};

/// Keeps the first error as one line `file:line:col: message`; prints everything when asked.
class ErrorCollector : public DiagnosticConsumer {
public:
  explicit ErrorCollector(bool Show) {
    if (Show) {
      Options = new DiagnosticOptions();
      Printer = std::make_unique<TextDiagnosticPrinter>(llvm::errs(), Options.get());
    }
  }
  void BeginSourceFile(const LangOptions &LO, const Preprocessor *PP) override {
    if (Printer)
      Printer->BeginSourceFile(LO, PP);
  }
  void EndSourceFile() override {
    if (Printer)
      Printer->EndSourceFile();
  }
  void HandleDiagnostic(DiagnosticsEngine::Level Level, const Diagnostic &Info) override {
    DiagnosticConsumer::HandleDiagnostic(Level, Info);
    if (Printer)
      Printer->HandleDiagnostic(Level, Info);
    if (Level < DiagnosticsEngine::Error || !First.empty())
      return;
    llvm::SmallString<128> Message;
    Info.FormatDiagnostic(Message);
    if (Info.hasSourceManager() && Info.getLocation().isValid()) {
      PresumedLoc P = Info.getSourceManager().getPresumedLoc(Info.getLocation());
      if (P.isValid())
        First = std::string(P.getFilename()) + ":" + std::to_string(P.getLine()) + ":" +
                std::to_string(P.getColumn()) + ": ";
    }
    First += std::string(Message);
  }

  std::string First;

private:
  llvm::IntrusiveRefCntPtr<DiagnosticOptions> Options;
  std::unique_ptr<TextDiagnosticPrinter> Printer;
};

} // namespace

MutateResult findMutants(const MutateRequest &Request) {
  MutateResult Result;
  if (!llvm::sys::fs::exists(Request.File)) {
    Result.Error = Request.File + ": no such file";
    return Result;
  }
  if (llvm::sys::fs::is_directory(Request.File)) {
    Result.Error = Request.File + ": is a directory";
    return Result;
  }
  std::vector<std::string> Args = Request.Arguments;
  // Clang's builtin headers; warnings are the real compiler's business (-Werror must not stop
  // the parse).
  Args.push_back("-resource-dir=" SLEUTH_CLANG_RESOURCE_DIR);
  Args.push_back("-w");
  Args.push_back("-Wno-error");
  // Without carets Clang does not print "N errors generated." behind our one-line error.
  if (!Request.ShowDiagnostics)
    Args.push_back("-fno-caret-diagnostics");
  tooling::FixedCompilationDatabase Database(Request.Directory.empty() ? "." : Request.Directory,
                                             Args);
  tooling::ClangTool Tool(Database, {Request.File});
  ActionFactory Factory(Result);
  ErrorCollector Diagnostics(Request.ShowDiagnostics);
  Tool.setDiagnosticConsumer(&Diagnostics);
  Tool.setPrintErrorMessage(false);
  int Status = Tool.run(&Factory);
  if (Status != 0 || !Result.Ok) {
    Result.Ok = false;
    Result.Mutants.clear();
    // Clang names the file by its absolute path; the user knows it by the name they gave.
    std::string First = Diagnostics.First;
    llvm::SmallString<256> Absolute(Request.File);
    llvm::sys::fs::make_absolute(Absolute);
    if (llvm::StringRef(First).starts_with(Absolute.str().str() + ":"))
      First = Request.File + First.substr(Absolute.size());
    Result.Error = First.empty() ? Request.File + ": cannot mutate: Clang could not parse it"
                                 : First + " (cannot mutate " + Request.File + ")";
    return Result;
  }
  for (Mutant &M : Result.Mutants)
    M.File = Request.File;
  return Result;
}

std::string applyMutant(std::string_view Text, const Mutant &M) {
  std::string Out;
  if (M.Offset + M.Length > Text.size())
    return std::string(Text);
  Out.reserve(Text.size() + M.Replacement.size());
  Out.append(Text.substr(0, M.Offset));
  Out.append(M.Replacement);
  Out.append(Text.substr(M.Offset + M.Length));
  return Out;
}

} // namespace sleuth::mutator
