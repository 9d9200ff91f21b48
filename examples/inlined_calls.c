/* check_example flags: -O2 */
/* Functions the compiler inlines. At -O2, GCC and Clang inline square() into scaled(): the
 * inlined body's __builtin_frame_address, which the runtime uses to tell C frames apart (and to
 * pop those a longjmp abandoned), is its caller's. Its entry must nest inside scaled()'s frame,
 * not take scaled() for a frame a longjmp left behind, or scaled()'s value goes to outer()'s
 * caller and r reads nothing. */
#include <stdio.h>

static int square(int x) { return x * x; }

__attribute__((noinline)) static int scaled(int a) {
  int t = square(a);
  return t + 1;
}

__attribute__((noinline)) static int outer(int v) {
  int r = scaled(v);
  int s = r * 2;
  return s;
}

int main(int argc, char **argv) {
  int k = argc, y = 0;
  (void)argv;
  if (k > 0)
    y = outer(k);
  printf("%d\n", y);
  return 0;
}
