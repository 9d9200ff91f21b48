// Writing the output files at exit and from fatal-signal handlers: the dependence file
// (docs/dependence-format.md) here, the coverage file (docs/coverage-format.md) in coverage.cpp.
// The writer does no allocation and uses only write(2)/rename(2), so that a crashing program still
// leaves its graph; the file appears under its final name only when complete.
#include "fd_writer.h"
#include "perturb.h"
#include "state.h"

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <new>
#include <pthread.h>
#include <sys/stat.h>
#include <unistd.h>

namespace sleuth::rt {
namespace {

const char *kindName(unsigned Kind) {
  switch (Kind) {
  case SLEUTH_SITE_VAR:
    return "var";
  case SLEUTH_SITE_PARAM:
    return "param";
  case SLEUTH_SITE_TEST:
    return "test";
  case SLEUTH_SITE_RET:
    return "ret";
  case SLEUTH_SITE_ASSERT:
    return "assert";
  case SLEUTH_SITE_EFFECT:
    return "effect";
  default:
    return nullptr;
  }
}

bool isGraphNode(const SiteRef &S) { return kindName(S.Tu->sites[S.Index].kind) != nullptr; }

std::atomic<bool> FinalWriteDone{false};
char ProgramName[4096];

// File-level ids of graph nodes are dense: internal sites (calls) are skipped. Counting is
// allocation-free: O(nodes) per lookup would be too slow, so we remap through a prefix pass.
void emitDependences(FdWriter &W, WriteReason Reason, int Code) {
  Registry &R = registry();
  W.str("sleuth-deps 2").nl();
  W.str("program ").field(ProgramName).nl();
  writeRunStatus(W, Reason, Code);
  for (sleuth_tu *Tu : R.Units)
    W.str("file ").num(Tu->file_id).sp().field(Tu->hash).sp().field(Tu->path).nl();
  for (sleuth_tu *Tu : R.Units)
    for (unsigned I = 0; I < Tu->num_funcs; ++I) {
      const sleuth_func &F = Tu->funcs[I];
      W.str("func ").num(Tu->func_base + I).sp().num(Tu->file_id).sp().num(F.begin_line).sp();
      W.num(F.end_line).sp().field(F.name).nl();
    }
  // FileId[node] is computed into the ThreadState-independent registry at registration.
  const std::vector<uint32_t> &FileId = R.FileIds;
  for (size_t N = 0; N < R.Sites.size(); ++N) {
    const SiteRef &S = R.Sites[N];
    if (!isGraphNode(S))
      continue;
    const sleuth_site &Site = S.Tu->sites[S.Index];
    W.str("site ").num(FileId[N]).sp().str(kindName(Site.kind)).sp();
    W.num(S.Tu->func_base + Site.func).sp().num(Site.line).sp().num(Site.column).sp();
    W.field(Site.name).nl();
  }
  for (size_t N = 0; N < R.Sites.size(); ++N) {
    if (!isGraphNode(R.Sites[N]))
      continue;
    unsigned long long Hits = 0;
    for (ThreadState *T : R.Threads)
      if (N < T->Hits.size())
        Hits += T->Hits[N];
    if (Hits)
      W.str("hit ").num(FileId[N]).sp().num(Hits).nl();
  }
  // Each edge once, even when several threads saw it.
  auto EmitEdges = [&](EdgeSet ThreadState::*Set, const char *Name) {
    for (size_t I = 0; I < R.Threads.size(); ++I)
      (R.Threads[I]->*Set).forEach([&](uint32_t To, uint32_t From) {
        for (size_t J = 0; J < I; ++J)
          if ((R.Threads[J]->*Set).contains(To, From))
            return;
        if (To >= FileId.size() || From >= FileId.size() || !isGraphNode(R.Sites[To]) ||
            !isGraphNode(R.Sites[From]))
          return;
        W.str(Name).num(FileId[To]).sp().num(FileId[From]).nl();
      });
  };
  EmitEdges(&ThreadState::Data, "data ");
  EmitEdges(&ThreadState::Control, "ctrl ");
  // A site whose one controlling test ran before it on every path passes no control
  // (SLEUTH_FLAG_STATIC_CONTROL): the edge holds for each of its executions, so it is written
  // for every such node that ran.
  for (size_t N = 0; N < R.Sites.size(); ++N) {
    const SiteRef &S = R.Sites[N];
    const sleuth_site &Site = S.Tu->sites[S.Index];
    if (!(Site.flags & SLEUTH_FLAG_STATIC_CONTROL) || Site.cd_count != 1 || !isGraphNode(S))
      continue;
    size_t From = N - S.Index + S.Tu->cds[Site.cd_begin];
    if (From >= FileId.size() || !isGraphNode(R.Sites[From]))
      continue;
    bool Ran = false, Recorded = false;
    for (ThreadState *T : R.Threads) {
      Ran = Ran || (N < T->Hits.size() && T->Hits[N] != 0);
      Recorded = Recorded || T->Control.contains(uint32_t(N), uint32_t(From));
    }
    if (Ran && !Recorded)
      W.str("ctrl ").num(FileId[N]).sp().num(FileId[From]).nl();
  }
  // Reads whose origin the instrumenter knew (sleuth_tu::static_data) have no probe: their
  // edge holds for every execution of the node that consumes them, so it is written for every
  // such node that ran, and after a fatal signal for the node a thread was in the middle of.
  for (sleuth_tu *Tu : R.Units)
    for (unsigned I = 0; I < Tu->num_static_data; ++I) {
      unsigned Origin = Tu->static_data[2 * I + 1];
      size_t N = Tu->base - 1 + Tu->static_data[2 * I];
      size_t From = Tu->base - 1 + (Origin & ~SLEUTH_STATIC_WITNESS_ORIGIN);
      size_t Witness = Origin & SLEUTH_STATIC_WITNESS_ORIGIN ? From : N;
      if (Tu->base == 0 || N >= FileId.size() || From >= FileId.size() ||
          !isGraphNode(R.Sites[N]) || !isGraphNode(R.Sites[From]))
        continue;
      bool Ran = false, Recorded = false;
      for (ThreadState *T : R.Threads) {
        Ran = Ran || (Witness < T->Hits.size() && T->Hits[Witness] != 0) ||
              (Reason == WriteReason::Signal && T->InProgress == Witness);
        Recorded = Recorded || T->Data.contains(uint32_t(N), uint32_t(From));
      }
      if (Ran && !Recorded)
        W.str("data ").num(FileId[N]).sp().num(FileId[From]).nl();
    }
  for (ThreadState *T : R.Threads)
    if (T->Last != NoNode && T->Last < FileId.size() && isGraphNode(R.Sites[T->Last]))
      W.str("last ").num(T->Number).sp().num(FileId[T->Last]).nl();
  W.str("end").nl();
}

// Writes V in decimal at Buffer + L (room for 20 digits); returns the new length. Without
// snprintf, which is not async-signal-safe in general.
size_t appendNumber(char *Buffer, size_t L, unsigned long V) {
  char Digits[24];
  int N = 0;
  do {
    Digits[N++] = char('0' + V % 10);
    V /= 10;
  } while (V);
  while (N)
    Buffer[L++] = Digits[--N];
  return L;
}

size_t appendProcessId(char *Buffer, size_t L) {
  return appendNumber(Buffer, L, unsigned(getpid()));
}

// $SLEUTH_OUT, with each `%p` replaced by the process id (as LLVM_PROFILE_FILE has it: a program
// that forks writes one file per process, where each process that exits would otherwise replace
// the file of the one before) and `%%` by `%`; by default PROGRAM.PID.deps (defaultOutputPath).
// Allocation-free: it runs in the fatal-signal handler too.
const char *outputPath() {
  static DefaultOutputName Default;
  const char *P = std::getenv("SLEUTH_OUT");
  if (!P || !*P)
    return defaultOutputPath(Default, "deps");
  if (!std::strchr(P, '%'))
    return P;
  static char Path[4200];
  size_t L = 0;
  for (const char *C = P; *C && L + 24 < sizeof Path; ++C) {
    if (C[0] == '%' && C[1] == 'p') {
      L = appendProcessId(Path, L);
      ++C;
    } else if (C[0] == '%' && C[1] == '%') {
      Path[L++] = '%';
      ++C;
    } else {
      Path[L++] = *C;
    }
  }
  Path[L] = '\0';
  return Path;
}

void onExit(int Status, void *) { writeOutputFiles(WriteReason::Exit, Status); }

// Faults: the program dies where it runs; the handler runs on the faulting thread at once.
const int FaultSignals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
// Requests from outside to end the program: a test runner's timeout (SIGTERM), Ctrl-C or
// Ctrl-\ at a terminal (SIGINT, SIGQUIT, sent to the whole foreground process group) and a
// closed terminal (SIGHUP). The program ends as it would have, leaving its record.
const int StopSignals[] = {SIGTERM, SIGINT, SIGHUP, SIGQUIT};

// The thread writing the final record (0: none yet), and whether it has finished: a stop
// request that arrives while the program is writing its record at exit waits for the record
// before it ends the program.
std::atomic<pid_t> FinalWriter{0};
std::atomic<bool> FinalWriteComplete{false};

sigset_t stopSignalSet() {
  sigset_t Set;
  sigemptyset(&Set);
  for (int Signal : StopSignals)
    sigaddset(&Set, Signal);
  return Set;
}

bool isStopSignal(int Signal) {
  for (int S : StopSignals)
    if (S == Signal)
      return true;
  return false;
}

void onFatalSignal(int Signal) {
  writeOutputFiles(WriteReason::Signal, Signal);
  if (isStopSignal(Signal) && FinalWriter.load() != gettid()) {
    // Another thread is writing the record (at exit, or for another signal): a few seconds
    // for it to finish rather than a lost record.
    struct timespec Millisecond {
      0, 1000000
    };
    for (int I = 0; I < 30000 && !FinalWriteComplete.load(); ++I)
      nanosleep(&Millisecond, nullptr);
  }
  // The handler was installed with SA_RESETHAND: re-raising kills the program as before. A stop
  // signal is blocked while its handler runs (so that a second Ctrl-C cannot cut the record
  // short): unblocking delivers it.
  raise(Signal);
  sigset_t Set;
  sigemptyset(&Set);
  sigaddset(&Set, Signal);
  pthread_sigmask(SIG_UNBLOCK, &Set, nullptr);
}

void readProgramName() {
  int Fd = open("/proc/self/cmdline", O_RDONLY);
  if (Fd < 0)
    return;
  ssize_t N = read(Fd, ProgramName, sizeof(ProgramName) - 1);
  close(Fd);
  ProgramName[N > 0 ? N : 0] = '\0';
}

/// Installs onFatalSignal for Signal unless the program handles or ignores it itself (a
/// background job of a shell ignores SIGINT and SIGQUIT, and must go on ignoring them).
void handleSignal(int Signal, int Flags, const sigset_t &Mask) {
  struct sigaction Old {};
  sigaction(Signal, nullptr, &Old);
  if ((Old.sa_flags & SA_SIGINFO) || Old.sa_handler != SIG_DFL)
    return;
  struct sigaction SA {};
  SA.sa_handler = onFatalSignal;
  SA.sa_flags = Flags;
  SA.sa_mask = Mask;
  sigaction(Signal, &SA, nullptr);
}

} // namespace

void installExitHandlers() {
  static std::atomic<bool> Installed{false};
  if (Installed.exchange(true))
    return;
  readProgramName();
  on_exit(onExit, nullptr);
  // An alternate stack so that a stack overflow can still be reported.
  static char AltStack[1 << 16];
  stack_t SS{};
  SS.ss_sp = AltStack;
  SS.ss_size = sizeof(AltStack);
  sigaltstack(&SS, nullptr);
  sigset_t NoMask;
  sigemptyset(&NoMask);
  for (int Signal : FaultSignals)
    handleSignal(Signal, SA_RESETHAND | SA_ONSTACK | SA_NODEFER, NoMask);
  // While the record is written, every stop signal waits.
  for (int Signal : StopSignals)
    handleSignal(Signal, SA_RESETHAND | SA_ONSTACK, stopSignalSet());
}

/// Creates the missing directories above File (a path of at most 4200 bytes), as `mkdir -p`
/// would: a test runner's `SLEUTH_COV_DIR=out/cov` need not exist before the run, as gcov's
/// GCOV_PREFIX need not. Async-signal-safe. True if the last one now exists.
static bool makeParentDirectories(const char *File) {
  char Dir[4200];
  size_t L = std::strlen(File);
  while (L > 0 && File[L - 1] != '/')
    --L;
  while (L > 1 && File[L - 1] == '/')
    --L;
  if (L == 0 || L >= sizeof Dir)
    return false;
  std::memcpy(Dir, File, L);
  Dir[L] = '\0';
  // Each prefix that ends before a '/', then the whole: existing ones fail with EEXIST.
  for (size_t I = 1; I <= L; ++I)
    if (I == L || Dir[I] == '/') {
      char Saved = Dir[I];
      Dir[I] = '\0';
      if (mkdir(Dir, 0777) != 0 && errno != EEXIST)
        return false;
      Dir[I] = Saved;
    }
  return true;
}

void writeFileAtomically(const char *Path, const char *What, void (*Emit)(FdWriter &, void *),
                         void *Arg) {
  auto Complain = [What](const char *Name) {
    // strerrordesc_np: the untranslated text, from a table (strerror may load a locale).
    const char *Reason = errno != 0 ? strerrordesc_np(errno) : nullptr;
    const char *Msg = "sleuth: cannot write the ";
    (void)!::write(2, Msg, std::strlen(Msg));
    (void)!::write(2, What, std::strlen(What));
    (void)!::write(2, " file ", 6);
    (void)!::write(2, Name, std::strlen(Name));
    if (Reason) {
      (void)!::write(2, ": ", 2);
      (void)!::write(2, Reason, std::strlen(Reason));
    }
    (void)!::write(2, "\n", 1);
  };
  char Temp[4200];
  {
    // "<path>.tmp.<pid>" without snprintf (not async-signal-safe in general).
    size_t L = std::strlen(Path);
    if (L > 4000) {
      errno = ENAMETOOLONG;
      return Complain(Path);
    }
    std::memcpy(Temp, Path, L);
    std::memcpy(Temp + L, ".tmp.", 5);
    L += 5;
    L = appendProcessId(Temp, L);
    Temp[L] = '\0';
  }
  int Fd = open(Temp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (Fd < 0 && errno == ENOENT && makeParentDirectories(Temp))
    Fd = open(Temp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (Fd < 0)
    return Complain(Path);
  bool Ok;
  {
    alignas(FdWriter) static char Storage[sizeof(FdWriter)];
    FdWriter *W = new (Storage) FdWriter(Fd);
    Emit(*W, Arg);
    W->flush();
    Ok = W->ok();
    W->~FdWriter();
  }
  Ok = close(Fd) == 0 && Ok;
  if (!Ok || rename(Temp, Path) != 0) {
    int Error = errno;
    unlink(Temp);
    errno = Error;
    Complain(Path);
  }
}

void writeDependenceFile(WriteReason Reason, int Code) {
  struct Args {
    WriteReason Reason;
    int Code;
  } A{Reason, Code};
  writeFileAtomically(
      outputPath(), "dependence",
      [](FdWriter &W, void *P) {
        auto *A = static_cast<Args *>(P);
        emitDependences(W, A->Reason, A->Code);
      },
      &A);
}

const char *programName() { return ProgramName; }

void writeOutputFiles(WriteReason Reason, int Code) {
  if (Reason == WriteReason::Explicit) {
    if (hasDependenceUnits())
      writeDependenceFile(Reason, Code);
    writeCoverageFile(Reason, Code);
    return;
  }
  if (FinalWriteDone.exchange(true))
    return;
  FinalWriter.store(gettid());
  // A stop signal now (Ctrl-C as the program exits) is held until the record is complete.
  sigset_t Stops = stopSignalSet(), Saved;
  pthread_sigmask(SIG_BLOCK, &Stops, &Saved);
  if (hasDependenceUnits())
    writeDependenceFile(Reason, Code);
  if (perturb::active())
    perturb::writeReport();
  writeCoverageFile(Reason, Code);
  FinalWriteComplete.store(true);
  pthread_sigmask(SIG_SETMASK, &Saved, nullptr);
}

const char *defaultOutputPath(DefaultOutputName &Name, const char *Extension) {
  pid_t Pid = getpid();
  if (Name.Pid == Pid)
    return Name.Path;
  // The base name of argv[0], at most 200 bytes of it.
  const char *Program = ProgramName;
  for (const char *C = ProgramName; *C; ++C)
    if (*C == '/' && C[1])
      Program = C + 1;
  size_t ProgramLength = 0;
  while (Program[ProgramLength] && Program[ProgramLength] != '/' && ProgramLength < 200)
    ++ProgramLength;
  if (ProgramLength == 0) {
    Program = "sleuth";
    ProgramLength = 6;
  }
  size_t ExtensionLength = std::strlen(Extension);
  if (ExtensionLength > 16)
    ExtensionLength = 16;
  for (unsigned long N = 0;; ++N) {
    size_t L = ProgramLength;
    std::memcpy(Name.Path, Program, L);
    Name.Path[L++] = '.';
    L = appendProcessId(Name.Path, L);
    if (N) {
      Name.Path[L++] = '-';
      L = appendNumber(Name.Path, L, N);
    }
    Name.Path[L++] = '.';
    std::memcpy(Name.Path + L, Extension, ExtensionLength);
    Name.Path[L + ExtensionLength] = '\0';
    if (access(Name.Path, F_OK) != 0)
      break;
  }
  Name.Pid = Pid;
  return Name.Path;
}

} // namespace sleuth::rt
