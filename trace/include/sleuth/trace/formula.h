//===- sleuth/trace/formula.h - A path as a Z3 formula ----------*- C++ -*-===//
//
// `TraceFormula` puts a `Path` into SSA form and encodes it in Z3, BugAssist
// style: each selectable statement gets a Boolean selector; with the selector
// true the statement has its effect, with it false the value it assigns is
// unconstrained. The inputs, the branch outcomes (`assume`) and the statements
// that are not selectable are hard; the specification is kept apart.
//
// SSA names (which the tests build by hand): a variable's n-th version is
// `name#n` (version 0 is its value at the start of the path), a field's is
// `name.field#n`, a local of activation k > 0 is `name@k#n`; the selector of
// statement i is `sel<i>`; the unconstrained value it writes when relaxed is
// `<new version's name>!free` for an array element, `deref<i>!free` through a pointer.
//
//===----------------------------------------------------------------------===//

#ifndef SLEUTH_TRACE_FORMULA_H
#define SLEUTH_TRACE_FORMULA_H

#include "sleuth/trace/trace.h"

#include <z3++.h>

#include <stdexcept>

namespace sleuth::trace {

/// The path uses something the encoder does not support (and has no concrete value for).
struct EncodeError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class TraceFormula {
public:
  struct Selector {
    size_t stmt; // Index into Path::statements.
    z3::expr var;
  };

  /// Encodes `path`; throws EncodeError.
  TraceFormula(z3::context &ctx, const Path &path);

  z3::context &context() const { return *ctx; }
  const Path &path() const { return *source; }

  /// The inputs, the statements (each selectable one guarded by its selector) and the assumes.
  z3::expr pathConstraints() const { return z3::mk_and(pathPart); }
  /// The asserts and the oracle's expected value.
  z3::expr specification() const { return z3::mk_and(specPart); }
  /// pathConstraints() && specification(): unsatisfiable with every selector true when the
  /// path fails.
  z3::expr formula() const { return pathConstraints() && specification(); }
  /// The oracle's output == the value the run produced (true without an oracle).
  z3::expr observed() const { return observedPart; }

  const std::vector<Selector> &selectors() const { return selectorList; }
  /// The statements that hold a Concrete or Opaque value: encoded with that
  /// value and made hard, so they get no selector.
  const std::vector<size_t> &concretized() const { return concretizedList; }

  // For building expected formulas by hand.
  z3::sort pointerSort() const { return ptrCtor.range(); }
  z3::expr pointer(unsigned object, const z3::expr &offset) const;
  /// A pointer's object id (32 bits) and offset in elements (64 bits).
  z3::expr objectOf(const z3::expr &pointer) const { return ptrFields[0](pointer); }
  z3::expr offsetOf(const z3::expr &pointer) const { return ptrFields[1](pointer); }
  /// The object id of a variable (a field, for a struct) whose address the path takes, or 0.
  unsigned objectId(VarId var, unsigned activation = 0, unsigned field = 0) const;

private:
  friend class Encoder;
  z3::context *ctx;
  const Path *source;
  z3::func_decl ptrCtor;
  z3::func_decl_vector ptrFields;
  z3::expr_vector pathPart;
  z3::expr_vector specPart;
  z3::expr observedPart;
  std::vector<Selector> selectorList;
  std::vector<size_t> concretizedList;
  struct Object {
    unsigned activation;
    VarId var;
    unsigned field;
  };
  std::vector<Object> objects; // Object id i + 1.
};

} // namespace sleuth::trace

#endif // SLEUTH_TRACE_FORMULA_H
