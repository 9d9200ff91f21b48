// Path recording: the steps (site, value) of a run, kept in one preallocated buffer and written
// with the units' site tables to a `.path` file beside the coverage file (docs/path-format.md).
// Writing allocates nothing, so that it can run from a fatal-signal handler.
#include "sleuth/path.h"

#include "fd_writer.h"
#include "state.h"

#include <atomic>
#include <cstdlib>
#include <cstring>

namespace sleuth::rt {
namespace {

struct Step {
  unsigned Site;
  long long Value;
};

std::atomic<sleuth_path_unit *> Units{nullptr};
std::atomic<unsigned> NextBase{0};
Step *Steps = nullptr;
std::size_t Capacity = 0;
std::atomic<std::size_t> Used{0};

/// The number of steps kept: $SLEUTH_PATH_LIMIT, by default 2^20 (16 MiB). A run that takes
/// more keeps its first steps and its file says `truncated`.
std::size_t stepLimit() {
  const char *Limit = std::getenv("SLEUTH_PATH_LIMIT");
  if (Limit && *Limit) {
    char *End = nullptr;
    unsigned long long N = std::strtoull(Limit, &End, 10);
    if (End && !*End && N > 0 && N < (1ull << 32))
      return std::size_t(N);
  }
  return std::size_t(1) << 20;
}

void record(unsigned Site, long long Value) {
  if (!Steps)
    return;
  std::size_t At = Used.fetch_add(1, std::memory_order_relaxed);
  if (At < Capacity)
    Steps[At] = {Site, Value};
}

void emitPath(FdWriter &W, void *P) {
  const auto *A = static_cast<const RunEnd *>(P);
  W.str("sleuth-path 1").nl();
  writeRunStatus(W, A->Reason, A->Code);
  for (sleuth_path_unit *U = Units.load(std::memory_order_acquire); U; U = U->next) {
    W.str("unit ").num(U->base).sp().num(U->num_sites).sp().field(U->hash).sp();
    W.field(U->path).nl();
    for (unsigned I = 0; I < U->num_table; ++I)
      W.str(U->table[I]);
    W.str("end-unit").nl();
  }
  std::size_t N = Used.load(std::memory_order_relaxed);
  bool Truncated = N > Capacity;
  if (Truncated)
    N = Capacity;
  W.str("steps ").num(N).str(Truncated ? " truncated" : "").nl();
  for (std::size_t I = 0; I < N; ++I) {
    W.num(Steps[I].Site).sp();
    long long V = Steps[I].Value;
    if (V < 0)
      W.str("-").num(0ull - (unsigned long long)V);
    else
      W.num((unsigned long long)V);
    W.nl();
  }
  W.str("end").nl();
}

} // namespace

void writePathFile(const char *CoveragePath, WriteReason Reason, int Code) {
  if (!Units.load(std::memory_order_acquire) || !CoveragePath)
    return;
  static char Path[4200];
  // X.cov -> X.path; a coverage file named otherwise ($SLEUTH_COV_OUT) gets X.path appended.
  std::size_t L = std::strlen(CoveragePath);
  if (L + 6 >= sizeof Path)
    return;
  if (L >= 4 && std::strcmp(CoveragePath + L - 4, ".cov") == 0)
    L -= 4;
  std::memcpy(Path, CoveragePath, L);
  std::memcpy(Path + L, ".path", 6);
  RunEnd A{Reason, Code};
  writeFileAtomically(Path, "path", emitPath, &A);
}

} // namespace sleuth::rt

using namespace sleuth::rt;

extern "C" {

void sleuth_path_register(sleuth_path_unit *Unit) {
  if (!Steps) {
    Capacity = stepLimit();
    Steps = static_cast<Step *>(std::malloc(Capacity * sizeof(Step)));
    if (!Steps)
      Capacity = 0;
  }
  Unit->base = NextBase.fetch_add(Unit->num_sites, std::memory_order_relaxed);
  sleuth_path_unit *Head = Units.load(std::memory_order_relaxed);
  do
    Unit->next = Head;
  while (!Units.compare_exchange_weak(Head, Unit, std::memory_order_release,
                                      std::memory_order_relaxed));
  installExitHandlers();
}

void sleuth_path_step(const sleuth_path_unit *Unit, unsigned Site, long long Value) {
  record(Unit->base + Site, Value);
}

unsigned sleuth_path_enter(const sleuth_path_unit *Unit, unsigned Site) {
  record(Unit->base + Site, 0);
  return Unit->base + Site;
}

void sleuth_path_leave(unsigned *Frame) { record(*Frame + 1, 0); }

int sleuth_path_test(const sleuth_path_unit *Unit, unsigned Site, int Outcome) {
  record(Unit->base + Site, Outcome);
  return Outcome;
}

} // extern "C"
