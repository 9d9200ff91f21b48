// Tracker scenarios (TrackerSupport.h): locals whose origins live in companion locals, and checked
// reads.
#include "TrackerSupport.h"

namespace sleuth::tracker_test {
namespace {

// --- Locals whose origins live in companion locals ---------------------------

TEST_F(TrackerTest, CompanionOriginsFlowLikeShadowedOnes) {
  // int x = 1; int y = x; y += x; int z = y++; *p = z; int w = *p;  with x, y and z kept in
  // companions (sleuth_def/defnow/use/chk) and *p in the shadow memory.
  Recording R = record([](Program &P) {
    Unit &U = P.unit();
    unsigned X = U.site(VarSite, "x"), Y = U.site(VarSite, "y"),
             PlusEq = U.site(VarSite, "y += x", 0, {}, SLEUTH_FLAG_COMPOUND),
             Inc = U.site(VarSite, "y++", 0, {}, SLEUTH_FLAG_COMPOUND), Z = U.site(VarSite, "z"),
             Deref = U.site(VarSite, "*p"), W = U.site(VarSite, "w");
    U.enter(0);
    unsigned Ox = U.def(X);
    require(Ox != 0, "a definition gives an origin");
    sleuth_use(Ox);
    unsigned Oy = U.def(Y);
    sleuth_use(Ox);
    // Compound writes read the old value where they happen (a checked read, one cache each).
    unsigned PlusEqCache[2] = {}, IncCache[2] = {};
    sleuth_chk(U.tu(), PlusEqCache, PlusEq, Oy);
    Oy = U.def(PlusEq);
    sleuth_chk(U.tu(), IncCache, Inc, Oy);
    unsigned Oinc = U.defnow(Inc);
    sleuth_use(Oinc); // the value of y++, which z reads
    unsigned Oz = U.def(Z);
    require(Oinc != Oy, "the increment is a new origin");
    int Target = 0;
    sleuth_use(Oz);
    U.set(Deref, Target);
    get(Target);
    int w = Target;
    U.set(W, w);
    sleuth_use(0); // a local never written: nothing
    leave();
  });
  ASSERT_TRUE(R.Graph);
  const DependenceGraph &G = *R.Graph;
  EXPECT_EQ(dataOf(G, "y"), Names{"x"});
  EXPECT_EQ(dataOf(G, "y += x"), (Names{"x", "y"}));
  EXPECT_EQ(dataOf(G, "y++"), Names{"y += x"});
  EXPECT_EQ(dataOf(G, "z"), Names{"y++"});
  EXPECT_EQ(dataOf(G, "*p"), Names{"z"});
  EXPECT_EQ(dataOf(G, "w"), Names{"*p"});
}

TEST_F(TrackerTest, ParameterOriginsComeFromTheArguments) {
  // g(x, 7) into g(int a, int b), both parameters in companions; s = b + a. Either one probe per
  // parameter, or a fused entry that makes both nodes, whose origins are then the unit's base
  // plus the site.
  for (bool Fused : {false, true}) {
    Recording R = record([Fused](Program &P) {
      Unit &U = P.unit();
      unsigned G = U.func("g");
      unsigned X = U.site(VarSite, "x"), C = U.site(CallSite, "<call g>");
      unsigned A = U.site(ParamSite, "a", G), B = U.site(ParamSite, "b", G),
               S = U.site(VarSite, "s", G);
      U.enter(0);
      unsigned Ox = U.def(X);
      U.call(C, 9);
      U.arg(C, 1);
      sleuth_use(Ox);
      U.arg(C, 2);
      unsigned Oa, Ob;
      if (Fused) {
        U.enterParams(G, 9, A, 2);
        Oa = U.tu()->base + A;
        Ob = U.tu()->base + B;
      } else {
        U.enter(G, 9);
        Oa = U.paramOrigin(A, 1);
        Ob = U.paramOrigin(B, 2);
      }
      require(Oa != 0 && Ob != 0 && Oa != Ob, "parameters get origins of their own");
      sleuth_use(Ob);
      sleuth_use(Oa);
      U.def(S);
      leave();
      leave();
    });
    ASSERT_TRUE(R.Graph);
    EXPECT_EQ(dataOf(*R.Graph, "a"), Names{"x"}) << Fused;
    EXPECT_EQ(dataOf(*R.Graph, "b"), Names{}) << Fused;
    EXPECT_EQ(dataOf(*R.Graph, "s"), (Names{"a", "b"})) << Fused;
    EXPECT_EQ(hits(*R.Graph, "a"), 1u) << Fused;
  }
}

TEST_F(TrackerTest, CallWithArgumentOriginsPassesThemByPosition) {
  // r = g(7, y - x, x) where every argument reads only kept locals: one probe carries the
  // (position, origin) pairs; what the arguments then read is dropped at the callee's entry.
  // ext(y) is not instrumented: its result still depends on what its argument read.
  Recording R = record([](Program &P) {
    Unit &U = P.unit();
    unsigned G = U.func("g");
    unsigned X = U.site(VarSite, "x"), Y = U.site(VarSite, "y"), C = U.site(CallSite, "<call g>"),
             E = U.site(CallSite, "<call ext>"), Q = U.site(VarSite, "q");
    unsigned A = U.site(ParamSite, "a", G);
    U.site(ParamSite, "b", G); // A + 1 and A + 2: sleuth_enter_params makes the three of them
    U.site(ParamSite, "c", G);
    U.enter(0);
    unsigned Ox = U.def(X), Oy = U.def(Y);
    U.callArgs(C, 9, 4, 1u, 0u, 2u, Oy, 2u, Ox, 3u, Ox);
    sleuth_use(Oy); // the arguments' own reads
    sleuth_use(Ox);
    sleuth_use(Ox);
    U.enterParams(G, 9, A, 3);
    leave();
    U.callArgs(E, 5, 1, 1u, Oy);
    sleuth_use(Oy);
    U.def(Q);
    leave();
  });
  ASSERT_TRUE(R.Graph);
  EXPECT_EQ(dataOf(*R.Graph, "a"), Names{});
  EXPECT_EQ(dataOf(*R.Graph, "b"), (Names{"x", "y"}));
  EXPECT_EQ(dataOf(*R.Graph, "c"), Names{"x"});
  EXPECT_EQ(dataOf(*R.Graph, "q"), Names{"y"});
}

TEST_F(TrackerTest, FiveToEightArgumentOriginsGoWithTheCallInline) {
  // r = g(x, y, x, y, x) three times, every argument a kept local. The first call and entry go
  // to the runtime (the thread's first call record; g's parameters learn the origins); then
  // sleuth_call_pairs8 pushes the record and the five origins inline, and g is entered inline.
  Recording R = record([](Program &P) {
    Unit &U = P.unit();
    unsigned G = U.func("g");
    unsigned X = U.site(VarSite, "x"), Y = U.site(VarSite, "y"), C = U.site(CallSite, "<call g>");
    unsigned A = U.site(ParamSite, "a", G);
    for (const char *Name : {"b", "c", "d", "e"})
      U.site(ParamSite, Name, G); // A + 1 .. A + 4
    U.enter(0);
    unsigned Ox = U.def(X), Oy = U.def(Y);
    unsigned long Calls = 0, Entries = 0;
    for (int Round = 0; Round < 3; ++Round) {
      if (Round == 1)
        Calls = SlowCalls, Entries = SlowEntries;
      sleuth_call_pairs8(U.tu(), C, U.ctl(C), 9, 0, nullptr, 5, 1, Ox, 2, Oy, 3, Ox, 4, Oy, 5, Ox,
                         0, 0, 0, 0, 0, 0);
      U.enterParams(G, 9, A, 5);
      leave();
    }
    require(Calls != 0 && Entries != 0, "the first call and entry go to the runtime");
    require(SlowCalls == Calls, "five pairs go with the call inline");
    require(SlowEntries == Entries, "the parameters know their origins: entered inline");
    leave();
  });
  ASSERT_TRUE(R.Graph);
  const DependenceGraph &G = *R.Graph;
  EXPECT_EQ(dataOf(G, "a"), Names{"x"});
  EXPECT_EQ(dataOf(G, "b"), Names{"y"});
  EXPECT_EQ(dataOf(G, "e"), Names{"x"});
  EXPECT_EQ(hits(G, "e"), 3u);
}

TEST_F(TrackerTest, DiscardDropsOnlyTheCurrentFramesReads) {
  // w = x + (g(), 0) with `y;` discarded inside g, then `x;` discarded in the caller before
  // v = 1: the inline discard drops to the current frame's first read, which entering and
  // leaving g move.
  Recording R = record([](Program &P) {
    Unit &U = P.unit();
    unsigned G = U.func("g");
    unsigned X = U.site(VarSite, "x"), Y = U.site(VarSite, "y"), C = U.site(CallSite, "<call g>"),
             W = U.site(VarSite, "w"), V = U.site(VarSite, "v"), Z = U.site(VarSite, "z", G);
    U.enter(0);
    unsigned Ox = U.def(X), Oy = U.def(Y);
    sleuth_use(Ox);
    U.call(C, 3);
    U.enter(G, 3);
    sleuth_use(Oy);
    sleuth_discard();
    U.def(Z);
    leave();
    U.def(W);
    sleuth_use(Ox);
    sleuth_discard();
    U.def(V);
    leave();
  });
  ASSERT_TRUE(R.Graph);
  EXPECT_EQ(dataOf(*R.Graph, "z"), Names{});
  EXPECT_EQ(dataOf(*R.Graph, "w"), Names{"x"});
  EXPECT_EQ(dataOf(*R.Graph, "v"), Names{});
}

TEST_F(TrackerTest, ManyPendingReadsOutgrowTheInlineStack) {
  // The inline push falls back to the runtime when the stack is full (and on a thread's
  // first read, before it has one): a node reading 1,000 locals depends on all of them.
  constexpr unsigned Count = 1000;
  std::vector<std::string> Labels;
  for (unsigned I = 0; I < Count; ++I)
    Labels.push_back("v" + std::to_string(I));
  Recording R = record([&Labels](Program &P) {
    Unit &U = P.unit();
    std::vector<unsigned> Sites;
    for (const std::string &Label : Labels)
      Sites.push_back(U.site(VarSite, Label.c_str()));
    unsigned Sum = U.site(VarSite, "sum");
    std::thread Worker([&] {
      U.enter(0);
      std::vector<unsigned> Origins;
      for (unsigned Site : Sites)
        Origins.push_back(U.def(Site));
      for (unsigned Origin : Origins)
        sleuth_use(Origin);
      U.def(Sum);
      leave();
    });
    Worker.join();
  });
  ASSERT_TRUE(R.Graph);
  Names Expected(Labels.begin(), Labels.end());
  EXPECT_EQ(dataOf(*R.Graph, "sum"), Expected);
}

// --- Checked reads -----------------------------------------------------------

TEST_F(TrackerTest, CheckedReadsRecordTheirEdgeAtOnceAndRememberTheirOrigins) {
  // Reads whose consumer the instrumenter knows: `s = ...` reads the kept locals a, b, c, a
  // again (sleuth_chk), and `r = ...` the words w[0], w[1], w[2], w[0] again, then w[0..1]
  // whole (sleuth_getc). Each edge is recorded where the read happens, into the node of the
  // given site, which s never runs, and the read is not left pending for the next node; the
  // read's cache remembers the last two origins the runtime saw, so a third new one reaches the
  // runtime, as does a new origin in the second word of a pair read. An origin whose edge the
  // thread recorded before (a again, w[0] again) is found in the thread's table of edges
  // without the runtime, and remembered.
  Recording R = record([](Program &P) {
    Unit &U = P.unit();
    unsigned A = U.site(VarSite, "a"), B = U.site(VarSite, "b"), C = U.site(VarSite, "c");
    unsigned W0 = U.site(VarSite, "w[0]"), W1 = U.site(VarSite, "w[1]"),
             W2 = U.site(VarSite, "w[2]");
    unsigned S = U.site(VarSite, "s"), Rs = U.site(VarSite, "r"), Pair = U.site(VarSite, "pair"),
             Next = U.site(VarSite, "next");
    U.enter(0);
    unsigned Oa = U.def(A), Ob = U.def(B), Oc = U.def(C);
    auto Slots = [](const unsigned *Cache, unsigned First, unsigned Second) {
      return Cache[0] == First && Cache[1] == Second;
    };
    auto NothingPending = [] { return sleuth_pending_reads.top == sleuth_pending_reads.frame; };
    unsigned Cache[2] = {};
    sleuth_chk(U.tu(), Cache, S, 0); // a local never written
    require(Slots(Cache, 0, 0), "no origin, nothing to remember");
    sleuth_chk(U.tu(), Cache, S, Oa);
    require(Slots(Cache, Oa, 0), "a remembered");
    sleuth_chk(U.tu(), Cache, S, Oa);
    sleuth_chk(U.tu(), Cache, S, Ob);
    require(Slots(Cache, Ob, Oa), "b, then a");
    sleuth_chk(U.tu(), Cache, S, Oc);
    require(Slots(Cache, Oc, Ob), "c pushed a out");
    sleuth_chk(U.tu(), Cache, S, Oa);
    require(Slots(Cache, Oa, Oc), "a again: a known edge");
    require(NothingPending(), "checked reads are not pending");
    alignas(8) int w[4] = {};
    const unsigned Writers[] = {W0, W1, W2};
    for (unsigned I = 0; I < 3; ++I)
      U.set(Writers[I], w[I]);
    unsigned Ow0 = U.origin(W0), Ow1 = U.origin(W1), Ow2 = U.origin(W2);
    unsigned long Before = SlowMemoryProbes;
    unsigned RCache[2] = {};
    sleuth_getc(U.tu(), RCache, Rs, &w[3], sizeof(int)); // never written
    require(Slots(RCache, 0, 0), "no origin, nothing to remember");
    sleuth::rdc(U.tu(), RCache, Rs, w[0]);
    require(Slots(RCache, Ow0, 0), "w[0] remembered");
    require(&sleuth::rdc(U.tu(), RCache, Rs, w[0]) == &w[0], "rdc yields its lvalue");
    sleuth_getc(U.tu(), RCache, Rs, &w[1], sizeof(int));
    require(Slots(RCache, Ow1, Ow0), "w[1], then w[0]");
    sleuth_getc(U.tu(), RCache, Rs, &w[2], sizeof(int));
    require(Slots(RCache, Ow2, Ow1), "w[2] pushed w[0] out");
    sleuth_getc(U.tu(), RCache, Rs, &w[0], sizeof(int));
    require(Slots(RCache, Ow0, Ow2), "w[0] again: a known edge");
    require(SlowMemoryProbes == Before + 3, "only the new origins of w[0], w[1], w[2] went slow");
    unsigned PairCache[2] = {};
    sleuth_getc(U.tu(), PairCache, Pair, w, 2 * sizeof(int)); // two words at once
    require((Slots(PairCache, Ow1, Ow0) || Slots(PairCache, Ow0, Ow1)), "both words' origins");
    sleuth_getc(U.tu(), PairCache, Pair, w, 2 * sizeof(int)); // both known: inline
    U.set(W2, w[1]); // a new origin in the second word only
    sleuth_getc(U.tu(), PairCache, Pair, w, 2 * sizeof(int));
    require(PairCache[0] == Ow2, "w[1]'s new origin remembered");
    require(NothingPending(), "checked reads are not pending");
    U.def(Next); // reads nothing: the checked reads were not left for it
    leave();
  });
  ASSERT_TRUE(R.Graph);
  const DependenceGraph &G = *R.Graph;
  EXPECT_EQ(dataOf(G, "s"), (Names{"a", "b", "c"}));
  EXPECT_EQ(hits(G, "s"), 0u);
  EXPECT_EQ(dataOf(G, "r"), (Names{"w[0]", "w[1]", "w[2]"}));
  EXPECT_EQ(dataOf(G, "pair"), (Names{"w[0]", "w[1]", "w[2]"}));
  EXPECT_EQ(dataOf(G, "next"), Names{});
}

TEST_F(TrackerTest, CheckedReadOfASplitWordRecordsEveryOrigin) {
  // int x = ...; ((char *)&x)[1] = ...; r = x;  then ((char *)&x)[2] = ...; r2 = x: a word whose
  // bytes came from several writes gives a checked read all of their origins, each time.
  Recording R = record([](Program &P) {
    Unit &U = P.unit();
    unsigned X = U.site(VarSite, "x"), Byte1 = U.site(VarSite, "byte 1"),
             Byte2 = U.site(VarSite, "byte 2"), Rs = U.site(VarSite, "r"),
             R2 = U.site(VarSite, "r2"), Low = U.site(VarSite, "low");
    U.enter(0);
    alignas(4) unsigned x = 0;
    U.decl(X, x);
    unsigned char *Bytes = reinterpret_cast<unsigned char *>(&x);
    U.set(Byte1, Bytes[1]);
    unsigned Cache[2] = {}, Cache2[2] = {}, LowCache[2] = {};
    for (unsigned K = 0; K < 2; ++K) // split: the runtime both times, one edge each
      sleuth_getc(U.tu(), Cache, Rs, &x, sizeof x);
    require((Cache[0] == U.origin(X) && Cache[1] == U.origin(Byte1)) ||
                (Cache[0] == U.origin(Byte1) && Cache[1] == U.origin(X)),
            "both origins remembered");
    U.set(Byte2, Bytes[2]);
    sleuth_getc(U.tu(), Cache2, R2, &x, sizeof x);
    sleuth_getc(U.tu(), LowCache, Low, &Bytes[0], 1);
    leave();
  });
  ASSERT_TRUE(R.Graph);
  const DependenceGraph &G = *R.Graph;
  EXPECT_EQ(dataOf(G, "r"), (Names{"x", "byte 1"}));
  EXPECT_EQ(dataOf(G, "r2"), (Names{"x", "byte 1", "byte 2"}));
  EXPECT_EQ(dataOf(G, "low"), Names{"x"});
}

TEST_F(TrackerTest, ReadsOfManyOriginsFindTheEdgesRecordedBeforeInline) {
  // A loop reading words that eight writes made, and a kept local that eight writes made, in
  // turn (zlib's inflate copying from its window): the read's cache of two cannot hold them,
  // so each new edge goes to the runtime once, and the thread's table of recorded edges then
  // answers every later read inline. An origin whose edge into this node was never recorded
  // still goes to the runtime, though another node has that edge.
  Recording R = record([](Program &P) {
    Unit &U = P.unit();
    static const char *const WriterNames[] = {"w0", "w1", "w2", "w3", "w4", "w5", "w6", "w7"};
    std::vector<unsigned> Writers;
    for (const char *Name : WriterNames)
      Writers.push_back(U.site(VarSite, Name));
    unsigned Sum = U.site(VarSite, "sum"), Copy = U.site(VarSite, "copy"),
             Late = U.site(VarSite, "late"), Ninth = U.site(VarSite, "w8");
    U.enter(0);
    alignas(8) static int Window[16];
    std::vector<unsigned> Locals;
    for (unsigned I = 0; I < 8; ++I) {
      U.set(Writers[I], Window[I]);
      Locals.push_back(U.def(Writers[I]));
    }
    unsigned SumCache[2] = {}, CopyCache[2] = {}, LateCache[2] = {};
    unsigned long Before = SlowMemoryProbes;
    for (unsigned I = 0; I < 8; ++I) {
      sleuth_getc(U.tu(), SumCache, Sum, &Window[I], sizeof(int));
      sleuth_chk(U.tu(), CopyCache, Copy, Locals[I]);
    }
    require(SlowMemoryProbes == Before + 16, "each new edge reaches the runtime");
    for (unsigned Pass = 0; Pass < 3; ++Pass)
      for (unsigned I = 0; I < 8; ++I) {
        sleuth_getc(U.tu(), SumCache, Sum, &Window[(I * 3) % 8], sizeof(int));
        sleuth_chk(U.tu(), CopyCache, Copy, Locals[(I * 5) % 8]);
      }
    require(SlowMemoryProbes == Before + 16, "known edges are found inline");
    sleuth_getc(U.tu(), LateCache, Late, &Window[3], sizeof(int));
    require(SlowMemoryProbes == Before + 17, "an edge another node has is new to this one");
    U.set(Ninth, Window[4]);
    sleuth_getc(U.tu(), SumCache, Sum, &Window[4], sizeof(int));
    require(SlowMemoryProbes == Before + 19, "a new origin reaches the runtime");
    leave();
  });
  ASSERT_TRUE(R.Graph);
  const DependenceGraph &G = *R.Graph;
  Names Eight;
  for (unsigned I = 0; I < 8; ++I)
    Eight.insert("w" + std::to_string(I));
  EXPECT_EQ(dataOf(G, "copy"), Eight);
  Eight.insert("w8");
  EXPECT_EQ(dataOf(G, "sum"), Eight);
  EXPECT_EQ(dataOf(G, "late"), Names{"w3"});
}

TEST_F(TrackerTest, CharsOfSplitWordsAreWrittenAndReadInline) {
  // An output buffer whose bytes come from several writes (a decompressor's literal and copy
  // statements): each word is split, its bytes' origins in a split record. Once a write's
  // node and a read's edges are known, chars stored into such a word and chars read from it
  // (checked, pushed, one or two at a time) run inline on the record, each byte keeping its
  // own origin; a compound write reads the old origins of the bytes it covers.
  Recording R = record([](Program &P) {
    Unit &U = P.unit();
    unsigned Lit = U.site(VarSite, "literal"), CopyA = U.site(VarSite, "copy a"),
             CopyB = U.site(VarSite, "copy b"), Crc = U.site(VarSite, "crc"),
             Pair = U.site(VarSite, "pair"), Arg = U.site(VarSite, "arg"),
             Bump = U.site(VarSite, "bump", 0, {}, SLEUTH_FLAG_COMPOUND),
             Wide = U.site(VarSite, "wide");
    U.enter(0);
    alignas(8) static unsigned char Out[32];
    const unsigned Writers[] = {Lit, CopyA, CopyB};
    for (unsigned K = 0; K < 32; ++K) // byte K from writer K % 3: every word split
      U.set(Writers[K % 3], &Out[K], 1);
    unsigned CrcCache[2] = {}, PairCache[2] = {};
    for (unsigned K = 0; K < 32; ++K) // the first reads find new edges
      sleuth_getc(U.tu(), CrcCache, Crc, &Out[K], 1);
    sleuth_getc(U.tu(), PairCache, Pair, &Out[0], 2);
    sleuth_getc(U.tu(), PairCache, Pair, &Out[2], 2);
    unsigned long Before = SlowMemoryProbes;
    for (unsigned K = 0; K < 32; ++K) // written again by other writers, inline on the records
      U.set(Writers[(K + 1) % 3], &Out[K], 1);
    for (unsigned K = 0; K < 32; ++K)
      sleuth_getc(U.tu(), CrcCache, Crc, &Out[K], 1);
    sleuth_getc(U.tu(), PairCache, Pair, &Out[4], 2);
    sleuth_getc(U.tu(), CrcCache, Crc, &Out[8], 8); // two split words at once (crc32's braids)
    U.set(Bump, &Out[8], 1);  // its first run: the runtime, reading the literal's byte
    U.set(Bump, &Out[11], 1); // ... the literal's again: known, inline
    require(SlowMemoryProbes == Before + 1, "split words written and read inline");
    sleuth_get(&Out[12], 2); // pushed: bytes 12-13 from copy a and copy b
    U.def(Arg);
    sleuth_get(&Out[16], 8); // pushed: two split words
    U.def(Wide);
    leave();
  });
  ASSERT_TRUE(R.Graph);
  const DependenceGraph &G = *R.Graph;
  EXPECT_EQ(dataOf(G, "crc"), (Names{"literal", "copy a", "copy b"}));
  EXPECT_EQ(dataOf(G, "pair"), (Names{"literal", "copy a", "copy b"}));
  EXPECT_EQ(dataOf(G, "arg"), (Names{"copy a", "copy b"}));
  EXPECT_EQ(dataOf(G, "bump"), Names{"literal"});
  EXPECT_EQ(dataOf(G, "wide"), (Names{"literal", "copy a", "copy b"}));
  EXPECT_EQ(hits(G, "literal"), 21u); // 11 bytes, then 10
}

TEST_F(TrackerTest, CharsStoredOneByOneIntoFreshMemoryAreWrittenAndReadInline) {
  // A buffer no instrumented code wrote (read() filled it) takes chars one by one, as a parser
  // terminating its tokens in place does: each word's entry is a part (some bytes from one
  // write, the others from none) until that write covers it whole. Such stores and the reads of
  // their chars run inline; a word that takes bytes of two writes goes to the runtime.
  Recording R = record([](Program &P) {
    Unit &U = P.unit();
    unsigned Ch = U.site(VarSite, "ch"), Nul = U.site(VarSite, "nul"),
             Scan = U.site(VarSite, "scan"), Fresh = U.site(VarSite, "fresh"),
             Mixed = U.site(VarSite, "mixed");
    U.enter(0);
    alignas(8) static unsigned char Buffer[64];
    U.set(Ch, &Buffer[0], 1); // registers the unit, counts the node: the runtime
    unsigned ScanCache[2] = {}, FreshCache[2] = {}, MixedCache[2] = {};
    sleuth_getc(U.tu(), ScanCache, Scan, &Buffer[0], 1); // a new origin for the read: the runtime
    unsigned long Before = SlowMemoryProbes;
    for (unsigned K = 1; K < 48; ++K) // words 0..11: parts growing, then whole
      U.set(Ch, &Buffer[K], 1);
    for (unsigned K = 0; K < 48; ++K)
      sleuth_getc(U.tu(), ScanCache, Scan, &Buffer[K], 1);
    sleuth_getc(U.tu(), ScanCache, Scan, &Buffer[44], 4);
    sleuth_getc(U.tu(), ScanCache, Scan, &Buffer[40], 8);
    sleuth_getc(U.tu(), FreshCache, Fresh, &Buffer[49], 2); // never written: no origin
    U.set(Ch, &Buffer[50], 1);                              // a part of word 12 ...
    sleuth_getc(U.tu(), FreshCache, Fresh, &Buffer[48], 2); // ... not covering bytes 48-49
    sleuth_getc(U.tu(), ScanCache, Scan, &Buffer[50], 2);   // ... covering byte 50
    require(SlowMemoryProbes == Before, "parts are written and read inline");
    U.set(Nul, &Buffer[40], 1); // nul into a word whole from ch: a split record, the runtime's
    require(SlowMemoryProbes == Before + 1, "a split word goes to the runtime");
    sleuth_getc(U.tu(), MixedCache, Mixed, &Buffer[40], 4);
    leave();
  });
  ASSERT_TRUE(R.Graph);
  const DependenceGraph &G = *R.Graph;
  EXPECT_EQ(dataOf(G, "scan"), Names{"ch"});
  EXPECT_EQ(dataOf(G, "fresh"), Names{});
  EXPECT_EQ(dataOf(G, "mixed"), (Names{"ch", "nul"}));
  EXPECT_EQ(hits(G, "ch"), 49u);
}

TEST_F(TrackerTest, APartOverwrittenByAnotherWriteKeepsEachBytesOrigin) {
  // Parts written inline over parts of another write: the bytes the new write covers take its
  // origin, the others keep theirs (or none), whichever path the store takes.
  Recording R = record([](Program &P) {
    Unit &U = P.unit();
    unsigned A = U.site(VarSite, "a"), B = U.site(VarSite, "b"), Low = U.site(VarSite, "low"),
             High = U.site(VarSite, "high"), Whole = U.site(VarSite, "whole"),
             Cover = U.site(VarSite, "cover");
    U.enter(0);
    alignas(8) static unsigned char Word[8];
    U.set(A, &Word[0], 1);
    U.set(B, &Word[4], 1);
    U.set(A, &Word[1], 1); // word 0: a's bytes 0-1, inline
    U.set(B, &Word[0], 2); // ... overwritten by b's: a part of b's, inline
    U.set(A, &Word[5], 1); // word 1: b's byte 4, a's byte 5: split
    U.set(B, &Word[6], 2); // ... b's bytes 6-7
    unsigned LowCache[2] = {}, HighCache[2] = {}, WholeCache[2] = {}, CoverCache[2] = {};
    sleuth_getc(U.tu(), LowCache, Low, &Word[0], 2);
    sleuth_getc(U.tu(), HighCache, High, &Word[2], 2);
    sleuth_getc(U.tu(), WholeCache, Whole, &Word[4], 4);
    U.set(A, &Word[0], 4); // whole again
    sleuth_getc(U.tu(), CoverCache, Cover, &Word[0], 8);
    leave();
  });
  ASSERT_TRUE(R.Graph);
  const DependenceGraph &G = *R.Graph;
  EXPECT_EQ(dataOf(G, "low"), Names{"b"});
  EXPECT_EQ(dataOf(G, "high"), Names{});
  EXPECT_EQ(dataOf(G, "whole"), (Names{"a", "b"}));
  EXPECT_EQ(dataOf(G, "cover"), (Names{"a", "b"}));
}

} // namespace
} // namespace sleuth::tracker_test
