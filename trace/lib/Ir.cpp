//===- Ir.cpp - Building typed expressions and paths ----------------------===//
//
// The builders type their operands as C does: integer promotion to `int`, the
// usual arithmetic conversions between the operands of a binary operator, and a
// comparison with zero where a value is used as a condition.
//
//===----------------------------------------------------------------------===//

#include "sleuth/trace/trace.h"

#include <stdexcept>

namespace sleuth::trace {

namespace {

using Kind = ExprNode::Kind;

uint64_t truncate(uint64_t bits, unsigned width) {
  return width >= 64 ? bits : bits & ((uint64_t(1) << width) - 1);
}

Expr make(ExprNode node) { return Expr(std::make_shared<const ExprNode>(std::move(node))); }

Expr node(Kind kind, Type type, std::vector<Expr> operands, Op op = Op::Add) {
  ExprNode n;
  n.kind = kind;
  n.type = type;
  n.op = op;
  n.operands = std::move(operands);
  return make(std::move(n));
}

/// A Const, Concrete or Opaque node: `bits` truncated to the type.
ExprNode valueNode(Kind kind, uint64_t bits, Type type) {
  ExprNode n;
  n.kind = kind;
  n.type = type;
  n.bits = truncate(bits, type.isBool() ? 1 : type.width);
  return n;
}

/// A Var, Field or Element node.
Expr reference(Kind kind, VarId var, unsigned field, Type type, std::vector<Expr> operands = {}) {
  ExprNode n;
  n.kind = kind;
  n.type = type;
  n.var = var;
  n.field = field;
  n.operands = std::move(operands);
  return make(std::move(n));
}

/// C's integer promotion: booleans and integers narrower than `int` become `int`.
Type promoted(Type type) {
  if (type.isPointer())
    return type;
  if (type.isBool() || type.width < 32)
    return Type::i32();
  return type;
}

/// The usual arithmetic conversions of two promoted integer types.
Type common(Type a, Type b) {
  a = promoted(a);
  b = promoted(b);
  if (a.isSigned == b.isSigned)
    return a.width >= b.width ? a : b;
  Type u = a.isSigned ? b : a;
  Type s = a.isSigned ? a : b;
  return u.width >= s.width ? u : s;
}

Expr convert(Expr e, Type type) { return e.type() == type ? e : cast(type, std::move(e)); }

bool isComparison(Op op) { return op >= Op::Eq && op <= Op::Ge; }

void requireInteger(const Expr &e, const char *what) {
  if (e.type().isPointer())
    throw std::invalid_argument(std::string("trace IR: a pointer operand of ") + what);
}

} // namespace

Expr::Expr(int value) : Expr(lit(value)) {}

bool Expr::isLValue() const {
  switch (node->kind) {
  case Kind::Var:
  case Kind::Field:
  case Kind::Element:
  case Kind::Deref:
    return true;
  default:
    return false;
  }
}

bool Expr::hasConcrete() const {
  if (node->kind == Kind::Concrete || node->kind == Kind::Opaque)
    return true;
  for (const Expr &operand : node->operands)
    if (operand.hasConcrete())
      return true;
  return false;
}

Expr lit(int64_t value, Type type) { return make(valueNode(Kind::Const, uint64_t(value), type)); }

Expr boolLit(bool value) { return lit(value ? 1 : 0, Type::boolean()); }

Expr nullPointer(Type pointee) { return lit(0, Type::pointerTo(pointee)); }

Expr varRef(VarId var, Type type) { return reference(Kind::Var, var, 0, type); }

Expr fieldRef(VarId var, unsigned field, Type type) {
  return reference(Kind::Field, var, field, type);
}

Expr elementRef(VarId var, Type element, Expr index) {
  requireInteger(index, "an index");
  return reference(Kind::Element, var, 0, element, {convert(std::move(index), Type::i64())});
}

Expr toBool(Expr operand) {
  Type type = operand.type();
  if (type.isBool())
    return operand;
  if (type.isPointer())
    return binary(Op::Ne, std::move(operand), nullPointer(type.pointee()));
  return binary(Op::Ne, std::move(operand), lit(0, type));
}

Expr unary(Op op, Expr operand) {
  if (op == Op::LogNot)
    return node(Kind::Unary, Type::boolean(), {toBool(std::move(operand))}, op);
  if (op != Op::Neg && op != Op::BitNot)
    throw std::invalid_argument("trace IR: not a unary operator");
  requireInteger(operand, "an arithmetic operator");
  Type type = promoted(operand.type());
  return node(Kind::Unary, type, {convert(std::move(operand), type)}, op);
}

Expr binary(Op op, Expr lhs, Expr rhs) {
  if (op == Op::LogAnd || op == Op::LogOr)
    return node(Kind::Binary, Type::boolean(), {toBool(std::move(lhs)), toBool(std::move(rhs))},
                op);
  if (op >= Op::Neg)
    throw std::invalid_argument("trace IR: not a binary operator");
  Type lt = lhs.type(), rt = rhs.type();
  if (lt.isPointer() || rt.isPointer()) {
    if (isComparison(op)) {
      // A pointer compared with the literal 0 is compared with null.
      if (!rt.isPointer())
        rhs = nullPointer(lt.pointee());
      if (!lt.isPointer())
        lhs = nullPointer(rt.pointee());
      return node(Kind::Binary, Type::boolean(), {std::move(lhs), std::move(rhs)}, op);
    }
    if (op == Op::Sub && lt.isPointer() && rt.isPointer())
      return node(Kind::Binary, Type::i64(), {std::move(lhs), std::move(rhs)}, op);
    if ((op == Op::Add || op == Op::Sub) && lt.isPointer())
      return node(Kind::Binary, lt, {std::move(lhs), convert(std::move(rhs), Type::i64())}, op);
    if (op == Op::Add && rt.isPointer())
      return node(Kind::Binary, rt, {std::move(rhs), convert(std::move(lhs), Type::i64())}, op);
    throw std::invalid_argument("trace IR: an unsupported operation on pointers");
  }
  if (op == Op::Shl || op == Op::Shr) {
    // The result has the promoted type of the left operand; the encoding needs
    // the shift count in the same width.
    Type type = promoted(lt);
    return node(Kind::Binary, type, {convert(std::move(lhs), type), convert(std::move(rhs), type)},
                op);
  }
  Type type = common(lt, rt);
  Type result = isComparison(op) ? Type::boolean() : type;
  return node(Kind::Binary, result, {convert(std::move(lhs), type), convert(std::move(rhs), type)},
              op);
}

Expr ite(Expr cond, Expr then, Expr otherwise) {
  Type type = then.type();
  if (then.type() != otherwise.type()) {
    if (then.type().isPointer() || otherwise.type().isPointer())
      throw std::invalid_argument("trace IR: a conditional of a pointer and another type");
    type = common(then.type(), otherwise.type());
  }
  return node(Kind::Ternary, type,
              {toBool(std::move(cond)), convert(std::move(then), type),
               convert(std::move(otherwise), type)});
}

Expr cast(Type type, Expr operand) {
  if (type.isPointer() != operand.type().isPointer())
    throw std::invalid_argument("trace IR: a cast between a pointer and an integer");
  if (type.isPointer() && type != operand.type())
    throw std::invalid_argument("trace IR: a cast between pointer types");
  return node(Kind::Cast, type, {std::move(operand)});
}

Expr addressOf(Expr lvalue) {
  if (!lvalue.isLValue() || lvalue.type().isPointer() || lvalue.type().isBool())
    throw std::invalid_argument("trace IR: the address of something that is no integer object");
  if (lvalue.kind() == Kind::Deref) // &*p is p.
    return lvalue->operands[0];
  Type type = Type::pointerTo(lvalue.type());
  return node(Kind::AddrOf, type, {std::move(lvalue)});
}

Expr deref(Expr pointer) {
  if (!pointer.type().isPointer())
    throw std::invalid_argument("trace IR: dereferencing something that is no pointer");
  Type type = pointer.type().pointee();
  return node(Kind::Deref, type, {std::move(pointer)});
}

Expr concrete(uint64_t bits, Type type) { return make(valueNode(Kind::Concrete, bits, type)); }

Expr opaque(std::string name, uint64_t bits, Type type, std::vector<Expr> args) {
  ExprNode n = valueNode(Kind::Opaque, bits, type);
  n.name = std::move(name);
  n.operands = std::move(args);
  return make(std::move(n));
}

Expr operator+(const Expr &a, const Expr &b) { return binary(Op::Add, a, b); }
Expr operator-(const Expr &a, const Expr &b) { return binary(Op::Sub, a, b); }
Expr operator*(const Expr &a, const Expr &b) { return binary(Op::Mul, a, b); }
Expr operator/(const Expr &a, const Expr &b) { return binary(Op::Div, a, b); }
Expr operator%(const Expr &a, const Expr &b) { return binary(Op::Rem, a, b); }
Expr operator<<(const Expr &a, const Expr &b) { return binary(Op::Shl, a, b); }
Expr operator>>(const Expr &a, const Expr &b) { return binary(Op::Shr, a, b); }
Expr operator&(const Expr &a, const Expr &b) { return binary(Op::BitAnd, a, b); }
Expr operator|(const Expr &a, const Expr &b) { return binary(Op::BitOr, a, b); }
Expr operator^(const Expr &a, const Expr &b) { return binary(Op::BitXor, a, b); }
Expr operator&&(const Expr &a, const Expr &b) { return binary(Op::LogAnd, a, b); }
Expr operator||(const Expr &a, const Expr &b) { return binary(Op::LogOr, a, b); }
Expr operator==(const Expr &a, const Expr &b) { return binary(Op::Eq, a, b); }
Expr operator!=(const Expr &a, const Expr &b) { return binary(Op::Ne, a, b); }
Expr operator<(const Expr &a, const Expr &b) { return binary(Op::Lt, a, b); }
Expr operator<=(const Expr &a, const Expr &b) { return binary(Op::Le, a, b); }
Expr operator>(const Expr &a, const Expr &b) { return binary(Op::Gt, a, b); }
Expr operator>=(const Expr &a, const Expr &b) { return binary(Op::Ge, a, b); }
Expr operator-(const Expr &a) { return unary(Op::Neg, a); }
Expr operator~(const Expr &a) { return unary(Op::BitNot, a); }
Expr operator!(const Expr &a) { return unary(Op::LogNot, a); }

Expr StructRef::field(std::string_view name) const {
  for (unsigned i = 0; i < fields.size(); ++i)
    if (fields[i].name == name)
      return fieldRef(var, i, fields[i].type);
  throw std::invalid_argument("trace IR: no field " + std::string(name));
}

// Path.

Expr Path::scalar(std::string name, Type type, bool global) {
  variables.push_back({std::move(name), Variable::Kind::Scalar, type, {}, global});
  return varRef(VarId(variables.size() - 1), type);
}

ArrayRef Path::array(std::string name, Type element, bool global) {
  if (element.isPointer())
    throw std::invalid_argument("trace IR: an array of pointers");
  variables.push_back({std::move(name), Variable::Kind::Array, element, {}, global});
  return {VarId(variables.size() - 1), element};
}

StructRef Path::record(std::string name, std::vector<Variable::Field> fields, bool global) {
  variables.push_back({std::move(name), Variable::Kind::Struct, Type::i32(), fields, global});
  return {VarId(variables.size() - 1), std::move(fields)};
}

Stmt &Path::append(Stmt::Kind kind, Expr target, Expr value, SourceLoc loc, std::string text) {
  Stmt s;
  s.kind = kind;
  s.target = std::move(target);
  s.value = std::move(value);
  s.loc = loc;
  s.selectable = kind == Stmt::Kind::Assign;
  s.activation = s.valueActivation = currentActivation();
  s.text = std::move(text);
  statements.push_back(std::move(s));
  return statements.back();
}

Stmt &Path::assign(Expr target, Expr value, SourceLoc loc, std::string text) {
  if (!target.isLValue())
    throw std::invalid_argument("trace IR: assigning to something that is no lvalue");
  value = convert(std::move(value), target.type());
  return append(Stmt::Kind::Assign, std::move(target), std::move(value), loc, std::move(text));
}

Stmt &Path::assume(Expr cond, SourceLoc loc, std::string text) {
  return append(Stmt::Kind::Assume, {}, toBool(std::move(cond)), loc, std::move(text));
}

Stmt &Path::assertThat(Expr cond, SourceLoc loc, std::string text) {
  return append(Stmt::Kind::Assert, {}, toBool(std::move(cond)), loc, std::move(text));
}

void Path::input(Expr lvalue, int64_t value) {
  if (!lvalue.isLValue() || lvalue.kind() == Kind::Deref)
    throw std::invalid_argument("trace IR: an input that is no variable, field or element");
  Type type = lvalue.type();
  inputs.push_back({std::move(lvalue), uint64_t(lit(value, type)->bits)});
}

void Path::expect(Expr output, int64_t expected, int64_t actual, SourceLoc loc) {
  Type type = output.type();
  oracle = Oracle{std::move(output), lit(expected, type)->bits, lit(actual, type)->bits, loc};
}

unsigned Path::enter() {
  stack.push_back(activations++);
  return stack.back();
}

Stmt &Path::bindParam(Expr param, Expr arg, SourceLoc loc) {
  if (stack.size() < 2)
    throw std::logic_error("trace IR: a parameter outside a call");
  Stmt &s = assign(std::move(param), std::move(arg), loc);
  s.valueActivation = stack[stack.size() - 2];
  return s;
}

void Path::leave() {
  if (stack.size() < 2)
    throw std::logic_error("trace IR: leaving the outermost activation");
  stack.pop_back();
}

Stmt &Path::leave(Expr target, Expr result, SourceLoc loc, std::string text) {
  unsigned callee = currentActivation();
  leave();
  Stmt &s = assign(std::move(target), std::move(result), loc, std::move(text));
  s.valueActivation = callee;
  return s;
}

} // namespace sleuth::trace
