//===- Runner.cpp - Running the interestingness test ----------------------===//
#include "Runner.h"
#include "FileSet.h"

#include "llvm/Support/xxhash.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <map>
#include <sched.h>
#include <set>
#include <spawn.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

extern char **environ;

namespace sleuth::reducer {

namespace fs = std::filesystem;

namespace {
volatile std::sig_atomic_t StopFlag = 0;
extern "C" void onStopSignal(int) { StopFlag = 1; }
} // namespace

unsigned processorCount() {
  cpu_set_t Set;
  CPU_ZERO(&Set);
  if (sched_getaffinity(0, sizeof Set, &Set) == 0 && CPU_COUNT(&Set) > 0)
    return unsigned(CPU_COUNT(&Set));
  // More processors than a cpu_set_t holds, or no affinity support.
  return std::max(1u, std::thread::hardware_concurrency());
}

double monotonicSeconds() {
  using namespace std::chrono;
  return duration<double>(steady_clock::now().time_since_epoch()).count();
}

std::uint64_t contentHash(const std::string &Content) {
  return llvm::xxh3_64bits(
      llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(Content.data()), Content.size()));
}

void TestRunner::installSignalHandlers() {
  struct sigaction SA;
  std::memset(&SA, 0, sizeof SA);
  SA.sa_handler = onStopSignal;
  sigemptyset(&SA.sa_mask);
  sigaction(SIGINT, &SA, nullptr);
  sigaction(SIGTERM, &SA, nullptr);
}
bool TestRunner::stopRequested() { return StopFlag != 0; }
void TestRunner::requestStop() { StopFlag = 1; }
void TestRunner::clearStop() { StopFlag = 0; }

TestRunner::TestRunner(RunnerOptions O)
    : Opts(std::move(O)), Cache(1 + Opts.ValidityCommands.size()),
      Launched(1 + Opts.ValidityCommands.size()), Order(1 + Opts.ValidityCommands.size()) {
  if (Opts.Jobs == 0)
    Opts.Jobs = 1;
}

TestRunner::~TestRunner() {
  if (!Root.empty()) {
    std::error_code EC;
    fs::remove_all(Root, EC);
  }
}

bool TestRunner::prepare(std::string &Err) {
  const char *Tmp = std::getenv("TMPDIR");
  std::string Template = std::string(Tmp && *Tmp ? Tmp : "/tmp") + "/sleuth-reduce-XXXXXX";
  std::vector<char> Buf(Template.begin(), Template.end());
  Buf.push_back('\0');
  if (!mkdtemp(Buf.data())) {
    Err = "cannot create a scratch directory in " + Template + ": " + std::strerror(errno);
    return false;
  }
  Root = Buf.data();
  return true;
}

bool TestRunner::launch(Slot &S, unsigned SlotNo, const std::string &Content, std::size_t Check) {
  // A fresh directory per test: files the script (or an earlier check of the
  // same candidate) leaves behind must not influence the next one.
  fs::path Dir = fs::path(Root) / ("job" + std::to_string(SlotNo));
  std::error_code EC;
  fs::remove_all(Dir, EC);
  fs::create_directories(Dir, EC);
  if (Opts.FilePaths.empty()) {
    std::ofstream Out(Dir / Opts.FileName, std::ios::binary);
    Out << Content;
    if (!Out)
      return false;
  } else {
    std::vector<std::string> Texts;
    if (!decodeFiles(Content, Texts) || Texts.size() != Opts.FilePaths.size())
      return false;
    for (std::size_t F = 0; F < Texts.size(); ++F) {
      fs::path Path = Dir / Opts.FilePaths[F];
      fs::create_directories(Path.parent_path(), EC);
      std::ofstream Out(Path, std::ios::binary);
      Out << Texts[F];
      if (!Out)
        return false;
    }
  }
  posix_spawn_file_actions_t FA;
  posix_spawn_file_actions_init(&FA);
  posix_spawn_file_actions_addchdir_np(&FA, Dir.c_str());
  posix_spawn_file_actions_addopen(&FA, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&FA, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&FA, 2, "/dev/null", O_WRONLY, 0);
  posix_spawnattr_t Attr;
  posix_spawnattr_init(&Attr);
  // Own process group, so that killing -pid reaches the script's children;
  // default signal dispositions, so the script can still be interrupted.
  sigset_t Default;
  sigemptyset(&Default);
  sigaddset(&Default, SIGINT);
  sigaddset(&Default, SIGTERM);
  posix_spawnattr_setsigdefault(&Attr, &Default);
  posix_spawnattr_setpgroup(&Attr, 0);
  posix_spawnattr_setflags(&Attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF);
  static const char *const Shell = "/bin/sh";
  char *ScriptArgv[] = {const_cast<char *>(Opts.Script.c_str()), nullptr};
  char *ShellArgv[] = {
      const_cast<char *>(Shell), const_cast<char *>("-c"),
      Check ? const_cast<char *>(Opts.ValidityCommands[Check - 1].c_str()) : nullptr, nullptr};
  pid_t Pid;
  int Rc = Check ? posix_spawn(&Pid, Shell, &FA, &Attr, ShellArgv, environ)
                 : posix_spawn(&Pid, Opts.Script.c_str(), &FA, &Attr, ScriptArgv, environ);
  posix_spawn_file_actions_destroy(&FA);
  posix_spawnattr_destroy(&Attr);
  if (Rc != 0)
    return false;
  S.Pid = Pid;
  S.Check = Check;
  S.Started = monotonicSeconds();
  ++Launched[Check];
  return true;
}

bool TestRunner::launchChecks(Slot &S, unsigned SlotNo, const std::string &Content,
                              std::vector<std::size_t> Checks, RunResult &Failed) {
  S.RanFirst = Checks.size() == checks();
  Checks = Order.arrange(std::move(Checks));
  S.Then.assign(Checks.begin() + 1, Checks.end());
  if (launch(S, SlotNo, Content, Checks.front()))
    return true;
  Failed = RunResult();
  Failed.ExitCode = 127;
  Failed.Check = Checks.front();
  return false;
}

std::optional<RunResult> TestRunner::cached(std::uint64_t Hash,
                                            std::vector<std::size_t> &ToRun) const {
  ToRun.clear();
  for (std::size_t C = 0; C < Cache.size(); ++C) {
    auto Hit = Cache[C].find(Hash);
    if (Hit == Cache[C].end())
      ToRun.push_back(C);
    else if (!Hit->second.interesting())
      return Hit->second; // One rejection settles it.
  }
  if (!ToRun.empty())
    return std::nullopt;
  RunResult Passed;
  Passed.ExitCode = 0;
  Passed.Check = Cache.size() - 1;
  return Passed;
}

void TestRunner::kill(Slot &S) {
  if (S.Pid <= 0)
    return;
  ::kill(-S.Pid, SIGKILL);
  ::kill(S.Pid, SIGKILL);
  int Status;
  while (waitpid(S.Pid, &Status, 0) < 0 && errno == EINTR) {
  }
  S.Pid = -1;
}

std::optional<RunResult> TestRunner::poll(Slot &S) {
  int Status;
  pid_t R = waitpid(S.Pid, &Status, WNOHANG);
  if (R == S.Pid) {
    // The script is done; anything it left running in its group goes too.
    ::kill(-S.Pid, SIGKILL);
    S.Pid = -1;
    RunResult Res;
    Res.ExitCode = WIFEXITED(Status) ? WEXITSTATUS(Status) : -1;
    Res.Check = S.Check;
    Order.record(S.Check, monotonicSeconds() - S.Started, !Res.interesting(), S.RanFirst);
    return Res;
  }
  if (monotonicSeconds() - S.Started > Opts.TimeoutSeconds) {
    kill(S);
    ++Timeouts;
    RunResult Res;
    Res.TimedOut = true;
    Res.Check = S.Check;
    Order.record(S.Check, Opts.TimeoutSeconds, true, S.RanFirst);
    return Res;
  }
  return std::nullopt;
}

RunResult TestRunner::run(const std::string &Content, bool UseCache) {
  std::optional<std::size_t> Unused;
  RunResult Out;
  bool Saved = false;
  auto Next = [&](std::size_t I) -> std::optional<Candidate> {
    if (I > 0)
      return std::nullopt;
    return Candidate{Content,
                     [&](const RunResult &R) {
                       Out = R;
                       Saved = true;
                       return true;
                     },
                     std::nullopt};
  };
  if (!UseCache)
    for (auto &CheckCache : Cache)
      CheckCache.erase(contentHash(Content));
  firstMatch(Next);
  if (!Saved)
    Out.Interrupted = true;
  return Out;
}

std::optional<std::size_t>
TestRunner::firstMatch(const std::function<std::optional<Candidate>(std::size_t)> &Next) {
  std::vector<Slot> Slots(Opts.Jobs);
  std::map<std::size_t, Candidate> Pending; // Generated, verdict not used yet.
  std::map<std::size_t, RunResult> Results;
  // Verdicts taken from the cache. A cache hit counts as an answer only when its verdict is used:
  // candidates generated ahead of the first match are dropped with it.
  std::set<std::size_t> FromCache;
  std::size_t Generated = 0, Decided = 0;
  bool Exhausted = false;
  auto KillAll = [&] {
    for (Slot &S : Slots)
      kill(S);
  };

  for (;;) {
    if (stopRequested()) {
      KillAll();
      return std::nullopt;
    }
    // Verdicts are used strictly in generation order.
    while (Results.count(Decided)) {
      bool Match = Pending.at(Decided).Matches(Results.at(Decided));
      Pending.erase(Decided);
      Results.erase(Decided);
      CacheHits += FromCache.erase(Decided);
      if (Match) {
        KillAll();
        return Decided;
      }
      ++Decided;
    }
    if (Exhausted && Decided == Generated)
      return std::nullopt;

    bool Progress = false;
    // Start new tests in free slots; cache hits need no slot. Speculation is
    // bounded so that a run of cache hits cannot generate without end.
    for (unsigned I = 0; I < Slots.size() && !Exhausted; ++I) {
      if (Slots[I].Pid > 0)
        continue;
      while (!Exhausted && Generated < Decided + 4 * Opts.Jobs + 16) {
        std::optional<Candidate> C = Next(Generated);
        if (!C) {
          Exhausted = true;
          break;
        }
        std::size_t Index = Generated++;
        std::uint64_t H = C->Known ? 0 : contentHash(C->Content);
        std::optional<RunResult> Known = C->Known;
        Pending.emplace(Index, std::move(*C));
        Progress = true;
        if (Known) {
          Results.emplace(Index, *Known);
          continue;
        }
        std::vector<std::size_t> ToRun;
        if (std::optional<RunResult> Hit = cached(H, ToRun)) {
          FromCache.insert(Index);
          Results.emplace(Index, *Hit);
          continue;
        }
        Slots[I].Index = Index;
        Slots[I].Hash = H;
        RunResult Failed;
        if (!launchChecks(Slots[I], I, Pending.at(Index).Content, std::move(ToRun), Failed)) {
          Results.emplace(Index, Failed);
          continue;
        }
        break;
      }
    }
    // Collect finished checks; a candidate that passes one goes on to the
    // next in the same slot.
    for (unsigned I = 0; I < Slots.size(); ++I) {
      Slot &S = Slots[I];
      if (S.Pid <= 0)
        continue;
      std::optional<RunResult> R = poll(S);
      if (!R)
        continue;
      Progress = true;
      Cache[R->Check][S.Hash] = *R;
      if (R->interesting() && !S.Then.empty()) {
        std::size_t Next = S.Then.front();
        S.Then.erase(S.Then.begin());
        S.RanFirst = false;
        if (launch(S, I, Pending.at(S.Index).Content, Next))
          continue;
        R->ExitCode = 127;
        R->Check = Next;
      }
      Results.emplace(S.Index, *R);
    }
    tick(Progress);
  }
}

void TestRunner::tick(bool Progress) {
  double Now = monotonicSeconds();
  if (OnTick && Now - LastTick > 0.1) {
    LastTick = Now;
    OnTick();
  }
  if (!Progress)
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
}

std::vector<RunResult> TestRunner::repeat(const std::string &Content, std::size_t Check,
                                          unsigned Times) {
  std::vector<RunResult> Out;
  std::vector<Slot> Slots(std::max(1u, std::min(Opts.Jobs, Times)));
  unsigned Started = 0;
  while (Out.size() < Times) {
    if (stopRequested()) {
      for (Slot &S : Slots)
        kill(S);
      RunResult Stopped;
      Stopped.Interrupted = true;
      Out.push_back(Stopped);
      return Out;
    }
    bool Progress = false;
    for (unsigned I = 0; I < Slots.size(); ++I) {
      Slot &S = Slots[I];
      if (S.Pid <= 0 && Started < Times) {
        ++Started;
        Progress = true;
        S.RanFirst = false; // The same candidate over and over says nothing about other ones.
        if (!launch(S, I, Content, Check)) {
          RunResult Failed;
          Failed.ExitCode = 127;
          Failed.Check = Check;
          Out.push_back(Failed);
        }
      }
      if (S.Pid > 0)
        if (std::optional<RunResult> R = poll(S)) {
          Out.push_back(*R);
          Progress = true;
        }
    }
    tick(Progress);
  }
  return Out;
}

} // namespace sleuth::reducer
