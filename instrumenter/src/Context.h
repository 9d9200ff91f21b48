// State shared by the probes while one translation unit is rewritten.
#pragma once

#include "SiteTable.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Rewrite/Core/Rewriter.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace sleuth::instrumenter {

class Instantiations;
class ProgramOperators;

/// An `assert(ARG)` invocation spelled in the main file (recorded by the preprocessor).
struct AssertInvocation {
  clang::SourceLocation NameBegin; // the `assert` token
  clang::SourceLocation LParen;
  clang::SourceLocation RParen;
  clang::SourceRange Argument; // first..last token of ARG (file locations)
  std::string ArgumentText;
  bool Used = false;
};

/// A token of a macro argument that the macro's body quotes: makes a string of it (`#x`, the
/// message of a CHECK macro) or pastes it to another token (`x ## _max`). Its text must stay as
/// written, or the program's strings and names change; a probe may only surround the whole
/// invocation (recorded by the preprocessor).
struct QuotedArgumentToken {
  clang::SourceLocation Begin;           // the token as spelled in the file
  clang::SourceLocation InvocationBegin; // the outermost invocation's characters in the file,
  clang::SourceLocation InvocationEnd;   // [InvocationBegin, InvocationEnd)
};

/// A text edit that wraps a node: Prefix before its first character, Suffix after its last.
/// Edits are applied in post-order (inner nodes first), so prefixes are inserted before and
/// suffixes after whatever is already at the same position, which nests them correctly.
struct Edit {
  clang::SourceLocation Begin; // file location of the first character
  clang::SourceLocation End;   // file location just past the last character
  std::string Prefix;
  std::string Suffix;
};

/// An edit as the rewriter applied it to one file, by offset into the file's original text
/// (what the header cache keeps and replays).
struct AppliedEdit {
  unsigned Offset = 0;
  unsigned Length = 0; // characters replaced; 0 for an insertion
  bool Replace = false;
  std::string Text;
};

class Context {
public:
  Context(clang::ASTContext &Ast, clang::Rewriter &Rewrite, std::vector<AssertInvocation> &Asserts)
      : Ast(Ast), SM(Ast.getSourceManager()), Rewrite(Rewrite), Asserts(Asserts) {}

  clang::ASTContext &Ast;
  clang::SourceManager &SM;
  clang::Rewriter &Rewrite;
  std::vector<AssertInvocation> &Asserts;
  /// Sorted by position (setQuotedArguments).
  std::vector<QuotedArgumentToken> QuotedArguments;
  void setQuotedArguments(std::vector<QuotedArgumentToken> Tokens);
  /// True if an edit of the file characters R would change the text of a quoted macro argument:
  /// R holds one of its tokens but not the whole invocation around it.
  bool touchesQuotedArgument(clang::CharSourceRange R) const;

  /// The files whose text may be rewritten: the main file and the project files it includes
  /// (see IncludedFiles.h). Nodes anywhere else are left alone.
  llvm::DenseSet<clang::FileID> Instrumentable;
  bool instrumentable(clang::SourceLocation FileLoc) const {
    return FileLoc.isValid() && Instrumentable.contains(SM.getFileID(FileLoc));
  }

  /// The file whose functions are being instrumented, its site table (dependence mode) and
  /// the names of its unit and counter array in the rewritten text; set per function.
  clang::FileID CurrentFile;
  SiteTable *Sites = nullptr;
  std::string UnitName = "__sleuth_tu";
  std::string ReadCacheName = "__sleuth_rc";
  std::string CounterName = "__sleuth_cov";
  /// Coverage mode: place counters as CoverageCounters::Minimal says.
  bool MinimalCounters = false;
  /// Coverage mode: record the path (PathRecorder) as well as the counts.
  bool RecordPath = false;
  /// Dependence mode: reads with a static origin need no probe (InstrumentRequest::StaticReads).
  bool StaticReads = true;
  /// Dependence mode: kept locals' writes pass their address (InstrumentRequest::AddressedLocals).
  bool AddressedLocals = false;
  /// The instantiations of the unit's templates, indexed when a probe first asks for them
  /// (Instantiations::of).
  std::shared_ptr<Instantiations> TemplateInstantiations;
  /// The classes whose comparison operators are the program's, indexed when a probe first asks
  /// (ProgramOperators::of).
  std::shared_ptr<ProgramOperators> ComparisonOperators;

  bool isC() const { return !Ast.getLangOpts().CPlusPlus; }

  /// The node's characters in the main file, or an invalid range if it is not a plain file
  /// range (macro bodies) — such nodes are left alone. Nodes spelled inside the argument of a
  /// recorded assert() are allowed: their text is in the file.
  clang::CharSourceRange fileRange(clang::SourceRange R) const;
  /// Like fileRange, but a node that begins or ends with a whole macro expansion (`return
  /// NULL;`, `if (FLAG(x))`) maps to the file text around the invocation. Only for probes that
  /// keep that text intact and merely surround it. Never a range inside the argument of a macro
  /// that quotes it (QuotedArgumentToken).
  clang::CharSourceRange expansionRange(clang::SourceRange R) const;
  clang::CharSourceRange expansionRange(const clang::Stmt *S) const {
    return expansionRange(S->getSourceRange());
  }
  clang::CharSourceRange fileRange(const clang::Stmt *S) const {
    return fileRange(S->getSourceRange());
  }
  bool inFile(const clang::Stmt *S) const { return fileRange(S).isValid(); }

  /// A statement's characters including its terminating `;` (if it has one).
  clang::CharSourceRange statementRange(const clang::Stmt *S) const;
  /// R extended over a `;` that follows it (after white space), if one does.
  clang::CharSourceRange withSemicolon(clang::CharSourceRange R) const;

  /// The original text of a node (before any edit) on one line: its tokens, comments left out,
  /// each run of white space between two of them folded to one space.
  std::string text(const clang::Stmt *S) const;
  std::string text(clang::CharSourceRange R) const;

  /// `&__sleuth_tu, ID` (with the current file's unit)
  std::string unitAndSite(unsigned Site) const;

  /// `sleuth_chk(&__sleuth_tu, CACHE, SITE, ORIGIN)`: the checked read of an origin that a
  /// local holds (a companion's, a test's node). Cache and Site are final text, or the
  /// placeholders @CACHE@ and @SITE@ that a read's forms carry until its consumer is known.
  std::string checkedRead(const std::string &Cache, const std::string &Site,
                          const std::string &Origin) const;

  /// C++: record a write of the object named Text beside expression R, whose value is
  /// discarded: `((void)(R), sleuth_set(&tu, Site, Ctl, __builtin_addressof(Text), sizeof(Text)))`;
  /// without the cast if R is a call of type void (to GCC a useless cast, -Wuseless-cast).
  void wrapWithWriteAfter(clang::CharSourceRange R, unsigned Site, const std::string &Ctl,
                          const std::string &Text, bool VoidCall = false);

  /// Queue an edit; edits are applied after the whole function was analysed.
  void wrap(const clang::Stmt *S, std::string Prefix, std::string Suffix);
  void wrap(clang::CharSourceRange R, std::string Prefix, std::string Suffix);
  /// As wrap(R, ...), for an edit that nests inside the edits queued since the queue held
  /// Position edits (editCount()): a later pass wrapping a statement an earlier pass's edits
  /// enclose, which post-order alone would put outside them.
  void wrapInside(std::size_t Position, clang::CharSourceRange R, std::string Prefix,
                  std::string Suffix);
  std::size_t editCount() const { return Edits.size(); }
  void insertBefore(clang::SourceLocation L, std::string Text);
  void insertAfterToken(clang::SourceLocation TokenBegin, std::string Text);
  void replace(clang::CharSourceRange R, std::string Text);
  void applyEdits();
  /// Applies edits recorded in another translation unit to File's text.
  void replay(clang::FileID File, const std::vector<AppliedEdit> &Edits);

  const clang::Stmt *parent(const clang::Stmt *S) const;
  /// True if the value of E is thrown away (statement context, for-increment, comma LHS, void
  /// cast).
  bool isDiscarded(const clang::Expr *E) const;
  /// True if E is the operand of a cast to void written in the source, `(void)(x = 1)`: a
  /// rewrite of E that has type void would make that cast useless (GCC's -Wuseless-cast in C++).
  bool isCastToVoid(const clang::Expr *E) const;

  /// The node that created a closure, by closure class and by variable it captures by copy
  /// (CaptureProbe), with the site table it is in: a lambda that is not `mutable` cannot change
  /// its copies, so their origin inside its body is that node, whichever copy of the closure the
  /// library calls (FunctionInstrumenter::captureOrigin).
  std::map<std::pair<const clang::CXXRecordDecl *, const clang::VarDecl *>,
           std::pair<SiteTable *, unsigned>>
      ClosureSites;

  std::vector<Edit> Edits;
  std::vector<std::pair<clang::CharSourceRange, std::string>> Replacements;
  /// Every edit applyEdits made, by file, in order.
  std::map<clang::FileID, std::vector<AppliedEdit>> Applied;
};

/// True if E has no side effects and no calls, so its text may be evaluated again.
bool isRepeatable(const clang::Expr *E, clang::ASTContext &Ast);
/// True if D (not the translation unit) is declared in a system header: the library's, whose
/// declarations an index of the program's code skips.
bool isLibraryDeclaration(const clang::Decl *D, const clang::SourceManager &SM);
/// Whether D (`auto [a, b] = p;`, `auto &[a, b] = p;`) is a local declared alone, with an
/// initializer, as a statement of a block, spelled in the file: the instrumentation may add
/// statements after it (DeclarationProbe), and the bindings' companions rely on them.
bool isBlockDecomposition(const clang::DecompositionDecl *D, const Context &Ctx);
/// Bit-fields and `register` variables have no address.
bool hasAddress(const clang::Expr *LValue);
/// The bytes of a record that hold a bit-field's bits: Address, the text of a
/// `const volatile char *` to the first, and Size, how many (from the record's layout, which is
/// the compiler's on the same target).
struct BitFieldBytes {
  std::string Address;
  unsigned Size = 0;
  bool Shared = true; // other bits (of other fields, or padding) are in the same bytes
};
/// The bytes of the bit-field that LValue, a member `b.f`, `p->f` or `f` (of `this`), names,
/// where its object can be named again: a base without side effects, spelled in the file. None
/// for a bit-field of a template's dependent record, or of an anonymous struct or union.
std::optional<BitFieldBytes> bitFieldBytes(const clang::Expr *LValue, const Context &Ctx);
/// The bytes of bit-field Field of the object whose address is Object (a pointer's text).
BitFieldBytes bitFieldBytesOf(const clang::FieldDecl *Field, const std::string &Object,
                              clang::ASTContext &Ast);
/// Whether LValue is (part of) an object that the expression itself creates: a compound literal,
/// `(struct s){...}`, or a member or element of one. No write precedes its read, and the shadow
/// memory at its address holds what the object that had its stack slot before left: a probe
/// would report a stale origin. Its value's origins are those of its initializer's reads.
bool isFreshObject(const clang::Expr *LValue);
/// In a template pattern, an expression whose meaning waits for the instantiation (an operator
/// that may be overloaded, a call that may resolve to anything): `<dependent type>`.
bool isUnresolved(const clang::Expr *E);
/// In a template pattern, an expression that is an addressable lvalue in every instantiation:
/// a variable, a field (not a bit-field), or a builtin subscript or `*` that Clang resolved
/// already (`items[i]` of `T items[N]`, `*p` of `T *p`). A dependent member of an object of
/// dependent type, or an operator that may be overloaded, may become anything.
bool isLvalueInEveryInstantiation(const clang::Expr *E);
/// `&(` opening a C probe's address argument of an lvalue of type T (closed by `)`). The
/// runtime takes `const void *` and `void *`: the address of a volatile or restrict-qualified
/// lvalue (`int *restrict p`) goes through an integer, which drops the qualifier without
/// -Wdiscarded-qualifiers or -Wcast-qual (the runtime never accesses the object through it).
std::string addressOfC(clang::QualType T);
/// TEXT, which starts at BEGIN, as Context::text gives it (also the stringized argument of an
/// `assert`, which the preprocessor folds alike).
std::string foldedTokens(llvm::StringRef Text, clang::SourceLocation Begin,
                         const clang::LangOptions &LangOpts);
/// A probe's address argument for the variable or lvalue of type T spelled TEXT: C's
/// addressOfC, C++'s `__builtin_addressof`, through an integer where T is `__restrict`-qualified
/// (Clang rejects converting `int *__restrict *` to `const volatile void *`).
std::string addressOf(clang::QualType T, const std::string &Text, bool Cxx);
/// `sizeof(TEXT)` for the lvalue L spelled TEXT; `sizeof(__typeof__(TEXT))` where L names a
/// parameter declared as an array (`int a[4]`, `va_list ap`), on which `sizeof` warns
/// (-Wsizeof-array-argument) although it is the pointer's size that is meant.
std::string sizeofLvalue(const clang::Expr *L, const std::string &Text);
/// The same for a read of variable D spelled Text.
std::string sizeofVariable(const clang::ValueDecl *D, const std::string &Text);
/// `__typeof__(TYPE)` spelled from the type itself, for lvalues whose text has side effects
/// (`__typeof__(*p++)` would trip clang's -Wunevaluated-expression); "" if the type has no name.
std::string typeOfC(clang::QualType T, const clang::ASTContext &Ast);

} // namespace sleuth::instrumenter
