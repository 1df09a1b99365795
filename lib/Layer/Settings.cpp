//===- Settings.cpp - The layer's environment variables and messages ------===//
//
// FATOMIC_LAYER_OPTIONS   the pass's option string, after the layer's own
//                         default writers=any (the layer sees one module at a
//                         time, never the other shaders that share memory);
//                         native= is refused (the driver says what is native)
// FATOMIC_LAYER_FORCE=1   treat the driver as having no buffer or shared
//                         float min/max: every such atomic is lowered
// FATOMIC_LAYER_DUMP_DIR  (tests) write each module handed to the driver to
//                         DIR/module-N.spv
//
// Errors go to stderr and, where the application enabled VK_EXT_debug_utils,
// to its messengers through vkSubmitDebugUtilsMessageEXT; so does an
// exception that an entry point's body threw (guarded() in Layer.h), in a
// message built without allocating.
//
//===----------------------------------------------------------------------===//

#include "Layer.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace fatomic::layer {

namespace {
Settings readSettings() {
  Settings S;
  std::string Text = "writers=any";
  if (const char *Env = std::getenv("FATOMIC_LAYER_OPTIONS"); Env && *Env)
    Text += std::string(",") + Env;
  std::string Error;
  if (auto O = parseOptions(Text, Error))
    S.Options = *O;
  else
    S.Error = "FATOMIC_LAYER_OPTIONS: " + Error;
  // The layer asks the driver what is native and enables only that on the
  // device: a feature named native= here would reach the driver unlowered
  // in a module whose device does not have it.
  if (S.Error.empty() && !S.Options.Native.empty())
    S.Error = "FATOMIC_LAYER_OPTIONS: native= is not a layer setting: the "
              "layer keeps native what the driver reports (and "
              "FATOMIC_LAYER_FORCE=1 lowers that too)";
  const char *Force = std::getenv("FATOMIC_LAYER_FORCE");
  S.Force = Force && std::strcmp(Force, "1") == 0;
  if (Force && *Force && !S.Force && std::strcmp(Force, "0") != 0 &&
      S.Error.empty())
    S.Error = std::string("FATOMIC_LAYER_FORCE: expected 0 or 1, got '") +
              Force + "'";
  if (const char *Dump = std::getenv("FATOMIC_LAYER_DUMP_DIR"))
    S.DumpDir = Dump;
  return S;
}
} // namespace

const Settings &settings() {
  static const Settings S = readSettings();
  return S;
}

void reportError(InstanceData *I, const char *Message) noexcept {
  std::fprintf(stderr, "%s: error: %s\n", FATOMIC_LAYER_NAME, Message);
  std::fflush(stderr);
  if (!I || !I->SubmitDebugMessage)
    return;
  VkDebugUtilsMessengerCallbackDataEXT Data{};
  Data.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CALLBACK_DATA_EXT;
  Data.pMessageIdName = FATOMIC_LAYER_NAME;
  Data.pMessage = Message;
  I->SubmitDebugMessage(I->Instance, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
                        VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT, &Data);
}

void reportError(InstanceData *I, const std::string &Message) {
  reportError(I, Message.c_str());
}

void reportThrown(InstanceData *I, const char *What, const char *Detail) noexcept {
  char Message[512];
  if (Detail)
    std::snprintf(Message, sizeof Message, "%s: internal error in the layer: %s", What,
                  Detail);
  else
    std::snprintf(Message, sizeof Message, "%s: out of host memory in the layer", What);
  reportError(I, Message);
}

} // namespace fatomic::layer
