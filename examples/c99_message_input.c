/* Messages and wide text are input too: recvmsg scatters a datagram over two buffers, recvmmsg
 * takes several datagrams in one call, and swscanf parses a wide string. fill() wrote each buffer
 * first; what a call stored over its bytes no longer depends on fill(), while a byte no input
 * reached (tail) still does. */
#define _GNU_SOURCE /* recvmmsg */
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>
#include <wchar.h>

static void fill(char *buffer, int n) {
  for (int i = 0; i < n; i++)
    buffer[i] = 'x';
}

int main(void) {
  char head[2], body[6], first[4], second[4], name[8];
  wchar_t wide[8];
  int ends[2];
  if (socketpair(AF_UNIX, SOCK_DGRAM, 0, ends) != 0)
    return 1;
  fill(head, 2);
  fill(body, 6);
  fill(first, 4);
  fill(second, 4);
  fill(name, 8);
  for (int i = 0; i < 8; i++)
    wide[i] = L'x';

  struct iovec parts[2] = {{head, sizeof head}, {body, sizeof body}};
  struct msghdr message;
  memset(&message, 0, sizeof message);
  message.msg_iov = parts;
  message.msg_iovlen = 2;
  if (send(ends[0], "abcd", 4, 0) != 4 || recvmsg(ends[1], &message, 0) != 4)
    return 1;
  int scattered = body[1];
  int tail = body[4];
  int truncated = message.msg_flags & MSG_TRUNC;

  struct iovec one = {first, sizeof first}, two = {second, sizeof second};
  struct mmsghdr batch[2];
  memset(batch, 0, sizeof batch);
  batch[0].msg_hdr.msg_iov = &one;
  batch[0].msg_hdr.msg_iovlen = 1;
  batch[1].msg_hdr.msg_iov = &two;
  batch[1].msg_hdr.msg_iovlen = 1;
  if (send(ends[0], "ef", 2, 0) != 2 || send(ends[0], "ghi", 3, 0) != 3 ||
      recvmmsg(ends[1], batch, 2, 0, NULL) != 2)
    return 1;
  int later = second[2];
  int length = (int)batch[1].msg_len;

  if (swscanf(L"wide word", L"%ls %s", wide, name) != 2)
    return 1;
  int letter = (int)wide[1];
  int narrow = name[2];
  close(ends[0]);
  close(ends[1]);
  printf("%c %c %d %c %d %c %c\n", scattered, tail, truncated, later, length, letter, narrow);
  return 0;
}
