// The probe kinds of dependence mode, one class each (as clang-tidy has one class per check).
// Each `instrument` is called in post-order for every node of a function body that the walker
// considers; it returns true if it rewrote the node.
#pragma once

#include <optional>

#include "../FunctionInstrumenter.h"

namespace sleuth::instrumenter {

/// Reads: an lvalue-to-rvalue conversion of an addressable lvalue records the lvalue's origin.
class ReadProbe {
public:
  static bool instrument(const clang::ImplicitCastExpr *Cast, FunctionInstrumenter &F);
  /// In a template pattern, an operand whose type or whose operator waits for the instantiation
  /// has no implicit conversion: an lvalue that is one in every instantiation (a variable, a
  /// field, a builtin subscript or `*`) used as such an operand is taken as a read, by syntax.
  static bool instrumentDependent(const clang::Expr *L, FunctionInstrumenter &F);
  /// True if B, a structured binding of dependent type in a template pattern, names an object
  /// with an address in every instantiation of the unit (no bit-field, no array).
  static bool isAddressableBinding(const clang::BindingDecl *B, FunctionInstrumenter &F);

  /// The forms of a read of a local kept in the companion Origin.
  static FunctionInstrumenter::ReadForms keptRead(const std::string &Origin,
                                                  FunctionInstrumenter &F);
  /// The forms of a read of the Size bytes at Address (texts) through the shadow memory.
  static FunctionInstrumenter::ReadForms
  bytesRead(const std::string &Address, const std::string &Size, FunctionInstrumenter &F);
  /// The forms of a C read of the lvalue L spelled Text (repeatable) through the shadow memory.
  static FunctionInstrumenter::ReadForms memoryRead(const clang::Expr *L, const std::string &Text,
                                                    FunctionInstrumenter &F);
  /// The forms of a C++ read through the shadow memory, wrapped around the lvalue.
  static FunctionInstrumenter::ReadForms cxxRead(FunctionInstrumenter &F);
};

/// Reads and writes of bit-fields, which have no address: each is of the bytes of its record
/// that hold its bits (bitFieldBytes), `sleuth_get(&(b) + 1, 1u)`. A write reads their old
/// value, as a compound write does: the bits of the fields sharing them stay.
class BitFieldProbe {
public:
  static bool instrumentRead(const clang::ImplicitCastExpr *Cast, FunctionInstrumenter &F);
  /// Write, an assignment or ++/--, stores into L. Its value, where used, is read from the
  /// bytes again (not a postfix ++/--'s, the old value: such a write is left unrecorded).
  static bool instrumentWrite(const clang::Expr *Write, const clang::Expr *L,
                              FunctionInstrumenter &F);
  /// The bytes of the bit-field that L names: a member (bitFieldBytes), or a binding of a
  /// declaration by reference, through F.BoundObjects.
  static std::optional<BitFieldBytes> bytesOf(const clang::Expr *L, FunctionInstrumenter &F);
};

/// The probe of a write of the kept local V (its text Name) whose node is Unit ("&tu, SITE, CTL"):
/// Probe(Unit), Probe a sleuth_def or its twin, or in a build for the soundness oracle
/// (Context::AddressedLocals) sleuth_def_at, or sleuth_defnow_at where the probe runs before the
/// store, which also pass the local's address, so that a perturbed run can change what it
/// stored (not a C `register` variable's, nor a binding of a bit-field's, which have none).
std::string keptWriteProbe(const clang::ValueDecl *V, const std::string &Name,
                           const std::string &Probe, const std::string &Unit, bool BeforeStore,
                           FunctionInstrumenter &F);

/// Reads that a macro's expansion hides from the rewriter (`#define SQUARE(v) ((v) * (v))`: the
/// argument is spelled twice; a macro body naming a local; glibc's `tolower(*s)`, a statement
/// expression when optimizing): a local or parameter read inside an expression that is one
/// whole macro expansion, or a memory lvalue written in one of its arguments whose address
/// loads only variables (`*s`, `p->len`, `v[i]`), is read just before that expression, where
/// the text is the file's. The expression then reads what the macro read.
class MacroReadProbe {
public:
  /// Called for a read whose own text is not a plain file range.
  static void record(const clang::ImplicitCastExpr *Read, FunctionInstrumenter &F);
  /// Called for every expression after its own probes: prefixes the reads recorded for it.
  static bool instrument(const clang::Expr *E, FunctionInstrumenter &F);
};

/// Writes: `=`, compound assignments, `++`/`--` on scalars.
class WriteProbe {
public:
  static bool instrument(const clang::BinaryOperator *Assign, FunctionInstrumenter &F);
  static bool instrument(const clang::UnaryOperator *IncDec, FunctionInstrumenter &F);
  /// Whether E (parentheses aside) is a C++ assignment to a kept local whose value is read: the
  /// write's rewrite reads it, from the companion, so no read of the shadow memory must.
  static bool readsKeptValue(const clang::Expr *E, FunctionInstrumenter &F);
};

/// Declarations with initializers: each declarator's write is recorded right after it.
class DeclarationProbe {
public:
  static bool instrument(const clang::DeclStmt *Decl, FunctionInstrumenter &F);
  /// True if the bindings of D (`auto [a, b] = p;`) are written after its declaration: a copy
  /// with an initializer, local, declared alone as a statement of a block.
  static bool writesBindings(const clang::DecompositionDecl *D, FunctionInstrumenter &F);
  /// True if B's write is recorded where its declaration's are (by DeclarationProbe or
  /// RangeForProbe): named, and with an address (in every instantiation where Dependent).
  static bool isRecordedBinding(const clang::BindingDecl *B, bool Dependent,
                                FunctionInstrumenter &F);
};

/// A C compound literal whose address the program takes (`f(&(struct s){a, b})`, an array one
/// passed as a pointer, `sum((int[]){a, b}, 2)`): its creation is a write of the whole object,
/// a node named `(struct s){...}` that the initializer's reads flow into, so that reads through
/// the pointer find it and not what the stack slot's earlier objects left there. (A literal read
/// by value needs none: its initializer's reads flow into what consumes it.)
class CompoundLiteralProbe {
public:
  static bool instrument(const clang::CompoundLiteralExpr *Literal, FunctionInstrumenter &F);
};

/// Conditions of if/while/for/do/switch become <test> nodes.
class ConditionProbe {
public:
  static bool instrument(const clang::Stmt *Statement, FunctionInstrumenter &F);
  /// Wraps the condition R in the test probe of Site (`Unit`: the unit, site and control
  /// arguments); ValueFlow, if not empty, is a void expression run with the outcome known.
  /// Full: the full expression the test belongs to (see FunctionInstrumenter::nodeProbe).
  static void wrapTest(clang::CharSourceRange R, unsigned Site, const std::string &Unit,
                       const std::string &ValueFlow, const clang::Stmt *Full,
                       FunctionInstrumenter &F);
  /// The text that goes before and after a condition to make it test Site (see wrapTest).
  static std::pair<std::string, std::string> testText(unsigned Site, const std::string &Unit,
                                                      const std::string &ValueFlow,
                                                      const clang::Stmt *Full,
                                                      FunctionInstrumenter &F);
};

/// Range-for: the loop is a test, which reads the range's object and controls the body as a
/// `while` condition does; each iteration writes the loop variable (each name of a structured
/// binding) from the element and the range's object.
class RangeForProbe {
public:
  static bool instrument(const clang::CXXForRangeStmt *For, FunctionInstrumenter &F);
};

/// A call of the library that calls the program's code with the call's own arguments:
/// `std::make_unique<T>(a, b)` and `make_shared` (T's constructor), `v.emplace_back(a)` of a
/// sequence container, `o.emplace(a)` of a std::optional, `std::construct_at(p, a)`,
/// `std::invoke(f, a)` (a lambda or function of the program's), a std::function's call, a
/// container's `emplace`/`try_emplace`, `std::visit(visitor, v)`, a std::thread's function. A call
/// record for that callee (sleuth_forward) with each argument marked at the position of the
/// parameter it becomes, so that the parameters take its origins; the reads stay the library
/// call's too (its value, the container's write).
class ForwardingCallProbe {
public:
  struct Record {
    unsigned Site, Key;
    /// A std::thread's function, which sleuth::ThreadStart stands for (null: none).
    const clang::Expr *ThreadFunction = nullptr;
  };
  /// Before the library's own probes claim the arguments' reads: pushes and marks them.
  static std::optional<Record> markArguments(const clang::CallExpr *Call, FunctionInstrumenter &F);
  /// After them, so that it stands outside their edits of the call: the record.
  static void recordCall(const clang::CallExpr *Call, const Record &Forward,
                         FunctionInstrumenter &F);
  /// `std::thread t(f, a, b)`: f's record, made by the arguments (before the library's probes
  /// claim their reads)...
  static std::optional<Record> markThreadArguments(const clang::CXXConstructExpr *Construct,
                                                   FunctionInstrumenter &F);
  /// ... and taken to the new thread by sleuth::ThreadStart in the place of f (after the
  /// library's probes, outside their edits of f).
  static void recordThread(const Record &Thread, FunctionInstrumenter &F);
};

/// A local whose destruction runs the program's code (`Guard g;`, `std::vector<Guard> v;`) gets
/// a companion sleuth::Scope declared right before it, which tells the destructor entered
/// implicitly when the scope ends what controls that end (sleuth/runtime/scopes.h): the
/// declaration's control, or that of an `if` of the block whose branch throws, which the
/// statement after it names. Called for a block, after its statements.
class ScopeProbe {
public:
  static bool instrument(const clang::CompoundStmt *Block, FunctionInstrumenter &F);
};

/// A call of the library that may call the program's code back while it runs: a callable among
/// its arguments (`qsort(v, n, s, cmp)`, `std::sort(b, e, lambda)`, `std::for_each(b, e, f)`)
/// or kept by the container it is a member of (`s.insert(x)` of a `std::set<int, Cmp>`). The
/// functions of the program's that the library enters meanwhile with no call record of their
/// own are controlled by what controls the call (sleuth_library_call, and sleuth::LibraryCall in
/// C++), for every entry until the call returns.
/// True if `(probe, E)` means what E meant: not so for a null pointer constant (the comma's value
/// is none), a function's name or address (an overload set the target type picks from).
bool keepsMeaningInComma(const clang::Expr *E, FunctionInstrumenter &F);

class LibraryCallbackProbe {
public:
  /// After the other probes of the call, so that it stands outside their edits of it.
  static void instrument(const clang::CallExpr *Call, FunctionInstrumenter &F);
  /// A library constructor that may call back (`std::set<int, Cmp> s(b, e)`, a std::map from
  /// an initializer list): the probe is a temporary made in one of its arguments.
  static void instrumentConstruction(const clang::CXXConstructExpr *Construct,
                                     FunctionInstrumenter &F);
  /// In a template pattern, a declaration of a variable of dependent type
  /// (`std::set<T, Less> s(b, e);`) whose every instantiation is such a construction.
  static void instrumentDependentConstruction(const clang::DeclStmt *Decl, FunctionInstrumenter &F);
};

/// A signal the program sends itself (`raise(sig)`, `kill(getpid(), sig)`,
/// `pthread_kill(pthread_self(), sig)`): its handler runs inside the call, as a callee of it.
/// A call record for any callee (sleuth_forward) under the call's control, the signal number
/// marked as the handler's parameter, so that the handler's statements are controlled by what
/// controls the call and its parameter reads the argument. (A signal arriving asynchronously
/// has no call that made it: its handler enters with no record, controlled by nothing.)
class SignalProbe {
public:
  struct Record {
    unsigned Site;
  };
  /// Before the library's own probes claim the argument's reads: pushes and marks them.
  static std::optional<Record> markSignal(const clang::CallExpr *Call, FunctionInstrumenter &F);
  /// After them, so that it stands outside their edits of the call: the record.
  static void recordCall(const clang::CallExpr *Call, const Record &Signal,
                         FunctionInstrumenter &F);
};

/// Exceptions: a `throw` is a <throw> node that reads its operand under the throw's control; a
/// handler begins with a <catch> test, controlled by the throw that reached it (or reading what
/// the library call that threw read), and it controls the handler's statements as an `if`
/// controls its branch.
class ExceptionProbe {
public:
  static bool instrumentThrow(const clang::CXXThrowExpr *Throw, FunctionInstrumenter &F);
  static bool instrumentHandlers(const clang::CXXTryStmt *Try, FunctionInstrumenter &F);
};

/// `a && b`, `a || b` and `c ? x : y` outside the condition of a statement, when the operand they
/// decide has effects (a call, a write): the decision becomes a <test> those effects depend on,
/// and the expression's value reads it. (Inside a condition they are branches of its test.)
class BranchProbe {
public:
  static bool instrument(const clang::Expr *E, FunctionInstrumenter &F);
};

/// Calls and their arguments: arguments flow into the callee's parameters.
class CallProbe {
public:
  static bool instrument(const clang::CallExpr *Call, FunctionInstrumenter &F);
  /// The outermost calls of instrumented functions in E, part of a constructor's initializer
  /// list, each given a record (and returned): their arguments push the parameters' nodes, and
  /// their value goes to node ConsumerSite (a member's write at the body's start:
  /// `total_(sum(a, b))`), or with none is pushed for what reads it (the argument of a base's
  /// constructor, `Base(twice(a))`). Not a callee whose entry might not take the record.
  static std::vector<const clang::CallExpr *> instrumentInitializerCalls(
      const clang::Expr *E, std::optional<unsigned> ConsumerSite,
      const std::vector<std::pair<const clang::ParmVarDecl *, unsigned>> &ParamSites,
      FunctionInstrumenter &F);
};

/// Calls of constructors that the project wrote (`Box box(a, b)`, `new Box(a)`, `Box(a)`): a
/// call record, so that the arguments flow into the constructor's parameters and the call's
/// control into its body, as for any other call. The record comes with the arguments (see
/// sleuth_construct_arg): a declaration has no expression to put a call probe before.
/// The pushes of the nodes of the parameters of Function that Arg reads, for an argument of a
/// call in Function's initializer list, which runs before the entry that makes those nodes:
/// `sleuth_use(tu.base + SITE), ` for each, given the parameters' sites (the nodes' ids are
/// known before the nodes are made), or a read of the object a reference parameter names.
/// (Not inside the calls in Skip, which have records of their own.)
std::string initializerArgumentOrigins(
    const clang::Expr *Arg, const clang::FunctionDecl *Function,
    const std::vector<std::pair<const clang::ParmVarDecl *, unsigned>> &ParamSites,
    const std::vector<const clang::CallExpr *> &Skip, FunctionInstrumenter &F);

class ConstructProbe {
public:
  static bool instrument(const clang::CXXConstructExpr *Construct, FunctionInstrumenter &F);
  /// The constructors that a constructor's initializer list calls (`Derived(int a) : Base(a),
  /// box_(a)`), given the sites of the constructor's parameters: they run before its body, so
  /// before the entry that makes those parameters' nodes, and their arguments name the nodes.
  static void instrumentInitializers(
      const std::vector<std::pair<const clang::ParmVarDecl *, unsigned>> &ParamSites,
      FunctionInstrumenter &F);
};

/// memcpy, memmove, mempcpy, memset and the string copies (strcpy, stpcpy, strncpy, strcat,
/// strncat) call the runtime header's twins (sleuth_memcpy, ...): a copy carries the source
/// bytes' origins to the destination, memset (and strncpy's padding) clears them. Done by the
/// library unseen, those bytes kept the origins of whatever had been there before (a dead
/// frame's, a freed block's), and a copy lost its source's.
class MemoryCallProbe {
public:
  static bool instrument(const clang::CallExpr *Call, FunctionInstrumenter &F);
};

/// sprintf, snprintf, vsprintf and vsnprintf call the runtime header's twins (sleuth_sprintf,
/// ...) with a site of their own: a write of the bytes formatted into the destination, which
/// depends on the arguments' reads and which the call's value reads. Done by the library
/// unseen, those bytes kept whatever origins had been there, and a number printed into a
/// buffer and copied out of it led nowhere near the number.
class FormatCallProbe {
public:
  static bool instrument(const clang::CallExpr *Call, FunctionInstrumenter &F);
};

/// Calls into the uninstrumented C++ library (std::string, containers): a const member reads
/// its object, a non-const member whose result is discarded writes it, `=` and `op=` write
/// their left operand, and class-type operands are read. Without this, values kept in library
/// types would have no origins.
class LibraryCallProbe {
public:
  /// Reads E, an object (class or scalar) the library takes by reference, where it is passed;
  /// false if E is none it can read.
  static bool readReferencedObject(const clang::Expr *E, FunctionInstrumenter &F);
  static bool instrument(const clang::CallExpr *Call, FunctionInstrumenter &F);
  /// In a template pattern, a call that waits for the instantiation (`std::swap(a, b)`,
  /// `std::getline(in, s)`, `in >> t` with operands of dependent type): where it calls the
  /// library in every instantiation of the unit, writing the same arguments, they are recorded
  /// as outside a template. True if it rewrote E.
  static bool instrumentDependent(const clang::Expr *E, FunctionInstrumenter &F);
  /// In a template pattern, a member call on an object of dependent type (`out.push_back(x)`
  /// with `std::vector<T> out`), which is Instances in the instantiations: where each calls the
  /// same member of the library's, writing its object, the object is recorded written as
  /// outside a template. True if it rewrote Call.
  static bool instrumentDependentMember(const clang::CallExpr *Call,
                                        llvm::ArrayRef<const clang::CallExpr *> Instances,
                                        FunctionInstrumenter &F);
  /// True if Operand, an argument or operand of E, is one that instrumentDependent records as
  /// written by E: its old value flows nowhere, and E reads nothing of it.
  static bool writesDependentOperand(const clang::Expr *E, const clang::Expr *Operand,
                                     FunctionInstrumenter &F);
  /// A constructor whose body is not instrumented (the library's, or one the compiler writes):
  /// the objects it copies or takes by reference are read.
  static void instrumentConstruction(const clang::CXXConstructExpr *Construct,
                                     FunctionInstrumenter &F);
};

/// A lambda's captures by copy: the closure copies them when it is created, where nothing
/// reads them (`auto scale = [factor](int v) { return v * factor; }`). They are read just
/// before the lambda, so that the node that stores the closure depends on them, and the
/// lambda's reads of its copies lead there.
class CaptureProbe {
public:
  static bool instrument(const clang::LambdaExpr *Lambda, FunctionInstrumenter &F);
};

/// The program's own variadic functions: `va_arg(ap, T)` reads the call's next extra argument,
/// whose origins the callee's entry keeps (positions beyond the named parameters), though no
/// parameter's node takes them. `va_start` starts a va_list's walk at the first extra argument,
/// `va_copy` copies where one is; a helper given the va_list (`vsum(n, ap)`) walks on.
class VariadicProbe {
public:
  static bool instrument(const clang::VAArgExpr *Arg, FunctionInstrumenter &F);
  /// `va_start` and `va_copy` (builtin calls); false for any other call.
  static bool instrument(const clang::CallExpr *Call, FunctionInstrumenter &F);
};

/// Function entry (frame, parameters), returns and the end of C functions.
class FrameProbe {
public:
  static bool instrumentEntry(FunctionInstrumenter &F);
  static bool instrument(const clang::ReturnStmt *Return, FunctionInstrumenter &F);

private:
  static bool instrumentHidden(const clang::ReturnStmt *Return, FunctionInstrumenter &F);
};

/// `assert(ARG)`: ARG's reads flow into an <assertion> node; the failure message is unchanged.
class AssertionProbe {
public:
  static bool instrument(const clang::Stmt *Statement, FunctionInstrumenter &F);
};

/// Expression statements whose value is discarded: their pending reads are dropped, so they do
/// not leak into the next node.
class DiscardProbe {
public:
  static bool instrument(const clang::Expr *E, unsigned ProbesBefore, FunctionInstrumenter &F);
};

} // namespace sleuth::instrumenter
