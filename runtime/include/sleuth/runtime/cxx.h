/*
 * The sleuth runtime: the C++ layer of instrumented C++ code (sleuth::Frame, sleuth::rd,
 * sleuth::wrote...).
 *
 * Part of sleuth/runtime.h, which instrumented code includes: C89 under -pedantic -Werror and
 * any C++ standard, as that header.
 */
#ifndef SLEUTH_RUNTIME_CXX_H
#define SLEUTH_RUNTIME_CXX_H

#include "sleuth/runtime/calls.h"

#include <exception>

namespace sleuth {
/* The entry of a destructor, which C++ mostly calls implicitly (sleuth_enter_destructor). */
struct DestructorEntry {};

/* A library call that may call the program back (sleuth_library_call): a temporary made before
 * it in its full-expression, whose end, also by an exception leaving the call, puts the
 * enclosing call's control back. */
class LibraryCall {
public:
  explicit LibraryCall(unsigned Ctl) : Outer(sleuth_library_call(Ctl)) {}
  LibraryCall(const LibraryCall &) = delete;
  LibraryCall &operator=(const LibraryCall &) = delete;
  ~LibraryCall() { sleuth_library_returned(Outer); }

private:
  unsigned Outer;
};

/* One per instrumented C++ function: leaving the scope leaves the frame, also when an
 * exception unwinds it. The return value's node is created here, after the return
 * expression was evaluated, so `return x;` keeps its implicit move and NRVO. */
class Frame {
public:
  Frame(sleuth_tu *Tu, unsigned Func, unsigned Key) : Tu(Tu) {
    Control = sleuth_enter(Tu, Func, Key, SLEUTH_NULL);
  }
  Frame(sleuth_tu *Tu, unsigned Func, unsigned Key, unsigned FirstParam, unsigned Count) : Tu(Tu) {
    Control = sleuth_enter_params(Tu, Func, Key, SLEUTH_NULL, FirstParam, Count);
  }
  Frame(sleuth_tu *Tu, unsigned Func, unsigned Key, DestructorEntry) : Tu(Tu) {
    Control = sleuth_enter_destructor(Tu, Func, Key);
  }
  Frame(const Frame &) = delete;
  Frame &operator=(const Frame &) = delete;
  ~Frame() {
    if (RetSite != 0)
      sleuth_ret(Tu, RetSite - 1, RetControl, SLEUTH_NULL);
    else if (HiddenSite != 0 && HiddenTest != 0 && !unwinding()) {
      (void)sleuth_test_keep(Tu, HiddenTest - 1, HiddenControl, 1);
      sleuth_ret(Tu, HiddenSite - 1, Tu->base + (HiddenTest - 1), SLEUTH_NULL);
    } else if (HiddenSite != 0 && !unwinding())
      sleuth_ret(Tu, HiddenSite - 1, HiddenControl, SLEUTH_NULL);
    else
      sleuth_leave(SLEUTH_NULL);
    if (Constructed)
      sleuth_constructed(Constructed, ConstructedSize);
  }
  /* In a constructor of the program's, right after the frame: the object it constructs, kept
   * (for sleuth_constructed) if a forwarded call's record entered it. */
  void constructs(const void *Object, unsigned long Size) {
    sleuth_reads &R = sleuth_pending_reads;
    if (R.forwarded_construction != 0 && R.forwarded_construction == R.num_frames) {
      R.forwarded_construction = 0;
      Constructed = Object;
      ConstructedSize = Size;
    }
  }
  /* Around a statement that invokes a macro with a `return` inside, which no probe can reach:
   * the return node made for the statement (Site + 1; 0 after it), which the destructor
   * completes if the function returns while the statement runs, under the test node of the
   * macro's own `if` (Test + 1; 0: none) if the statement has one. */
  void hidden(unsigned Site, unsigned Ctl, unsigned Test = 0) {
    HiddenSite = Site;
    HiddenControl = Ctl;
    HiddenTest = Test;
  }
  /* The call's control (see sleuth_enter). */
  unsigned control() const { return Control; }
  /* Called just before `return expr;`: drops reads of earlier statements. */
  void ret(unsigned Site, unsigned Ctl) {
    sleuth_discard();
    RetSite = Site + 1;
    RetControl = Ctl;
  }

private:
  /* True while an exception unwinds the frame: its statement did not return. */
  static bool unwinding() {
#if defined(__cpp_lib_uncaught_exceptions)
    return std::uncaught_exceptions() > 0;
#else
    return std::uncaught_exception();
#endif
  }
  sleuth_tu *Tu;
  unsigned Control = 0;
  unsigned RetSite = 0;
  unsigned RetControl = 0;
  unsigned HiddenSite = 0;
  unsigned HiddenControl = 0;
  unsigned HiddenTest = 0;
  const void *Constructed = SLEUTH_NULL;
  unsigned long ConstructedSize = 0;
};

/* The callable of `std::thread t(f, a, b)`, in the place of f (thread_start): the new thread
 * calls it with the library's copies of a and b, which no probe saw. The library copies it
 * into the new thread's state in the constructing thread, after it evaluated every argument:
 * that move takes the call's record (site `Site`) from the thread, with the origins of each
 * argument (sleuth_thread_args_take); the new thread gives them back as a record of its own
 * just before it calls f (sleuth_thread_args_give), whose entry gives f's parameters their
 * origins as for a call made in that thread. */
#if __cplusplus >= 201103L
template <class F> class ThreadStart {
public:
  ThreadStart(sleuth_tu *Tu, unsigned Site, F &&Callable)
      : Tu(Tu), Site(Site), Callable(static_cast<F &&>(Callable)) {}
  ThreadStart(ThreadStart &&Other)
      : Tu(Other.Tu), Site(Other.Site), Args(Other.Args), Taken(true),
        Callable(static_cast<F &&>(Other.Callable)) {
    if (!Other.Taken)
      Args = sleuth_thread_args_take(Tu, Site);
    Other.Args = nullptr;
    Other.Taken = true;
  }
  ThreadStart(const ThreadStart &) = delete;
  ThreadStart &operator=(const ThreadStart &) = delete;
  ~ThreadStart() {
    if (Args)
      sleuth_thread_args_drop(Args);
  }
  template <class... A>
  auto operator()(A &&...Arguments)
      -> decltype(static_cast<F && (*)()>(nullptr)()(static_cast<A &&>(Arguments)...)) {
    give();
    return static_cast<F &&>(Callable)(static_cast<A &&>(Arguments)...);
  }
  /* A member function of Object's, or of the object it points to (the instrumenter passes no
   * other object: no std::reference_wrapper, no smart pointer). */
  template <class O, class... A>
  auto operator()(O &&Object, A &&...Arguments)
      -> decltype((static_cast<O && (*)()>(nullptr)().*
                   static_cast<F (*)()>(nullptr)())(static_cast<A &&>(Arguments)...)) {
    give();
    return (static_cast<O &&>(Object).*Callable)(static_cast<A &&>(Arguments)...);
  }
  template <class O, class... A>
  auto operator()(O &&Object, A &&...Arguments)
      -> decltype(((*static_cast<O && (*)()>(nullptr)()).*
                   static_cast<F (*)()>(nullptr)())(static_cast<A &&>(Arguments)...)) {
    give();
    return ((*static_cast<O &&>(Object)).*Callable)(static_cast<A &&>(Arguments)...);
  }

private:
  /* The record, to this thread, once. */
  void give() {
    void *Given = Args;
    Args = nullptr;
    if (Given)
      sleuth_thread_args_give(Given);
  }
  sleuth_tu *Tu;
  unsigned Site;
  void *Args = nullptr;
  bool Taken = false;
  F Callable;
};
/* F by value: a function decays to its pointer, a lambda is moved. */
template <class F> inline ThreadStart<F> thread_start(sleuth_tu *Tu, unsigned Site, F Callable) {
  return ThreadStart<F>(Tu, Site, static_cast<F &&>(Callable));
}
#endif

/* The address of an lvalue as the probes take it, through an integer: that drops a `__restrict`
 * qualifier of T as well, which no conversion to `const volatile void *` may (Clang rejects
 * `int *__restrict *` there). */
template <class T>
__attribute__((always_inline)) inline const volatile void *address_of(T &Lvalue) {
  return reinterpret_cast<const volatile void *>(
      reinterpret_cast<__UINTPTR_TYPE__>(__builtin_addressof(Lvalue)));
}

/* Records a write of Lvalue and yields it. Wrapped around an assignment it runs after the
 * store; wrapped around the operand of postfix ++/-- (whose result is the old value) it runs
 * before the store, while the shadow still holds the old origin that compound sites read. */
template <class T> inline T &wrote(sleuth_tu *Tu, unsigned Site, unsigned Ctl, T &Lvalue) {
  sleuth_set(Tu, Site, Ctl, address_of(Lvalue), sizeof(T));
  return Lvalue;
}
template <class T>
__attribute__((always_inline)) inline T &wrote_hot(sleuth_tu *Tu, unsigned Site, unsigned Ctl,
                                                   T &Lvalue) {
  sleuth_set_hot(Tu, Site, Ctl, address_of(Lvalue), sizeof(T));
  return Lvalue;
}

/* A prvalue argument bound to a const reference parameter of the program's callee
 * (`ring.push(base * i)` of `void push(const T &x)`): the temporary the binding materializes
 * is written here, from the argument's reads, so that the callee's reads through the reference
 * find them. Yields the temporary, which the parameter then binds (it lives until the end of
 * the full expression, the call's). */
template <class T>
inline const T &materialized(sleuth_tu *Tu, unsigned Site, unsigned Ctl, const T &Temporary) {
  sleuth_set(Tu, Site, Ctl, address_of(Temporary), sizeof(T));
  return Temporary;
}
/* The same for an argument whose reads are all checked against the node: it takes no pending
 * read (those pending are the other arguments'). */
template <class T>
inline const T &materialized_nopending(sleuth_tu *Tu, unsigned Site, unsigned Ctl,
                                       const T &Temporary) {
  sleuth_set_nopending(Tu, Site, Ctl, address_of(Temporary), sizeof(T));
  return Temporary;
}

/* Records a write of Lvalue by a library call that took it by non-const reference, whose value
 * Result is (`std::cin >> x` inside `std::cin >> x >> y`): both are evaluated before this runs,
 * so the write is recorded after the call. Yields Result, an lvalue reference (the stream). */
template <class R, class T>
inline R &written_by(R &Result, sleuth_tu *Tu, unsigned Site, unsigned Ctl, T &Lvalue) {
  sleuth_set(Tu, Site, Ctl, address_of(Lvalue), sizeof(T));
  return Result;
}

/* The same for a library call that writes Lvalue and whose value is a prvalue or an lvalue
 * (`auto last = std::unique(v.begin(), v.end())`, `seen.insert(k).second`,
 * `int old = std::exchange(x, 1)`): yields it as the call gave it, and the value reads the
 * write, which depends on what the call read. */
template <class R, class T>
inline R written_value(R &&Result, sleuth_tu *Tu, unsigned Site, unsigned Ctl, T &Lvalue) {
  sleuth_set(Tu, Site, Ctl, address_of(Lvalue), sizeof(T));
  sleuth_use(Tu->base + Site);
  return static_cast<R &&>(Result);
}

/* A closure just made (node `Site`, which read its captures): yields it, and what takes it
 * reads the node. By value, so that the closure's lifetime is what it was (a prvalue). */
template <class T> inline T made(sleuth_tu *Tu, unsigned Site, unsigned Ctl, T Closure) {
  sleuth_use(sleuth_defnow(Tu, Site, Ctl));
  return Closure;
}

/* The bytes of `Count` elements of `Size` bytes (qsort's array), whatever their types. */
template <class N, class S> inline unsigned long byte_count(N Count, S Size) {
  return static_cast<unsigned long>(Count) * static_cast<unsigned long>(Size);
}

/* Remembers Lvalue as the target of write `Site` and yields it, for an assignment in a template
 * that may call an operator= (whose result may be anything) and whose target has side effects
 * (`items[size++] = value`): sleuth_commit() after the assignment records the write. */
template <class T> inline T &target(sleuth_tu *Tu, unsigned Site, unsigned Ctl, T &Lvalue) {
  sleuth_setp(Tu, Site, Ctl, const_cast<void *>(address_of(Lvalue)), sizeof(T));
  return Lvalue;
}

/* Records a read of an lvalue and yields the same lvalue (C++ only: in C the instrumenter
 * writes `((void)sleuth_get(&x, sizeof x), x)` instead): pushed ... */
template <class T> inline T &rd(T &Lvalue) {
  sleuth_get(address_of(Lvalue), sizeof(T));
  return Lvalue;
}
template <class T> __attribute__((always_inline)) inline T &rd_hot(T &Lvalue) {
  sleuth_get_hot(address_of(Lvalue), sizeof(T));
  return Lvalue;
}
/* ... or checked, when the instrumenter knows the node that consumes it. */
template <class T> inline T &rdc(sleuth_tu *Tu, unsigned *Cache, unsigned Site, T &Lvalue) {
  sleuth_getc(Tu, Cache, Site, address_of(Lvalue), sizeof(T));
  return Lvalue;
}
template <class T>
__attribute__((always_inline)) inline T &rdc_hot(sleuth_tu *Tu, unsigned *Cache, unsigned Site,
                                                 T &Lvalue) {
  sleuth_getc_hot(Tu, Cache, Site, address_of(Lvalue), sizeof(T));
  return Lvalue;
}

/* The elements of a standard contiguous container (the instrumenter passes only those: a
 * std:: class with data() and size()), through its const members. */
template <class T> inline const volatile void *contents_of(const T &Container) {
  return Container.data();
}
template <class T> inline unsigned long contents_size(const T &Container) {
  return static_cast<unsigned long>(Container.size()) * sizeof(*Container.data());
}
/* A read of a container whole: the object and its elements (sleuth_get_all), yielding it. */
template <class T> inline T &rd_all(T &Container) {
  sleuth_get(address_of(Container), sizeof(T));
  sleuth_get_all(contents_of(Container), contents_size(Container));
  return Container;
}
template <class T> inline T &rdc_all(sleuth_tu *Tu, unsigned *Cache, unsigned Site, T &Container) {
  sleuth_getc(Tu, Cache, Site, address_of(Container), sizeof(T));
  sleuth_getc_all(Tu, Cache, Site, contents_of(Container), contents_size(Container));
  return Container;
}
/* sleuth_watch_contents and sleuth_moved_contents of a container. */
template <class T> inline void watch_all(const T &Container) {
  sleuth_watch_contents(contents_of(Container), contents_size(Container));
}
template <class T> inline void moved_all(const T &Container) {
  sleuth_moved_contents(contents_of(Container), contents_size(Container));
}
/* sleuth_watch_contents_at for an insert or erase at iterator `Position` or at index `Index`. */
template <class T, class I> inline void watch_at(const T &Container, const I &Position) {
  sleuth_watch_contents_at(contents_of(Container), contents_size(Container),
                           static_cast<unsigned long>(Position - Container.begin()) *
                               sizeof(*Container.data()));
}
template <class T, class N> inline void watch_index(const T &Container, N Index) {
  sleuth_watch_contents_at(contents_of(Container), contents_size(Container),
                           static_cast<unsigned long>(Index) * sizeof(*Container.data()));
}
template <class T> inline void shifted_all(sleuth_tu *Tu, unsigned Site, const T &Container) {
  sleuth_shifted_contents(Tu, Site, contents_of(Container), contents_size(Container));
}
/* An insert or erase whose value is used (`it = v.erase(it)`): the write, the shift, and the
 * value reads the write (see written_value). */
template <class R, class T>
inline R written_shifted(R &&Result, sleuth_tu *Tu, unsigned Site, unsigned Ctl, T &Container) {
  sleuth_set(Tu, Site, Ctl, address_of(Container), sizeof(T));
  shifted_all(Tu, Site, Container);
  sleuth_use(Tu->base + Site);
  return static_cast<R &&>(Result);
}
/* A compound assignment of a container that may move its elements (`s += t`), just made. */
template <class T> inline T &wrote_moved(sleuth_tu *Tu, unsigned Site, unsigned Ctl, T &Container) {
  moved_all(Container);
  return wrote(Tu, Site, Ctl, Container);
}
/* A library call's write of a container and its elements (sleuth_set_all), just made. */
template <class T> inline void wrote_all(sleuth_tu *Tu, unsigned Site, unsigned Ctl, T &Container) {
  sleuth_set_all(Tu, Site, Ctl, address_of(Container), sizeof(T), contents_of(Container),
                 contents_size(Container));
}
/* The same, passing on the call's value (see written_value). */
template <class R, class T>
inline R written_all(R &&Result, sleuth_tu *Tu, unsigned Site, unsigned Ctl, T &Container) {
  wrote_all(Tu, Site, Ctl, Container);
  sleuth_use(Tu->base + Site);
  return static_cast<R &&>(Result);
}
} // namespace sleuth

#endif /* SLEUTH_RUNTIME_CXX_H */
