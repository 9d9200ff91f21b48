#include "PathRecorder.h"

#include "Counters.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"

using namespace clang;

namespace sleuth::instrumenter {
namespace {

const char *binaryOp(BinaryOperatorKind K) {
  switch (K) {
  case BO_Add:
    return "+";
  case BO_Sub:
    return "-";
  case BO_Mul:
    return "*";
  case BO_Div:
    return "/";
  case BO_Rem:
    return "%";
  case BO_Shl:
    return "<<";
  case BO_Shr:
    return ">>";
  case BO_And:
    return "&";
  case BO_Or:
    return "|";
  case BO_Xor:
    return "^";
  case BO_LAnd:
    return "&&";
  case BO_LOr:
    return "||";
  case BO_EQ:
    return "==";
  case BO_NE:
    return "!=";
  case BO_LT:
    return "<";
  case BO_LE:
    return "<=";
  case BO_GT:
    return ">";
  case BO_GE:
    return ">=";
  default:
    return nullptr;
  }
}

/// The operator a compound assignment applies (`+=`: "+").
const char *compoundOp(BinaryOperatorKind K) {
  if (!BinaryOperator::isCompoundAssignmentOp(K))
    return nullptr;
  return binaryOp(BinaryOperator::getOpForCompoundAssignment(K));
}

/// Percent-encodes what would end a token of the table: white space, parentheses, %.
std::string token(llvm::StringRef S) {
  std::string Out;
  for (char C : S) {
    auto U = static_cast<unsigned char>(C);
    if (U <= ' ' || C == '%' || C == '(' || C == ')' || U >= 0x7f) {
      static const char Hex[] = "0123456789ABCDEF";
      Out += '%';
      Out += Hex[U >> 4];
      Out += Hex[U & 15];
    } else {
      Out += C;
    }
  }
  return Out.empty() ? "%00" : Out;
}

const char *const Unsupported = "(x)";

} // namespace

PathRecorder::PathRecorder(Context &Ctx, PathTable &Table, const FunctionDecl *Function,
                           std::string UnitName, std::size_t FirstEdit)
    : Ctx(Ctx), Table(Table), Function(Function), Unit("&" + std::move(UnitName)),
      FirstEdit(FirstEdit) {}

bool PathRecorder::applies(const FunctionDecl *F) {
  return F->hasBody() && isa<CompoundStmt>(F->getBody()) && !isa<CXXMethodDecl>(F) &&
         !F->isTemplated() && !F->isTemplateInstantiation() && !F->isVariadic() &&
         !F->isConstexpr() && F->getIdentifier();
}

std::string PathRecorder::typeName(QualType T, const ASTContext &Ast) {
  if (T.isNull() || T->isDependentType())
    return "";
  QualType C = T.getCanonicalType();
  if (C.isVolatileQualified() || C->isAtomicType())
    return "";
  if (C->isBooleanType())
    return "bool";
  if (const auto *P = C->getAs<PointerType>()) {
    std::string Pointee = typeName(P->getPointeeType(), Ast);
    if (Pointee.empty() || Pointee == "bool" || Pointee.front() == 'p')
      return "";
    return "p:" + Pointee;
  }
  if (!C->isIntegerType() || C->isEnumeralType())
    return "";
  uint64_t Width = Ast.getTypeSize(C);
  if (Width != 8 && Width != 16 && Width != 32 && Width != 64)
    return "";
  return (C->isSignedIntegerType() ? "i" : "u") + std::to_string(Width);
}

int PathRecorder::variable(const VarDecl *V) {
  auto Known = Variables.find(V);
  if (Known != Variables.end())
    return Known->second;
  int Id = -1;
  // Locals only: a global's value where the path starts is not recorded, and a static local
  // keeps its value across activations, which the IR's per-activation locals do not.
  if (V->hasLocalStorage() && V->getIdentifier() && !V->getType()->isReferenceType()) {
    QualType T = V->getType();
    std::string Line;
    if (const auto *A = Ctx.Ast.getAsConstantArrayType(T)) {
      std::string Element = typeName(A->getElementType(), Ctx.Ast);
      if (!Element.empty())
        Line = " array " + Element + " " + std::to_string(A->getSize().getZExtValue());
    } else if (std::string Scalar = typeName(T, Ctx.Ast); !Scalar.empty()) {
      Line = " scalar " + Scalar;
    }
    if (!Line.empty()) {
      Id = int(Variables.size());
      Table.add("var " + std::to_string(FunctionSite) + " " + std::to_string(Id) + " " +
                token(V->getName()) + Line);
    }
  }
  Variables[V] = Id;
  return Id;
}

std::string PathRecorder::siteHead(unsigned Site, SourceLocation At, const char *Kind) const {
  SourceLocation L = Ctx.SM.getFileLoc(At);
  return "site " + std::to_string(Site) + " " + std::to_string(FunctionSite) + " " +
         std::to_string(Ctx.SM.getSpellingLineNumber(L)) + " " +
         std::to_string(Ctx.SM.getSpellingColumnNumber(L)) + " " + Kind;
}

void PathRecorder::wrapReporting(CharSourceRange R, QualType T, unsigned Site,
                                 const std::string &Prefix) {
  // A GNU statement expression evaluates the value once, as T, reports it and yields it.
  std::string Spelled = T.getUnqualifiedType().getAsString(PrintingPolicy(Ctx.Ast.getLangOpts()));
  std::string Temp = Prefix + std::to_string(Site);
  Ctx.wrap(R, "__extension__ ({ " + Spelled + " " + Temp + " = (",
           "); " + step(Site, Temp) + "; " + Temp + "; })");
}

std::string PathRecorder::step(unsigned Site, const std::string &Value) const {
  return "sleuth_path_step(" + Unit + ", " + std::to_string(Site) + "u, (long long)(" + Value +
         "))";
}

void PathRecorder::run() {
  const auto *Body = cast<CompoundStmt>(Function->getBody());
  unsigned NumParams = Function->getNumParams();
  FunctionSite = Table.newSites(2 + NumParams); // entry, exit, one per parameter
  std::string Func =
      "func " + std::to_string(FunctionSite) + " " + token(Function->getNameAsString());
  std::string Entry = " __attribute__((unused, cleanup(sleuth_path_leave))) unsigned "
                      "__sleuth_path_frame = sleuth_path_enter(" +
                      Unit + ", " + std::to_string(FunctionSite) + "u);";
  for (unsigned I = 0; I < NumParams; ++I) {
    const ParmVarDecl *P = Function->getParamDecl(I);
    int Id = variable(P);
    Func += " " + (Id < 0 ? std::string("-") : std::to_string(Id));
    if (Id < 0)
      continue;
    unsigned Site = FunctionSite + 2 + I;
    Table.add(siteHead(Site, P->getLocation(), "param") + " " + std::to_string(I));
    // A declaration, so that C89's declarations-first rule holds.
    Entry += " __attribute__((unused)) char __sleuth_path_p" + std::to_string(I) + " = (" +
             step(Site, P->getName().str()) + ", 0);";
  }
  Table.add(Func);
  Ctx.insertAfterToken(Body->getLBracLoc(), Entry);
  visit(Body);
}

void PathRecorder::visit(const Stmt *S) {
  if (!S || isa<LambdaExpr, BlockExpr>(S))
    return;
  if (const auto *Block = dyn_cast<CompoundStmt>(S)) {
    for (const Stmt *Child : Block->body()) {
      if (const auto *D = dyn_cast<DeclStmt>(Child))
        declaration(D, true);
      else
        statement(Child);
      visit(Child);
    }
    return;
  }
  if (const auto *If = dyn_cast<IfStmt>(S)) {
    if (!If->getConditionVariable() && !If->isConsteval() && !If->getInit())
      condition(If->getCond());
    statement(If->getThen());
    statement(If->getElse());
  } else if (const auto *W = dyn_cast<WhileStmt>(S)) {
    if (!W->getConditionVariable())
      condition(W->getCond());
    statement(W->getBody());
  } else if (const auto *D = dyn_cast<DoStmt>(S)) {
    condition(D->getCond());
    statement(D->getBody());
  } else if (const auto *F = dyn_cast<ForStmt>(S)) {
    if (const auto *Init = dyn_cast_or_null<DeclStmt>(F->getInit()))
      declaration(Init, false);
    else
      statement(F->getInit());
    if (F->getCond() && !F->getConditionVariable())
      condition(F->getCond());
    if (const auto *Inc = dyn_cast_or_null<Expr>(F->getInc()))
      expressionStatement(Inc);
    statement(F->getBody());
  } else if (const auto *L = dyn_cast<SwitchCase>(S)) {
    statement(L->getSubStmt());
  } else if (const auto *L = dyn_cast<LabelStmt>(S)) {
    statement(L->getSubStmt());
  } else if (const auto *R = dyn_cast<ReturnStmt>(S)) {
    returned(R);
  }
  for (const Stmt *Child : S->children())
    if (Child && !isa<Expr>(Child))
      visit(Child);
}

void PathRecorder::statement(const Stmt *S) {
  // Blocks, loops and branches are visited on their own; here only the expression statements
  // that are the direct children (or bodies) of such statements.
  if (const auto *E = dyn_cast_or_null<Expr>(S))
    expressionStatement(E);
}

void PathRecorder::declaration(const DeclStmt *S, bool InBlock) {
  CharSourceRange R = Ctx.fileRange(S);
  if (R.isInvalid() || Ctx.touchesQuotedArgument(R))
    return;
  for (const Decl *D : S->decls()) {
    const auto *V = dyn_cast<VarDecl>(D);
    if (!V || !V->hasInit() || !V->getLocation().isFileID())
      continue;
    int Id = variable(V);
    if (Id < 0 || Ctx.Ast.getAsConstantArrayType(V->getType()))
      continue;
    unsigned Site = Table.newSites(1);
    std::string Value = expr(V->getInit());
    Table.add(siteHead(Site, V->getLocation(), "assign") + " (v " + std::to_string(Id) +
              ") (cast " + typeName(V->getType(), Ctx.Ast) + " " + Value + ")");
    if (InBlock) {
      Ctx.wrap(CharSourceRange::getCharRange(R.getEnd(), R.getEnd()), "",
               " __attribute__((unused)) char __sleuth_path_d" + std::to_string(Site) + " = (" +
                   step(Site, V->getName().str()) + ", 0);");
    } else {
      // `for (int i = 0; ...)`: the initializer reports its value as it is converted.
      CharSourceRange Init = Ctx.fileRange(V->getInit());
      if (Init.isInvalid())
        continue;
      wrapReporting(Init, V->getType(), Site, "__sleuth_path_t");
    }
  }
}

void PathRecorder::expressionStatement(const Expr *E) {
  const Expr *Plain = E->IgnoreParens();
  // C++: a statement that creates temporaries (`printf("%s", s.c_str())`) is wrapped in them.
  if (const auto *Cleanups = dyn_cast<ExprWithCleanups>(Plain))
    Plain = Cleanups->getSubExpr()->IgnoreParens();
  CharSourceRange R = Ctx.fileRange(E);
  if (R.isInvalid() || Ctx.touchesQuotedArgument(R))
    return;
  const Expr *Target = nullptr;
  std::string Value;
  if (appendToArray(E))
    return;
  if (const auto *B = dyn_cast<BinaryOperator>(Plain); B && B->isAssignmentOp()) {
    Target = B->getLHS();
    std::string Left = lvalue(Target);
    if (Left.empty())
      return;
    std::string Right = expr(B->getRHS());
    if (const char *Op = compoundOp(B->getOpcode()))
      Right = "(b " + std::string(Op) + " " + Left + " " + Right + ")";
    Value = Left + " (cast " + typeName(Target->getType(), Ctx.Ast) + " " + Right + ")";
  } else if (const auto *U = dyn_cast<UnaryOperator>(Plain); U && U->isIncrementDecrementOp()) {
    Target = U->getSubExpr();
    std::string Left = lvalue(Target);
    if (Left.empty())
      return;
    std::string Type = typeName(Target->getType(), Ctx.Ast);
    std::string One = Type.front() == 'p' ? "(c i64 1)" : "(c i32 1)";
    Value = Left + " (cast " + Type + " (b " + (U->isIncrementOp() ? "+ " : "- ") + Left + " " +
            One + "))";
  } else if (const auto *Call = dyn_cast<CallExpr>(Plain)) {
    // An overloaded operator's result may have an overloaded comma of its own (`m << 1, 2`).
    if (isa<CXXOperatorCallExpr>(Call) || print(Call))
      return;
    unsigned Site = Table.newSites(1);
    Table.add(siteHead(Site, E->getBeginLoc(), "eval") + " " + expr(Call));
    Ctx.wrapInside(FirstEdit, R, discarded(Call), "), " + step(Site, "0"));
    return;
  } else {
    return;
  }
  if (Target->HasSideEffects(Ctx.Ast))
    return; // the value is read again after the statement
  CharSourceRange TargetRange = Ctx.fileRange(Target);
  if (TargetRange.isInvalid())
    return;
  unsigned Site = Table.newSites(1);
  Table.add(siteHead(Site, E->getBeginLoc(), "assign") + " " + Value);
  Ctx.wrapInside(FirstEdit, R, "(", "), " + step(Site, Ctx.text(TargetRange)));
}

std::string PathRecorder::discarded(const Expr *E) {
  // `(void)` keeps a class result away from the comma that follows (an overloaded comma, or a
  // [[nodiscard]] warning); a void call needs none (GCC's -Wuseless-cast).
  return E->getType()->isVoidType() ? "(" : "(void)(";
}

bool PathRecorder::appendToArray(const Expr *E) {
  // `a[n++] = v`, the common way to fill an array: the element written, then the counter.
  const auto *B = dyn_cast<BinaryOperator>(E->IgnoreParens());
  if (!B || B->getOpcode() != BO_Assign)
    return false;
  const auto *Sub = dyn_cast<ArraySubscriptExpr>(B->getLHS()->IgnoreParens());
  const auto *Inc = Sub ? dyn_cast<UnaryOperator>(Sub->getIdx()->IgnoreParenImpCasts()) : nullptr;
  if (!Inc || !Inc->isPostfix() || !Inc->isIncrementDecrementOp())
    return false;
  std::string Counter = lvalue(Inc->getSubExpr());
  const auto *ArrayRef = dyn_cast<DeclRefExpr>(Sub->getBase()->IgnoreParenImpCasts());
  const auto *Array = ArrayRef ? dyn_cast<VarDecl>(ArrayRef->getDecl()) : nullptr;
  std::string Type = typeName(Sub->getType(), Ctx.Ast);
  std::string CounterType = typeName(Inc->getSubExpr()->getType(), Ctx.Ast);
  int Id = Array ? variable(Array) : -1;
  CharSourceRange R = Ctx.fileRange(E);
  CharSourceRange ArrayText = Ctx.fileRange(Sub->getBase());
  CharSourceRange CounterText = Ctx.fileRange(Inc->getSubExpr());
  if (Counter.empty() || Counter[1] != 'v' || Id < 0 || Type.empty() || CounterType.empty() ||
      !Ctx.Ast.getAsConstantArrayType(Array->getType()) || R.isInvalid() || ArrayText.isInvalid() ||
      CounterText.isInvalid() || Ctx.touchesQuotedArgument(R))
    return false;
  const char *Delta = Inc->isIncrementOp() ? "+" : "-";
  const char *Undo = Inc->isIncrementOp() ? " - 1" : " + 1";
  unsigned Site = Table.newSites(2);
  Table.add(siteHead(Site, E->getBeginLoc(), "assign") + " (e " + std::to_string(Id) + " " +
            Counter + ") (cast " + Type + " " + expr(B->getRHS()) + ")");
  Table.add(siteHead(Site + 1, E->getBeginLoc(), "assign") + " " + Counter + " (cast " +
            CounterType + " (b " + Delta + " " + Counter + " (c i32 1)))");
  std::string C = Ctx.text(CounterText);
  Ctx.wrapInside(FirstEdit, R, "(",
                 "), " + step(Site, Ctx.text(ArrayText) + "[" + C + Undo + "]") + ", " +
                     step(Site + 1, C));
  return true;
}

bool PathRecorder::print(const CallExpr *Call) {
  // printf's integer arguments are outputs: the localizer compares them with the test's
  // expected output. Each reports its own site (C leaves the order of evaluation open).
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Callee || Callee->getName() != "printf" || Call->getNumArgs() < 1)
    return false;
  const auto *Format = dyn_cast<StringLiteral>(Call->getArg(0)->IgnoreParenImpCasts());
  if (!Format || !Format->isOrdinary())
    return false;
  unsigned Args = Call->getNumArgs() - 1;
  unsigned Site = Table.newSites(1 + Args);
  Table.add(siteHead(Site, Call->getBeginLoc(), "print") + " " + token(Format->getString()) + " " +
            std::to_string(Args));
  for (unsigned I = 0; I < Args; ++I) {
    const Expr *A = Call->getArg(I + 1);
    // The argument as passed (after the default promotions): its type is what the format reads.
    std::string Type = typeName(A->getType(), Ctx.Ast);
    CharSourceRange R = Ctx.fileRange(A);
    if (Type.empty() || Type.front() == 'p' || R.isInvalid() || Ctx.touchesQuotedArgument(R))
      continue;
    unsigned ArgSite = Site + 1 + I;
    Table.add(siteHead(ArgSite, A->getBeginLoc(), "arg") + " " + std::to_string(I) + " (cast " +
              Type + " " + expr(A) + ")");
    wrapReporting(R, A->getType(), ArgSite, "__sleuth_path_a");
  }
  CharSourceRange R = Ctx.fileRange(Call);
  if (R.isValid())
    Ctx.wrapInside(FirstEdit, R, discarded(Call), "), " + step(Site, "0"));
  return true;
}

void PathRecorder::condition(const Expr *Cond) {
  if (!Cond)
    return;
  CharSourceRange R = ConditionCounter::range(Ctx, Cond);
  if (R.isInvalid())
    R = Ctx.fileRange(Cond);
  if (R.isInvalid() || Ctx.touchesQuotedArgument(R))
    return;
  unsigned Site = Table.newSites(1);
  Table.add(siteHead(Site, Cond->getBeginLoc(), "cond") + " " + expr(Cond));
  Ctx.wrap(R, "sleuth_path_test(" + Unit + ", " + std::to_string(Site) + "u, !!(", "))");
}

void PathRecorder::returned(const ReturnStmt *S) {
  const Expr *Value = S->getRetValue();
  if (!Value)
    return; // the exit the cleanup reports is the return
  std::string Type = typeName(Function->getReturnType(), Ctx.Ast);
  CharSourceRange R = Ctx.fileRange(Value);
  if (Type.empty() || R.isInvalid() || Ctx.touchesQuotedArgument(R))
    return;
  unsigned Site = Table.newSites(1);
  Table.add(siteHead(Site, S->getBeginLoc(), "return") + " (cast " + Type + " " + expr(Value) +
            ")");
  wrapReporting(R, Function->getReturnType(), Site, "__sleuth_path_r");
}

std::string PathRecorder::lvalue(const Expr *E) {
  E = E->IgnoreParens();
  if (typeName(E->getType(), Ctx.Ast).empty())
    return "";
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
    const auto *V = dyn_cast<VarDecl>(Ref->getDecl());
    int Id = V ? variable(V) : -1;
    if (Id < 0 || Ctx.Ast.getAsConstantArrayType(V->getType()))
      return "";
    return "(v " + std::to_string(Id) + ")";
  }
  if (isa<ArraySubscriptExpr>(E) ||
      (isa<UnaryOperator>(E) && cast<UnaryOperator>(E)->getOpcode() == UO_Deref)) {
    std::string Text = expr(E);
    return Text.find(Unsupported) == std::string::npos ? Text : "";
  }
  return "";
}

std::string PathRecorder::expr(const Expr *E) {
  if (!E)
    return Unsupported;
  E = E->IgnoreParens();
  std::string Type = typeName(E->getType(), Ctx.Ast);
  // A constant (sizeof, an enumerator, a folded expression) is its value.
  if (!Type.empty() && Type.front() != 'p' && !E->isValueDependent() &&
      !E->HasSideEffects(Ctx.Ast) && !isa<DeclRefExpr>(E)) {
    Expr::EvalResult Result;
    if (E->EvaluateAsInt(Result, Ctx.Ast) && Result.Val.isInt())
      return "(c " + Type + " " + std::to_string(Result.Val.getInt().getExtValue()) + ")";
  }
  if (const auto *Cast = dyn_cast<CastExpr>(E)) {
    const Expr *Sub = Cast->getSubExpr();
    switch (Cast->getCastKind()) {
    case CK_LValueToRValue:
    case CK_NoOp:
      return expr(Sub);
    case CK_IntegralCast:
    case CK_IntegralToBoolean:
    case CK_BooleanToSignedIntegral:
      if (Type.empty())
        return Unsupported;
      return "(cast " + Type + " " + expr(Sub) + ")";
    case CK_ArrayToPointerDecay: {
      const auto *Ref = dyn_cast<DeclRefExpr>(Sub->IgnoreParens());
      const auto *V = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
      int Id = V ? variable(V) : -1;
      if (Id < 0 || Type.empty())
        return Unsupported;
      return "(addr (e " + std::to_string(Id) + " (c i64 0)))";
    }
    case CK_PointerToBoolean:
      return "(b != " + expr(Sub) + " (null " + typeName(Sub->getType(), Ctx.Ast) + "))";
    default:
      return Unsupported;
    }
  }
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    // A call of a function defined in a recorded unit is inlined by the localizer along the
    // path; any other call is a value the run recorded.
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee || !Callee->getIdentifier() || isa<CXXMethodDecl>(Callee))
      return Unsupported;
    std::string Out = "(call " + token(Callee->getName());
    for (const Expr *A : Call->arguments())
      Out += " " + expr(A);
    return Out + ")";
  }
  if (Type.empty())
    return Unsupported;
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
    const auto *V = dyn_cast<VarDecl>(Ref->getDecl());
    int Id = V ? variable(V) : -1;
    if (Id < 0 || Ctx.Ast.getAsConstantArrayType(V->getType()))
      return Unsupported;
    return "(v " + std::to_string(Id) + ")";
  }
  if (const auto *Sub = dyn_cast<ArraySubscriptExpr>(E)) {
    const Expr *Base = Sub->getBase()->IgnoreParenImpCasts();
    if (const auto *Ref = dyn_cast<DeclRefExpr>(Base)) {
      const auto *V = dyn_cast<VarDecl>(Ref->getDecl());
      int Id = V ? variable(V) : -1;
      if (Id >= 0 && Ctx.Ast.getAsConstantArrayType(V->getType()))
        return "(e " + std::to_string(Id) + " " + expr(Sub->getIdx()) + ")";
    }
    return "(deref (b + " + expr(Sub->getBase()) + " " + expr(Sub->getIdx()) + "))";
  }
  if (const auto *U = dyn_cast<UnaryOperator>(E)) {
    switch (U->getOpcode()) {
    case UO_Minus:
      return "(u - " + expr(U->getSubExpr()) + ")";
    case UO_Not:
      return "(u ~ " + expr(U->getSubExpr()) + ")";
    case UO_LNot:
      return "(u ! " + expr(U->getSubExpr()) + ")";
    case UO_Plus:
      return expr(U->getSubExpr());
    case UO_Deref:
      return "(deref " + expr(U->getSubExpr()) + ")";
    case UO_AddrOf: {
      std::string Target = lvalue(U->getSubExpr());
      return Target.empty() ? Unsupported : "(addr " + Target + ")";
    }
    default:
      return Unsupported;
    }
  }
  if (const auto *B = dyn_cast<BinaryOperator>(E)) {
    const char *Op = binaryOp(B->getOpcode());
    if (!Op)
      return Unsupported;
    return "(b " + std::string(Op) + " " + expr(B->getLHS()) + " " + expr(B->getRHS()) + ")";
  }
  if (const auto *C = dyn_cast<ConditionalOperator>(E))
    return "(t " + expr(C->getCond()) + " " + expr(C->getTrueExpr()) + " " +
           expr(C->getFalseExpr()) + ")";
  return Unsupported;
}

} // namespace sleuth::instrumenter
