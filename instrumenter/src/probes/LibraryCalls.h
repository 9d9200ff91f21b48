// What LibraryCallProbe knows of calls into the uninstrumented library, shared by its files:
// what the library's functions, parameters and objects are (LibraryFunctions.cpp), the reads
// of what a call takes (LibraryReads.cpp) and the writes of what it changes unseen
// (LibraryWrites.cpp). Private to the probes.
#pragma once

#include "Probes.h"

#include "clang/AST/Expr.h"
#include "llvm/ADT/StringRef.h"

#include <initializer_list>
#include <string>
#include <vector>

namespace sleuth::instrumenter::library {

// --- functions, parameters, objects (LibraryFunctions.cpp) ------------------------------------

/// A class-type object the probe may take the address of and name again (with Scalars, a
/// scalar one too).
bool isTrackableObject(const clang::Expr *E, FunctionInstrumenter &F, bool Scalars = false);
/// True if T is a standard container whose elements lie in one array that its data() and
/// size() give (std::vector, std::basic_string, std::array, std::basic_string_view, std::span).
bool isContiguousContainer(clang::QualType T, clang::ASTContext &Ast);
/// True if the library function Callee reads a range of elements to its end, or may.
bool readsRange(const clang::FunctionDecl *Callee);
/// True if Callee is `begin` or its kind (`cbegin`, `rbegin`, `crbegin`), the start of a range.
bool isRangeStart(const clang::FunctionDecl *Callee);
/// True if E (an iterator: `v.begin()`, `std::begin(v)`) is itself an argument of a library
/// call or constructor that reads its range (readsRange), past the copies and temporaries
/// around it.
bool isRangeArgument(const clang::Expr *E, FunctionInstrumenter &F);
bool isCompoundOperator(clang::OverloadedOperatorKind K);
/// The parameter of Callee that argument I of Call binds, if any (an operator's object is
/// none).
const clang::ParmVarDecl *parameterOf(const clang::CallExpr *Call,
                                      const clang::FunctionDecl *Callee, unsigned I);
/// True if the library writes what binds parameter P: a non-const lvalue reference that is no
/// forwarding reference of the template it comes from.
bool writesThrough(const clang::ParmVarDecl *P, const clang::FunctionDecl *Callee);
/// A stream (std::cin, an ostringstream), whose changes are no value of the program's.
bool isStream(clang::QualType T);
/// True if the call writes argument I through a reference; its old value does not flow into
/// the call (`std::getline(in, line)` does not read `line`).
bool writesArgument(const clang::CallExpr *Call, const clang::FunctionDecl *Callee, unsigned I);
/// The library functions that take an object by non-const reference only to refer to it from
/// the value they return (`std::begin(v)`, `std::back_inserter(out)`, `std::ref(x)`).
bool refersTo(const clang::FunctionDecl *Callee);
/// True if a prvalue of type T may be passed through sleuth::written_value, which moves it once
/// more.
bool isCheaplyPassed(clang::QualType T, FunctionInstrumenter &F);
/// True if D is a function named one of Names.
bool isNamed(const clang::FunctionDecl *D, std::initializer_list<llvm::StringRef> Names);
/// True if Callee is declared in a system header (not instrumented).
bool isLibraryFunction(const clang::FunctionDecl *Callee, FunctionInstrumenter &F);
/// True if Callee is a special member that the compiler writes (no body to instrument).
bool isCompilerWritten(const clang::FunctionDecl *Callee);
/// The standard algorithms that store through an iterator range or an output iterator.
bool isMutatingAlgorithm(const clang::FunctionDecl *Callee);
/// The object whose elements an iterator argument designates, if it is spelled so that the
/// object is plain (`v.begin()`, `std::back_inserter(out)`, an array `a + n`).
const clang::Expr *containerOf(const clang::Expr *Arg);

// --- reads (LibraryReads.cpp) ------------------------------------------------------------------

/// Reads E, a class-type object (with Scalars, also a scalar one bound to a reference); with
/// Whole, a contiguous container's elements as well. False if E is no object it can read.
bool readObject(const clang::Expr *E, FunctionInstrumenter &F, bool Scalars = false,
                bool Whole = false);
/// The strings the call reads (printf's `%s`, `puts(s)`, `strcmp(a, b)`) are read before it.
void readStringArguments(const clang::CallExpr *Call, const clang::FunctionDecl *Callee,
                         FunctionInstrumenter &F);

// --- writes (LibraryWrites.cpp) ----------------------------------------------------------------

/// What a library call writes unseen through its arguments: the objects bound to non-const
/// lvalue references (`std::cin >> x`, `std::getline(in, line)`, `std::swap(a, b)`), and those
/// whose address it takes for a pointer to a non-const object (`strtol(s, &end, 10)`), by
/// argument index; and how the write passes the call's value on. Equal for two calls that
/// the same probe text instruments (in a template, its instantiations).
struct WrittenArguments {
  std::vector<unsigned> Written, Pointed;
  bool Discarded = false, Void = false, Passed = false, Exchange = false, Swap = false;
  bool operator==(const WrittenArguments &) const = default;
};
WrittenArguments writtenArguments(const clang::CallExpr *Call, const clang::FunctionDecl *Callee,
                                  bool Discarded, FunctionInstrumenter &F);
/// The arguments W.Written of Call become writes after it, which Node (the call as the
/// rewriter sees it: in a template, the pattern's expression) consumes the reads of.
void recordWrittenArguments(const clang::Expr *Node, const clang::CallExpr *Call,
                            const WrittenArguments &W, FunctionInstrumenter &F);
/// `std::swap(a, b);`, `a.swap(b);` (discarded): each object is a write of the other's value.
void recordSwap(const clang::Expr *Node, bool Void, const clang::Expr *First,
                const clang::Expr *Second, FunctionInstrumenter &F);
/// The objects of W.Pointed are marked written just before the call.
void recordPointedWrites(const clang::Expr *Node, const clang::CallExpr *Call,
                         const WrittenArguments &W, FunctionInstrumenter &F);
/// `std::sort(v.begin(), v.end())`, `std::copy(a, a + n, out.begin())`: the container the
/// algorithm stores into becomes a write after the call.
void recordAlgorithmWrite(const clang::CallExpr *Call, const clang::FunctionDecl *Callee,
                          FunctionInstrumenter &F);
/// `qsort(base, count, size, compare);`: the array becomes a write after the call.
void recordSortedArray(const clang::CallExpr *Call, const clang::FunctionDecl *Callee,
                       FunctionInstrumenter &F);
/// A member that may move a container's elements to new storage as it grows it.
bool mayMoveElements(const clang::CXXMethodDecl *Method);
/// For a member that shifts a contiguous container's elements after a position (`v.erase(p)`),
/// the probe that watches them before the call; empty if the position has side effects.
std::string shiftWatch(const clang::CXXMemberCallExpr *Call, const std::string &Object,
                       FunctionInstrumenter &F);

} // namespace sleuth::instrumenter::library
