//===- sleuth/trace/ir.h - Statements of an executed path -------*- C++ -*-===//
//
// A small statement IR for specification-guided fault localization: the
// expressions and statements of one executed path, over C's fixed-width
// integers, booleans, arrays, structs of scalars and pointers into those. The
// IR is plain data (no Z3, no Clang): the instrumenter describes statements in
// it, the runtime records which of them ran, and `TraceFormula` encodes them.
//
// Expressions are immutable trees shared by value (`Expr`). The builders below
// type their operands as C does (integer promotion, the usual arithmetic
// conversions, a condition compared with zero), inserting `Cast` nodes, so that
// every node's operands have the types the encoder expects.
//
//===----------------------------------------------------------------------===//

#ifndef SLEUTH_TRACE_IR_H
#define SLEUTH_TRACE_IR_H

#include <compare>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace sleuth::trace {

/// Where a statement is written: a file of the producer's file table, a line and a column.
struct SourceLoc {
  uint32_t file = 0;
  uint32_t line = 0;
  uint32_t column = 0;
  friend auto operator<=>(const SourceLoc &, const SourceLoc &) = default;
};

/// A scalar type: a boolean, a fixed-width integer with C's signedness, or a
/// pointer to such an integer (`width` and `isSigned` then describe the pointee).
struct Type {
  enum class Kind : uint8_t { Bool, Int, Pointer };
  Kind kind = Kind::Int;
  unsigned width = 32;
  bool isSigned = true;

  static Type boolean() { return {Kind::Bool, 1, false}; }
  static Type integer(unsigned width, bool isSigned) { return {Kind::Int, width, isSigned}; }
  static Type pointerTo(Type pointee) { return {Kind::Pointer, pointee.width, pointee.isSigned}; }
  static Type i8() { return integer(8, true); }
  static Type i16() { return integer(16, true); }
  static Type i32() { return integer(32, true); }
  static Type i64() { return integer(64, true); }
  static Type u8() { return integer(8, false); }
  static Type u16() { return integer(16, false); }
  static Type u32() { return integer(32, false); }
  static Type u64() { return integer(64, false); }

  bool isBool() const { return kind == Kind::Bool; }
  bool isInt() const { return kind == Kind::Int; }
  bool isPointer() const { return kind == Kind::Pointer; }
  /// The type a pointer points to (an integer).
  Type pointee() const { return integer(width, isSigned); }
  friend bool operator==(const Type &, const Type &) = default;
};

using VarId = uint32_t;

/// A variable of the program: a scalar, an array (of scalars, indexed from 0)
/// or a struct of scalar fields. Locals get fresh SSA names per activation;
/// globals are shared by all activations.
struct Variable {
  enum class Kind : uint8_t { Scalar, Array, Struct };
  struct Field {
    std::string name;
    Type type;
  };
  std::string name;
  Kind kind = Kind::Scalar;
  Type type;                 // Scalar: its type; Array: the element type.
  std::vector<Field> fields; // Struct.
  bool global = false;
};

enum class Op : uint8_t {
  // Binary.
  Add,
  Sub,
  Mul,
  Div,
  Rem,
  Shl,
  Shr,
  BitAnd,
  BitOr,
  BitXor,
  LogAnd,
  LogOr,
  Eq,
  Ne,
  Lt,
  Le,
  Gt,
  Ge,
  // Unary.
  Neg,
  BitNot,
  LogNot
};

class Expr;

/// One node of an expression. Which members mean something depends on `kind`.
struct ExprNode {
  enum class Kind : uint8_t {
    Const,    // `bits` as a value of `type`.
    Var,      // The scalar variable `var`.
    Field,    // Field `field` of the struct variable `var`.
    Element,  // Element operands[0] of the array variable `var`.
    Unary,    // `op` operands[0].
    Binary,   // operands[0] `op` operands[1].
    Ternary,  // operands[0] ? operands[1] : operands[2].
    Cast,     // operands[0] converted to `type`.
    AddrOf,   // &operands[0], an lvalue (Var, Field or Element).
    Deref,    // *operands[0], a pointer.
    Concrete, // A value the run observed (`bits`), where the encoding stops.
    Opaque,   // A call `name`(operands...) whose result the run observed (`bits`).
  };
  Kind kind = Kind::Const;
  Type type;
  Op op = Op::Add;
  VarId var = 0;
  unsigned field = 0;
  uint64_t bits = 0;
  std::string name;
  std::vector<Expr> operands;
};

/// A shared, immutable expression tree.
class Expr {
public:
  Expr() = default;
  /// An `int` literal.
  Expr(int value);
  Expr(bool) = delete; // Use boolLit; a bool would otherwise become an int literal.
  explicit Expr(std::shared_ptr<const ExprNode> node) : node(std::move(node)) {}

  /// Whether this is a default-constructed, empty expression.
  bool empty() const { return node == nullptr; }
  const ExprNode &operator*() const { return *node; }
  const ExprNode *operator->() const { return node.get(); }
  const Type &type() const { return node->type; }
  ExprNode::Kind kind() const { return node->kind; }
  /// Whether this expression designates an object (Var, Field, Element or Deref).
  bool isLValue() const;
  /// Whether a Concrete or Opaque node occurs in this expression.
  bool hasConcrete() const;

private:
  std::shared_ptr<const ExprNode> node;
};

/// A typed constant; `value` is truncated to the type's width.
Expr lit(int64_t value, Type type = Type::i32());
Expr boolLit(bool value);
/// The null pointer to `pointee`.
Expr nullPointer(Type pointee);
/// The scalar variable `var` of type `type` (see `Path::scalar`, which declares one).
Expr varRef(VarId var, Type type);
Expr fieldRef(VarId var, unsigned field, Type type);
Expr elementRef(VarId var, Type element, Expr index);

Expr unary(Op op, Expr operand);
Expr binary(Op op, Expr lhs, Expr rhs);
Expr ite(Expr cond, Expr then, Expr otherwise);
/// An explicit conversion (C's cast) between booleans and integers of any width.
Expr cast(Type type, Expr operand);
/// A value used as a condition: compared with zero (or null) unless it is a boolean.
Expr toBool(Expr operand);
Expr addressOf(Expr lvalue);
Expr deref(Expr pointer);
/// A value the run observed, which the encoding takes as given (floating point, say).
Expr concrete(uint64_t bits, Type type);
/// A call outside what the encoding supports (a library function); `bits` is
/// the result the run observed. `args` are kept for reports only.
Expr opaque(std::string name, uint64_t bits, Type type, std::vector<Expr> args = {});

Expr operator+(const Expr &a, const Expr &b);
Expr operator-(const Expr &a, const Expr &b);
Expr operator*(const Expr &a, const Expr &b);
Expr operator/(const Expr &a, const Expr &b);
Expr operator%(const Expr &a, const Expr &b);
Expr operator<<(const Expr &a, const Expr &b);
Expr operator>>(const Expr &a, const Expr &b);
Expr operator&(const Expr &a, const Expr &b);
Expr operator|(const Expr &a, const Expr &b);
Expr operator^(const Expr &a, const Expr &b);
Expr operator&&(const Expr &a, const Expr &b);
Expr operator||(const Expr &a, const Expr &b);
Expr operator==(const Expr &a, const Expr &b);
Expr operator!=(const Expr &a, const Expr &b);
Expr operator<(const Expr &a, const Expr &b);
Expr operator<=(const Expr &a, const Expr &b);
Expr operator>(const Expr &a, const Expr &b);
Expr operator>=(const Expr &a, const Expr &b);
Expr operator-(const Expr &a);
Expr operator~(const Expr &a);
Expr operator!(const Expr &a);

/// An array variable, as a handle for building element expressions.
struct ArrayRef {
  VarId var = 0;
  Type element;
  Expr operator[](Expr index) const { return elementRef(var, element, std::move(index)); }
};

/// A struct variable, as a handle for building field expressions.
struct StructRef {
  VarId var = 0;
  std::vector<Variable::Field> fields;
  /// The field called `name`; throws std::invalid_argument if there is none.
  Expr field(std::string_view name) const;
};

/// One executed statement.
struct Stmt {
  enum class Kind : uint8_t {
    Assign, // target = value.
    Assume, // value held when the run passed here (a branch outcome): the path is fixed.
    Assert, // value must hold: the specification.
  };
  Kind kind = Kind::Assign;
  Expr target; // Assign: Var, Field, Element or Deref.
  Expr value;  // Assign: the value; Assume, Assert: the condition.
  SourceLoc loc;
  /// Whether a diagnosis may blame the statement (only for Assign; the others are always hard).
  bool selectable = true;
  /// The function activation whose locals `target` names, and the one in which
  /// `value` is evaluated (they differ where a call binds a parameter to an
  /// argument, or the caller takes the callee's result).
  unsigned activation = 0;
  unsigned valueActivation = 0;
  /// The statement's source text, for reports (optional).
  std::string text;
};

} // namespace sleuth::trace

#endif // SLEUTH_TRACE_IR_H
