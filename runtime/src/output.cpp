// Writing the dependence file (docs/dependence-format.md) at exit and from fatal-signal
// handlers. The writer does no allocation and uses only write(2)/rename(2), so that a crashing
// program still leaves its graph; the file appears under its final name only when complete.
#include "state.h"

#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <new>
#include <unistd.h>

namespace sleuth::rt {
namespace {

class FdWriter {
public:
  explicit FdWriter(int Fd) : Fd(Fd) {}
  ~FdWriter() { flush(); }

  FdWriter &str(const char *S) {
    while (*S)
      put(*S++);
    return *this;
  }
  // Text fields: space, %, tab, CR and LF are percent-encoded.
  FdWriter &field(const char *S) {
    if (!S || !*S)
      return str("?");
    for (; *S; ++S) {
      char C = *S;
      if (C == ' ' || C == '%' || C == '\t' || C == '\r' || C == '\n') {
        static const char Hex[] = "0123456789ABCDEF";
        put('%');
        put(Hex[(unsigned char)C >> 4]);
        put(Hex[C & 15]);
      } else {
        put(C);
      }
    }
    return *this;
  }
  FdWriter &num(unsigned long long V) {
    char Digits[24];
    int N = 0;
    do {
      Digits[N++] = char('0' + V % 10);
      V /= 10;
    } while (V);
    while (N)
      put(Digits[--N]);
    return *this;
  }
  FdWriter &sp() { return put(' '); }
  FdWriter &nl() { return put('\n'); }
  bool ok() const { return !Failed; }
  void flush() {
    size_t Done = 0;
    while (Done < Used && !Failed) {
      ssize_t N = ::write(Fd, Buffer + Done, Used - Done);
      if (N < 0) {
        if (errno == EINTR)
          continue;
        Failed = true;
      } else {
        Done += size_t(N);
      }
    }
    Used = 0;
  }

private:
  FdWriter &put(char C) {
    if (Used == sizeof(Buffer))
      flush();
    Buffer[Used++] = C;
    return *this;
  }
  int Fd;
  char Buffer[1 << 16];
  size_t Used = 0;
  bool Failed = false;
};

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
  W.str("sleuth-deps 1").nl();
  W.str("program ").field(ProgramName).nl();
  if (Reason == WriteReason::Signal)
    W.str("status signal ").num(unsigned(Code)).nl();
  else if (Reason == WriteReason::Exit)
    W.str("status exit ").num(unsigned(Code) & 0xff).nl();
  else
    W.str("status running").nl();
  for (sleuth_tu *Tu : R.Units)
    W.str("file ").num(Tu->file_id).sp().field(Tu->path).nl();
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
  for (ThreadState *T : R.Threads)
    if (T->Last != NoNode && T->Last < FileId.size() && isGraphNode(R.Sites[T->Last]))
      W.str("last ").num(T->Number).sp().num(FileId[T->Last]).nl();
  W.str("end").nl();
}

const char *outputPath() {
  const char *P = std::getenv("SLEUTH_OUT");
  return P && *P ? P : "sleuth.deps";
}

void onExit(int Status, void *) { writeDependenceFile(WriteReason::Exit, Status); }

const int FatalSignals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};

void onFatalSignal(int Signal) {
  writeDependenceFile(WriteReason::Signal, Signal);
  // The handler was installed with SA_RESETHAND: re-raising kills the program as before.
  raise(Signal);
}

void readProgramName() {
  int Fd = open("/proc/self/cmdline", O_RDONLY);
  if (Fd < 0)
    return;
  ssize_t N = read(Fd, ProgramName, sizeof(ProgramName) - 1);
  close(Fd);
  ProgramName[N > 0 ? N : 0] = '\0';
}

} // namespace

void installExitHandlers() {
  static bool Installed = false; // called under the registry mutex
  if (Installed)
    return;
  Installed = true;
  readProgramName();
  on_exit(onExit, nullptr);
  // An alternate stack so that a stack overflow can still be reported.
  static char AltStack[1 << 16];
  stack_t SS{};
  SS.ss_sp = AltStack;
  SS.ss_size = sizeof(AltStack);
  sigaltstack(&SS, nullptr);
  for (int Signal : FatalSignals) {
    struct sigaction Old {};
    sigaction(Signal, nullptr, &Old);
    if (Old.sa_handler != SIG_DFL)
      continue; // the program handles it itself
    struct sigaction SA {};
    SA.sa_handler = onFatalSignal;
    SA.sa_flags = SA_RESETHAND | SA_ONSTACK | SA_NODEFER;
    sigemptyset(&SA.sa_mask);
    sigaction(Signal, &SA, nullptr);
  }
}

void writeDependenceFile(WriteReason Reason, int Code) {
  if (Reason != WriteReason::Explicit && FinalWriteDone.exchange(true))
    return;
  const char *Path = outputPath();
  char Temp[4200];
  {
    // "<path>.tmp.<pid>" without snprintf (not async-signal-safe in general).
    size_t L = std::strlen(Path);
    if (L > 4000)
      return;
    std::memcpy(Temp, Path, L);
    std::memcpy(Temp + L, ".tmp.", 5);
    L += 5;
    char Digits[16];
    int N = 0;
    for (unsigned P = unsigned(getpid()); P || N == 0; P /= 10)
      Digits[N++] = char('0' + P % 10);
    while (N)
      Temp[L++] = Digits[--N];
    Temp[L] = '\0';
  }
  int Fd = open(Temp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (Fd < 0) {
    const char *Msg = "sleuth: cannot write the dependence file ";
    (void)!::write(2, Msg, std::strlen(Msg));
    (void)!::write(2, Temp, std::strlen(Temp));
    (void)!::write(2, "\n", 1);
    return;
  }
  bool Ok;
  {
    static FdWriter *W = nullptr;
    alignas(FdWriter) static char Storage[sizeof(FdWriter)];
    W = new (Storage) FdWriter(Fd);
    emitDependences(*W, Reason, Code);
    W->flush();
    Ok = W->ok();
    W->~FdWriter();
  }
  Ok = close(Fd) == 0 && Ok;
  if (!Ok || rename(Temp, Path) != 0) {
    unlink(Temp);
    const char *Msg = "sleuth: cannot write the dependence file ";
    (void)!::write(2, Msg, std::strlen(Msg));
    (void)!::write(2, Path, std::strlen(Path));
    (void)!::write(2, "\n", 1);
  }
}

} // namespace sleuth::rt
