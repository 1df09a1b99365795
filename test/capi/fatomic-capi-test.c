/*===- fatomic-capi-test.c - The C interface, used from C ------------------===*
 *
 * usage: fatomic-capi-test <minmax.spv> <param-pointer.spv> <profile.json>
 *                          <out-dir>
 *
 * <minmax.spv> holds f32 buffer, f32 shared and f64 buffer float atomic
 * min/max (test/capi/Inputs/minmax.comp); <param-pointer.spv> an atomic whose
 * pointer is a function parameter; <profile.json> lavapipe's Vulkan profile
 * (native f32 buffer/shared min/max, no f64).  Checks every function of
 * fatomic.h, prints one line per check, and writes the lowered modules to
 * <out-dir> for spirv-val.  Exit status 0 when every check passes.
 *
 * Errors leave nothing behind: every out-parameter that is not NULL is
 * cleared whichever argument is wrong, and a word_count too large for the
 * address space is an invalid argument, not an abort (no C++ exception
 * crosses the interface) nor a read of memory that is not there.
 *
 *===----------------------------------------------------------------------===*/
#include <fatomic/fatomic.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int Failures;
static int Checks;

#define CHECK(cond, what)                                                     \
  do {                                                                        \
    ++Checks;                                                                 \
    if (cond) {                                                               \
      printf("ok: %s\n", what);                                               \
    } else {                                                                  \
      ++Failures;                                                             \
      printf("FAIL: %s (%s, line %d)\n", what, #cond, __LINE__);              \
    }                                                                         \
  } while (0)

/* The last diagnostic, and how many came. */
struct log {
  char last[1024];
  int count;
  int errors;
};

static void on_message(void *user_data, fatomic_message_level level,
                       const char *message) {
  struct log *log = (struct log *)user_data;
  ++log->count;
  if (level == FATOMIC_MESSAGE_ERROR)
    ++log->errors;
  snprintf(log->last, sizeof log->last, "%s", message);
  printf("  message: %s\n", message);
}

static void reset(struct log *log) { memset(log, 0, sizeof *log); }

static char *read_file(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  char *data;
  long n;
  if (!f)
    return NULL;
  fseek(f, 0, SEEK_END);
  n = ftell(f);
  fseek(f, 0, SEEK_SET);
  data = (char *)malloc((size_t)n + 1);
  if (data && fread(data, 1, (size_t)n, f) != (size_t)n) {
    free(data);
    data = NULL;
  }
  fclose(f);
  if (data) {
    data[n] = '\0';
    *size = (size_t)n;
  }
  return data;
}

static int write_words(const char *dir, const char *name, const uint32_t *w,
                       size_t count) {
  char path[4096];
  FILE *f;
  size_t written;
  snprintf(path, sizeof path, "%s/%s", dir, name);
  f = fopen(path, "wb");
  if (!f)
    return 0;
  written = fwrite(w, sizeof *w, count, f);
  return fclose(f) == 0 && written == count;
}

/* How many instructions with \p opcode the module holds (header: 5 words). */
static int count_opcode(const uint32_t *w, size_t count, uint32_t opcode) {
  size_t i = 5;
  int n = 0;
  while (i < count) {
    uint32_t length = w[i] >> 16;
    if ((w[i] & 0xFFFFu) == opcode)
      ++n;
    if (length == 0)
      return -1;
    i += length;
  }
  return n;
}

enum { OpAtomicSMin = 236, OpAtomicFMinEXT = 5614,
       OpAtomicFMaxEXT = 5615 };

static int float_atomics(const uint32_t *w, size_t count) {
  return count_opcode(w, count, OpAtomicFMinEXT) +
         count_opcode(w, count, OpAtomicFMaxEXT);
}

int main(int argc, char **argv) {
  const char *out_dir;
  size_t size, json_size, word_count, param_count;
  char *bytes, *param_bytes, *json;
  const uint32_t *words, *param_words;
  uint32_t *out = NULL, *again = NULL;
  size_t out_count = 0, again_count = 0;
  unsigned lowered = 99;
  fatomic_result r;
  fatomic_target *target, *profile = NULL;
  struct log log;
  uint32_t garbage[8] = {0x12345678u, 1, 2, 3, 4, 5, 6, 7};

  if (argc != 5) {
    fprintf(stderr, "usage: fatomic-capi-test <minmax.spv> "
                    "<param-pointer.spv> <profile.json> <out-dir>\n");
    return 2;
  }
  out_dir = argv[4];
  bytes = read_file(argv[1], &size);
  param_bytes = read_file(argv[2], &param_count);
  json = read_file(argv[3], &json_size);
  if (!bytes || !param_bytes || !json) {
    fprintf(stderr, "fatomic-capi-test: cannot read the inputs\n");
    return 2;
  }
  words = (const uint32_t *)(const void *)bytes;
  word_count = size / 4;
  param_words = (const uint32_t *)(const void *)param_bytes;
  param_count /= 4;

  CHECK(strlen(fatomic_version()) > 0, "fatomic_version is not empty");
  CHECK(float_atomics(words, word_count) == 3, "the input has 3 float atomics");

  /* Default target (nothing native): all three are lowered. */
  reset(&log);
  r = fatomic_lower(NULL, NULL, words, word_count, &out, &out_count, &lowered,
                    on_message, &log);
  CHECK(r == FATOMIC_SUCCESS, "default target: success");
  CHECK(lowered == 3, "default target: 3 atomics lowered");
  CHECK(out != NULL && float_atomics(out, out_count) == 0,
        "default target: no OpAtomicFMinEXT/FMaxEXT left");
  CHECK(count_opcode(out, out_count, OpAtomicSMin) > 0,
        "default target: integer OpAtomicSMin emitted");
  CHECK(log.errors == 0, "default target: no error message");
  CHECK(write_words(out_dir, "default.spv", out, out_count),
        "default target: written");

  /* Lowering the output again changes nothing. */
  r = fatomic_lower(NULL, "", out, out_count, &again, &again_count, &lowered,
                    on_message, &log);
  CHECK(r == FATOMIC_SUCCESS && lowered == 0, "second run: nothing lowered");
  CHECK(again != NULL && again != out && again_count == out_count &&
            memcmp(again, out, out_count * 4) == 0,
        "second run: a new, bit-identical buffer");
  fatomic_free(again);
  fatomic_free(out);

  /* The input words are never modified. */
  CHECK(float_atomics(words, word_count) == 3, "the input is unchanged");

  /* Options: propagate with a CAS loop. */
  r = fatomic_lower(NULL, "nan=propagate;strategy=cas", words, word_count,
                    &out, &out_count, &lowered, on_message, &log);
  CHECK(r == FATOMIC_SUCCESS && lowered == 3, "nan=propagate;strategy=cas");
  CHECK(count_opcode(out, out_count, 230 /* OpAtomicCompareExchange */) > 0,
        "strategy=cas: OpAtomicCompareExchange emitted");
  CHECK(write_words(out_dir, "cas.spv", out, out_count), "cas: written");
  fatomic_free(out);

  /* A target built feature by feature. */
  target = fatomic_target_create();
  CHECK(target != NULL, "fatomic_target_create");
  CHECK(fatomic_target_has_feature(target, "shaderBufferFloat32AtomicMinMax") ==
            0,
        "a new target has nothing native");
  CHECK(fatomic_target_set_feature(target, "shaderBufferFloat32AtomicMinMax",
                                   1) == FATOMIC_SUCCESS,
        "set shaderBufferFloat32AtomicMinMax");
  CHECK(fatomic_target_has_feature(target, "shaderBufferFloat32AtomicMinMax") ==
            1,
        "shaderBufferFloat32AtomicMinMax is now native");
  CHECK(fatomic_target_set_feature(target, "shaderBufferFloat32AtomicMinMx",
                                   1) == FATOMIC_ERROR_INVALID_ARGUMENT,
        "a misspelt feature is an invalid argument");
  CHECK(fatomic_target_has_feature(target, "nope") == -1,
        "has_feature of an unknown name is -1");
  /* What the new target says nothing of: the 64-bit integer atomics are
   * neither native nor known (fatomic_lower assumes them); what was set is
   * known. */
  CHECK(fatomic_target_has_feature(target, "shaderBufferInt64Atomics") == 0 &&
            fatomic_target_feature_known(target, "shaderBufferInt64Atomics") ==
                0,
        "a new target says nothing of shaderBufferInt64Atomics");
  CHECK(fatomic_target_feature_known(target,
                                     "shaderBufferFloat32AtomicMinMax") == 1,
        "a feature set is known");
  CHECK(fatomic_target_feature_known(target, "nope") == -1 &&
            fatomic_target_feature_known(NULL, "shaderBufferInt64Atomics") ==
                -1,
        "feature_known of an unknown name or a NULL target is -1");
  r = fatomic_lower(target, NULL, words, word_count, &out, &out_count,
                    &lowered, on_message, &log);
  CHECK(r == FATOMIC_SUCCESS && lowered == 2,
        "native f32 buffer: the other 2 are lowered");
  CHECK(float_atomics(out, out_count) == 1, "native f32 buffer: 1 kept");
  CHECK(write_words(out_dir, "native-f32-buffer.spv", out, out_count),
        "native f32 buffer: written");
  fatomic_free(out);

  /* native= in the option string does the same. */
  r = fatomic_lower(NULL, "native=shaderBufferFloat32AtomicMinMax", words,
                    word_count, &out, &out_count, &lowered, on_message, &log);
  CHECK(r == FATOMIC_SUCCESS && lowered == 2 &&
            float_atomics(out, out_count) == 1,
        "native= in the options: 2 lowered, 1 kept");
  fatomic_free(out);

  /* A second native= replaces the first, as any key given twice does: only
   * the f64 buffer atomic is native, the two f32 ones are lowered. */
  r = fatomic_lower(NULL,
                    "native=shaderBufferFloat32AtomicMinMax;"
                    "native=shaderBufferFloat64AtomicMinMax",
                    words, word_count, &out, &out_count, &lowered, on_message,
                    &log);
  CHECK(r == FATOMIC_SUCCESS && lowered == 2 &&
            float_atomics(out, out_count) == 1,
        "native= given twice: the last one counts, 2 lowered");
  fatomic_free(out);

  /* A target known to lack 64-bit integer atomics cannot take the f64 one. */
  fatomic_target_set_feature(target, "shaderBufferInt64Atomics", 0);
  reset(&log);
  out = (uint32_t *)&log; /* must be reset to NULL */
  out_count = 7;
  r = fatomic_lower(target, NULL, words, word_count, &out, &out_count,
                    &lowered, on_message, &log);
  CHECK(r == FATOMIC_ERROR_TARGET_LACKS_FEATURE,
        "no int64 atomics: target lacks a feature");
  CHECK(out == NULL && out_count == 0, "no int64 atomics: no output");
  CHECK(log.errors == 1 && strstr(log.last, "64-bit integer atomics") != NULL,
        "no int64 atomics: the message says why");
  fatomic_target_destroy(target);

  /* A Vulkan profile: lavapipe has f32 min/max natively, not f64. */
  reset(&log);
  r = fatomic_target_load_profile(json, json_size, &profile, on_message, &log);
  CHECK(r == FATOMIC_SUCCESS && profile != NULL, "load lavapipe's profile");
  CHECK(fatomic_target_has_feature(profile,
                                   "shaderSharedFloat32AtomicMinMax") == 1,
        "profile: f32 shared min/max native");
  CHECK(fatomic_target_has_feature(profile,
                                   "shaderBufferFloat64AtomicMinMax") == 0,
        "profile: f64 buffer min/max not native");
  CHECK(fatomic_target_feature_known(profile,
                                     "shaderBufferFloat64AtomicMinMax") == 1,
        "profile: every feature is known, the missing ones too");
  r = fatomic_lower(profile, NULL, words, word_count, &out, &out_count,
                    &lowered, on_message, &log);
  CHECK(r == FATOMIC_SUCCESS && lowered == 1 &&
            float_atomics(out, out_count) == 2,
        "profile: only the f64 atomic is lowered");
  CHECK(write_words(out_dir, "profile.spv", out, out_count),
        "profile: written");
  fatomic_free(out);
  fatomic_target_destroy(profile);

  reset(&log);
  profile = (fatomic_target *)&log;
  r = fatomic_target_load_profile("{\"capabilities\": 3}", 19, &profile,
                                  on_message, &log);
  CHECK(r == FATOMIC_ERROR_INVALID_PROFILE && profile == NULL,
        "a JSON that is not a profile: invalid profile, no target");
  CHECK(log.errors == 1 && strstr(log.last, "capabilities") != NULL,
        "invalid profile: the message names what is missing");
  reset(&log);
  r = fatomic_target_load_profile(json, json_size / 2, &profile, on_message,
                                  &log);
  CHECK(r == FATOMIC_ERROR_INVALID_PROFILE && log.errors == 1 &&
            strstr(log.last, "not valid JSON") != NULL,
        "a truncated profile: invalid profile");
  reset(&log);
  profile = (fatomic_target *)&log;
  r = fatomic_target_load_profile(NULL, 5, &profile, on_message, &log);
  CHECK(r == FATOMIC_ERROR_INVALID_ARGUMENT && profile == NULL &&
            log.errors == 1,
        "NULL json with a size: invalid argument, *out_target set to NULL");
  /* A failed ftell's (size_t)-1 as the size: refused before a byte of it
   * is read (the reader used to search it for a NUL, past the buffer). */
  reset(&log);
  profile = (fatomic_target *)&log;
  r = fatomic_target_load_profile("{}", (size_t)-1, &profile, on_message, &log);
  CHECK(r == FATOMIC_ERROR_INVALID_ARGUMENT && profile == NULL &&
            log.errors == 1 && strstr(log.last, "json_size") != NULL &&
            strstr(log.last, "too large") != NULL,
        "json_size (size_t)-1: invalid argument, *out_target set to NULL");
  reset(&log);
  r = fatomic_target_load_profile("{}", (size_t)PTRDIFF_MAX + 1, &profile,
                                  on_message, &log);
  CHECK(r == FATOMIC_ERROR_INVALID_ARGUMENT && profile == NULL,
        "json_size past PTRDIFF_MAX: invalid argument");

  /* Bad option strings. */
  reset(&log);
  r = fatomic_lower(NULL, "nan=maybe", words, word_count, &out, &out_count,
                    NULL, on_message, &log);
  CHECK(r == FATOMIC_ERROR_INVALID_ARGUMENT && out == NULL,
        "nan=maybe: invalid argument, no output");
  CHECK(strstr(log.last, "'maybe'") != NULL, "nan=maybe: named in the message");
  reset(&log);
  r = fatomic_lower(NULL, "colour=blue", words, word_count, &out, &out_count,
                    NULL, on_message, &log);
  CHECK(r == FATOMIC_ERROR_INVALID_ARGUMENT && strstr(log.last, "colour"),
        "an unknown key: invalid argument naming it");

  /* Bad modules. */
  reset(&log);
  r = fatomic_lower(NULL, NULL, garbage, 8, &out, &out_count, NULL,
                    on_message, &log);
  CHECK(r == FATOMIC_ERROR_INVALID_MODULE && out == NULL && log.errors == 1,
        "not SPIR-V: invalid module, one message, no output");
  reset(&log);
  r = fatomic_lower(NULL, NULL, words, word_count / 2, &out, &out_count, NULL,
                    on_message, &log);
  CHECK(r == FATOMIC_ERROR_INVALID_MODULE && out == NULL && log.errors == 1,
        "a truncated module: invalid module");
  reset(&log);
  r = fatomic_lower(NULL, NULL, words, 0, &out, &out_count, NULL, on_message,
                    &log);
  CHECK(r == FATOMIC_ERROR_INVALID_MODULE && out == NULL,
        "an empty module: invalid module");
  /* Words in the other byte order (a big-endian file read as it is) are
   * refused by their magic number, as docs/diagnostics.md says: the caller
   * swaps them.  Read as they are, their strings come out garbled (glslang's
   * "GLSL.std.450" import: an error that names 'LSLGdts.054.'), and a module
   * without OpExtInstImport (param.spv) would be lowered and come back in
   * the host's order without a word. */
  {
    const uint32_t *inputs[2];
    size_t counts[2], i, j;
    inputs[0] = words;
    inputs[1] = param_words;
    counts[0] = word_count;
    counts[1] = param_count;
    for (i = 0; i < 2; ++i) {
      uint32_t *swapped = (uint32_t *)malloc(counts[i] * sizeof *swapped);
      if (!swapped)
        return 2;
      for (j = 0; j < counts[i]; ++j)
        swapped[j] = ((inputs[i][j] & 0xFFu) << 24) |
                     ((inputs[i][j] & 0xFF00u) << 8) |
                     ((inputs[i][j] >> 8) & 0xFF00u) | (inputs[i][j] >> 24);
      reset(&log);
      out = (uint32_t *)&log; /* must be reset to NULL */
      out_count = 7;
      r = fatomic_lower(NULL, NULL, swapped, counts[i], &out, &out_count,
                        NULL, on_message, &log);
      CHECK(r == FATOMIC_ERROR_INVALID_MODULE && out == NULL &&
                out_count == 0 && log.errors == 1 &&
                strstr(log.last, "bad magic 0x03022307") != NULL,
            i == 0 ? "byte-swapped module: invalid module, bad magic"
                   : "byte-swapped module without OpExtInstImport: invalid "
                     "module, bad magic");
      free(swapped);
    }
  }
  r = fatomic_lower(NULL, NULL, NULL, 5, &out, &out_count, NULL, NULL, NULL);
  CHECK(r == FATOMIC_ERROR_INVALID_ARGUMENT,
        "NULL words with a count: invalid argument (no callback is fine)");
  out_count = 7;
  lowered = 7;
  r = fatomic_lower(NULL, NULL, words, word_count, NULL, &out_count, &lowered,
                    NULL, NULL);
  CHECK(r == FATOMIC_ERROR_INVALID_ARGUMENT, "NULL out_words: invalid argument");
  CHECK(out_count == 0 && lowered == 0,
        "NULL out_words: out_word_count and lowered_count cleared");
  out = (uint32_t *)&log; /* must be reset to NULL */
  lowered = 7;
  r = fatomic_lower(NULL, NULL, words, word_count, &out, NULL, &lowered, NULL,
                    NULL);
  CHECK(r == FATOMIC_ERROR_INVALID_ARGUMENT && out == NULL && lowered == 0,
        "NULL out_word_count: invalid argument, out_words and lowered_count "
        "cleared");

  /* A word_count whose byte size overflows size_t, exceeds PTRDIFF_MAX or
   * runs past the end of memory from words: an invalid argument with a
   * message, and no output.  The words are a whole module (a header), so
   * only the count is wrong. */
  {
    static const uint32_t header[5] = {0x07230203u, 0x00010000u, 0, 1, 0};
    /* 4 words below the top of the address space. */
    const uint32_t *top =
        (const uint32_t *)(uintptr_t)(UINTPTR_MAX - 4 * sizeof(uint32_t) + 1);
    const struct {
      const uint32_t *from;
      size_t count;
    } huge[] = {
        {header, (size_t)-1},                     /* bytes overflow */
        {header, (size_t)-1 / 4},                 /* 2^64 - 4 bytes */
        {header, (size_t)PTRDIFF_MAX / 4 + 1},    /* just past PTRDIFF_MAX */
        {header, (size_t)-1 / 4 + 1},             /* bytes wrap to 0 */
        {top, (size_t)PTRDIFF_MAX / 4},           /* words + count wraps */
    };
    size_t i;
    for (i = 0; i < sizeof huge / sizeof huge[0]; ++i) {
      char what[128];
      reset(&log);
      out = (uint32_t *)&log;
      out_count = 7;
      r = fatomic_lower(NULL, NULL, huge[i].from, huge[i].count, &out,
                        &out_count, NULL, on_message, &log);
      snprintf(what, sizeof what,
               "word_count %#zx: invalid argument, one message, no output",
               huge[i].count);
      CHECK(r == FATOMIC_ERROR_INVALID_ARGUMENT && log.errors == 1 &&
                strstr(log.last, "word_count") != NULL &&
                strstr(log.last, "too large") != NULL && out == NULL &&
                out_count == 0,
            what);
    }
  }

  /* A pointer through a function parameter: the caller inlines and retries. */
  reset(&log);
  r = fatomic_lower(NULL, NULL, param_words, param_count, &out, &out_count,
                    NULL, on_message, &log);
  CHECK(r == FATOMIC_ERROR_UNTRACEABLE_POINTER && out == NULL,
        "pointer through OpFunctionParameter: untraceable pointer");
  CHECK(strstr(log.last, "OpFunctionParameter") != NULL,
        "untraceable pointer: the message names the instruction");

  CHECK(strcmp(fatomic_result_string(FATOMIC_SUCCESS), "success") == 0 &&
            strcmp(fatomic_result_string(FATOMIC_ERROR_UNSUPPORTED),
                   "unsupported") == 0 &&
            strcmp(fatomic_result_string(FATOMIC_ERROR_INTERNAL),
                   "internal error") == 0,
        "fatomic_result_string");

  free(bytes);
  free(param_bytes);
  free(json);
  printf("%d checks, %d failed\n", Checks, Failures);
  return Failures ? 1 : 0;
}
