/* Bounds of a data set with NaNs and both zeros, reduced by four threads
 * with float and double atomic min/max (__atomic_fetch_min/max, which clang
 * emits as atomicrmw fmin/fmax).  Prints the results, which do not depend on
 * the interleaving of the threads once fatomic has lowered the atomics. */
#include <math.h>
#include <pthread.h>
#include <stdio.h>

static const float Data[] = {3.5f, -0.0f, 0.0f, NAN, -2.25f, 1e-40f, 7.0f,
                             -1e-40f, -NAN, 0.5f, -0.0f, 6.0f};
enum { Count = sizeof Data / sizeof Data[0], Threads = 4 };

static float Lo = INFINITY, Hi = -INFINITY;
static double LoD = INFINITY;
static float Zero = 0.0f; /* min(+0, -0) */

static void *reduce(void *arg) {
  int t = *(const int *)arg, i;
  for (i = t; i < Count; i += Threads) {
    __atomic_fetch_min(&Lo, Data[i], __ATOMIC_RELAXED);
    __atomic_fetch_max(&Hi, Data[i], __ATOMIC_RELAXED);
    __atomic_fetch_min(&LoD, (double)Data[i], __ATOMIC_SEQ_CST);
  }
  __atomic_fetch_min(&Zero, -0.0f, __ATOMIC_RELAXED);
  return NULL;
}

static void print(const char *name, double v) {
  if (isnan(v))
    printf("%s = nan\n", name);
  else if (v == 0)
    printf("%s = %s0\n", name, signbit(v) ? "-" : "+");
  else
    printf("%s = %g\n", name, v);
}

int main(void) {
  pthread_t th[Threads];
  int id[Threads], i;
  for (i = 0; i < Threads; ++i) {
    id[i] = i;
    pthread_create(&th[i], NULL, reduce, &id[i]);
  }
  for (i = 0; i < Threads; ++i)
    pthread_join(th[i], NULL);
  print("lo", Lo);
  print("hi", Hi);
  print("lo (double)", LoD);
  print("min(+0, -0)", Zero);
  return 0;
}
