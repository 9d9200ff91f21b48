// Runs Clang on one file and rewrites it: the FrontendAction, the preprocessor hooks that record
// assert() invocations and quoted macro arguments, and the AST consumer that hands each function to
// FunctionInstrumenter.
#include "sleuth/instrumenter/instrumenter.h"

#include "Context.h"
#include "FunctionInstrumenter.h"
#include "HeaderCache.h"
#include "IncludedFiles.h"
#include "coverage/FunctionCoverage.h"
#include "coverage/PathRecorder.h"
#include "coverage/ValueCounter.h"
#include "sleuth/slicer/source_hash.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "clang/Lex/MacroArgs.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <optional>

using namespace clang;

namespace sleuth {
namespace instrumenter {
namespace {

/// Off in instrumented code, for GCC: warnings about what its optimizer decided on the
/// instrumented functions, which are bigger than the originals and hold calls the originals do
/// not. -Winline: an `inline` function grown past GCC's limits (bzip2's bsW, 73 warnings under
/// bzip2's own -Winline); -Wmaybe-uninitialized: a variable set in a loop whose first test GCC no
/// longer proves true within its budget (bzip2's nSelectors); -Wuse-after-free (GCC 12 on): "may be
/// used after realloc" on `q = realloc(p, n); if (q) return q; free(p);` once the origin checks
/// of the probes before and after the test let GCC thread jumps, after which its range query no
/// longer sees that q is null at the free (lz4's UTIL_realloc; a plain C function with the same
/// repeated check warns as well). What the original code gives, its native build gives.
/// SLEUTH_FLOW_WARNINGS keeps them (for tests that no probe hides a condition from GCC's flow
/// analyses).
const char *const OptimizerWarningsOff =
    "#if defined(__GNUC__) && !defined(__clang__) && !defined(SLEUTH_FLOW_WARNINGS)\n"
    "#pragma GCC diagnostic ignored \"-Wmaybe-uninitialized\"\n"
    "#pragma GCC diagnostic ignored \"-Winline\"\n"
    "#if __GNUC__ >= 12\n"
    "#pragma GCC diagnostic ignored \"-Wuse-after-free\"\n"
    "#endif\n"
    "#endif\n";

/// Records every active `assert(ARG)` spelled in a project file (Context::fileRange keeps those
/// in the files that are instrumented).
class AssertRecorder : public PPCallbacks {
public:
  AssertRecorder(Preprocessor &PP, std::vector<AssertInvocation> &Out) : PP(PP), Out(Out) {}

  void MacroExpands(const Token &Name, const MacroDefinition &MD, SourceRange Range,
                    const MacroArgs *Args) override {
    const IdentifierInfo *II = Name.getIdentifierInfo();
    if (!II || II->getName() != "assert" || !Args || Args->getNumMacroArguments() != 1)
      return;
    SourceManager &SM = PP.getSourceManager();
    if (!Name.getLocation().isFileID() || SM.isInSystemHeader(Name.getLocation()))
      return;
    const MacroInfo *MI = MD.getMacroInfo();
    if (!MI || MI->getNumParams() != 1)
      return;
    // With NDEBUG, assert's body does not use its parameter: nothing is evaluated.
    const IdentifierInfo *Param = *MI->param_begin();
    bool UsesParam = false;
    for (const Token &T : MI->tokens())
      UsesParam |= T.getIdentifierInfo() == Param;
    if (!UsesParam)
      return;
    const Token *First = Args->getUnexpArgument(0);
    if (!First || First->is(tok::eof))
      return;
    const Token *Last = First;
    for (const Token *T = First; T->isNot(tok::eof); ++T)
      Last = T;
    if (!First->getLocation().isFileID() || !Last->getLocation().isFileID())
      return;
    AssertInvocation A;
    A.NameBegin = Name.getLocation();
    A.RParen = Range.getEnd();
    A.Argument = SourceRange(First->getLocation(), Last->getLocation());
    // The `(`: the first token after the name.
    std::optional<Token> Next = Lexer::findNextToken(Name.getLocation(), SM, PP.getLangOpts());
    if (!Next || Next->isNot(tok::l_paren))
      return;
    A.LParen = Next->getLocation();
    CharSourceRange ArgRange = CharSourceRange::getTokenRange(A.Argument);
    StringRef Text = Lexer::getSourceText(ArgRange, SM, PP.getLangOpts());
    // The preprocessor stringizes with comments left out and runs of white space folded to one
    // space.
    std::string Folded = foldedTokens(Text, SM.getFileLoc(ArgRange.getBegin()), PP.getLangOpts());
    A.ArgumentText = Folded;
    Out.push_back(A);
  }

private:
  Preprocessor &PP;
  std::vector<AssertInvocation> &Out;
};

/// Records the tokens of macro arguments that their macro's body quotes (`#x`, `x ## y`), as
/// spelled in a file that is no system header, with the outermost invocation around them (see
/// QuotedArgumentToken). An argument passed on to an inner macro that quotes it counts too: its
/// tokens are spelled in the outer invocation.
class QuotedArgumentRecorder : public PPCallbacks {
public:
  QuotedArgumentRecorder(Preprocessor &PP, std::vector<QuotedArgumentToken> &Out)
      : PP(PP), Out(Out) {}

  void MacroExpands(const Token &, const MacroDefinition &MD, SourceRange Range,
                    const MacroArgs *Args) override {
    const MacroInfo *MI = MD.getMacroInfo();
    if (!MI || !Args || !MI->isFunctionLike() || MI->getNumParams() == 0)
      return;
    std::vector<bool> Quoted(MI->getNumParams());
    bool Any = false;
    auto Mark = [&](const Token &T) {
      int N = T.getIdentifierInfo() ? MI->getParameterNum(T.getIdentifierInfo()) : -1;
      if (N >= 0)
        Quoted[unsigned(N)] = Any = true;
    };
    ArrayRef<Token> Body = MI->tokens();
    for (size_t I = 0; I < Body.size(); ++I) {
      if (Body[I].is(tok::hash) && I + 1 < Body.size())
        Mark(Body[I + 1]);
      if (Body[I].is(tok::hashhash)) {
        if (I > 0)
          Mark(Body[I - 1]);
        if (I + 1 < Body.size())
          Mark(Body[I + 1]);
      }
    }
    if (!Any)
      return;
    SourceManager &SM = PP.getSourceManager();
    CharSourceRange Invocation = SM.getExpansionRange(Range);
    SourceLocation InvocationBegin = Invocation.getBegin();
    SourceLocation InvocationEnd =
        Invocation.isTokenRange()
            ? Lexer::getLocForEndOfToken(Invocation.getEnd(), 0, SM, PP.getLangOpts())
            : Invocation.getEnd();
    if (InvocationBegin.isInvalid() || InvocationEnd.isInvalid() ||
        SM.isInSystemHeader(InvocationBegin))
      return;
    for (unsigned N = 0; N < Quoted.size(); ++N) {
      if (!Quoted[N])
        continue;
      for (const Token *T = Args->getUnexpArgument(N); T && T->isNot(tok::eof); ++T) {
        SourceLocation Spelled = SM.getSpellingLoc(T->getLocation());
        if (Spelled.isFileID() && SM.getFileID(Spelled) == SM.getFileID(InvocationBegin))
          Out.push_back({Spelled, InvocationBegin, InvocationEnd});
      }
    }
  }

private:
  Preprocessor &PP;
  std::vector<QuotedArgumentToken> &Out;
};

/// The tables of one instrumented file: its sites or its counters, and their names' suffix.
struct FileTables {
  SiteTable Sites;
  CoverageTable Coverage;
  PathTable Path;
  std::string Suffix;
  unsigned Functions = 0, Probes = 0;
  SkipCounts Skipped{};
  std::optional<CachedHeader> Cached; // the file's rewriting, from the header cache
};

/// Finds the functions to instrument: bodies written in the main file or an instrumentable
/// included file, not constexpr.
class FunctionFinder : public RecursiveASTVisitor<FunctionFinder> {
public:
  FunctionFinder(Context &Ctx, bool IsCoverage, IncludedFiles &Included,
                 std::map<FileID, FileTables> &Tables, InstrumentResult &Result)
      : Ctx(Ctx), IsCoverage(IsCoverage), Included(Included), Tables(Tables), Result(Result) {}

  bool shouldVisitTemplateInstantiations() const { return false; }
  bool shouldVisitImplicitCode() const { return false; }

  // constexpr code cannot call the runtime. Lambdas are implicitly constexpr when they can be,
  // but are rarely evaluated at compile time: only an explicit `constexpr` keeps them as they
  // are.
  bool isDeclaredConstexpr(const FunctionDecl *F) const {
    if (F->isConsteval())
      return true;
    if (!F->isConstexpr())
      return false;
    const auto *M = dyn_cast<CXXMethodDecl>(F);
    if (!M || !M->getParent()->isLambda())
      return true;
    CharSourceRange Head =
        CharSourceRange::getCharRange(Ctx.SM.getFileLoc(M->getParent()->getBeginLoc()),
                                      Ctx.SM.getFileLoc(F->getBody()->getBeginLoc()));
    std::string Text = Ctx.text(Head);
    return Text.find("constexpr") != std::string::npos ||
           Text.find("consteval") != std::string::npos;
  }

  // True if Clang warns when F, an inline function with external linkage, uses a static
  // function or variable (-Wstatic-in-inline): by default outside the main file, with
  // -pedantic in it. From the options: the parse itself runs under -w.
  bool warnsOfStaticInInline(const FunctionDecl *F) const {
    const DiagnosticOptions &Options = Ctx.Ast.getDiagnostics().getDiagnosticOptions();
    return !Ctx.SM.isInMainFile(Ctx.SM.getFileLoc(F->getLocation())) || Options.Pedantic ||
           Options.PedanticErrors;
  }

  bool VisitLambdaExpr(LambdaExpr *L) {
    // The call operator of a lambda is implicit code, which the visitor does not enter.
    return VisitFunctionDecl(L->getCallOperator());
  }

  bool VisitFunctionDecl(FunctionDecl *F) {
    if (!F->doesThisDeclarationHaveABody() || F->isDefaulted() || F->isDeleted())
      return true;
    SourceLocation Name = Ctx.SM.getFileLoc(F->getLocation());
    if (!Ctx.instrumentable(Name))
      return true;
    if (F->getTemplateSpecializationKind() == TSK_ImplicitInstantiation)
      return true;
    FileID File = Ctx.SM.getFileID(Name);
    auto Known = Tables.find(File);
    if (Known != Tables.end() && Known->second.Cached)
      return true; // instrumented in an earlier translation unit
    FileTables &T = Tables[File];
    CharSourceRange Body = Ctx.fileRange(F->getBody());
    // C99 inline definitions with external linkage may not refer to the file's static tables.
    // Not so an inline definition that is an external one after all (another declaration of
    // the function in the file is not inline or is extern, as bzip2's BZ2_indexIntoF's; or the
    // GNU89 `inline` without extern), unless Clang would warn all the same (-Wstatic-in-inline,
    // on by default in headers, with -pedantic in the main file).
    bool ExternInlineC = Ctx.isC() && F->isInlineSpecified() && F->getStorageClass() != SC_Static &&
                         (!F->isInlineDefinitionExternallyVisible() || warnsOfStaticInInline(F));
    auto Skip = [&](SkipReason Reason) {
      ++Result.Skipped;
      ++Result.SkippedBy[unsigned(Reason)];
      ++T.Skipped[unsigned(Reason)];
      return true;
    };
    if (isDeclaredConstexpr(F))
      return Skip(SkipReason::Constexpr);
    if (ExternInlineC)
      return Skip(SkipReason::CInlineDefinition);
    if (!Body.isValid())
      return Skip(SkipReason::BodyFromMacro);
    if (Ctx.SM.getFileID(Body.getBegin()) != File)
      return Skip(SkipReason::BodyInAnotherFile);
    if (isa<CoroutineBodyStmt>(F->getBody()))
      return Skip(SkipReason::Coroutine);
    if (isa<CXXTryStmt>(F->getBody()))
      return Skip(SkipReason::FunctionTryBlock);
    if (T.Suffix.empty() && File != Ctx.SM.getMainFileID())
      T.Suffix = Included.suffix(Ctx.SM, File);
    Ctx.CurrentFile = File;
    Ctx.Sites = &T.Sites;
    Ctx.UnitName = "__sleuth_tu" + T.Suffix;
    Ctx.ReadCacheName = "__sleuth_rc" + T.Suffix;
    Ctx.CounterName = CounterArray + T.Suffix;
    bool Done = false;
    unsigned Probes = 0;
    if (IsCoverage) {
      FunctionCoverage FC(Ctx, T.Coverage, F, FunctionInstrumenter::displayName(F));
      std::size_t FirstEdit = Ctx.editCount();
      if ((Done = FC.run()))
        Probes = FC.probes() + ValueCounter(Ctx, T.Coverage, F, FirstEdit).run();
      if (Done && Ctx.RecordPath && PathRecorder::applies(F))
        PathRecorder(Ctx, T.Path, F, PathUnit + T.Suffix, FirstEdit).run();
    } else {
      FunctionInstrumenter FI(Ctx, F, FunctionInstrumenter::displayName(F));
      if ((Done = FI.run()))
        Probes = FI.probeCount();
    }
    Result.Probes += Probes;
    T.Probes += Probes;
    if (!Done) // the checks above leave only coverage mode's CFG to fail
      return Skip(SkipReason::NoControlFlowGraph);
    ++Result.Functions;
    ++T.Functions;
    return true;
  }

private:
  Context &Ctx;
  bool IsCoverage;
  IncludedFiles &Included;
  std::map<FileID, FileTables> &Tables;
  InstrumentResult &Result;
};

class Consumer : public ASTConsumer {
public:
  Consumer(CompilerInstance &CI, std::vector<AssertInvocation> &Asserts,
           std::vector<QuotedArgumentToken> &Quoted, InstrumentMode Mode, CoverageCounters Counters,
           bool RecordPath, bool StaticReads, bool AddressedLocals, IncludedFiles &Included,
           HeaderCache &Cache, std::string MainFile, InstrumentResult &Result)
      : CI(CI), Asserts(Asserts), Quoted(Quoted), Mode(Mode), Counters(Counters),
        RecordPath(RecordPath), StaticReads(StaticReads), AddressedLocals(AddressedLocals),
        Included(Included), Cache(Cache), MainFile(std::move(MainFile)), Result(Result) {}

  void HandleTranslationUnit(ASTContext &Ast) override {
    if (CI.getDiagnostics().hasErrorOccurred())
      return;
    SourceManager &SM = Ast.getSourceManager();
    Rewriter Rewrite(SM, Ast.getLangOpts());
    // Coverage mode leaves assert() alone: its argument is no different from any other macro's.
    std::vector<AssertInvocation> NoAsserts;
    bool IsCoverage = Mode == InstrumentMode::Coverage;
    Context Ctx(Ast, Rewrite, IsCoverage ? NoAsserts : Asserts);
    Ctx.setQuotedArguments(std::move(Quoted));
    Ctx.MinimalCounters = Counters == CoverageCounters::Minimal;
    Ctx.RecordPath = IsCoverage && RecordPath;
    Ctx.StaticReads = StaticReads;
    Ctx.AddressedLocals = AddressedLocals;
    if (OptionalFileEntryRef MainEntry = SM.getFileEntryRefForID(SM.getMainFileID()))
      Included.setMainFile(MainFile, MainEntry->getName());
    Ctx.Instrumentable = Included.candidates(SM);
    FileID Main = SM.getMainFileID();
    std::map<FileID, FileTables> Tables;
    Tables[Main]; // the main file's tables come first, also when it has no functions
    const LangOptions &LO = Ast.getLangOpts();
    auto PathOf = [&](FileID File) {
      OptionalFileEntryRef Entry = SM.getFileEntryRefForID(File);
      return Entry ? IncludedFiles::absolutePath(SM, *Entry) : std::string();
    };
    // In the order the files were entered, so that a file entered twice gets the same table
    // names in every translation unit.
    std::vector<FileID> Candidates(Ctx.Instrumentable.begin(), Ctx.Instrumentable.end());
    std::sort(Candidates.begin(), Candidates.end());
    if (Cache.enabled())
      for (FileID File : Candidates) {
        if (File == Main)
          continue;
        std::string Suffix = Included.suffix(SM, File);
        if (auto Entry = Cache.lookup(SM, LO, File, PathOf(File), Suffix)) {
          FileTables &T = Tables[File];
          T.Suffix = Suffix;
          T.Functions = Entry->Functions;
          T.Cached = std::move(Entry);
        }
      }
    FunctionFinder Finder(Ctx, IsCoverage, Included, Tables, Result);
    Finder.TraverseDecl(Ast.getTranslationUnitDecl());
    Ctx.applyEdits();
    for (auto &[File, T] : Tables) {
      if (!T.Cached)
        continue;
      Ctx.replay(File, T.Cached->Edits);
      Result.Functions += T.Cached->Functions;
      for (unsigned R = 0; R < NumSkipReasons; ++R) {
        Result.Skipped += T.Cached->Skipped[R];
        Result.SkippedBy[R] += T.Cached->Skipped[R];
      }
      Result.Probes += T.Cached->Probes;
      Result.HeadersFromCache += T.Cached->Functions ? 1 : 0;
    }

    llvm::DenseSet<FileID> WithCode;
    for (auto &[File, T] : Tables)
      if (File != Main && T.Functions)
        WithCode.insert(File);
    llvm::DenseSet<FileID> Inline = Included.closure(SM, WithCode);
    std::string Body = Included.assemble(SM, Rewrite, Inline, Result.IncludedFiles);

    std::string Prologue =
        (IsCoverage ? "#include \"sleuth/coverage.h\"\n" : "#include \"sleuth/runtime.h\"\n") +
        std::string(Ctx.RecordPath ? "#include \"sleuth/path.h\"\n" : "") +
        std::string(OptimizerWarningsOff);
    for (auto &[File, T] : Tables) {
      if (T.Cached) {
        Prologue += T.Cached->Tables;
        Result.Sites += T.Cached->Sites;
        continue;
      }
      bool AnySkipped =
          std::any_of(T.Skipped.begin(), T.Skipped.end(), [](unsigned N) { return N; });
      if (File != Main && !T.Functions && !AnySkipped)
        continue;
      std::string Path = PathOf(File);
      std::string TableText;
      unsigned Sites = 0;
      if (File == Main || T.Functions) {
        if (IsCoverage) {
          TableText = T.Coverage.tables(Path, SM.getBufferData(File).str(), T.Suffix);
          if (Ctx.RecordPath)
            TableText += T.Path.tables(Path, sourceHash(SM.getBufferData(File).str()), T.Suffix);
          // The flow counters (--stats' "counters"); value predicates have 3 per comparison.
          Sites = T.Coverage.numCounters() - 3 * unsigned(T.Coverage.Values.size());
        } else {
          TableText = T.Sites.tables(Path, SM.getBufferData(File).str(), T.Suffix);
          Sites = unsigned(T.Sites.size());
        }
      }
      Prologue += TableText;
      Result.Sites += Sites;
      // A header with function bodies is rewritten once: later translation units replay this.
      if (File != Main && Cache.enabled()) {
        CachedHeader Entry;
        auto Edits = Ctx.Applied.find(File);
        if (Edits != Ctx.Applied.end())
          Entry.Edits = std::move(Edits->second);
        Entry.Tables = std::move(TableText);
        Entry.Functions = T.Functions;
        Entry.Skipped = T.Skipped;
        Entry.Probes = T.Probes;
        Entry.Sites = Sites;
        Cache.store(SM, LO, File, Path, T.Suffix, Entry);
      }
    }
    OptionalFileEntryRef MainEntry = SM.getFileEntryRefForID(Main);
    std::string MainName =
        Included.asCompilerNames(MainEntry ? std::string(MainEntry->getName()) : "");
    Result.Text = Prologue + "#line 1 " + cStringLiteral(MainName) + "\n" + Body;
    Result.Ok = true;
  }

private:
  CompilerInstance &CI;
  std::vector<AssertInvocation> &Asserts;
  std::vector<QuotedArgumentToken> &Quoted;
  InstrumentMode Mode;
  CoverageCounters Counters;
  bool RecordPath;
  bool StaticReads;
  bool AddressedLocals;
  IncludedFiles &Included;
  HeaderCache &Cache;
  std::string MainFile;
  InstrumentResult &Result;
};

/// The part of the request that decides how a header is rewritten, besides its own tokens.
std::string cacheConfiguration(const InstrumentRequest &Request) {
  if (Request.Mode == InstrumentMode::Dependences)
    return std::string(Request.StaticReads ? "deps" : "deps-checked") +
           (Request.AddressedLocals ? "-addressed" : "");
  return std::string(Request.Counters == CoverageCounters::Minimal ? "coverage-minimal"
                                                                   : "coverage-exact") +
         (Request.RecordPath ? "-path" : "");
}

class Action : public ASTFrontendAction {
public:
  Action(const InstrumentRequest &Request, InstrumentResult &Result)
      : Mode(Request.Mode), Counters(Request.Counters), RecordPath(Request.RecordPath),
        StaticReads(Request.StaticReads), AddressedLocals(Request.AddressedLocals),
        Included(Request.InstrumentIncludedFiles, Request.IncludedRoots),
        Cache(Request.HeaderCacheDirectory, cacheConfiguration(Request)), MainFile(Request.File),
        Result(Result) {}

  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI, StringRef) override {
    CI.getPreprocessor().addPPCallbacks(
        std::make_unique<AssertRecorder>(CI.getPreprocessor(), Asserts));
    CI.getPreprocessor().addPPCallbacks(
        std::make_unique<QuotedArgumentRecorder>(CI.getPreprocessor(), Quoted));
    CI.getPreprocessor().addPPCallbacks(Included.recorder(CI.getSourceManager()));
    Cache.watch(CI.getPreprocessor());
    return std::make_unique<Consumer>(CI, Asserts, Quoted, Mode, Counters, RecordPath, StaticReads,
                                      AddressedLocals, Included, Cache, MainFile, Result);
  }

private:
  InstrumentMode Mode;
  CoverageCounters Counters;
  bool RecordPath;
  bool StaticReads;
  bool AddressedLocals;
  IncludedFiles Included;
  HeaderCache Cache;
  std::string MainFile;
  InstrumentResult &Result;
  std::vector<AssertInvocation> Asserts;
  std::vector<QuotedArgumentToken> Quoted;
};

/// Remembers the first error (for a one-line message) and forwards everything to Clang's usual
/// printer when diagnostics are wanted.
class FirstErrorConsumer : public DiagnosticConsumer {
public:
  explicit FirstErrorConsumer(bool Show) : Show(Show) {}

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
    if (Show) {
      if (!Printer) {
        Options = new DiagnosticOptions();
        Options->ShowColors = false;
        Printer = std::make_unique<TextDiagnosticPrinter>(llvm::errs(), Options.get());
        Printer->BeginSourceFile(LangOptions(), nullptr);
      }
      Printer->HandleDiagnostic(Level, Info);
    }
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
  bool Show;
  llvm::IntrusiveRefCntPtr<DiagnosticOptions> Options;
  std::unique_ptr<TextDiagnosticPrinter> Printer;
};

class ActionFactory : public tooling::FrontendActionFactory {
public:
  ActionFactory(const InstrumentRequest &Request, InstrumentResult &Result)
      : Request(Request), Result(Result) {}
  std::unique_ptr<FrontendAction> create() override {
    return std::make_unique<Action>(Request, Result);
  }

private:
  const InstrumentRequest &Request;
  InstrumentResult &Result;
};

} // namespace
} // namespace instrumenter

std::string runtimeIncludeDir() { return SLEUTH_RUNTIME_INCLUDE_DIR; }

const char *skipReasonName(SkipReason Reason) {
  switch (Reason) {
  case SkipReason::Constexpr:
    return "constexpr";
  case SkipReason::CInlineDefinition:
    return "c-inline";
  case SkipReason::BodyFromMacro:
    return "macro-body";
  case SkipReason::BodyInAnotherFile:
    return "body-in-other-file";
  case SkipReason::FunctionTryBlock:
    return "function-try-block";
  case SkipReason::Coroutine:
    return "coroutine";
  case SkipReason::NoControlFlowGraph:
    return "no-cfg";
  }
  return "unknown";
}

std::string describeSkipCounts(const SkipCounts &Counts, const char *Assign,
                               const char *Separator) {
  std::vector<unsigned> Order;
  for (unsigned R = 0; R < NumSkipReasons; ++R)
    if (Counts[R])
      Order.push_back(R);
  std::stable_sort(Order.begin(), Order.end(),
                   [&](unsigned A, unsigned B) { return Counts[A] > Counts[B]; });
  std::string Text;
  for (unsigned R : Order) {
    if (!Text.empty())
      Text += Separator;
    Text += skipReasonName(SkipReason(R));
    Text += Assign;
    Text += std::to_string(Counts[R]);
  }
  return Text;
}

InstrumentResult instrument(const InstrumentRequest &Request) {
  InstrumentResult Result;
  if (!llvm::sys::fs::exists(Request.File)) {
    Result.Error = Request.File + ": no such file";
    return Result;
  }
  // What Clang rejects by default and GCC 12 (Debian 12's compiler) only warns of, so that a
  // source the real compiler accepts is instrumented, not compiled as it was: old C's implicit
  // declarations and implicit int, `return;` in a function of implicit int (and `return x;` in
  // a void one), integers converted to pointers, mismatched (function) pointers; C++'s
  // `register`, `"%"PRId64` without a space, class objects passed through `...`, and constants
  // narrowed in initializers (GCC's -Wno-narrowing). First, so that the user's own warning
  // options, which follow, decide as they do for the real compiler (-Werror=return-type).
  std::vector<std::string> Args = {"-Wno-error=implicit-function-declaration",
                                   "-Wno-error=implicit-int",
                                   "-Wno-error=return-type",
                                   "-Wno-error=int-conversion",
                                   "-Wno-error=incompatible-pointer-types",
                                   "-Wno-error=incompatible-function-pointer-types",
                                   "-Wno-error=register",
                                   "-Wno-error=reserved-user-defined-literal",
                                   "-Wno-error=non-pod-varargs",
                                   "-Wno-error=c++11-narrowing"};
  Args.insert(Args.end(), Request.Arguments.begin(), Request.Arguments.end());
  // Builtin headers (stddef.h, …) of the Clang we link against. Warnings are the real
  // compiler's business: -w silences them, also those a -Werror made errors; what Clang makes
  // an error by default stays one unless the options above or the user's turned it down.
  Args.push_back("-resource-dir=" SLEUTH_CLANG_RESOURCE_DIR);
  Args.push_back("-w");
  Args.push_back("-Wno-error");
  // No "N errors generated." on stderr: the first error is the one-line message.
  Args.push_back("-fno-caret-diagnostics");
  std::string Directory = Request.Directory.empty() ? "." : Request.Directory;
  tooling::FixedCompilationDatabase Database(Directory, Args);
  tooling::ClangTool Tool(Database, {Request.File});
  instrumenter::ActionFactory Factory(Request, Result);
  instrumenter::FirstErrorConsumer Diagnostics(Request.ShowDiagnostics);
  Tool.setDiagnosticConsumer(&Diagnostics);
  Tool.setPrintErrorMessage(false);
  int Status = Tool.run(&Factory);
  if (Status != 0 || !Result.Ok) {
    Result.Ok = false;
    if (Result.Error.empty())
      Result.Error = Diagnostics.First.empty()
                         ? Request.File + ": cannot instrument: Clang could not parse it"
                         : Diagnostics.First + " (cannot instrument " + Request.File + ")";
  }
  return Result;
}

} // namespace sleuth
