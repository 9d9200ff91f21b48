// Members of a class template, called on an instantiation (`Stack<int, 4>::push`): each call
// reaches the template's entry probe, so the parameter depends on the caller's argument and the
// callee's statements on the test that controlled the call. Inside the members, reads and writes
// whose types wait for the instantiation (`items[size++] = value`) are recorded too.
#include <cstdio>

template <class T, int N> class Stack {
public:
  void push(T value) {
    if (size < N)
      items[size++] = value;
  }
  T top() const { return items[size - 1]; }

private:
  T items[N] = {};
  int size = 0;
};

int main(int argc, char **) {
  Stack<int, 4> s;
  int base = 10 * argc;
  for (int i = 0; i < 3; i++)
    if (i != 1)
      s.push(base + i);
  int last = s.top();
  std::printf("last=%d\n", last);
  return 0;
}
