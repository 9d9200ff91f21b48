#include "ValueCounter.h"

#include "Counters.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"

using namespace clang;

namespace sleuth::instrumenter {
namespace {

/// How a value is compared with 0: a signed number or a floating-point one by its sign; an
/// unsigned number, a `bool` or a pointer only as zero or not (it is never below 0).
enum class Comparison { None, Sign, Zero };

Comparison comparisonOf(QualType T) {
  if (T.isNull() || T->isDependentType() || T->isReferenceType() || T.isVolatileQualified())
    return Comparison::None;
  QualType C = T.getCanonicalType();
  if (C.isVolatileQualified() || C->isAtomicType())
    return Comparison::None;
  if (const auto *B = dyn_cast<BuiltinType>(C)) {
    switch (B->getKind()) {
    case BuiltinType::Float:
    case BuiltinType::Double:
    case BuiltinType::LongDouble:
      return Comparison::Sign;
    case BuiltinType::Bool:
      return Comparison::Zero;
    default:
      break;
    }
    if (B->isSignedInteger())
      return Comparison::Sign;
    if (B->isUnsignedInteger())
      return Comparison::Zero;
    return Comparison::None;
  }
  if (C->isPointerType())
    return Comparison::Zero;
  return Comparison::None;
}

/// Two values of this type can be ordered with `<` and `>` without a conversion: numbers,
/// not `bool` (and not pointers, whose order is only defined within one object).
bool orderable(QualType T) {
  QualType C = T.getCanonicalType();
  return comparisonOf(T) != Comparison::None && C->isArithmeticType() && !C->isBooleanType();
}

bool sameType(QualType A, QualType B) {
  return A.getCanonicalType().getUnqualifiedType() == B.getCanonicalType().getUnqualifiedType();
}

/// The variable a plain name refers to (`x`, not `::x`, `s.x` or a macro's `X`).
const VarDecl *namedVariable(const Expr *E) {
  const auto *Ref = dyn_cast<DeclRefExpr>(E->IgnoreParens());
  if (!Ref || Ref->hasQualifier() || !Ref->getLocation().isFileID())
    return nullptr;
  const auto *V = dyn_cast<VarDecl>(Ref->getDecl());
  if (!V || !V->getIdentifier() || isa<DecompositionDecl>(V))
    return nullptr;
  return V;
}

/// Counts the names declared anywhere in a function body.
class NameCounter : public RecursiveASTVisitor<NameCounter> {
public:
  explicit NameCounter(std::map<std::string, unsigned> &Names) : Names(Names) {}
  bool VisitNamedDecl(NamedDecl *D) {
    if (D->getIdentifier())
      ++Names[D->getName().str()];
    return true;
  }

private:
  std::map<std::string, unsigned> &Names;
};

} // namespace

ValueCounter::ValueCounter(Context &Ctx, CoverageTable &Table, const FunctionDecl *Function,
                           std::size_t FirstEdit)
    : Ctx(Ctx), Table(Table), Function(Function), FirstEdit(FirstEdit) {}

unsigned ValueCounter::run() {
  const Stmt *Body = Function->getBody();
  if (!Body)
    return 0;
  NameCounter Counter(DeclaredNames);
  for (const ParmVarDecl *P : Function->parameters())
    Counter.VisitNamedDecl(const_cast<ParmVarDecl *>(P));
  Counter.TraverseStmt(const_cast<Stmt *>(Body));
  for (const ParmVarDecl *P : Function->parameters())
    if (P->getIdentifier() && comparisonOf(P->getType()) != Comparison::None)
      InScope.push_back(P);
  visit(Body);
  return Sites;
}

void ValueCounter::visit(const Stmt *S) {
  if (!S || isa<LambdaExpr, BlockExpr>(S))
    return; // their bodies are functions of their own
  if (const auto *R = dyn_cast<ReturnStmt>(S))
    returned(R);
  if (const auto *Block = dyn_cast<CompoundStmt>(S)) {
    size_t Visible = InScope.size();
    // A declaration in a switch's body may be jumped over by a case label, uninitialized.
    bool SwitchBody = isa_and_nonnull<SwitchStmt>(Ctx.parent(Block));
    for (const Stmt *Child : Block->body()) {
      visitStatement(Child, Block);
      visit(Child);
      if (!SwitchBody)
        declareVisible(Child);
    }
    InScope.resize(Visible);
    return;
  }
  size_t Visible = InScope.size();
  if (const auto *L = dyn_cast<SwitchCase>(S))
    visitStatement(L->getSubStmt(), S);
  else if (const auto *L = dyn_cast<LabelStmt>(S))
    visitStatement(L->getSubStmt(), S);
  else if (const auto *If = dyn_cast<IfStmt>(S)) {
    visitStatement(If->getThen(), S);
    visitStatement(If->getElse(), S);
  } else if (const auto *W = dyn_cast<WhileStmt>(S))
    visitStatement(W->getBody(), S);
  else if (const auto *F = dyn_cast<ForStmt>(S)) {
    declareVisible(F->getInit()); // `for (int i = 0; ...)`: i has a value in the body
    visitStatement(F->getBody(), S);
  } else if (const auto *D = dyn_cast<DoStmt>(S))
    visitStatement(D->getBody(), S);
  else if (const auto *R = dyn_cast<CXXForRangeStmt>(S))
    visitStatement(R->getBody(), S);
  for (const Stmt *Child : S->children())
    visit(Child);
  InScope.resize(Visible);
}

void ValueCounter::declareVisible(const Stmt *S) {
  const auto *D = dyn_cast_or_null<DeclStmt>(S);
  if (!D)
    return;
  for (const Decl *Member : D->decls())
    if (const auto *V = dyn_cast<VarDecl>(Member);
        V && V->hasInit() && V->getIdentifier() && !V->isStaticLocal() &&
        !isa<DecompositionDecl>(V) && orderable(V->getType()))
      InScope.push_back(V);
}

void ValueCounter::visitStatement(const Stmt *S, const Stmt *Parent) {
  if (!S)
    return;
  // A statement of a block or after a label may be followed by more; the body of an `if` or a
  // loop is put in braces with the count.
  bool InBlock = isa<CompoundStmt, SwitchCase, LabelStmt>(Parent);
  if (const auto *D = dyn_cast<DeclStmt>(S)) {
    if (InBlock)
      declaration(D);
    return;
  }
  const auto *E = dyn_cast<Expr>(S);
  if (!E)
    return;
  E = E->IgnoreParens();
  const Expr *Target = nullptr;
  if (const auto *B = dyn_cast<BinaryOperator>(E); B && B->isAssignmentOp())
    Target = B->getLHS();
  else if (const auto *U = dyn_cast<UnaryOperator>(E); U && U->isIncrementDecrementOp())
    Target = U->getSubExpr();
  if (const VarDecl *V = Target ? namedVariable(Target) : nullptr)
    assignment(S, V, InBlock);
}

std::vector<const VarDecl *> ValueCounter::partners(const VarDecl *Value) const {
  std::vector<const VarDecl *> Out;
  if (!orderable(Value->getType()))
    return Out;
  for (auto It = InScope.rbegin(); It != InScope.rend() && Out.size() < MaxPartners; ++It) {
    const VarDecl *P = *It;
    if (P == Value || !sameType(P->getType(), Value->getType()) || !orderable(P->getType()))
      continue;
    auto Count = DeclaredNames.find(P->getName().str());
    if (Count == DeclaredNames.end() || Count->second != 1)
      continue;
    Out.push_back(P);
  }
  return Out;
}

std::string ValueCounter::outcomeIndex(unsigned First, const QualType &T, const std::string &Left,
                                       const std::string &Right) const {
  std::string Equal = std::to_string(First + 1);
  if (Right == "0" && comparisonOf(T) == Comparison::Zero)
    return Equal + " + !!(" + Left + ")";
  return Equal + " + ((" + Left + ") > " + Right + ") - ((" + Left + ") < " + Right + ")";
}

std::vector<ValueCounter::Increment> ValueCounter::counters(SourceLocation At, const VarDecl *Value,
                                                            const std::string &Left) {
  SourceLocation L = Ctx.SM.getFileLoc(At);
  unsigned Line = Ctx.SM.getSpellingLineNumber(L), Column = Ctx.SM.getSpellingColumnNumber(L);
  std::vector<std::pair<std::string, std::string>> Compared = {{"0", "0"}};
  if (Value)
    for (const VarDecl *P : partners(Value))
      Compared.push_back({P->getName().str(), "(" + P->getName().str() + ")"});
  QualType T = Value ? Value->getType() : Function->getReturnType();
  std::vector<Increment> Out;
  for (const auto &[Name, Operand] : Compared) {
    unsigned First = Table.newCounter();
    Table.newCounter();
    Table.newCounter();
    Table.Values.push_back({Line, Column, Value ? Value->getName().str() : "return", Name, First});
    Out.push_back(
        {First, "++" + Ctx.CounterName + "[" + outcomeIndex(First, T, Left, Operand) + "]"});
  }
  ++Sites;
  return Out;
}

std::string ValueCounter::statements(const std::vector<Increment> &Increments) {
  std::string Text;
  for (const Increment &I : Increments)
    Text += " " + I.Text + ";";
  return Text;
}

void ValueCounter::assignment(const Stmt *S, const VarDecl *Target, bool InBlock) {
  if (comparisonOf(Target->getType()) == Comparison::None)
    return;
  CharSourceRange R = Ctx.fileRange(S);
  CharSourceRange WithSemicolon = Ctx.withSemicolon(R);
  if (R.isInvalid() || WithSemicolon.getEnd() == R.getEnd() || Ctx.touchesQuotedArgument(R))
    return;
  std::string Text = statements(counters(S->getBeginLoc(), Target, Target->getName().str()));
  if (InBlock)
    Ctx.wrap(CharSourceRange::getCharRange(WithSemicolon.getEnd(), WithSemicolon.getEnd()), "",
             Text);
  else // inside the braces of a block counter that wraps this body or a loop it is the body of
    Ctx.wrapInside(FirstEdit, WithSemicolon, "{ ", Text + " }");
}

void ValueCounter::declaration(const DeclStmt *S) {
  CharSourceRange R = Ctx.fileRange(S);
  if (R.isInvalid() || Ctx.touchesQuotedArgument(R))
    return;
  std::string Text;
  for (const Decl *D : S->decls()) {
    const auto *V = dyn_cast<VarDecl>(D);
    if (!V || !V->hasInit() || !V->getIdentifier() || V->isStaticLocal() || V->isConstexpr() ||
        isa<DecompositionDecl>(V) || comparisonOf(V->getType()) == Comparison::None ||
        !V->getLocation().isFileID())
      continue;
    std::vector<Increment> Increments = counters(V->getLocation(), V, V->getName().str());
    if (!Ctx.isC()) {
      Text += statements(Increments);
      continue;
    }
    // C before C99 allows no statement before the declarations that may follow: count in the
    // initializer of a declaration of its own.
    for (const Increment &I : Increments)
      Text += " __attribute__((unused)) unsigned long __sleuth_cov_v" + std::to_string(I.First) +
              " = " + I.Text + ";";
  }
  if (!Text.empty())
    Ctx.wrap(CharSourceRange::getCharRange(R.getEnd(), R.getEnd()), "", Text);
}

void ValueCounter::returned(const ReturnStmt *S) {
  const Expr *Value = S->getRetValue();
  if (!Value || isa<InitListExpr>(Value->IgnoreImplicit()))
    return;
  QualType T = Function->getReturnType().getCanonicalType().getUnqualifiedType();
  if (comparisonOf(T) == Comparison::None)
    return;
  if (T->isPointerType() && !isa<BuiltinType>(T->getPointeeType().getCanonicalType()))
    return; // the type is spelled in the text: only pointers to builtin types are simple
  CharSourceRange R = Ctx.fileRange(Value);
  if (R.isInvalid() || Ctx.touchesQuotedArgument(R))
    return;
  unsigned First = unsigned(Table.numCounters());
  std::string Temporary = "__sleuth_rv" + std::to_string(First);
  std::string Text = statements(counters(S->getBeginLoc(), nullptr, Temporary));
  PrintingPolicy Policy(Ctx.Ast.getLangOpts());
  // A GNU statement expression (`__extension__`: no -pedantic warning) evaluates the value once,
  // converted to the return type as `return` would, counts it and yields it.
  Ctx.wrap(R, "__extension__ ({ " + T.getAsString(Policy) + " " + Temporary + " = (",
           ");" + Text + " " + Temporary + "; })");
}

} // namespace sleuth::instrumenter
