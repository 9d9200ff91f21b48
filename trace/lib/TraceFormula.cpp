//===- TraceFormula.cpp - Encoding a path in SSA form for Z3 --------------===//
//
// Integers are bit-vectors of their width (two's complement, so overflow wraps;
// signedness picks the division, remainder, right shift, comparison and
// extension); booleans are Z3 booleans; an array is a Z3 array from a 64-bit
// index to its element; a struct is one scalar variable per field, so that
// relaxing a write to one field frees that field alone. A pointer is a pair
// (object id, offset) of a tuple sort: the objects are the arrays, scalars and
// fields whose address the path takes, numbered from 1 (0 is null). A read
// through a pointer is a choice among the objects of the pointee's type by the
// id, a write through it a new version of each such object, changed where the
// id (and offset) match.
//
//===----------------------------------------------------------------------===//

#include "sleuth/trace/formula.h"

#include <map>
#include <optional>
#include <string>

namespace sleuth::trace {

namespace {

using Kind = ExprNode::Kind;

struct Key {
  unsigned activation;
  VarId var;
  unsigned field;
  friend auto operator<=>(const Key &, const Key &) = default;
};

} // namespace

class Encoder {
public:
  Encoder(TraceFormula &out) : out(out), ctx(*out.ctx), path(*out.source) {}

  void run() {
    for (size_t i = 0; i < path.statements.size(); ++i) {
      const Stmt &s = path.statements[i];
      if (!s.target.empty())
        collectObjects(s.target, s.activation);
      collectObjects(s.value, s.valueActivation);
    }
    for (const Input &in : path.inputs)
      out.pathPart.push_back(eval(in.lvalue, 0) == constant(in.bits, in.lvalue.type()));
    for (size_t i = 0; i < path.statements.size(); ++i)
      statement(i, path.statements[i]);
    if (const auto &oracle = path.oracle) {
      z3::expr output = eval(oracle->output, 0);
      out.specPart.push_back(output == constant(oracle->expected, oracle->output.type()));
      out.observedPart = output == constant(oracle->actual, oracle->output.type());
    }
  }

private:
  TraceFormula &out;
  z3::context &ctx;
  const Path &path;
  std::map<Key, unsigned> versions;
  std::map<Key, z3::expr> values;

  // Names and sorts.

  const Variable &variable(VarId var) const {
    if (var >= path.variables.size())
      throw EncodeError("trace: an undeclared variable " + std::to_string(var));
    return path.variables[var];
  }

  Key key(VarId var, unsigned field, unsigned activation) const {
    const Variable &v = variable(var);
    if (v.kind == Variable::Kind::Struct && field >= v.fields.size())
      throw EncodeError("trace: no field " + std::to_string(field) + " in " + v.name);
    return {v.global ? 0 : activation, var, v.kind == Variable::Kind::Struct ? field : 0};
  }

  /// The key of an lvalue that names a variable (not a Deref).
  Key key(const Expr &lvalue, unsigned activation) const {
    return key(lvalue->var, lvalue->field, activation);
  }

  std::string baseName(const Key &k) const {
    const Variable &v = variable(k.var);
    std::string name = v.name;
    if (v.kind == Variable::Kind::Struct)
      name += "." + v.fields[k.field].name;
    if (k.activation > 0)
      name += "@" + std::to_string(k.activation);
    return name;
  }

  z3::sort sortOf(Type type) const {
    switch (type.kind) {
    case Type::Kind::Bool:
      return ctx.bool_sort();
    case Type::Kind::Int:
      return ctx.bv_sort(type.width);
    case Type::Kind::Pointer:
      return out.pointerSort();
    }
    return ctx.bool_sort();
  }

  Type elementType(const Key &k) const {
    const Variable &v = variable(k.var);
    return v.kind == Variable::Kind::Struct ? v.fields[k.field].type : v.type;
  }

  bool isArray(const Key &k) const { return variable(k.var).kind == Variable::Kind::Array; }

  z3::sort sortOf(const Key &k) const {
    z3::sort element = sortOf(elementType(k));
    return isArray(k) ? ctx.array_sort(ctx.bv_sort(64), element) : element;
  }

  z3::expr current(const Key &k) {
    auto it = values.find(k);
    if (it == values.end())
      it = values.emplace(k, ctx.constant((baseName(k) + "#0").c_str(), sortOf(k))).first;
    return it->second;
  }

  /// A new SSA version of `k`, which becomes the current one.
  z3::expr next(const Key &k) {
    current(k);
    unsigned version = ++versions[k];
    z3::expr e = ctx.constant((baseName(k) + "#" + std::to_string(version)).c_str(), sortOf(k));
    values.insert_or_assign(k, e);
    return e;
  }

  z3::expr constant(uint64_t bits, Type type) const {
    switch (type.kind) {
    case Type::Kind::Bool:
      return ctx.bool_val(bits != 0);
    case Type::Kind::Int:
      return ctx.bv_val(bits, type.width);
    case Type::Kind::Pointer:
      if (bits == 0)
        return out.pointer(0, ctx.bv_val(0, 64));
      throw EncodeError("trace: a pointer constant other than null");
    }
    return ctx.bool_val(false);
  }

  // Objects whose address is taken.

  void collectObjects(const Expr &e, unsigned activation) {
    if (e.kind() == Kind::AddrOf) {
      const Expr &lvalue = e->operands[0];
      Key k = key(lvalue, activation);
      if (!out.objectId(k.var, k.activation, k.field))
        out.objects.push_back({k.activation, k.var, k.field});
    }
    for (const Expr &operand : e->operands)
      collectObjects(operand, activation);
  }

  unsigned objectId(const Key &k) const { return out.objectId(k.var, k.activation, k.field); }

  /// The objects a pointer to `pointee` may designate.
  std::vector<Key> candidates(Type pointee) const {
    std::vector<Key> keys;
    for (const TraceFormula::Object &o : out.objects) {
      Key k{o.activation, o.var, o.field};
      if (elementType(k) == pointee)
        keys.push_back(k);
    }
    if (keys.empty())
      throw EncodeError("trace: a pointer that can point to nothing the path takes the address of");
    return keys;
  }

  z3::expr objectOf(const z3::expr &p) const { return out.objectOf(p); }
  z3::expr offsetOf(const z3::expr &p) const { return out.offsetOf(p); }

  /// Whether `p` designates `k` (its element `offset`, for an array; the object, for a scalar).
  z3::expr designates(const z3::expr &p, const Key &k) const {
    z3::expr same = objectOf(p) == ctx.bv_val(objectId(k), 32);
    return isArray(k) ? same : same && offsetOf(p) == ctx.bv_val(0, 64);
  }

  // Expressions.

  z3::expr eval(const Expr &e, unsigned activation) {
    const ExprNode &n = *e;
    switch (n.kind) {
    case Kind::Const:
    case Kind::Concrete:
    case Kind::Opaque:
      return constant(n.bits, n.type);
    case Kind::Var:
    case Kind::Field:
      return current(key(e, activation));
    case Kind::Element:
      return z3::select(current(key(e, activation)), eval(n.operands[0], activation));
    case Kind::Unary:
      return unary(n, eval(n.operands[0], activation));
    case Kind::Binary:
      return binary(n, eval(n.operands[0], activation), eval(n.operands[1], activation));
    case Kind::Ternary:
      return z3::ite(eval(n.operands[0], activation), eval(n.operands[1], activation),
                     eval(n.operands[2], activation));
    case Kind::Cast:
      return convert(eval(n.operands[0], activation), n.operands[0].type(), n.type);
    case Kind::AddrOf: {
      const Expr &lvalue = n.operands[0];
      Key k = key(lvalue, activation);
      z3::expr offset = lvalue.kind() == Kind::Element ? eval(lvalue->operands[0], activation)
                                                       : ctx.bv_val(0, 64);
      return out.pointer(objectId(k), offset);
    }
    case Kind::Deref: {
      z3::expr p = eval(n.operands[0], activation);
      std::vector<Key> keys = candidates(n.type);
      auto read = [&](const Key &k) {
        z3::expr value = current(k);
        return isArray(k) ? z3::select(value, offsetOf(p)) : value;
      };
      // A pointer to no candidate is undefined behaviour: read the last one.
      z3::expr result = read(keys.back());
      for (size_t i = keys.size() - 1; i-- > 0;)
        result = z3::ite(objectOf(p) == ctx.bv_val(objectId(keys[i]), 32), read(keys[i]), result);
      return result;
    }
    }
    throw EncodeError("trace: an unknown expression kind");
  }

  z3::expr unary(const ExprNode &n, const z3::expr &a) const {
    switch (n.op) {
    case Op::Neg:
      return -a;
    case Op::BitNot:
      return ~a;
    case Op::LogNot:
      return !a;
    default:
      throw EncodeError("trace: not a unary operator");
    }
  }

  z3::expr pointerBinary(const ExprNode &n, const z3::expr &a, const z3::expr &b) const {
    if (n.type.isPointer()) { // p + n, p - n.
      z3::expr offset = n.op == Op::Add ? offsetOf(a) + b : offsetOf(a) - b;
      return out.ptrCtor(objectOf(a), offset);
    }
    switch (n.op) {
    case Op::Sub:
      return offsetOf(a) - offsetOf(b);
    case Op::Eq:
      return a == b;
    case Op::Ne:
      return a != b;
    default: // Ordered only within one object: compare the offsets.
      return compare(n.op, offsetOf(a), offsetOf(b), true);
    }
  }

  static z3::expr compare(Op op, const z3::expr &a, const z3::expr &b, bool isSigned) {
    switch (op) {
    case Op::Eq:
      return a == b;
    case Op::Ne:
      return a != b;
    case Op::Lt:
      return isSigned ? a < b : z3::ult(a, b);
    case Op::Le:
      return isSigned ? a <= b : z3::ule(a, b);
    case Op::Gt:
      return isSigned ? a > b : z3::ugt(a, b);
    case Op::Ge:
      return isSigned ? a >= b : z3::uge(a, b);
    default:
      throw EncodeError("trace: not a comparison");
    }
  }

  z3::expr binary(const ExprNode &n, const z3::expr &a, const z3::expr &b) const {
    Type operand = n.operands[0].type();
    if (operand.isPointer())
      return pointerBinary(n, a, b);
    bool s = operand.isSigned;
    switch (n.op) {
    case Op::Add:
      return a + b;
    case Op::Sub:
      return a - b;
    case Op::Mul:
      return a * b;
    case Op::Div:
      return s ? z3::to_expr(ctx, Z3_mk_bvsdiv(ctx, a, b)) : z3::udiv(a, b);
    case Op::Rem:
      return s ? z3::srem(a, b) : z3::urem(a, b);
    case Op::Shl:
      return z3::shl(a, b);
    case Op::Shr:
      return s ? z3::ashr(a, b) : z3::lshr(a, b);
    case Op::BitAnd:
      return a & b;
    case Op::BitOr:
      return a | b;
    case Op::BitXor:
      return a ^ b;
    case Op::LogAnd:
      return a && b;
    case Op::LogOr:
      return a || b;
    default:
      return compare(n.op, a, b, s);
    }
  }

  z3::expr convert(const z3::expr &a, Type from, Type to) const {
    if (from == to)
      return a;
    if (to.isBool())
      return a != constant(0, from);
    if (from.isBool())
      return z3::ite(a, ctx.bv_val(1, to.width), ctx.bv_val(0, to.width));
    if (to.width < from.width)
      return a.extract(to.width - 1, 0);
    if (to.width > from.width)
      return from.isSigned ? z3::sext(a, to.width - from.width)
                           : z3::zext(a, to.width - from.width);
    return a; // Only the signedness changes.
  }

  // Statements.

  void statement(size_t index, const Stmt &s) {
    bool hasConcrete = s.value.hasConcrete() || (!s.target.empty() && s.target.hasConcrete());
    if (hasConcrete)
      out.concretizedList.push_back(index);
    switch (s.kind) {
    case Stmt::Kind::Assume:
      out.pathPart.push_back(eval(s.value, s.valueActivation));
      return;
    case Stmt::Kind::Assert:
      out.specPart.push_back(eval(s.value, s.valueActivation));
      return;
    case Stmt::Kind::Assign:
      break;
    }
    if (s.target.empty() || !s.target.isLValue())
      throw EncodeError("trace: an assignment to something that is no lvalue");
    std::optional<z3::expr> selector;
    if (s.selectable && !hasConcrete) {
      selector = ctx.bool_const(("sel" + std::to_string(index)).c_str());
      out.selectorList.push_back({index, *selector});
    }
    z3::expr value = eval(s.value, s.valueActivation);
    const Expr &target = s.target;
    switch (target.kind()) {
    case Kind::Var:
    case Kind::Field: {
      z3::expr next = this->next(key(target, s.activation));
      out.pathPart.push_back(selector ? z3::implies(*selector, next == value) : next == value);
      return;
    }
    case Kind::Element: {
      Key k = key(target, s.activation);
      z3::expr index = eval(target->operands[0], s.activation);
      z3::expr old = current(k);
      z3::expr next = this->next(k);
      z3::expr written =
          relaxed(selector, value, next.decl().name().str() + "!free", value.get_sort());
      out.pathPart.push_back(next == z3::store(old, index, written));
      return;
    }
    case Kind::Deref: {
      z3::expr p = eval(target->operands[0], s.activation);
      z3::expr written =
          relaxed(selector, value, "deref" + std::to_string(index) + "!free", value.get_sort());
      for (const Key &k : candidates(target.type())) {
        z3::expr old = current(k);
        z3::expr next = this->next(k);
        z3::expr changed = isArray(k) ? z3::store(old, offsetOf(p), written) : written;
        out.pathPart.push_back(next == z3::ite(designates(p, k), changed, old));
      }
      return;
    }
    default:
      throw EncodeError("trace: an assignment to something that is no lvalue");
    }
  }

  /// The value a statement writes: `value` if its selector is true, else unconstrained.
  z3::expr relaxed(const std::optional<z3::expr> &selector, const z3::expr &value,
                   const std::string &freeName, const z3::sort &sort) const {
    if (!selector)
      return value;
    return z3::ite(*selector, value, ctx.constant(freeName.c_str(), sort));
  }
};

namespace {

z3::func_decl makePointerSort(z3::context &ctx, z3::func_decl_vector &fields) {
  const char *names[] = {"obj", "off"};
  z3::sort sorts[] = {ctx.bv_sort(32), ctx.bv_sort(64)};
  return ctx.tuple_sort("ptr", 2, names, sorts, fields);
}

} // namespace

TraceFormula::TraceFormula(z3::context &ctx, const Path &path)
    : ctx(&ctx), source(&path), ptrCtor(ctx), ptrFields(ctx), pathPart(ctx), specPart(ctx),
      observedPart(ctx.bool_val(true)) {
  ptrCtor = makePointerSort(ctx, ptrFields);
  Encoder(*this).run();
}

z3::expr TraceFormula::pointer(unsigned object, const z3::expr &offset) const {
  return ptrCtor(ctx->bv_val(object, 32), offset);
}

unsigned TraceFormula::objectId(VarId var, unsigned activation, unsigned field) const {
  for (size_t i = 0; i < objects.size(); ++i)
    if (objects[i].var == var && objects[i].activation == activation && objects[i].field == field)
      return unsigned(i + 1);
  return 0;
}

} // namespace sleuth::trace
