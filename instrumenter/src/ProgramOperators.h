// The classes of a translation unit whose values the library may compare by calling the
// program's code with no callable given: `std::sort(b, e)` over a class with its own
// `operator<`, a `std::set` of it, `std::find` with its `operator==`. Built types (int, a
// pointer, std::string) compare without any: the index lets library calls on them pay nothing.
#pragma once

#include "clang/AST/Type.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

namespace sleuth::instrumenter {

class Context;

class ProgramOperators {
public:
  /// The unit's index, made on first use.
  static ProgramOperators &of(Context &Ctx);

  /// True if the library may compare a value of type T with an operator of the program's: T,
  /// or a type T is made of as the library's templates make types of others (an iterator over
  /// it, a std::vector of it, std::less<T>, a std::pair of it), is a class of the program's
  /// with a comparison operator the program wrote (a member, or one taking it).
  bool mayCompare(clang::QualType T) const;

private:
  explicit ProgramOperators(Context &Ctx);
  bool mayCompare(const clang::Type *T, unsigned Depth) const;

  Context &Ctx;
  /// The program's classes (canonical declarations; a class template's pattern for every
  /// specialization of it) that a comparison operator of the program's is a member of or takes.
  llvm::DenseSet<const clang::Decl *> Compared;
  /// An operator template of the program's that takes any type (`template <class T> bool
  /// operator<(const T &, const T &)`): every class of the program's may be compared by it.
  bool AnyClass = false;
  /// mayCompare's answers, by canonical type.
  mutable llvm::DenseMap<const clang::Type *, bool> Answers;
};

} // namespace sleuth::instrumenter
