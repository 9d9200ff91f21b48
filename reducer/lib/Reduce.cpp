//===- Reduce.cpp - sleuth reduce: the passes to a fixpoint ---------------===//
//
// One file: the passes of Transformation.h, coarse levels first, each set of
// levels to a fixpoint. Several files: rounds of the cross-file passes that
// remove (FileSet.h), the passes of one file on each file in turn (sources
// before their headers, the others held at their best), and the cross-file
// passes that join files, until a round gains nothing.
//
//===----------------------------------------------------------------------===//
#include "Driver.h"
#include "FileSet.h"

#include <algorithm>
#include <filesystem>
#include <map>

namespace sleuth::reducer {

namespace fs = std::filesystem;

namespace {

/// Applies as many of N instances to the best result as the test allows;
/// Materialize turns a set of instance indices into a text of the session's
/// focus. The instances are tried in chunks: all of them, then halves,
/// quarters, ... and each chunk size is swept once over the list, keeping
/// every chunk that stays interesting. Unlike ddmin, a sweep never asks again
/// about a chunk that failed at this size, so a long list of mostly needed
/// instances (the declarations of a preprocessed header) costs about one
/// test per chunk.
///
/// Backward sweeps (the default) meet uses before the declarations they
/// use, so removing a user lets its declaration go later in the same sweep.
/// Passes that sort their instances by size sweep forward, largest first.
void sweepInstances(Session &S, std::size_t N,
                    const std::function<std::string(const Config &)> &Materialize, bool Forward,
                    bool AllowSameTokens = false) {
  if (N == 0 || S.interrupted())
    return;
  std::vector<char> Applied(N, 0);
  auto E = S.evaluator(Materialize, AllowSameTokens);
  using Range = std::pair<std::size_t, std::size_t>;
  auto WithRange = [&](Range R) {
    Config C;
    for (std::size_t I = 0; I < N; ++I)
      if (Applied[I] || (I >= R.first && I < R.second))
        C.push_back(I);
    return C;
  };
  for (std::size_t Chunk = N; Chunk > 0 && !S.interrupted();
       Chunk = Chunk == 1 ? 0 : (Chunk + 1) / 2) {
    // The chunks of this size, in sweep order, that still hold an instance
    // not applied yet.
    std::vector<Range> Ranges;
    for (std::size_t K = 0; K * Chunk < N; ++K) {
      Range R = Forward ? Range{K * Chunk, std::min(N, (K + 1) * Chunk)}
                        : Range{N - std::min(N, (K + 1) * Chunk), N - K * Chunk};
      Ranges.push_back(R);
    }
    // Ranges are disjoint, so applying one leaves the later ones as they are.
    std::vector<Range> Todo;
    for (Range R : Ranges)
      if (std::any_of(Applied.begin() + R.first, Applied.begin() + R.second,
                      [](char A) { return !A; }))
        Todo.push_back(R);
    for (std::size_t From = 0; From < Todo.size() && !S.interrupted();) {
      std::optional<std::size_t> Hit = E->firstMatch([&](std::size_t K) -> std::optional<Probe> {
        if (From + K >= Todo.size())
          return std::nullopt;
        return Probe{WithRange(Todo[From + K]), Outcome::Fail};
      });
      if (!Hit)
        break;
      Range R = Todo[From + *Hit];
      std::fill(Applied.begin() + R.first, Applied.begin() + R.second, 1);
      From += *Hit + 1;
    }
  }
}

void reduceWithChanges(Session &S, const std::vector<Change> &Changes, bool Forward) {
  const std::string Base = S.best();
  // A configuration here is the set of changes to apply, in list order, so
  // that an outer change (a namespace) wins over an inner one (its member).
  sweepInstances(
      S, Changes.size(),
      [&](const Config &Apply) {
        std::vector<const Change *> Ptrs;
        Ptrs.reserve(Apply.size());
        for (std::size_t I : Apply)
          Ptrs.push_back(&Changes[I]);
        return applyChanges(Base, Ptrs);
      },
      Forward);
}

/// The passes of one file on the session's focus (the one file, or one file
/// of a set): remembers between rounds which passes paid off and the
/// instances of the last parse.
class FileReducer {
public:
  FileReducer(Session &S, const std::vector<const Transformation *> &Passes, LanguageOptions Lang,
              std::string Label)
      : S(S), Passes(Passes), Lang(std::move(Lang)), Label(std::move(Label)) {
    for (const Transformation *T : Passes)
      if (T->needsAST())
        AstPasses.push_back(T);
  }

  /// Reduces the focus to a fixpoint of the passes.
  void run() {
    // In a preprocessed file the crash is almost always in the main file, and
    // the headers are there only for its sake: while the main file uses them
    // nearly every header is needed, and each test compiles all of them. So
    // the main file's own code is reduced first (declarations, statements,
    // expressions); then most headers go in a few large chunks.
    std::vector<Token> Tokens = lexC(S.best(), Lang.CPlusPlus);
    std::vector<std::pair<std::size_t, std::size_t>> Regions =
        includedFileRegions(SourceUnit{S.best(), Tokens, Lang.CPlusPlus});
    if (!Regions.empty()) {
      const Transformation *RemoveIncluded = findTransformation("remove-included-file");
      if (std::find(Passes.begin(), Passes.end(), RemoveIncluded) != Passes.end()) {
        // A crash on invalid code may not need the headers at all: one test
        // without any of them settles it.
        std::sort(Regions.begin(), Regions.end(), [](auto A, auto B) {
          return A.first != B.first ? A.first < B.first : A.second > B.second;
        });
        Change AllHeaders;
        std::size_t End = 0;
        for (auto [B, E] : Regions)
          if (B >= End) { // Outermost regions only; nested ones lie inside.
            AllHeaders.Edits.push_back({B, E - B, ""});
            End = E;
          }
        S.setPass(RemoveIncluded->name() + Label);
        reduceWithChanges(S, {AllHeaders}, true);
      }
      runLevels(Expressions, /*MainFileOnly=*/true);
    }
    Gain.clear(); // What paid off in the main file says little about the rest.
    runLevels(Lexical, /*MainFileOnly=*/false);
  }

private:
  std::vector<Change> instances(const Transformation *T) {
    if (!T->needsAST())
      return collectInstances(*T, S.best(), Lang);
    // One parse per distinct text serves every AST pass. With several files
    // the parse reads the others (from disk, where their best is), so the
    // whole set is the key.
    std::uint64_t H = contentHash(S.candidate(S.best()));
    if (H != ParsedHash || Parsed.empty()) {
      ParsedHash = H;
      double Limit = std::max(60.0, S.options().TimeoutSeconds);
      if (!collectInstancesIsolated(AstPasses, S.best(), Lang, Limit, Parsed)) {
        Parsed.assign(AstPasses.size(), {});
        if (!WarnedParse && !S.interrupted())
          S.note("clang could not parse this version" + Label +
                 " (it crashed or timed out); continuing with lexical passes");
        WarnedParse = true;
      }
    }
    auto It = std::find(AstPasses.begin(), AstPasses.end(), T);
    return Parsed[It - AstPasses.begin()];
  }

  /// Only the changes that lie in the main file of a preprocessed file: the
  /// bytes outside every #included region.
  std::vector<Change> inMainFile(std::vector<Change> Changes) const {
    std::vector<Token> Tokens = lexC(S.best(), Lang.CPlusPlus);
    SourceUnit U{S.best(), Tokens, Lang.CPlusPlus};
    std::vector<std::pair<std::size_t, std::size_t>> Regions = includedFileRegions(U);
    const std::size_t Bytes = S.best().size();
    std::vector<long> Delta(Bytes + 1, 0);
    for (auto [B, E] : Regions) {
      ++Delta[B];
      --Delta[E];
    }
    // Before[I]: how many of the bytes before I lie in an included region.
    std::vector<std::size_t> Before(Bytes + 1, 0);
    long Depth = 0;
    for (std::size_t I = 0; I < Bytes; ++I) {
      Depth += Delta[I];
      Before[I + 1] = Before[I] + (Depth > 0);
    }
    std::erase_if(Changes, [&](const Change &C) {
      for (const Edit &E : C.Edits) {
        std::size_t B = std::min(E.Offset, Bytes);
        std::size_t End = std::min(std::max(E.Offset + E.Length, E.Offset + 1), Bytes);
        if (Before[End] != Before[B])
          return true;
      }
      return false;
    });
    return Changes;
  }

  /// Runs the passes of levels 0..Last, coarse levels first, each set of
  /// levels to a fixpoint.
  void runLevels(unsigned Last, bool MainFileOnly) {
    for (unsigned MaxLevel = Declarations; MaxLevel <= Last; ++MaxLevel) {
      for (;;) {
        if (S.interrupted())
          break;
        Size RoundStart = S.bestSize();
        // Coarse levels first; within a level, the passes that removed the
        // most last time go first.
        std::vector<const Transformation *> Order;
        for (const Transformation *T : Passes)
          if (T->level() <= MaxLevel)
            Order.push_back(T);
        std::stable_sort(Order.begin(), Order.end(),
                         [&](const Transformation *A, const Transformation *B) {
                           if (A->level() != B->level())
                             return A->level() < B->level();
                           return Gain[A] > Gain[B];
                         });
        for (const Transformation *T : Order) {
          if (S.interrupted())
            break;
          S.setPass(T->name() + Label);
          std::size_t Before = S.bestSize().Tokens, Tests = S.runner().testsRun();
          double Began = monotonicSeconds();
          std::vector<Change> Changes = instances(T);
          if (MainFileOnly)
            Changes = inMainFile(std::move(Changes));
          double Collected = monotonicSeconds();
          reduceWithChanges(S, Changes, T->largestFirst());
          Gain[T] = Before - S.bestSize().Tokens;
          if (S.options().Verbose) {
            char Msg[256];
            std::snprintf(Msg, sizeof Msg,
                          "%spass %s%s: %zu instances (%.1f s to find), %zu tests, -%zu tokens, "
                          "%.1f s",
                          MainFileOnly ? "main file: " : "", T->name(), Label.c_str(),
                          Changes.size(), Collected - Began, S.runner().testsRun() - Tests, Gain[T],
                          monotonicSeconds() - Began);
            S.note(Msg);
          }
        }
        if (!(S.bestSize() < RoundStart))
          break;
      }
    }
  }

  Session &S;
  const std::vector<const Transformation *> &Passes;
  std::vector<const Transformation *> AstPasses;
  LanguageOptions Lang;
  std::string Label; ///< " on FILE" with several files, for messages.
  std::uint64_t ParsedHash = 0;
  std::vector<std::vector<Change>> Parsed;
  bool WarnedParse = false;
  std::map<const Transformation *, std::size_t> Gain;
};

/// One round of the cross-file passes on the whole set: those that join
/// files (Joining) or the others.
void runCrossFilePasses(Session &S, const std::vector<const CrossFileTransformation *> &Passes,
                        const std::vector<std::string> &IncludeDirs, bool Joining) {
  for (const CrossFileTransformation *T : Passes) {
    if (S.interrupted())
      break;
    if (T->joinsFiles() != Joining)
      continue;
    S.setFocus(Session::AllFiles);
    S.setPass(T->name());
    const std::vector<std::string> Base = S.files();
    FileSet Set{S.options().Files, Base, IncludeDirs};
    std::vector<SetChange> Changes;
    T->collect(Set, Changes);
    std::size_t Before = S.bestSize().Tokens, Tests = S.runner().testsRun();
    sweepInstances(
        S, Changes.size(),
        [&](const Config &Apply) {
          std::vector<const SetChange *> Ptrs;
          for (std::size_t I : Apply)
            Ptrs.push_back(&Changes[I]);
          return encodeFiles(applySetChanges(Base, Ptrs));
        },
        /*Forward=*/true, /*AllowSameTokens=*/!T->shrinks());
    if (S.options().Verbose)
      S.note("pass " + std::string(T->name()) + ": " + std::to_string(Changes.size()) +
             " instances, " + std::to_string(S.runner().testsRun() - Tests) + " tests, -" +
             std::to_string(Before - S.bestSize().Tokens) + " tokens");
  }
}

/// How the parse of file Path of a set sees the others: under its real path
/// (the set's best is on disk), with the base directory, the file's own
/// directory and the --include-dir directories searched for includes.
LanguageOptions languageFor(const ReduceOptions &O, const std::string &Path) {
  LanguageOptions L = O.Lang;
  std::error_code EC;
  fs::path Base = fs::current_path(EC);
  fs::path Abs = (Base / Path).lexically_normal();
  L.FileName = Abs.string();
  L.ExtraArgs.push_back("-I" + Base.string());
  L.ExtraArgs.push_back("-I" + Abs.parent_path().string());
  for (const std::string &D : O.IncludeDirs)
    L.ExtraArgs.push_back("-I" + fs::absolute(D, EC).lexically_normal().string());
  return L;
}

} // namespace

int runReduce(const ReduceOptions &O) {
  std::vector<const Transformation *> Passes;
  std::vector<const CrossFileTransformation *> CrossPasses;
  if (O.Passes.empty()) {
    Passes = allTransformations();
    CrossPasses = allCrossFileTransformations();
  } else {
    for (const std::string &Name : O.Passes) {
      if (const Transformation *T = findTransformation(Name)) {
        Passes.push_back(T);
      } else if (const CrossFileTransformation *C = findCrossFileTransformation(Name)) {
        CrossPasses.push_back(C);
      } else {
        std::fprintf(stderr, "sleuth reduce: unknown pass '%s' (see --list-passes)\n",
                     Name.c_str());
        return ExitUsage;
      }
    }
  }

  Session S(O.Session);
  TestRunner::installSignalHandlers();
  if (int RC = S.start())
    return RC;

  if (!S.multiFile()) {
    FileReducer(S, Passes, O.Lang, "").run();
    return S.finish();
  }

  // Include directories inside the base, as the cross-file passes resolve
  // includes among the files of the set.
  std::vector<std::string> IncludeDirs;
  std::error_code EC;
  fs::path Base = fs::current_path(EC);
  for (const std::string &D : O.IncludeDirs) {
    fs::path Rel = fs::absolute(D, EC).lexically_normal().lexically_relative(Base);
    if (!Rel.empty() && *Rel.begin() != "..")
      IncludeDirs.push_back(Rel.generic_string());
  }
  const std::vector<std::string> &Paths = O.Session.Files;
  std::vector<FileReducer> Reducers;
  Reducers.reserve(Paths.size());
  for (const std::string &P : Paths)
    Reducers.emplace_back(S, Passes, languageFor(O, P), " on " + P);
  bool ExtraRound = false;
  for (;;) {
    Size RoundStart = S.bestSize();
    runCrossFilePasses(S, CrossPasses, IncludeDirs, /*Joining=*/false);
    // Sources before their headers, as in a preprocessed file (FileReducer).
    for (std::size_t F : includersFirst(FileSet{Paths, S.files(), IncludeDirs})) {
      if (S.interrupted())
        break;
      if (S.files()[F].empty())
        continue;
      S.setFocus(F);
      Reducers[F].run();
    }
    std::vector<std::string> BeforeJoining = S.files();
    runCrossFilePasses(S, CrossPasses, IncludeDirs, /*Joining=*/true);
    S.setFocus(Session::AllFiles);
    if (S.interrupted())
      break;
    if (S.bestSize() < RoundStart) {
      ExtraRound = false;
      continue;
    }
    // Moves keep the size, yet what moved can shrink in its new place, and a header they
    // emptied can lose its includes: one more round after a round that only joined files.
    if (S.files() == BeforeJoining || ExtraRound)
      break;
    ExtraRound = true;
  }
  return S.finish();
}

} // namespace sleuth::reducer
