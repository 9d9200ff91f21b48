// A set of dependence edges (node -> node), open addressing over 64-bit keys. Inserting an edge
// that is already present is the common case on the hot path and costs one probe.
#pragma once

#include <cstdint>
#include <cstdlib>

namespace sleuth::rt {

class EdgeSet {
public:
  EdgeSet() { rehash(1024); }
  EdgeSet(const EdgeSet &) = delete;
  EdgeSet &operator=(const EdgeSet &) = delete;
  ~EdgeSet() { std::free(Slots); }

  void insert(uint32_t To, uint32_t From) {
    uint64_t Key = (uint64_t(To) << 32) | From;
    size_t I = hash(Key) & Mask;
    while (true) {
      uint64_t S = Slots[I];
      if (S == Key)
        return;
      if (S == Empty)
        break;
      I = (I + 1) & Mask;
    }
    Slots[I] = Key;
    if (++Count * 4 > (Mask + 1) * 3)
      rehash((Mask + 1) * 2);
  }

  bool contains(uint32_t To, uint32_t From) const {
    uint64_t Key = (uint64_t(To) << 32) | From;
    for (size_t I = hash(Key) & Mask;; I = (I + 1) & Mask) {
      if (Slots[I] == Key)
        return true;
      if (Slots[I] == Empty)
        return false;
    }
  }

  /// Calls F(To, From) for every edge; usable from a signal handler (no allocation).
  template <class Fn> void forEach(Fn F) const {
    for (size_t I = 0; I <= Mask; ++I)
      if (Slots[I] != Empty)
        F(uint32_t(Slots[I] >> 32), uint32_t(Slots[I]));
  }

  size_t size() const { return Count; }

private:
  static constexpr uint64_t Empty = ~uint64_t(0);
  static size_t hash(uint64_t K) {
    K ^= K >> 33;
    K *= 0xff51afd7ed558ccdULL;
    K ^= K >> 33;
    return size_t(K);
  }
  void rehash(size_t NewSize) {
    uint64_t *Old = Slots;
    size_t OldSize = Slots ? Mask + 1 : 0;
    Slots = static_cast<uint64_t *>(std::malloc(NewSize * sizeof(uint64_t)));
    if (!Slots)
      std::abort();
    for (size_t I = 0; I < NewSize; ++I)
      Slots[I] = Empty;
    Mask = NewSize - 1;
    Count = 0;
    for (size_t I = 0; I < OldSize; ++I)
      if (Old[I] != Empty)
        insert(uint32_t(Old[I] >> 32), uint32_t(Old[I]));
    std::free(Old);
  }

  uint64_t *Slots = nullptr;
  size_t Mask = 0;
  size_t Count = 0;
};

} // namespace sleuth::rt
