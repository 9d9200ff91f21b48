//===- sleuth/trace/trace.h - The path of one failing run -------*- C++ -*-===//
//
// A `Path` is what the encoder needs from one failing run: the variables, the
// statements executed in order (calls inlined: each activation names its own
// locals, parameters are assigned from the arguments), the run's inputs, and
// the violated specification (`Stmt::Kind::Assert` statements and/or a test
// oracle's expected value of an output).
//
//===----------------------------------------------------------------------===//

#ifndef SLEUTH_TRACE_TRACE_H
#define SLEUTH_TRACE_TRACE_H

#include "sleuth/trace/ir.h"

#include <optional>

namespace sleuth::trace {

/// The value an lvalue held when the path started (in activation 0).
struct Input {
  Expr lvalue; // Var, Field or Element with a constant index.
  uint64_t bits = 0;
};

/// The test oracle: the expected value of `output` at the end of the path
/// (evaluated in activation 0), and the value the run produced instead.
struct Oracle {
  Expr output;
  uint64_t expected = 0;
  uint64_t actual = 0;
  SourceLoc loc;
};

struct Path {
  std::vector<Variable> variables;
  std::vector<Stmt> statements;
  std::vector<Input> inputs;
  std::optional<Oracle> oracle;

  // Declarations.
  Expr scalar(std::string name, Type type, bool global = false);
  ArrayRef array(std::string name, Type element, bool global = false);
  StructRef record(std::string name, std::vector<Variable::Field> fields, bool global = false);

  // Appending statements in the current activation.
  Stmt &assign(Expr target, Expr value, SourceLoc loc, std::string text = {});
  Stmt &assume(Expr cond, SourceLoc loc, std::string text = {});
  Stmt &assertThat(Expr cond, SourceLoc loc, std::string text = {});
  void input(Expr lvalue, int64_t value);
  void expect(Expr output, int64_t expected, int64_t actual, SourceLoc loc = {});

  // Calls, inlined along the path.
  /// Starts a new activation of a function and makes it the current one.
  unsigned enter();
  /// In a just-entered activation: `param` (a local of the callee) = `arg`
  /// (evaluated in the caller), at the call's location.
  Stmt &bindParam(Expr param, Expr arg, SourceLoc loc);
  /// Returns to the caller; with a target, `target` (in the caller) = `result`
  /// (evaluated in the callee), at the return statement's location.
  void leave();
  Stmt &leave(Expr target, Expr result, SourceLoc loc, std::string text = {});

  unsigned currentActivation() const { return stack.back(); }
  unsigned activationCount() const { return activations; }

private:
  Stmt &append(Stmt::Kind kind, Expr target, Expr value, SourceLoc loc, std::string text);
  std::vector<unsigned> stack{0};
  unsigned activations = 1;
};

} // namespace sleuth::trace

#endif // SLEUTH_TRACE_TRACE_H
