/* Bit-fields have no address: each read and write is of the bytes that hold the field's bits.
 * A write to a field that shares its bytes keeps the other bits, so it also reads them: the
 * slice of a neighbour's value holds the writes of the fields beside it. */
#include <stdio.h>

struct header {
  unsigned version : 3;
  unsigned length : 12;
  unsigned urgent : 1;
  unsigned char checksum;
};

static void grow(struct header *h, unsigned by) {
  h->length += by;
  h->urgent = h->length > 20;
}

int main(int argc, char **argv) {
  struct header h = {1, 5, 0, 0};
  unsigned version = 2;
  (void)argv;
  h.version = version;
  grow(&h, (unsigned)argc * 9);
  h.checksum = (unsigned char)(h.length * 3);
  printf("%u %u %u\n", h.urgent, h.checksum, h.version);
  return 0;
}
