// A failing run's recorded path (a `.path` file: docs/path-format.md) as a trace::Path whose
// specification is the test's expected output: the units' site tables give each executed
// statement's semantics, the steps give the order, the branch outcomes and the values where the
// IR cannot express a statement. Calls between recorded functions are inlined along the path.
#include "sleuth/localizer/specification.h"

#include <fmt/format.h>

#include <cctype>
#include <charconv>
#include <fstream>
#include <map>
#include <sstream>

namespace sleuth::localizer {
namespace {

using trace::Expr;
using trace::Type;

/// One node of a site's IR text: an atom or a parenthesized list.
struct Sx {
  std::string Atom;
  std::vector<Sx> List;
  bool isList() const { return Atom.empty(); }
  const std::string &head() const {
    static const std::string None;
    return List.empty() || List[0].isList() ? None : List[0].Atom;
  }
};

std::string decode(std::string_view S) {
  std::string Out;
  for (std::size_t I = 0; I < S.size(); ++I) {
    unsigned Code = 0;
    if (S[I] == '%' && I + 2 < S.size() &&
        std::from_chars(S.data() + I + 1, S.data() + I + 3, Code, 16).ptr == S.data() + I + 3) {
      Out += char(Code);
      I += 2;
    } else {
      Out += S[I];
    }
  }
  return Out;
}

/// Parses the expressions of a table line from Tokens[At...].
bool parseSx(const std::vector<std::string> &Tokens, std::size_t &At, Sx &Out) {
  if (At >= Tokens.size())
    return false;
  if (Tokens[At] != "(") {
    if (Tokens[At] == ")")
      return false;
    Out.Atom = Tokens[At++];
    return true;
  }
  ++At;
  while (At < Tokens.size() && Tokens[At] != ")") {
    Sx Child;
    if (!parseSx(Tokens, At, Child))
      return false;
    Out.List.push_back(std::move(Child));
  }
  if (At >= Tokens.size())
    return false;
  ++At;
  return !Out.List.empty();
}

std::vector<std::string> tokenize(const std::string &Line) {
  std::vector<std::string> Out;
  std::string Cur;
  for (char C : Line) {
    if (C == '(' || C == ')' || C == ' ') {
      if (!Cur.empty())
        Out.push_back(std::move(Cur)), Cur.clear();
      if (C != ' ')
        Out.push_back(std::string(1, C));
    } else {
      Cur += C;
    }
  }
  if (!Cur.empty())
    Out.push_back(std::move(Cur));
  return Out;
}

std::optional<Type> parseType(std::string_view T) {
  bool Pointer = T.rfind("p:", 0) == 0;
  if (Pointer)
    T.remove_prefix(2);
  if (T == "bool")
    return Pointer ? std::nullopt : std::optional<Type>(Type::boolean());
  if (T.size() < 2 || (T[0] != 'i' && T[0] != 'u'))
    return std::nullopt;
  unsigned Width = 0;
  if (std::from_chars(T.data() + 1, T.data() + T.size(), Width).ec != std::errc() ||
      (Width != 8 && Width != 16 && Width != 32 && Width != 64))
    return std::nullopt;
  Type I = Type::integer(Width, T[0] == 'i');
  return Pointer ? Type::pointerTo(I) : I;
}

enum class SiteKind { Assign, Cond, Return, Eval, Print, Arg, Param };

struct Site {
  SiteKind Kind = SiteKind::Eval;
  unsigned Function = 0; // global entry site of its function
  unsigned File = 0, Line = 0, Column = 0;
  Sx First, Second;   // Assign: target, value; Cond, Return, Eval, Arg: the expression
  std::string Format; // Print
  unsigned Index = 0; // Arg, Param: which; Print: how many arguments
};

struct Variable {
  std::string Name;
  bool Array = false;
  Type T;
  trace::VarId Id = 0;
  bool Declared = false;
};

struct Function {
  std::string Name;
  std::vector<int> Params;
  std::map<int, Variable> Variables;
};

/// An activation of a recorded function: its steps and the activations it called, in order.
struct Activation {
  unsigned Function = 0;
  std::map<unsigned, int64_t> Params;
  struct Item {
    bool Call = false;
    unsigned Site = 0; // a step's site
    int64_t Value = 0;
    std::size_t Child = 0; // a call's activation
  };
  std::vector<Item> Items;
};

class Translator {
public:
  Translator(const std::string &Expected, PathTranslation &Out) : Expected(Expected), Out(Out) {}

  bool read(std::istream &In, std::string &Error);
  void translate();
  unsigned line() const { return LineNo; }

private:
  Site *siteOf(unsigned Id) {
    auto It = Sites.find(Id);
    return It == Sites.end() ? nullptr : &It->second;
  }
  Variable *variable(unsigned Func, int Id) {
    auto F = Functions.find(Func);
    if (F == Functions.end())
      return nullptr;
    auto V = F->second.Variables.find(Id);
    if (V == F->second.Variables.end())
      return nullptr;
    Variable &Var = V->second;
    if (!Var.Declared) {
      std::string Name = F->second.Name + "." + Var.Name;
      if (Var.Array)
        Var.Id = Out.Path.array(Name, Var.T).var;
      else
        Var.Id = Out.Path.scalar(Name, Var.T)->var;
      Var.Declared = true;
    }
    return &Var;
  }

  /// The activation's statements (and its callees'), in the order they ran.
  void run(std::size_t Act);
  /// Inlines the pending callees up to (not including) Upto, with their recorded arguments.
  void flush(std::size_t Upto);
  void call(std::size_t Child, const std::vector<std::optional<Expr>> &Args, Expr *Result,
            unsigned Caller = 0);
  std::optional<Expr> convert(const Sx &E, unsigned Func);
  void step(const Activation &A, unsigned SiteId, int64_t Value);
  void print(const Site &S, unsigned SiteId);
  trace::SourceLoc loc(const Site &S) const { return {S.File, S.Line, S.Column}; }
  Expr temporary(unsigned Func, const std::string &Name, Type T);

  const std::string &Expected;
  PathTranslation &Out;
  std::map<unsigned, Site> Sites;
  unsigned LineNo = 0; // of the file being read
  std::map<unsigned, Function> Functions; // by global entry site
  std::vector<Activation> Activations;
  std::vector<std::size_t> Roots;

  // During translation.
  std::vector<std::size_t> Pending; // callees of the current statement not yet inlined
  std::size_t PendingAt = 0;
  std::map<unsigned, std::pair<Expr, int64_t>> Outputs; // print argument site -> temp, value
  std::size_t ExpectedAt = 0;
  bool Stopped = false;
  std::map<std::string, Expr> Temporaries;
  std::optional<Expr> ReturnValue;
  trace::SourceLoc ReturnLoc;
};

bool Translator::read(std::istream &In, std::string &Error) {
  std::string Line;
  if (!std::getline(In, Line) || Line != "sleuth-path 1") {
    Error = "not a sleuth path file (expected 'sleuth-path 1')";
    return false;
  }
  unsigned Base = 0, FileIndex = 0;
  std::vector<std::size_t> Stack;
  bool InSteps = false;
  LineNo = 1;
  auto Bad = [&](const std::string &What) {
    Error = fmt::format("line {}: {}", LineNo, What);
    return false;
  };
  while (std::getline(In, Line)) {
    ++LineNo;
    if (Line == "end")
      return true;
    std::istringstream Fields(Line);
    if (InSteps) {
      unsigned Id = 0;
      int64_t Value = 0;
      if (!(Fields >> Id >> Value))
        return Bad("expected a step: SITE VALUE");
      if (Functions.count(Id)) { // an entry
        Activations.push_back({Id, {}, {}});
        std::size_t New = Activations.size() - 1;
        if (Stack.empty())
          Roots.push_back(New);
        else
          Activations[Stack.back()].Items.push_back({true, 0, 0, New});
        Stack.push_back(New);
        continue;
      }
      if (Id > 0 && Functions.count(Id - 1)) { // an exit
        if (!Stack.empty() && Activations[Stack.back()].Function == Id - 1)
          Stack.pop_back();
        continue;
      }
      Site *S = siteOf(Id);
      if (!S || Stack.empty())
        continue;
      if (S->Kind == SiteKind::Param)
        Activations[Stack.back()].Params[S->Index] = Value;
      else
        Activations[Stack.back()].Items.push_back({false, Id, Value, 0});
      continue;
    }
    std::string Kind;
    Fields >> Kind;
    if (Kind == "status" || Kind == "end-unit" || Line.empty())
      continue;
    if (Kind == "unit") {
      std::string Hash, Path;
      unsigned NumSites = 0;
      if (!(Fields >> Base >> NumSites >> Hash >> Path))
        return Bad("expected 'unit BASE SITES HASH PATH'");
      FileIndex = unsigned(Out.Files.size());
      Out.Files.push_back(decode(Path));
      continue;
    }
    if (Kind == "steps") {
      std::string Truncated;
      std::size_t N = 0;
      Fields >> N >> Truncated;
      Out.Truncated = Truncated == "truncated";
      InSteps = true;
      continue;
    }
    if (Kind == "func") {
      unsigned Id = 0;
      std::string Name, Param;
      if (!(Fields >> Id >> Name))
        return Bad("expected 'func SITE NAME PARAMS...'");
      Function &F = Functions[Base + Id];
      F.Name = decode(Name);
      while (Fields >> Param)
        F.Params.push_back(Param == "-" ? -1 : std::stoi(Param));
      continue;
    }
    if (Kind == "var") {
      unsigned Func = 0;
      int Id = 0;
      std::string Name, What, TypeName;
      unsigned Size = 0;
      if (!(Fields >> Func >> Id >> Name >> What >> TypeName))
        return Bad("expected 'var FUNC ID NAME KIND TYPE'");
      std::optional<Type> T = parseType(TypeName);
      if (!T)
        return Bad("unknown type '" + TypeName + "'");
      Variable V{decode(Name), What == "array", *T};
      if (V.Array)
        Fields >> Size;
      Functions[Base + Func].Variables[Id] = V;
      continue;
    }
    if (Kind != "site")
      return Bad("unknown line '" + Kind + "'");
    unsigned Id = 0, Func = 0;
    Site S;
    std::string What;
    if (!(Fields >> Id >> Func >> S.Line >> S.Column >> What))
      return Bad("expected 'site ID FUNC LINE COLUMN KIND ...'");
    S.Function = Base + Func;
    S.File = FileIndex;
    std::string Rest;
    std::getline(Fields, Rest);
    std::vector<std::string> Tokens = tokenize(Rest);
    std::size_t At = 0;
    bool Ok = true;
    if (What == "assign") {
      S.Kind = SiteKind::Assign;
      Ok = parseSx(Tokens, At, S.First) && parseSx(Tokens, At, S.Second);
    } else if (What == "cond" || What == "return" || What == "eval") {
      S.Kind = What == "cond" ? SiteKind::Cond : What == "eval" ? SiteKind::Eval : SiteKind::Return;
      Ok = parseSx(Tokens, At, S.First);
    } else if (What == "arg" || What == "param") {
      S.Kind = What == "arg" ? SiteKind::Arg : SiteKind::Param;
      Ok = At < Tokens.size();
      if (Ok)
        S.Index = unsigned(std::stoul(Tokens[At++]));
      if (Ok && S.Kind == SiteKind::Arg)
        Ok = parseSx(Tokens, At, S.First);
    } else if (What == "print") {
      S.Kind = SiteKind::Print;
      Ok = Tokens.size() == 2;
      if (Ok) {
        S.Format = decode(Tokens[0]);
        S.Index = unsigned(std::stoul(Tokens[1]));
      }
    } else {
      return Bad("unknown site kind '" + What + "'");
    }
    if (!Ok)
      return Bad("malformed site " + std::to_string(Id));
    Sites[Base + Id] = std::move(S);
  }
  Error = "the file ends before its 'end' line (the run was cut short while writing it)";
  return false;
}

Expr Translator::temporary(unsigned Func, const std::string &Name, Type T) {
  // One temporary per function, callee and type: each call gives it a new SSA version.
  std::string Key =
      fmt::format("{}.{}:{}{}{}", Functions[Func].Name, Name, T.isPointer() ? "p:" : "",
                  T.isBool()   ? 'b'
                  : T.isSigned ? 'i'
                               : 'u',
                  T.width);
  auto It = Temporaries.find(Key);
  if (It == Temporaries.end())
    It = Temporaries.emplace(Key, Out.Path.scalar(Key, T)).first;
  return It->second;
}

std::optional<Expr> Translator::convert(const Sx &E, unsigned Func) {
  using trace::Op;
  if (!E.isList())
    return std::nullopt;
  const std::string &H = E.head();
  const std::vector<Sx> &L = E.List;
  try {
    if (H == "c" && L.size() == 3) {
      std::optional<Type> T = parseType(L[1].Atom);
      if (!T || T->isPointer())
        return std::nullopt;
      int64_t V = std::stoll(L[2].Atom);
      return T->isBool() ? trace::boolLit(V != 0) : trace::lit(V, *T);
    }
    if (H == "null" && L.size() == 2) {
      std::optional<Type> T = parseType(L[1].Atom);
      if (!T || !T->isPointer())
        return std::nullopt;
      return trace::nullPointer(T->pointee());
    }
    if ((H == "v" || H == "e") && L.size() >= 2) {
      Variable *V = variable(Func, std::stoi(L[1].Atom));
      if (!V)
        return std::nullopt;
      if (H == "v" && !V->Array && L.size() == 2)
        return trace::varRef(V->Id, V->T);
      if (H == "e" && V->Array && L.size() == 3) {
        std::optional<Expr> Index = convert(L[2], Func);
        if (!Index)
          return std::nullopt;
        return trace::elementRef(V->Id, V->T, *Index);
      }
      return std::nullopt;
    }
    if (H == "b" && L.size() == 4) {
      static const std::map<std::string, Op> Ops = {
          {"+", Op::Add},   {"-", Op::Sub},    {"*", Op::Mul},     {"/", Op::Div},
          {"%", Op::Rem},   {"<<", Op::Shl},   {">>", Op::Shr},    {"&", Op::BitAnd},
          {"|", Op::BitOr}, {"^", Op::BitXor}, {"&&", Op::LogAnd}, {"||", Op::LogOr},
          {"==", Op::Eq},   {"!=", Op::Ne},    {"<", Op::Lt},      {"<=", Op::Le},
          {">", Op::Gt},    {">=", Op::Ge}};
      auto Found = Ops.find(L[1].Atom);
      if (Found == Ops.end())
        return std::nullopt;
      std::optional<Expr> A = convert(L[2], Func);
      std::optional<Expr> B = A ? convert(L[3], Func) : std::nullopt;
      if (!B)
        return std::nullopt;
      return trace::binary(Found->second, *A, *B);
    }
    if (H == "u" && L.size() == 3) {
      std::optional<Expr> A = convert(L[2], Func);
      if (!A)
        return std::nullopt;
      const std::string &O = L[1].Atom;
      return trace::unary(O == "-" ? Op::Neg : O == "~" ? Op::BitNot : Op::LogNot, *A);
    }
    if (H == "t" && L.size() == 4) {
      std::optional<Expr> C = convert(L[1], Func);
      std::optional<Expr> A = C ? convert(L[2], Func) : std::nullopt;
      std::optional<Expr> B = A ? convert(L[3], Func) : std::nullopt;
      if (!B)
        return std::nullopt;
      return trace::ite(trace::toBool(*C), *A, *B);
    }
    if (H == "cast" && L.size() == 3) {
      std::optional<Type> T = parseType(L[1].Atom);
      std::optional<Expr> A = T ? convert(L[2], Func) : std::nullopt;
      if (!A)
        return std::nullopt;
      if (A->type() == *T)
        return A;
      return trace::cast(*T, *A);
    }
    if (H == "addr" && L.size() == 2) {
      std::optional<Expr> A = convert(L[1], Func);
      return A ? std::optional<Expr>(trace::addressOf(*A)) : std::nullopt;
    }
    if (H == "deref" && L.size() == 2) {
      std::optional<Expr> A = convert(L[1], Func);
      return A ? std::optional<Expr>(trace::deref(*A)) : std::nullopt;
    }
    if (H == "call" && L.size() >= 2) {
      // Arguments first, as C evaluates them before the call (their own callees with them).
      std::vector<std::optional<Expr>> Args;
      for (std::size_t I = 2; I < L.size(); ++I)
        Args.push_back(convert(L[I], Func));
      std::string Name = decode(L[1].Atom);
      for (std::size_t P = PendingAt; P < Pending.size(); ++P) {
        if (Functions[Activations[Pending[P]].Function].Name != Name)
          continue;
        flush(P);
        std::size_t Child = Pending[PendingAt++];
        Expr Result;
        call(Child, Args, &Result, Func);
        if (Result.empty())
          return std::nullopt;
        return Result;
      }
      return std::nullopt; // a library call: the statement takes the value the run recorded
    }
  } catch (const std::exception &) {
    // A builder refused the combination (a cast between pointer types, say).
  }
  return std::nullopt;
}

void Translator::flush(std::size_t Upto) {
  while (PendingAt < Upto && PendingAt < Pending.size())
    call(Pending[PendingAt++], {}, nullptr);
}

void Translator::call(std::size_t Child, const std::vector<std::optional<Expr>> &Args, Expr *Result,
                      unsigned Caller) {
  if (Stopped)
    return;
  // The callee's own statements get pending lists of their own.
  std::vector<std::size_t> SavedPending = std::move(Pending);
  std::size_t SavedAt = PendingAt;
  std::optional<Expr> SavedReturn = std::move(ReturnValue);
  trace::SourceLoc SavedReturnLoc = ReturnLoc;
  Pending.clear();
  PendingAt = 0;
  ReturnValue.reset();
  const Activation &A = Activations[Child];
  const Function &F = Functions[A.Function];
  Out.Path.enter();
  for (std::size_t K = 0; K < F.Params.size(); ++K) {
    Variable *P = F.Params[K] < 0 ? nullptr : variable(A.Function, F.Params[K]);
    if (!P || P->Array)
      continue;
    trace::SourceLoc At{};
    if (K < Args.size() && Args[K]) {
      try {
        Out.Path.bindParam(trace::varRef(P->Id, P->T), *Args[K], At);
        continue;
      } catch (const std::exception &) {
      }
    }
    auto Recorded = A.Params.find(unsigned(K));
    if (Recorded == A.Params.end() || P->T.isPointer()) {
      ++Out.Concretized; // a pointer the IR cannot follow: the parameter stays unconstrained
      continue;
    }
    Out.Path
        .bindParam(trace::varRef(P->Id, P->T), trace::concrete(uint64_t(Recorded->second), P->T),
                   At)
        .selectable = false;
  }
  run(Child);
  if (Result && ReturnValue && !Stopped) {
    Expr Target = temporary(Caller, F.Name + "()", ReturnValue->type());
    // The return statement's assignment of its value: blamable unless the value is recorded.
    Out.Path.leave(Target, *ReturnValue, ReturnLoc).selectable = !ReturnValue->hasConcrete();
    *Result = Target;
  } else if (!Stopped) {
    Out.Path.leave();
  }
  Pending = std::move(SavedPending);
  PendingAt = SavedAt;
  ReturnValue = std::move(SavedReturn);
  ReturnLoc = SavedReturnLoc;
}

void Translator::run(std::size_t Act) {
  const Activation &A = Activations[Act];
  for (const Activation::Item &I : A.Items) {
    if (Stopped)
      return;
    if (I.Call) {
      Pending.push_back(I.Child);
      continue;
    }
    step(A, I.Site, I.Value);
    flush(Pending.size()); // callees no call of the statement matched
    Pending.clear();
    PendingAt = 0;
  }
}

void Translator::step(const Activation &A, unsigned SiteId, int64_t Value) {
  const Site &S = *siteOf(SiteId);
  unsigned Func = A.Function;
  trace::SourceLoc At = loc(S);
  switch (S.Kind) {
  case SiteKind::Assign: {
    std::optional<Expr> Target = convert(S.First, Func);
    if (!Target || !Target->isLValue())
      return;
    std::optional<Expr> Value2 = convert(S.Second, Func);
    try {
      if (Value2) {
        Out.Path.assign(*Target, *Value2, At);
        return;
      }
    } catch (const std::exception &) {
    }
    if (Target->type().isPointer())
      return; // a pointer the run computed outside the IR: not followed
    Out.Path.assign(*Target, trace::concrete(uint64_t(Value), Target->type()), At);
    ++Out.Concretized;
    return;
  }
  case SiteKind::Cond: {
    std::optional<Expr> C = convert(S.First, Func);
    if (!C)
      return;
    Expr B = trace::toBool(*C);
    Out.Path.assume(Value ? B : !B, At);
    return;
  }
  case SiteKind::Return: {
    std::optional<Expr> R = convert(S.First, Func);
    ReturnLoc = At;
    if (R) {
      ReturnValue = R;
    } else if (std::optional<Type> T =
                   parseType(S.First.List.size() > 1 ? S.First.List[1].Atom : "");
               T && !T->isPointer()) {
      ReturnValue = trace::concrete(uint64_t(Value), *T);
      ++Out.Concretized;
    }
    return;
  }
  case SiteKind::Eval:
    (void)convert(S.First, Func);
    return;
  case SiteKind::Arg: {
    std::optional<Type> T = parseType(S.First.List.size() > 1 ? S.First.List[1].Atom : "");
    if (!T)
      return;
    std::optional<Expr> V = convert(S.First, Func);
    Expr Temp = temporary(Func, fmt::format("out{}", S.Index), *T);
    bool Plain = V && (V->kind() == trace::ExprNode::Kind::Var ||
                       V->kind() == trace::ExprNode::Kind::Element ||
                       V->kind() == trace::ExprNode::Kind::Cast);
    trace::Stmt &St = Out.Path.assign(Temp, V ? *V : trace::concrete(uint64_t(Value), *T), At);
    // Passing a value on is no fault of its own; computing it in the argument may be.
    St.selectable = V && !Plain;
    Outputs[SiteId] = {Temp, Value};
    return;
  }
  case SiteKind::Print:
    print(S, SiteId);
    return;
  case SiteKind::Param:
    return;
  }
}

void Translator::print(const Site &S, unsigned SiteId) {
  // Reads the expected output as the format would have printed it: literal text must agree;
  // each integer conversion gives the value the argument should have had.
  const std::string &F = S.Format;
  unsigned Arg = 0;
  for (std::size_t I = 0; I < F.size() && !Stopped; ++I) {
    if (F[I] != '%') {
      if (ExpectedAt >= Expected.size() || Expected[ExpectedAt] != F[I]) {
        Out.Notes.push_back(fmt::format("line {}: the output differs from the expected output "
                                        "in the format's text: no specification there",
                                        S.Line));
        Stopped = true;
        return;
      }
      ++ExpectedAt;
      continue;
    }
    std::size_t J = I + 1;
    while (J < F.size() && (F[J] == 'l' || F[J] == 'h' || F[J] == 'z'))
      ++J;
    if (J >= F.size())
      break;
    char Conv = F[J];
    I = J;
    if (Conv == '%') {
      if (ExpectedAt < Expected.size() && Expected[ExpectedAt] == '%') {
        ++ExpectedAt;
        continue;
      }
      Stopped = true;
      return;
    }
    unsigned ArgSite = SiteId + 1 + Arg++;
    auto Output = Outputs.find(ArgSite);
    std::optional<int64_t> Want;
    std::size_t Start = ExpectedAt;
    if (Conv == 'c') {
      if (ExpectedAt < Expected.size())
        Want = (unsigned char)Expected[ExpectedAt++];
    } else if (Conv == 'd' || Conv == 'i' || Conv == 'u') {
      std::size_t K = ExpectedAt;
      if (K < Expected.size() && Expected[K] == '-')
        ++K;
      while (K < Expected.size() && std::isdigit((unsigned char)Expected[K]))
        ++K;
      int64_t V = 0;
      if (std::from_chars(Expected.data() + Start, Expected.data() + K, V).ec == std::errc()) {
        Want = V;
        ExpectedAt = K;
      }
    }
    if (!Want || Output == Outputs.end()) {
      Out.Notes.push_back(
          fmt::format("line {}: a '%{}' output the oracle cannot check", S.Line, Conv));
      Stopped = true;
      return;
    }
    auto [Temp, Actual] = Output->second;
    Type T = Temp.type();
    uint64_t Mask = T.width >= 64 ? ~0ull : (1ull << T.width) - 1;
    if ((uint64_t(Actual) & Mask) != (uint64_t(*Want) & Mask)) {
      Out.Path.assertThat(Temp == trace::lit(*Want, T), loc(S),
                          fmt::format("expected {} here", *Want));
      Out.Specification = fmt::format("line {}: printed {}, expected {}", S.Line, Actual, *Want);
      Stopped = true;
      return;
    }
  }
  for (unsigned K = 0; K < S.Index; ++K)
    Outputs.erase(SiteId + 1 + K);
}

void Translator::translate() {
  for (std::size_t Root : Roots) {
    if (Stopped)
      break;
    call(Root, {}, nullptr);
  }
}

} // namespace

std::optional<PathTranslation>
translatePath(const std::string &PathFile, const std::string &ExpectedOutput, std::string &Error) {
  std::ifstream In(PathFile);
  if (!In) {
    Error = PathFile + ": cannot read";
    return std::nullopt;
  }
  PathTranslation Out;
  Translator T(ExpectedOutput, Out);
  bool Read = false;
  try {
    Read = T.read(In, Error);
  } catch (const std::exception &) { // a number std::stoul cannot read
    Error = fmt::format("line {}: a malformed number", T.line());
  }
  if (!Read) {
    Error = PathFile + ": " + Error;
    return std::nullopt;
  }
  T.translate();
  return Out;
}

} // namespace sleuth::localizer
