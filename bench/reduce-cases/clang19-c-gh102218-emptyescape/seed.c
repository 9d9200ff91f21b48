/* Tiny line-oriented logger with escape handling. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum log_level { LOG_DEBUG, LOG_INFO, LOG_WARN, LOG_ERROR };

static const char *level_names[] = {"debug", "info", "warn", "error"};
static enum log_level min_level = LOG_INFO;
static FILE *log_out;

static void log_msg(enum log_level lvl, const char *fmt, ...) {
  va_list ap;
  char stamp[32];
  time_t now;
  if (lvl < min_level)
    return;
  now = time(NULL);
  strftime(stamp, sizeof stamp, "%H:%M:%S", localtime(&now));
  fprintf(log_out ? log_out : stderr, "%s [%s] ", stamp, level_names[lvl]);
  va_start(ap, fmt);
  vfprintf(log_out ? log_out : stderr, fmt, ap);
  va_end(ap);
  fputc('\n', log_out ? log_out : stderr);
}

static size_t unescape(char *dst, const char *src, size_t cap) {
  size_t n = 0;
  while (*src && n + 1 < cap) {
    if (*src == '\\' && src[1]) {
      src++;
      switch (*src) {
      case 'n': dst[n++] = '\n'; break;
      case 't': dst[n++] = '\t'; break;
      default: dst[n++] = *src; break;
      }
      src++;
      continue;
    }
    dst[n++] = *src++;
  }
  dst[n] = 0;
  return n;
}

static void banner(void) {
  printf("\o{}");
}

int main(int argc, char **argv) {
  char buf[256];
  const char *path = argc > 1 ? argv[1] : NULL;
  if (path) {
    log_out = fopen(path, "a");
    if (!log_out) {
      fprintf(stderr, "cannot open %s: %s\n", path, strerror(errno));
      return EXIT_FAILURE;
    }
  }
  banner();
  unescape(buf, "hello\\tworld", sizeof buf);
  log_msg(LOG_INFO, "%s", buf);
  if (log_out)
    fclose(log_out);
  return 0;
}
