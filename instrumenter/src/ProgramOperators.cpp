#include "ProgramOperators.h"

#include "Context.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/RecursiveASTVisitor.h"

using namespace clang;

namespace sleuth::instrumenter {

namespace {

bool isComparison(OverloadedOperatorKind K) {
  switch (K) {
  case OO_Less:
  case OO_Greater:
  case OO_LessEqual:
  case OO_GreaterEqual:
  case OO_EqualEqual:
  case OO_ExclaimEqual:
  case OO_Spaceship:
    return true;
  default:
    return false;
  }
}

// The class a comparison's parameter of type T takes: the class of a reference or pointer to
// it, a class template's pattern for a specialization of it that waits for the instantiation
// (`const Box<T> &`).
const Decl *classOf(QualType T) {
  T = T.getNonReferenceType();
  if (const auto *Pointer = T->getAs<PointerType>())
    T = Pointer->getPointeeType();
  if (const auto *Specialization = T->getAs<TemplateSpecializationType>())
    if (const auto *Template = dyn_cast_or_null<ClassTemplateDecl>(
            Specialization->getTemplateName().getAsTemplateDecl()))
      return Template->getTemplatedDecl()->getCanonicalDecl();
  if (const CXXRecordDecl *Record = T->getAsCXXRecordDecl())
    return Record->getCanonicalDecl();
  return nullptr;
}

class OperatorFinder : public RecursiveASTVisitor<OperatorFinder> {
public:
  OperatorFinder(const SourceManager &SM, llvm::DenseSet<const Decl *> &Compared, bool &AnyClass)
      : SM(SM), Compared(Compared), AnyClass(AnyClass) {}

  // The library's own operators compare the library's types (or the program's through
  // operators of the program's, which this visitor finds).
  bool TraverseDecl(Decl *D) {
    if (isLibraryDeclaration(D, SM))
      return true;
    return RecursiveASTVisitor::TraverseDecl(D);
  }

  bool VisitFunctionDecl(FunctionDecl *D) {
    // A defaulted comparison has no body of the program's to enter.
    if (!isComparison(D->getOverloadedOperator()) || D->isDefaulted())
      return true;
    if (const auto *Method = dyn_cast<CXXMethodDecl>(D))
      Compared.insert(Method->getParent()->getCanonicalDecl());
    for (const ParmVarDecl *Param : D->parameters()) {
      QualType T = Param->getType().getNonReferenceType();
      if (T->getAs<TemplateTypeParmType>())
        AnyClass = true;
      else if (const Decl *Class = classOf(T))
        Compared.insert(Class);
    }
    return true;
  }

private:
  const SourceManager &SM;
  llvm::DenseSet<const Decl *> &Compared;
  bool &AnyClass;
};

} // namespace

ProgramOperators::ProgramOperators(Context &Ctx) : Ctx(Ctx) {
  OperatorFinder Finder(Ctx.SM, Compared, AnyClass);
  Finder.TraverseDecl(Ctx.Ast.getTranslationUnitDecl());
}

ProgramOperators &ProgramOperators::of(Context &Ctx) {
  if (!Ctx.ComparisonOperators)
    Ctx.ComparisonOperators.reset(new ProgramOperators(Ctx));
  return *Ctx.ComparisonOperators;
}

bool ProgramOperators::mayCompare(QualType T) const {
  if (Compared.empty() && !AnyClass)
    return false;
  return mayCompare(T.getCanonicalType().getTypePtr(), 0);
}

bool ProgramOperators::mayCompare(const Type *T, unsigned Depth) const {
  // Deep enough for an iterator of a container of pairs of the program's class.
  if (Depth > 6)
    return false;
  T = T->getCanonicalTypeUnqualified().getTypePtr();
  while (T->isReferenceType() || T->isPointerType() || T->isArrayType())
    T = (T->isArrayType() ? T->getArrayElementTypeNoTypeQual() : T->getPointeeType().getTypePtr())
            ->getCanonicalTypeUnqualified()
            .getTypePtr();
  const CXXRecordDecl *Record = T->getAsCXXRecordDecl();
  if (!Record)
    return false;
  if (auto Known = Answers.find(T); Known != Answers.end())
    return Known->second;
  bool Answer = false;
  const auto *Specialization = dyn_cast<ClassTemplateSpecializationDecl>(Record);
  if (!Ctx.SM.isInSystemHeader(Ctx.SM.getFileLoc(Record->getLocation()))) {
    Answer =
        AnyClass || Compared.contains(Record->getCanonicalDecl()) ||
        (Specialization &&
         Compared.contains(
             Specialization->getSpecializedTemplate()->getTemplatedDecl()->getCanonicalDecl()));
  } else if (Specialization) {
    auto Visit = [&](const TemplateArgument &Argument) {
      return Argument.getKind() == TemplateArgument::Type &&
             mayCompare(Argument.getAsType().getTypePtr(), Depth + 1);
    };
    for (const TemplateArgument &Argument : Specialization->getTemplateArgs().asArray()) {
      if (Argument.getKind() == TemplateArgument::Pack) {
        for (const TemplateArgument &Element : Argument.pack_elements())
          Answer = Answer || Visit(Element);
      } else {
        Answer = Answer || Visit(Argument);
      }
      if (Answer)
        break;
    }
  }
  Answers[T] = Answer;
  return Answer;
}

} // namespace sleuth::instrumenter
