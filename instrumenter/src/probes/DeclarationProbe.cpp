#include "Probes.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/TypeLoc.h"
#include "clang/Lex/Lexer.h"

using namespace clang;

namespace sleuth::instrumenter {

static bool isTrackedVariable(const VarDecl *V, FunctionInstrumenter &F) {
  bool Cxx = F.isCxx();
  if (F.Locals.companion(V))
    return V->getInit() != nullptr;
  QualType T = V->getType();
  // A dependent type is fine in C++: the probe only takes the address and the size.
  if (Cxx && T->isDependentType())
    return V->hasLocalStorage() && V->getInit() && !V->isConstexpr() && !T->isReferenceType() &&
           !isa<DecompositionDecl>(V) && !isa<ParmVarDecl>(V) && !V->getDeclName().isEmpty() &&
           !T->getContainedAutoType();
  return V->hasLocalStorage() && V->getInit() && !V->isConstexpr() && !T->isReferenceType() &&
         !T->isVariablyModifiedType() && !T->isAtomicType() && !isa<DecompositionDecl>(V) &&
         !isa<ParmVarDecl>(V) && V->getStorageClass() != SC_Register && !T->isDependentType() &&
         !V->getDeclName().isEmpty();
}

// True if V is initialized by a constructor of the program's that is instrumented here
// (`Point p(x, y);`): its member initializers and body record the writes of the members
// (FrameProbe), which a write of the whole object after it would overwrite with the
// declaration's node. Then the declaration's node writes nothing.
static bool constructedByInstrumentedCode(const VarDecl *V, FunctionInstrumenter &F) {
  const auto *Construct = dyn_cast_or_null<CXXConstructExpr>(V->getInit()->IgnoreImplicit());
  const CXXConstructorDecl *Ctor = Construct ? Construct->getConstructor() : nullptr;
  const FunctionDecl *Definition = nullptr;
  if (!Ctor || !Ctor->isUserProvided() || !Ctor->hasBody(Definition) || !Definition ||
      Definition->isTemplateInstantiation())
    return false;
  return F.Ctx.instrumentable(F.Ctx.SM.getFileLoc(Definition->getLocation()));
}

// The type named by the declaration's specifiers, without the declarator's *, [] and ():
// extra declarators appended to the declaration get this type.
static QualType specifierType(const VarDecl *V) {
  TypeSourceInfo *TSI = V->getTypeSourceInfo();
  if (!TSI)
    return {};
  TypeLoc TL = TSI->getTypeLoc();
  while (true) {
    TL = TL.getUnqualifiedLoc();
    if (auto P = TL.getAs<PointerTypeLoc>())
      TL = P.getPointeeLoc();
    else if (auto A = TL.getAs<ArrayTypeLoc>())
      TL = A.getElementLoc();
    else if (auto Pa = TL.getAs<ParenTypeLoc>())
      TL = Pa.getInnerLoc();
    else if (auto Fn = TL.getAs<FunctionTypeLoc>())
      TL = Fn.getReturnLoc();
    else
      break;
  }
  return TL.getType();
}

// The position just after the semicolon that ends Decl, on the same line.
static SourceLocation afterSemicolon(CharSourceRange Whole, FunctionInstrumenter &F) {
  return Lexer::getLocForEndOfToken(Whole.getEnd().getLocWithOffset(-1), 0, F.Ctx.SM,
                                    F.Ctx.Ast.getLangOpts());
}

// `auto [a, b] = p;`: the compiler copies p into an object of its own, which the bindings
// name, unseen. Each binding with an address becomes a write after the declaration, reading
// the initializer: its object again where it may be evaluated once more, else through the
// first binding, which took the initializer's reads. A declaration by reference names the
// initializer's own object, whose origins are there already.
bool DeclarationProbe::writesBindings(const DecompositionDecl *D, FunctionInstrumenter &F) {
  return F.isCxx() && !D->getType()->isReferenceType() && isBlockDecomposition(D, F.Ctx);
}

bool DeclarationProbe::isRecordedBinding(const BindingDecl *B, bool Dependent,
                                         FunctionInstrumenter &F) {
  if (B->getDeclName().isEmpty())
    return false;
  if (Dependent)
    return ReadProbe::isAddressableBinding(B, F);
  const Expr *Bound = B->getBinding();
  return Bound && !Bound->refersToBitField();
}

static bool instrumentDecomposition(const DeclStmt *Decl, const DecompositionDecl *D,
                                    CharSourceRange Whole, FunctionInstrumenter &F) {
  if (!DeclarationProbe::writesBindings(D, F))
    return false;
  const Expr *Init = D->getInit();
  bool Dependent = D->getType()->isDependentType();
  std::vector<const BindingDecl *> Bindings;
  for (const BindingDecl *B : D->bindings())
    if (DeclarationProbe::isRecordedBinding(B, Dependent, F) || F.Locals.companion(B))
      Bindings.push_back(B);
  if (Bindings.empty())
    return false;
  // The initializer's object, read again by each binding.
  const Expr *Source = Init->IgnoreParenImpCasts();
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(Source);
      Construct && Construct->getNumArgs() == 1)
    Source = Construct->getArg(0)->IgnoreParenImpCasts();
  std::string Object;
  bool Addressable = Source->isTypeDependent() ? isLvalueInEveryInstantiation(Source)
                                               : Source->isLValue() && hasAddress(Source);
  if (Addressable && isRepeatable(Source, F.Ctx.Ast) && F.Ctx.fileRange(Source).isValid()) {
    std::string Text = F.Ctx.text(F.Ctx.fileRange(Source));
    Object = "__builtin_addressof(" + Text + "), sizeof(" + Text + ")";
  }
  std::string Statement;
  std::string First;
  const std::string *FirstOrigin = nullptr; // the first binding's companion, if a bit-field's
  for (const BindingDecl *B : Bindings) {
    std::string Name = B->getNameAsString();
    unsigned Site = F.addSite(SiteKind::Var, Init, B->getLocation(), Name);
    std::string Unit = F.Ctx.unitAndSite(Site) + ", " + F.control(Site);
    std::string Reads, Cache = F.readCache();
    if (First.empty())
      F.claimReads(Init, Site);
    else if (!Object.empty())
      Reads = "sleuth_getc(&" + F.Ctx.UnitName + ", " + Cache + ", " + std::to_string(Site) +
              "u, " + Object + "), ";
    else if (FirstOrigin)
      Reads = F.Ctx.checkedRead(Cache, std::to_string(Site) + "u", *FirstOrigin) + ", ";
    else
      Reads = "(void)sleuth::rdc(&" + F.Ctx.UnitName + ", " + Cache + ", " + std::to_string(Site) +
              "u, " + First + "), ";
    // A binding of a bit-field has no address: its origin lives in its companion.
    const std::string *Origin = F.Locals.companion(B);
    std::string Write = Origin ? "(void)(" + *Origin + " = " +
                                     keptWriteProbe(B, Name, "sleuth_def", Unit, false, F) + ")"
                               : "(void)sleuth_decl(" + Unit + ", __builtin_addressof(" + Name +
                                     "), sizeof(" + Name + "))";
    Statement += " int __sleuth_d" + std::to_string(Site) + " __attribute__((unused)) = (" + Reads +
                 Write + ", 0);";
    if (First.empty()) {
      First = Name;
      FirstOrigin = Origin;
    }
    F.countProbe();
  }
  SourceLocation Semi = afterSemicolon(Whole, F);
  F.Ctx.wrap(CharSourceRange::getCharRange(Semi, Semi), "", Statement);
  F.markConsumed(Decl);
  return true;
}

// `auto &[on, level] = f;` names bit-fields of f itself, which have no address: a reference to
// f, declared after it, lets BitFieldProbe reach their bytes (f again names the same object
// there: it has no side effects). A use, not `unused`, keeps it from -Wunused-variable (and
// -Wused-but-marked-unused where it is read).
static bool nameBoundObject(const DecompositionDecl *D, CharSourceRange Whole,
                            FunctionInstrumenter &F) {
  bool BindsBitField = llvm::any_of(D->bindings(), [](const BindingDecl *B) {
    return B->getBinding() && B->getBinding()->refersToBitField();
  });
  if (!BindsBitField || D->getType()->isDependentType() || !isBlockDecomposition(D, F.Ctx))
    return false;
  const Expr *Source = D->getInit()->IgnoreParenImpCasts();
  CharSourceRange R = F.Ctx.fileRange(Source);
  if (!Source->isLValue() || !isRepeatable(Source, F.Ctx.Ast) || R.isInvalid())
    return false;
  std::string Name =
      "__sleuth_b" + std::to_string(F.FunctionId) + "_" + std::to_string(F.BoundObjects.size());
  SourceLocation Semi = afterSemicolon(Whole, F);
  F.Ctx.wrap(CharSourceRange::getCharRange(Semi, Semi), "",
             " auto &" + Name + " = (" + F.Ctx.text(R) + "); (void)" + Name + ";");
  F.BoundObjects[D] = Name;
  return true;
}

bool DeclarationProbe::instrument(const DeclStmt *Decl, FunctionInstrumenter &F) {
  CharSourceRange Whole = F.Ctx.fileRange(Decl);
  if (Whole.isInvalid())
    return false;
  if (const auto *D =
          Decl->isSingleDecl() ? dyn_cast<DecompositionDecl>(Decl->getSingleDecl()) : nullptr)
    return D->getType()->isReferenceType() ? nameBoundObject(D, Whole, F)
                                           : instrumentDecomposition(Decl, D, Whole, F);
  std::vector<const VarDecl *> Tracked;
  for (const clang::Decl *D : Decl->decls()) {
    const auto *V = dyn_cast<VarDecl>(D);
    if (V && isTrackedVariable(V, F) && F.Ctx.expansionRange(V->getSourceRange()).isValid())
      Tracked.push_back(V);
  }
  if (Tracked.empty())
    return false;
  const Stmt *Parent = F.Ctx.parent(Decl);
  bool InBlock = Parent && isa<CompoundStmt>(Parent);
  bool Single = Decl->isSingleDecl();
  // Several declarators (`int a = f(), b = a;`): each write is recorded right after its own
  // declarator, by a dummy declarator of the specifier type, which must accept an int.
  QualType Spec = specifierType(Tracked.front());
  // (An enumeration in C++ takes no int: `E a = f(), b = g();` is left to the statement form.)
  auto TakesInt = [&F](QualType T) {
    return !T.isNull() && T->isArithmeticType() && !T->getContainedAutoType() &&
           !(F.isCxx() && T->isEnumeralType());
  };
  bool InlineDeclarators = !Single && TakesInt(Spec);
  // The dummy declarator's value: 0, or a null pointer where it is declared a pointer to the
  // specifier type (`for (struct node *p = head; …)`, whose specifiers take no int).
  std::string Zero = "0";
  std::string Declarator = "__sleuth_d";
  if (!InBlock && !InlineDeclarators) {
    bool InFor = Single && Parent && isa<ForStmt>(Parent);
    bool PointerSpec = InFor && !Spec.isNull() && !Spec->getContainedAutoType() &&
                       Tracked.front()->getType()->isPointerType() &&
                       !Tracked.front()->getType()->getContainedAutoType();
    // for (T x = …;) with a class type: a dummy declarator would not convert; leave it.
    if (!(InFor && TakesInt(Spec)) && !PointerSpec)
      return false;
    if (!TakesInt(Spec)) {
      Zero = F.isCxx() ? "nullptr" : "(void *)0";
      Declarator = "*__sleuth_d";
    }
    InlineDeclarators = true;
  }
  std::string Statement;
  for (const VarDecl *V : Tracked) {
    std::string Name = V->getNameAsString();
    unsigned Site = F.addSite(SiteKind::Var, V->getInit(), V->getLocation(), Name);
    F.claimReads(V->getInit(), Site);
    std::string Unit = F.Ctx.unitAndSite(Site) + ", " + F.control(Site);
    std::string Dummy = Declarator + std::to_string(Site) + " __attribute__((unused)) = ";
    if (const std::string *Origin = F.Locals.companion(V)) {
      std::string Probe =
          F.Ctx.AddressedLocals ? std::string("sleuth_def") : F.nodeProbe("sleuth_def", Decl);
      Dummy += "((void)(" + *Origin + " = " + keptWriteProbe(V, Name, Probe, Unit, false, F) +
               "), " + Zero + ")";
      // After the statement, the companion is assigned later than the initializer runs.
      F.Statics.noteWrite(V, V->getInit(), Site, InlineDeclarators || Single);
    } else if (F.isCxx() && constructedByInstrumentedCode(V, F)) {
      Dummy += "((void)sleuth_def(" + Unit + "), " + Zero + ")";
    } else {
      std::string Addr = addressOf(V->getType(), Name, F.isCxx());
      // A constant as the value: an extra declarator of the specifiers' type (`const char *c
      // = v, __sleuth_dN`: a char) takes it without a narrowing warning (-Wconversion).
      Dummy +=
          "((void)sleuth_decl(" + Unit + ", " + Addr + ", sizeof(" + Name + ")), " + Zero + ")";
    }
    if (InlineDeclarators) {
      CharSourceRange R = F.Ctx.expansionRange(V->getSourceRange());
      F.Ctx.wrap(CharSourceRange::getCharRange(R.getEnd(), R.getEnd()), "", ", " + Dummy);
    } else {
      Statement += " int " + Dummy + ";";
    }
    F.countProbe();
  }
  if (!Statement.empty()) {
    // After the declaration's semicolon (the DeclStmt ends with it), on the same line.
    SourceLocation Semi = afterSemicolon(Whole, F);
    F.Ctx.wrap(CharSourceRange::getCharRange(Semi, Semi), "", Statement);
  }
  F.markConsumed(Decl);
  return true;
}

} // namespace sleuth::instrumenter
