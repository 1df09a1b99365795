//===- CApi.cpp - The C interface of fatomic.h ----------------------------===//
//
// A thin layer over LowerFloatAtomicMinMaxPass and the target model: no
// exception crosses it, and a failed call leaves no output behind.
//
//===----------------------------------------------------------------------===//

#include "fatomic/fatomic.h"

#include "fatomic/LowerFloatAtomicMinMax.h"
#include "fatomic/Options.h"
#include "fatomic/Target.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <new>
#include <optional>
#include <string>
#include <vector>

#ifndef FATOMIC_VERSION
#define FATOMIC_VERSION "unknown"
#endif

struct fatomic_target {
  fatomic::TargetModel Model;
};

namespace {

void report(fatomic_message_fn Fn, void *UserData, fatomic_message_level Level,
            const char *Text) {
  if (Fn)
    Fn(UserData, Level, Text);
}

void report(fatomic_message_fn Fn, void *UserData, fatomic_message_level Level,
            const std::string &Text) {
  report(Fn, UserData, Level, Text.c_str());
}

fatomic_message_level levelOf(spv_message_level_t Level) {
  switch (Level) {
  case SPV_MSG_FATAL:
  case SPV_MSG_INTERNAL_ERROR:
  case SPV_MSG_ERROR:
    return FATOMIC_MESSAGE_ERROR;
  case SPV_MSG_WARNING:
    return FATOMIC_MESSAGE_WARNING;
  case SPV_MSG_INFO:
  case SPV_MSG_DEBUG:
    return FATOMIC_MESSAGE_NOTE;
  }
  return FATOMIC_MESSAGE_ERROR;
}

fatomic_result resultOf(fatomic::FailureKind Kind) {
  switch (Kind) {
  case fatomic::FailureKind::None:
  case fatomic::FailureKind::InvalidModule:
    return FATOMIC_ERROR_INVALID_MODULE;
  case fatomic::FailureKind::UntraceablePointer:
    return FATOMIC_ERROR_UNTRACEABLE_POINTER;
  case fatomic::FailureKind::Unsupported:
    return FATOMIC_ERROR_UNSUPPORTED;
  case fatomic::FailureKind::TargetLacksFeature:
    return FATOMIC_ERROR_TARGET_LACKS_FEATURE;
  }
  return FATOMIC_ERROR_INVALID_MODULE;
}

/// Whether \p Count elements of \p Size bytes from \p Start fit in the
/// address space: their byte size neither overflows size_t nor exceeds what
/// one object may span (PTRDIFF_MAX, which also bounds std::vector), and
/// the end does not wrap around.  A larger count is a caller's bug (a
/// failed ftell's (size_t)-1), not a module.  A count that fits but runs
/// past the caller's buffer cannot be told from a real one.
bool addressable(const void *Start, size_t Count, size_t Size) {
  if (Count > static_cast<size_t>(PTRDIFF_MAX) / Size)
    return false;
  return reinterpret_cast<uintptr_t>(Start) <= UINTPTR_MAX - Count * Size;
}

/// The result and message for an exception that reached the C boundary.
/// Called in a catch block, so it throws nothing itself.
fatomic_result caught(fatomic_message_fn Fn, void *UserData,
                      const char *What) noexcept {
  try {
    report(Fn, UserData, FATOMIC_MESSAGE_ERROR,
           std::string("internal error: ") + What);
  } catch (...) {
    report(Fn, UserData, FATOMIC_MESSAGE_ERROR, "internal error");
  }
  return FATOMIC_ERROR_INTERNAL;
}

fatomic_result lower(const fatomic_target *Target, const char *OptionText,
                     const uint32_t *Words, size_t WordCount,
                     uint32_t **OutWords, size_t *OutWordCount,
                     unsigned *LoweredCount, fatomic_message_fn Fn,
                     void *UserData) {
  if (!Words && WordCount != 0) {
    report(Fn, UserData, FATOMIC_MESSAGE_ERROR,
           "fatomic_lower: words is NULL but word_count is not 0");
    return FATOMIC_ERROR_INVALID_ARGUMENT;
  }
  if (!addressable(Words, WordCount, sizeof(uint32_t))) {
    report(Fn, UserData, FATOMIC_MESSAGE_ERROR,
           "fatomic_lower: word_count " + std::to_string(WordCount) +
               " is too large: that many words do not fit in the address "
               "space (word_count counts 32-bit words, not bytes)");
    return FATOMIC_ERROR_INVALID_ARGUMENT;
  }
  std::string Error;
  std::optional<fatomic::LoweringOptions> Options =
      fatomic::parseOptions(OptionText ? OptionText : "", Error);
  if (!Options) {
    report(Fn, UserData, FATOMIC_MESSAGE_ERROR,
           "lower-float-atomic-minmax: " + Error);
    return FATOMIC_ERROR_INVALID_ARGUMENT;
  }

  fatomic::LowerFloatAtomicMinMaxPass Pass(
      std::move(*Options), Target ? Target->Model : fatomic::TargetModel());
  if (Fn)
    Pass.SetMessageConsumer([Fn, UserData](spv_message_level_t Level,
                                           const char *, const spv_position_t &,
                                           const char *Text) {
      Fn(UserData, levelOf(Level), Text);
    });

  std::vector<uint32_t> Module(Words, Words + WordCount);
  if (Pass.Process(Module) == fatomic::PassStatus::Failure)
    return resultOf(Pass.lastFailure());

  // malloc, so that a C caller could also release it with free().
  auto *Out = static_cast<uint32_t *>(
      std::malloc(Module.empty() ? 1 : Module.size() * sizeof(uint32_t)));
  if (!Out) {
    report(Fn, UserData, FATOMIC_MESSAGE_ERROR, "out of memory");
    return FATOMIC_ERROR_OUT_OF_MEMORY;
  }
  if (!Module.empty())
    std::memcpy(Out, Module.data(), Module.size() * sizeof(uint32_t));
  *OutWords = Out;
  *OutWordCount = Module.size();
  if (LoweredCount)
    *LoweredCount = Pass.loweredCount();
  return FATOMIC_SUCCESS;
}

} // namespace

extern "C" {

fatomic_target *fatomic_target_create(void) {
  return new (std::nothrow) fatomic_target();
}

fatomic_result fatomic_target_load_profile(const char *Json, size_t JsonSize,
                                           fatomic_target **OutTarget,
                                           fatomic_message_fn Fn,
                                           void *UserData) {
  // The out-parameter first: it is NULL after every error.
  if (OutTarget)
    *OutTarget = nullptr;
  if (!OutTarget || (!Json && JsonSize != 0)) {
    report(Fn, UserData, FATOMIC_MESSAGE_ERROR,
           "fatomic_target_load_profile: a required pointer is NULL");
    return FATOMIC_ERROR_INVALID_ARGUMENT;
  }
  fatomic_target *Target = nullptr;
  try {
    // Inside: its message is a std::string, which may fail to allocate.
    if (!addressable(Json, JsonSize, 1)) {
      report(Fn, UserData, FATOMIC_MESSAGE_ERROR,
             "fatomic_target_load_profile: json_size " + std::to_string(JsonSize) +
                 " is too large: that many bytes do not fit in the address space");
      return FATOMIC_ERROR_INVALID_ARGUMENT;
    }
    std::string Error;
    std::optional<fatomic::TargetModel> Model = fatomic::loadProfile(
        std::string_view(Json ? Json : "", JsonSize), Error);
    if (!Model) {
      report(Fn, UserData, FATOMIC_MESSAGE_ERROR, "target profile: " + Error);
      return FATOMIC_ERROR_INVALID_PROFILE;
    }
    Target = new fatomic_target{std::move(*Model)};
    Target->Model.Source = "profile";
  } catch (const std::bad_alloc &) {
    delete Target;
    report(Fn, UserData, FATOMIC_MESSAGE_ERROR, "out of memory");
    return FATOMIC_ERROR_OUT_OF_MEMORY;
  } catch (const std::exception &E) {
    delete Target;
    return caught(Fn, UserData, E.what());
  } catch (...) {
    delete Target;
    return caught(Fn, UserData, "an unknown exception");
  }
  *OutTarget = Target;
  return FATOMIC_SUCCESS;
}

fatomic_result fatomic_target_set_feature(fatomic_target *Target,
                                          const char *Feature, int Native) {
  if (!Target || !Feature)
    return FATOMIC_ERROR_INVALID_ARGUMENT;
  std::optional<fatomic::Feature> F = fatomic::parseFeature(Feature);
  if (!F)
    return FATOMIC_ERROR_INVALID_ARGUMENT;
  Target->Model.set(*F, Native != 0);
  return FATOMIC_SUCCESS;
}

namespace {
/// 1 where \p Query holds for the feature named \p Feature of \p Target,
/// 0 where not, -1 for a null argument or an unknown name.
int askFeature(const fatomic_target *Target, const char *Feature,
               bool (*Query)(const fatomic::TargetModel &, fatomic::Feature)) {
  if (!Target || !Feature)
    return -1;
  std::optional<fatomic::Feature> F = fatomic::parseFeature(Feature);
  if (!F)
    return -1;
  return Query(Target->Model, *F) ? 1 : 0;
}
} // namespace

int fatomic_target_has_feature(const fatomic_target *Target,
                               const char *Feature) {
  return askFeature(Target, Feature, [](const fatomic::TargetModel &M,
                                        fatomic::Feature F) { return M.has(F); });
}

int fatomic_target_feature_known(const fatomic_target *Target,
                                 const char *Feature) {
  return askFeature(Target, Feature,
                    [](const fatomic::TargetModel &M, fatomic::Feature F) {
                      return M.isKnown(F);
                    });
}

void fatomic_target_destroy(fatomic_target *Target) { delete Target; }

fatomic_result fatomic_lower(const fatomic_target *Target, const char *Options,
                             const uint32_t *Words, size_t WordCount,
                             uint32_t **OutWords, size_t *OutWordCount,
                             unsigned *LoweredCount, fatomic_message_fn Fn,
                             void *UserData) {
  // Every out-parameter given is cleared first, so that each error, the
  // NULL-pointer one included, leaves NULL and 0 there.
  if (OutWords)
    *OutWords = nullptr;
  if (OutWordCount)
    *OutWordCount = 0;
  if (LoweredCount)
    *LoweredCount = 0;
  if (!OutWords || !OutWordCount) {
    report(Fn, UserData, FATOMIC_MESSAGE_ERROR,
           "fatomic_lower: out_words and out_word_count must not be NULL");
    return FATOMIC_ERROR_INVALID_ARGUMENT;
  }
  // lower() writes the outputs only once nothing can throw any more.
  try {
    return lower(Target, Options, Words, WordCount, OutWords, OutWordCount,
                 LoweredCount, Fn, UserData);
  } catch (const std::bad_alloc &) {
    report(Fn, UserData, FATOMIC_MESSAGE_ERROR, "out of memory");
    return FATOMIC_ERROR_OUT_OF_MEMORY;
  } catch (const std::exception &E) {
    return caught(Fn, UserData, E.what());
  } catch (...) {
    return caught(Fn, UserData, "an unknown exception");
  }
}

void fatomic_free(uint32_t *Words) { std::free(Words); }

const char *fatomic_result_string(fatomic_result Result) {
  switch (Result) {
  case FATOMIC_SUCCESS:
    return "success";
  case FATOMIC_ERROR_INVALID_ARGUMENT:
    return "invalid argument";
  case FATOMIC_ERROR_INVALID_MODULE:
    return "invalid module";
  case FATOMIC_ERROR_UNTRACEABLE_POINTER:
    return "untraceable pointer";
  case FATOMIC_ERROR_UNSUPPORTED:
    return "unsupported";
  case FATOMIC_ERROR_TARGET_LACKS_FEATURE:
    return "target lacks a feature";
  case FATOMIC_ERROR_INVALID_PROFILE:
    return "invalid profile";
  case FATOMIC_ERROR_OUT_OF_MEMORY:
    return "out of memory";
  case FATOMIC_ERROR_INTERNAL:
    return "internal error";
  }
  return "unknown result";
}

const char *fatomic_version(void) { return FATOMIC_VERSION; }

} // extern "C"
