/*===- fatomic/fatomic.h - C interface to the SPIR-V lowering --------------===*
 *
 * The `lower-float-atomic-minmax` pass for engines that are not written in
 * C++.  It has exactly the semantics of fatomic::LowerFloatAtomicMinMaxPass
 * (fatomic/LowerFloatAtomicMinMax.h); this header only restates the parts a
 * caller must know.
 *
 * What is rewritten: every OpAtomicFMinEXT / OpAtomicFMaxEXT on a 32- or
 * 64-bit float that the target does not run natively.  It becomes integer
 * atomics on the same memory (an atomic load for the early-out where legal,
 * then one sign-dispatched OpAtomicSMin/UMax or OpAtomicSMax/UMin, or an
 * OpAtomicCompareExchange loop), so the memory keeps plain IEEE bits and every
 * other reader and writer of it is unaffected.  Scope and memory semantics are
 * kept.  NaN, signed zero and subnormal results follow the NaN policy of the
 * option string (docs/semantics.md has the full table).
 *
 * What is left alone: atomics the target runs natively, every other
 * instruction.  A module without float atomic min/max comes back
 * bit-identical; lowering an already lowered module changes nothing.
 *
 * Capabilities: AtomicFloat32MinMaxEXT / AtomicFloat64MinMaxEXT are removed
 * once no atomic needs them, then SPV_EXT_shader_atomic_float_min_max;
 * Int64Atomics is added when an f64 atomic is lowered.
 *
 * Errors: the call returns an error code, reports one message per problem
 * through the message callback, and produces no output.  The input words are
 * never modified.
 *
 * Typical use:
 *
 *   fatomic_target *target = NULL;
 *   if (fatomic_target_load_profile(json, json_size, &target, log, ctx)
 *       != FATOMIC_SUCCESS) ...
 *   uint32_t *out; size_t out_count;
 *   fatomic_result r = fatomic_lower(target, "nan=number", words, count,
 *                                    &out, &out_count, NULL, log, ctx);
 *   if (r == FATOMIC_SUCCESS) { ...use out...; fatomic_free(out); }
 *   fatomic_target_destroy(target);
 *
 * Threads: any number of calls may run at once and may share a
 * fatomic_target as long as none of them modifies it; fatomic_lower and
 * fatomic_target_has_feature only read the target.  A target must not be
 * modified (fatomic_target_set_feature, fatomic_target_destroy) while any
 * other call uses it.
 *
 * No C++ exception crosses this interface, and every out-parameter that is
 * not NULL is set on every return, errors included.
 *
 *===----------------------------------------------------------------------===*/
#ifndef FATOMIC_FATOMIC_H
#define FATOMIC_FATOMIC_H

#include <stddef.h>
#include <stdint.h>

#if defined(__GNUC__) || defined(__clang__)
#define FATOMIC_API __attribute__((visibility("default")))
#else
#define FATOMIC_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Outcome of a call.  Every value but FATOMIC_SUCCESS means no output. */
typedef enum fatomic_result {
  FATOMIC_SUCCESS = 0,
  /* A null pointer where one is required, an unknown feature name, an
   * option string that does not parse (the message names the item), or a
   * word_count whose byte size does not fit in the address space. */
  FATOMIC_ERROR_INVALID_ARGUMENT = 1,
  /* Not SPIR-V, or words the reader cannot take apart: a bad header (words
   * in the other byte order among them: the words are the host's), an
   * instruction that runs past the end, a function without
   * OpFunctionEnd.  The module is not validated: a module cut
   * between two whole instructions outside a function may come back
   * unchanged with FATOMIC_SUCCESS (validate it first, as spirv-val does,
   * where it may be broken). */
  FATOMIC_ERROR_INVALID_MODULE = 2,
  /* A pointer reaches an atomic through OpFunctionParameter, OpPhi or
   * OpSelect in a Logical module.  Inline functions into the entry points
   * (spirv-opt --merge-return --inline-entry-points-exhaustive
   * --eliminate-dead-functions, after clearing DontInline) and call again. */
  FATOMIC_ERROR_UNTRACEABLE_POINTER = 3,
  /* An f16 atomic the target lacks, an image atomic without images=retype,
   * a Workgroup variable that cannot be retyped, a lowering that would need
   * an id bound above SPIR-V's 4194303 or an instruction longer than 65535
   * words. */
  FATOMIC_ERROR_UNSUPPORTED = 4,
  /* An f64 atomic on a target known to lack 64-bit integer atomics. */
  FATOMIC_ERROR_TARGET_LACKS_FEATURE = 5,
  /* fatomic_target_load_profile: not a Vulkan profile. */
  FATOMIC_ERROR_INVALID_PROFILE = 6,
  FATOMIC_ERROR_OUT_OF_MEMORY = 7,
  /* An unexpected failure inside the library (a C++ exception it did not
   * expect, stopped at this interface; the message says what it was).  A
   * bug: report it with the module. */
  FATOMIC_ERROR_INTERNAL = 8
} fatomic_result;

typedef enum fatomic_message_level {
  FATOMIC_MESSAGE_ERROR = 0,
  FATOMIC_MESSAGE_WARNING = 1,
  FATOMIC_MESSAGE_NOTE = 2
} fatomic_message_level;

/* Receives each diagnostic; \p message is valid only during the call.  May be
 * NULL: diagnostics are then discarded. */
typedef void (*fatomic_message_fn)(void *user_data, fatomic_message_level level,
                                   const char *message);

/* The features a device runs natively (fatomic/Target.h).  Feature names are
 * the members of VkPhysicalDeviceShaderAtomicFloat2FeaturesEXT, such as
 * "shaderBufferFloat32AtomicMinMax", plus "shaderBufferInt64Atomics" and
 * "shaderSharedInt64Atomics". */
typedef struct fatomic_target fatomic_target;

/* A target with nothing native: every float min/max is lowered, and 64-bit
 * integer atomics are assumed available.  NULL only when out of memory. */
FATOMIC_API fatomic_target *fatomic_target_create(void);

/* Reads the target from a Vulkan profile (the JSON `vulkaninfo --json`
 * writes; a feature the profile does not list is missing).  On success
 * *out_target owns a new target; on error it is set to NULL (where
 * out_target itself is not NULL) and the message says what is wrong.
 * \p json may be NULL where \p json_size is 0: an empty document, which is
 * FATOMIC_ERROR_INVALID_PROFILE like any other that is not a profile.  A
 * json_size too large for the address space (a failed ftell's (size_t)-1)
 * is FATOMIC_ERROR_INVALID_ARGUMENT; one that fits but runs past the
 * caller's buffer is read as given. */
FATOMIC_API fatomic_result fatomic_target_load_profile(
    const char *json, size_t json_size, fatomic_target **out_target,
    fatomic_message_fn message_fn, void *user_data);

/* Marks \p feature native (\p native != 0) or missing.
 * FATOMIC_ERROR_INVALID_ARGUMENT for an unknown name. */
FATOMIC_API fatomic_result fatomic_target_set_feature(fatomic_target *target,
                                                      const char *feature,
                                                      int native);

/* 1 when \p feature is native, 0 when not (or when the target says nothing
 * of it: see fatomic_target_feature_known), -1 for an unknown name. */
FATOMIC_API int fatomic_target_has_feature(const fatomic_target *target,
                                           const char *feature);

/* 1 when the target says whether \p feature is there (a profile was read, or
 * fatomic_target_set_feature named it), 0 when it says nothing (a feature of
 * fatomic_target_create's target that was never set), -1 for an unknown
 * name.  Of a feature the target says nothing about, fatomic_lower takes a
 * float min/max feature as missing (the atomic is lowered) and the 64-bit
 * integer atomics as present (an f64 lowering uses them). */
FATOMIC_API int fatomic_target_feature_known(const fatomic_target *target,
                                             const char *feature);

FATOMIC_API void fatomic_target_destroy(fatomic_target *target);

/* Lowers the module \p words[0 .. word_count) (in the host's byte order)
 * for \p target (NULL: nothing native).  \p options is the option string
 * of fatomic-opt's --lower-float-atomic-minmax=OPTIONS (NULL or "" for the
 * defaults): "nan=number|propagate|fast", "strategy=dispatch|cas", "early-out=on|off",
 * "native=<feature>[+<feature>...]", "images=retype", "outline=on|off"
 * (default on: each kind of atomic lowered once, in a helper function its
 * atomics call), "writers=module|any" (default module: every writer of the
 * memory is in this module; any: other shaders may write it too, so the
 * always-linearizable form is emitted everywhere, docs/semantics.md),
 * "aggregate=auto|subgroup|off" (where the invocations of a subgroup hit one
 * address, one of them does the atomic for all of them, in compute shaders;
 * auto, the default: where the target, from a profile, has the subgroup
 * basic, arithmetic and (for used results) ballot operations in
 * compute and, for f64, shaderSubgroupExtendedTypes; subgroup: also where
 * the target says nothing of them; off: never), "cache=on|off" (default on:
 * an invocation skips, without touching memory, an unused-result operation
 * that cannot pass a bound it saw its memory reach, where only lowered
 * atomics of the same kind write that memory), separated by ',' or ';'.
 *
 * On FATOMIC_SUCCESS, *out_words holds the resulting module (always a new
 * buffer, also when nothing changed; release it with fatomic_free),
 * *out_word_count its length, and *lowered_count (when not NULL) how many
 * atomics were rewritten.  On an error, each of them that is not NULL is
 * cleared: *out_words NULL, *out_word_count 0, *lowered_count 0 (a NULL
 * out_words or out_word_count is itself an error, the other one is still
 * cleared).  A word_count too large for the address space (a failed
 * ftell's (size_t)-1, or a byte count passed as a word count where that
 * overflows) is FATOMIC_ERROR_INVALID_ARGUMENT; one that fits but runs
 * past the caller's buffer (a byte count of a small module) is read as
 * given, which no library can tell from a real count. */
FATOMIC_API fatomic_result fatomic_lower(const fatomic_target *target,
                                         const char *options,
                                         const uint32_t *words,
                                         size_t word_count,
                                         uint32_t **out_words,
                                         size_t *out_word_count,
                                         unsigned *lowered_count,
                                         fatomic_message_fn message_fn,
                                         void *user_data);

/* Releases a buffer returned by fatomic_lower.  NULL is allowed. */
FATOMIC_API void fatomic_free(uint32_t *words);

/* "success", "invalid argument", ... for a result code. */
FATOMIC_API const char *fatomic_result_string(fatomic_result result);

/* The library version, e.g. "0.1.0". */
FATOMIC_API const char *fatomic_version(void);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* FATOMIC_FATOMIC_H */
