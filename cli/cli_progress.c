/*
 * cli_progress.c — owns the progress display. Its thread wakes every 250 ms, shows nothing for
 * the first two seconds (short runs stay silent; SPVI_PROGRESS_DELAY=MS changes that), then
 * rewrites one line of stderr. The run's
 * workers never wait for it: they add to an atomic counter (spvi_launch_progress), which this
 * thread reads. The mutex orders the line with kernel printf output (cli_progress_pause).
 */
#include "cli_progress.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

enum { PROGRESS_DELAY_MS = 2000, PROGRESS_PERIOD_MS = 250 };

struct cli_progress {
  const spvi_launch *l;
  pthread_t thread;
  pthread_mutex_t mu;
  pthread_cond_t cv; /* signalled by cli_progress_stop */
  struct timespec t0;
  bool stop, paused;
  unsigned delay_ms; /* PROGRESS_DELAY_MS, or SPVI_PROGRESS_DELAY */
  int shown;         /* characters of the line now on the terminal, 0 when none */
};

/* Seconds as M:SS, or H:MM:SS from an hour. */
static void progress_time(char *buf, size_t cap, uint64_t s) {
  if (s < 3600) snprintf(buf, cap, "%llu:%02llu", (unsigned long long)(s / 60), (unsigned long long)(s % 60));
  else
    snprintf(buf, cap, "%llu:%02llu:%02llu", (unsigned long long)(s / 3600), (unsigned long long)(s / 60 % 60),
             (unsigned long long)(s % 60));
}

size_t cli_progress_format(char *buf, size_t cap, uint64_t done, uint64_t total, double elapsed) {
  const double rate = elapsed > 0 ? (double)done / elapsed : 0;
  /* the percentage rounds down: 100% only when every group is done */
  const unsigned pct = total ? (unsigned)((long double)done * 100 / total) : 0;
  char left[48] = "time left unknown";
  if (rate > 0 && done <= total) {
    char t[32];
    const double s = (double)(total - done) / rate;
    progress_time(t, sizeof t, s < 1e15 ? (uint64_t)(s + 0.999) : (uint64_t)1e15); /* rounded up */
    snprintf(left, sizeof left, "%s left", t);
  }
  const char *rf = rate < 10 ? "%.2f" : rate < 100 ? "%.1f" : "%.0f";
  char r[48];
  snprintf(r, sizeof r, rf, rate);
  int n = snprintf(buf, cap, "spvi: %llu/%llu work-groups (%u%%), %s groups/s, %s", (unsigned long long)done,
                   (unsigned long long)total, pct, r, left);
  return n < 0 ? 0 : (size_t)n < cap ? (size_t)n : cap ? cap - 1 : 0;
}

static double since(const struct timespec *t0) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)(t.tv_sec - t0->tv_sec) + (double)(t.tv_nsec - t0->tv_nsec) * 1e-9;
}

/* Erases the line; with the mutex held. */
static void progress_clear(cli_progress *p) {
  if (!p->shown) return;
  fprintf(stderr, "\r%*s\r", p->shown, "");
  fflush(stderr);
  p->shown = 0;
}

static void progress_draw(cli_progress *p, double elapsed) {
  uint64_t total = 0, done = spvi_launch_progress(p->l, &total);
  char line[160];
  const int n = (int)cli_progress_format(line, sizeof line, done, total, elapsed);
  /* pad over a longer previous line */
  fprintf(stderr, "\r%s%*s", line, p->shown > n ? p->shown - n : 0, "");
  fflush(stderr);
  if (n > p->shown) p->shown = n;
}

static void *progress_main(void *arg) {
  cli_progress *p = arg;
  pthread_mutex_lock(&p->mu);
  struct timespec next = p->t0;
  while (!p->stop) {
    next.tv_nsec += PROGRESS_PERIOD_MS * 1000000L;
    if (next.tv_nsec >= 1000000000L) {
      next.tv_sec++;
      next.tv_nsec -= 1000000000L;
    }
    while (!p->stop && pthread_cond_timedwait(&p->cv, &p->mu, &next) == 0) {}
    const double el = since(&p->t0);
    if (!p->stop && !p->paused && el * 1000 >= p->delay_ms) progress_draw(p, el);
  }
  progress_clear(p);
  pthread_mutex_unlock(&p->mu);
  return NULL;
}

/* SPVI_PROGRESS_DELAY: milliseconds before the line appears (0..3600000); anything else is
 * said once and the default kept. */
static unsigned progress_delay(void) {
  const char *v = getenv("SPVI_PROGRESS_DELAY");
  if (!v) return PROGRESS_DELAY_MS;
  char *end;
  const unsigned long ms = strtoul(v, &end, 10);
  if (v[0] >= '0' && v[0] <= '9' && !*end && ms <= 3600000ul) return (unsigned)ms;
  fprintf(stderr, "spvi: warning: SPVI_PROGRESS_DELAY=`%.40s` is not 0..3600000 milliseconds; %d is used\n", v,
          PROGRESS_DELAY_MS);
  return PROGRESS_DELAY_MS;
}

cli_progress *cli_progress_start(const spvi_launch *l, bool show) {
  if (!show) return NULL;
  cli_progress *p = calloc(1, sizeof *p);
  if (!p) return NULL;
  p->l = l;
  p->delay_ms = progress_delay();
  pthread_condattr_t ca;
  /* the waits' deadlines are on the monotonic clock, as the elapsed time is */
  bool ok = pthread_condattr_init(&ca) == 0;
  ok = ok && pthread_condattr_setclock(&ca, CLOCK_MONOTONIC) == 0 && pthread_cond_init(&p->cv, &ca) == 0;
  if (ok && pthread_mutex_init(&p->mu, NULL) != 0) {
    pthread_cond_destroy(&p->cv);
    ok = false;
  }
  clock_gettime(CLOCK_MONOTONIC, &p->t0);
  if (ok && pthread_create(&p->thread, NULL, progress_main, p) != 0) {
    pthread_cond_destroy(&p->cv);
    pthread_mutex_destroy(&p->mu);
    ok = false;
  }
  pthread_condattr_destroy(&ca);
  if (!ok) free(p);
  return ok ? p : NULL;
}

void cli_progress_pause(cli_progress *p) {
  if (!p) return;
  pthread_mutex_lock(&p->mu);
  progress_clear(p);
  p->paused = true;
  pthread_mutex_unlock(&p->mu);
}

void cli_progress_resume(cli_progress *p) {
  if (!p) return;
  pthread_mutex_lock(&p->mu);
  p->paused = false;
  pthread_mutex_unlock(&p->mu);
}

void cli_progress_stop(cli_progress *p) {
  if (!p) return;
  pthread_mutex_lock(&p->mu);
  p->stop = true;
  pthread_cond_signal(&p->cv);
  pthread_mutex_unlock(&p->mu);
  pthread_join(p->thread, NULL);
  pthread_cond_destroy(&p->cv);
  pthread_mutex_destroy(&p->mu);
  free(p);
}
