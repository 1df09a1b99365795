//===- Options.cpp - The lowering's option string -------------------------===//

#include "fatomic/Options.h"

#include "Shown.h"

namespace fatomic {

std::string detail::shown(std::string_view Text) {
  static const char Hex[] = "0123456789abcdef";
  std::string Out;
  for (const char C : Text) {
    const auto U = static_cast<unsigned char>(C);
    if (U >= 0x20 && U < 0x7f) {
      Out += C;
      continue;
    }
    Out += "\\x";
    Out += Hex[U >> 4];
    Out += Hex[U & 15];
  }
  return Out;
}

using detail::shown;

const char *toString(Strategy S) {
  return S == Strategy::Dispatch ? "dispatch" : "cas";
}

const char *toString(Aggregation A) {
  switch (A) {
  case Aggregation::Off:
    return "off";
  case Aggregation::Auto:
    return "auto";
  case Aggregation::Subgroup:
    break;
  }
  return "subgroup";
}

const char *toString(WriterScope W) {
  return W == WriterScope::Module ? "module" : "any";
}

namespace {

/// Blanks around an item: spaces, tabs and line ends (an option string
/// read from a file or an environment variable may end in one).
bool isBlank(char C) { return C == ' ' || C == '\t' || C == '\r' || C == '\n'; }

std::string_view trim(std::string_view S) {
  while (!S.empty() && isBlank(S.front()))
    S.remove_prefix(1);
  while (!S.empty() && isBlank(S.back()))
    S.remove_suffix(1);
  return S;
}

bool badValue(std::string &Error, std::string_view Key, std::string_view Value,
              const char *Expected) {
  Error = "unknown value '" + shown(Value) + "' for option '" + shown(Key) +
          "' (expected " + Expected + ")";
  return false;
}

bool parseItem(std::string_view Item, LoweringOptions &Opts,
               std::string &Error) {
  const size_t Eq = Item.find('=');
  if (Eq == std::string_view::npos) {
    Error = "option '" + shown(Item) + "' needs a value (key=value)";
    return false;
  }
  const std::string_view Key = trim(Item.substr(0, Eq));
  const std::string_view Value = trim(Item.substr(Eq + 1));

  if (Key == "nan") {
    if (auto P = parseNanPolicy(Value)) {
      Opts.Nan = *P;
      return true;
    }
    return badValue(Error, Key, Value, "number, propagate or fast");
  }
  if (Key == "strategy") {
    if (Value == "dispatch")
      Opts.Strat = Strategy::Dispatch;
    else if (Value == "cas")
      Opts.Strat = Strategy::Cas;
    else
      return badValue(Error, Key, Value, "dispatch or cas");
    return true;
  }
  if (Key == "early-out") {
    if (Value == "on")
      Opts.EarlyOut = true;
    else if (Value == "off")
      Opts.EarlyOut = false;
    else
      return badValue(Error, Key, Value, "on or off");
    return true;
  }
  if (Key == "cache") {
    if (Value == "on")
      Opts.Cache = true;
    else if (Value == "off")
      Opts.Cache = false;
    else
      return badValue(Error, Key, Value, "on or off");
    return true;
  }
  if (Key == "images") {
    if (Value == "retype")
      Opts.RetypeImages = true;
    else if (Value == "off")
      Opts.RetypeImages = false;
    else
      return badValue(Error, Key, Value, "retype or off");
    return true;
  }
  if (Key == "outline") {
    if (Value == "on")
      Opts.Outline = true;
    else if (Value == "off")
      Opts.Outline = false;
    else
      return badValue(Error, Key, Value, "on or off");
    Opts.OutlineGiven = true;
    return true;
  }
  if (Key == "writers") {
    if (Value == "module")
      Opts.Writers = WriterScope::Module;
    else if (Value == "any")
      Opts.Writers = WriterScope::Any;
    else
      return badValue(Error, Key, Value, "module or any");
    return true;
  }
  if (Key == "aggregate") {
    if (Value == "off")
      Opts.Aggregate = Aggregation::Off;
    else if (Value == "auto")
      Opts.Aggregate = Aggregation::Auto;
    else if (Value == "subgroup")
      Opts.Aggregate = Aggregation::Subgroup;
    else
      return badValue(Error, Key, Value, "auto, subgroup or off");
    return true;
  }
  if (Key == "native") {
    // Like every other key, a later native= replaces an earlier one (a tool
    // puts its defaults first and the user's string after them); the
    // features of one value are joined with '+'.
    std::vector<Feature> Features;
    std::string_view Rest = Value;
    if (Rest.empty())
      return badValue(Error, Key, Value, "a feature name such as "
                                         "shaderBufferFloat32AtomicMinMax");
    while (!Rest.empty()) {
      const size_t Plus = Rest.find('+');
      const std::string_view Name = trim(Rest.substr(0, Plus));
      auto F = parseFeature(Name);
      if (!F) {
        Error = "unknown feature '" + shown(Name) +
                "' in option 'native' (expected a member of "
                "VkPhysicalDeviceShaderAtomicFloat2FeaturesEXT, "
                "shaderBufferInt64Atomics or shaderSharedInt64Atomics)";
        return false;
      }
      Features.push_back(*F);
      if (Plus == std::string_view::npos)
        break;
      Rest.remove_prefix(Plus + 1);
      if (Rest.empty())
        return badValue(Error, Key, Value, "no trailing '+'");
    }
    Opts.Native = std::move(Features);
    return true;
  }
  Error = "unknown option '" + shown(Key) +
          "' (expected nan, strategy, early-out, native, images, outline, writers, aggregate or cache)";
  return false;
}

} // namespace

std::optional<LoweringOptions> parseOptions(std::string_view Text,
                                            std::string &Error) {
  LoweringOptions Opts;
  std::string_view Rest = Text;
  while (!Rest.empty()) {
    const size_t Sep = Rest.find_first_of(",;");
    const std::string_view Item = trim(Rest.substr(0, Sep));
    if (!Item.empty() && !parseItem(Item, Opts, Error))
      return std::nullopt;
    if (Sep == std::string_view::npos)
      break;
    Rest.remove_prefix(Sep + 1);
  }
  return Opts;
}

std::string LoweringOptions::str() const {
  std::string S;
  if (Nan)
    S += std::string("nan=") + toString(*Nan) + ",";
  S += std::string("strategy=") + toString(Strat);
  S += std::string(",early-out=") + (EarlyOut ? "on" : "off");
  // One native= item with every feature: a second one would replace it.
  if (!Native.empty()) {
    S += ",native=";
    for (size_t I = 0; I < Native.size(); ++I)
      S += (I ? "+" : "") + std::string(featureName(Native[I]));
  }
  if (RetypeImages)
    S += ",images=retype";
  if (OutlineGiven)
    S += std::string(",outline=") + (Outline ? "on" : "off");
  if (Writers != WriterScope::Module)
    S += std::string(",writers=") + toString(Writers);
  if (Aggregate != Aggregation::Auto)
    S += std::string(",aggregate=") + toString(Aggregate);
  if (!Cache)
    S += ",cache=off";
  return S;
}

} // namespace fatomic
