//===- Edit.cpp - Applying text changes ----------------------------------===//
#include "Edit.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace sleuth::reducer {

std::size_t Change::weight() const {
  std::size_t Removed = 0, Added = 0;
  for (const Edit &E : Edits) {
    Removed += E.Length;
    Added += E.Text.size();
  }
  return Removed > Added ? Removed - Added : 0;
}

Change replaceRange(std::size_t Begin, std::size_t End, std::string Text) {
  Change C;
  C.Edits.push_back({Begin, End > Begin ? End - Begin : 0, std::move(Text)});
  return C;
}

namespace {
/// Byte ranges already replaced by applied edits. Pure insertions claim
/// nothing, so several insertions at one offset (dd's added lines) coexist;
/// they only conflict with a replacement that strictly surrounds them.
class Claims {
public:
  bool overlaps(std::size_t B, std::size_t E) const {
    auto It = Ranges.upper_bound(B);
    if (It != Ranges.begin()) {
      auto Prev = std::prev(It);
      if (B == E ? Prev->first < B && B < Prev->second : Prev->second > B)
        return true;
    }
    return B != E && It != Ranges.end() && It->first < E;
  }
  void add(std::size_t B, std::size_t E) {
    if (B != E)
      Ranges.emplace(B, E);
  }

private:
  std::map<std::size_t, std::size_t> Ranges;
};
} // namespace

std::string applyChanges(const std::string &Base, const std::vector<const Change *> &Changes) {
  Claims Claimed;
  std::vector<const Edit *> Accepted;
  for (const Change *C : Changes) {
    bool Ok = !C->Edits.empty();
    // Edits of one change may not overlap each other either.
    Claims Own;
    for (const Edit &E : C->Edits) {
      std::size_t End = E.Offset + E.Length;
      if (End > Base.size() || Claimed.overlaps(E.Offset, End) || Own.overlaps(E.Offset, End)) {
        Ok = false;
        break;
      }
      Own.add(E.Offset, End);
    }
    if (!Ok)
      continue;
    for (const Edit &E : C->Edits) {
      Claimed.add(E.Offset, E.Offset + E.Length);
      Accepted.push_back(&E);
    }
  }
  // Insertions go before a replacement at the same offset, in change order.
  std::stable_sort(Accepted.begin(), Accepted.end(), [](const Edit *A, const Edit *B) {
    return A->Offset != B->Offset ? A->Offset < B->Offset : A->Length < B->Length && A->Length == 0;
  });
  std::string Out;
  Out.reserve(Base.size());
  std::size_t Pos = 0;
  for (const Edit *E : Accepted) {
    Out.append(Base, Pos, E->Offset - Pos);
    Out += E->Text;
    Pos = E->Offset + E->Length;
  }
  Out.append(Base, Pos, std::string::npos);
  return Out;
}

void dedupeChanges(std::vector<Change> &Changes) {
  using Key = std::vector<std::tuple<std::size_t, std::size_t, std::string>>;
  std::set<Key> Seen;
  std::vector<Change> Out;
  for (Change &C : Changes) {
    Key K;
    for (const Edit &E : C.Edits)
      K.emplace_back(E.Offset, E.Length, E.Text);
    std::sort(K.begin(), K.end());
    if (Seen.insert(std::move(K)).second)
      Out.push_back(std::move(C));
  }
  Changes = std::move(Out);
}

} // namespace sleuth::reducer
