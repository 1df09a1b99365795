//===- OptionsTest.cpp - Option string, NaN policies, profile loader ------===//

#include "fatomic/Options.h"
#include "fatomic/Target.h"

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <string>

using namespace fatomic;

TEST(Options, DefaultsFromEmptyString) {
  std::string Err;
  auto O = parseOptions("", Err);
  ASSERT_TRUE(O);
  EXPECT_FALSE(O->Nan.has_value());
  EXPECT_EQ(O->Strat, Strategy::Dispatch);
  EXPECT_TRUE(O->EarlyOut);
  EXPECT_FALSE(O->RetypeImages);
  EXPECT_TRUE(O->Outline);
  EXPECT_FALSE(O->OutlineGiven);
  EXPECT_EQ(O->Writers, WriterScope::Module);
  EXPECT_EQ(O->Aggregate, Aggregation::Auto);
  EXPECT_EQ(O->policyFor(NanPolicy::Number), NanPolicy::Number);
  EXPECT_EQ(O->policyFor(NanPolicy::Propagate), NanPolicy::Propagate);
}

TEST(Options, AllKeysBothSeparators) {
  std::string Err;
  auto O = parseOptions("nan=propagate;strategy=cas,early-out=off;"
                        "native=shaderBufferFloat32AtomicMinMax+shaderSharedInt64Atomics,"
                        "images=retype;outline=off;writers=any;aggregate=subgroup",
                        Err);
  ASSERT_TRUE(O) << Err;
  EXPECT_EQ(O->Nan, NanPolicy::Propagate);
  EXPECT_EQ(O->Strat, Strategy::Cas);
  EXPECT_FALSE(O->EarlyOut);
  EXPECT_TRUE(O->RetypeImages);
  EXPECT_FALSE(O->Outline);
  EXPECT_TRUE(O->OutlineGiven);
  EXPECT_EQ(O->Writers, WriterScope::Any);
  EXPECT_EQ(O->Aggregate, Aggregation::Subgroup);
  ASSERT_EQ(O->Native.size(), 2u);
  EXPECT_EQ(O->Native[0], Feature::ShaderBufferFloat32AtomicMinMax);
  EXPECT_EQ(O->Native[1], Feature::ShaderSharedInt64Atomics);
  // Round trip through the canonical spelling.
  auto Again = parseOptions(O->str(), Err);
  ASSERT_TRUE(Again) << Err;
  EXPECT_EQ(Again->str(), O->str());
}

TEST(Options, AKeyGivenTwiceTakesItsLastValue) {
  // The Vulkan layer relies on it: its own writers=any comes first.
  std::string Err;
  auto O = parseOptions("writers=any,aggregate=subgroup;writers=module,aggregate=off", Err);
  ASSERT_TRUE(O) << Err;
  EXPECT_EQ(O->Writers, WriterScope::Module);
  EXPECT_EQ(O->Aggregate, Aggregation::Off);
}

TEST(Options, ASecondNativeReplacesTheFirst) {
  // native= is no exception: the later item's features replace the earlier
  // ones (a tool's native= can be overridden by the user's string after it).
  std::string Err;
  auto O = parseOptions("native=shaderBufferFloat32AtomicMinMax+shaderSharedInt64Atomics;"
                        "native=shaderBufferFloat64AtomicMinMax",
                        Err);
  ASSERT_TRUE(O) << Err;
  ASSERT_EQ(O->Native.size(), 1u);
  EXPECT_EQ(O->Native[0], Feature::ShaderBufferFloat64AtomicMinMax);
  // str() writes one native= item, which parses back to the same features.
  EXPECT_EQ(O->str().find("native="), O->str().rfind("native=")) << O->str();
  auto Again = parseOptions(O->str(), Err);
  ASSERT_TRUE(Again) << Err;
  EXPECT_EQ(Again->Native, O->Native);
  EXPECT_EQ(Again->str(), O->str());
}

TEST(Options, ErrorsNameTheCulprit) {
  std::string Err;
  EXPECT_FALSE(parseOptions("nan=maybe", Err));
  EXPECT_NE(Err.find("'maybe'"), std::string::npos) << Err;
  EXPECT_NE(Err.find("'nan'"), std::string::npos) << Err;
  EXPECT_FALSE(parseOptions("colour=blue", Err));
  EXPECT_NE(Err.find("'colour'"), std::string::npos) << Err;
  EXPECT_FALSE(parseOptions("strategy=loop", Err));
  EXPECT_NE(Err.find("'loop'"), std::string::npos) << Err;
  EXPECT_FALSE(parseOptions("early-out", Err));
  EXPECT_NE(Err.find("'early-out'"), std::string::npos) << Err;
  EXPECT_FALSE(parseOptions("native=shaderBufferFloat32AtomicMinMax+warp", Err));
  EXPECT_NE(Err.find("'warp'"), std::string::npos) << Err;
  // A control character in a message is shown, not sent to the terminal.
  EXPECT_FALSE(parseOptions(std::string("nan=number\x01"), Err));
  EXPECT_NE(Err.find("'number\\x01'"), std::string::npos) << Err;
  EXPECT_FALSE(parseOptions(std::string("na\x1bn=number"), Err));
  EXPECT_NE(Err.find("'na\\x1bn'"), std::string::npos) << Err;
  {
    // Line ends around an item are blanks, as spaces and tabs are.
    auto O = parseOptions("nan=fast\r\n", Err);
    ASSERT_TRUE(O) << Err;
  }
  EXPECT_FALSE(parseOptions("images=alias", Err));
  EXPECT_NE(Err.find("retype or off"), std::string::npos) << Err;
  {
    // The default can be written out, and a later key wins.
    auto O = parseOptions("images=retype,images=off", Err);
    ASSERT_TRUE(O) << Err;
    EXPECT_FALSE(O->RetypeImages);
  }
  EXPECT_FALSE(parseOptions("outline=maybe", Err));
  EXPECT_NE(Err.find("'outline'"), std::string::npos) << Err;
  EXPECT_FALSE(parseOptions("writers=some", Err));
  EXPECT_NE(Err.find("'writers'"), std::string::npos) << Err;
  EXPECT_NE(Err.find("module or any"), std::string::npos) << Err;
  for (const char *A : {"off", "auto", "subgroup"}) {
    auto O = parseOptions(std::string("aggregate=") + A, Err);
    ASSERT_TRUE(O) << Err;
    EXPECT_STREQ(toString(O->Aggregate), A);
    auto Again = parseOptions(O->str(), Err);
    ASSERT_TRUE(Again) << Err;
    EXPECT_EQ(Again->Aggregate, O->Aggregate);
  }
  EXPECT_TRUE(parseOptions("", Err)->Cache);
  for (const char *V : {"off", "on"}) {
    auto O = parseOptions(std::string("cache=") + V, Err);
    ASSERT_TRUE(O) << Err;
    EXPECT_EQ(O->Cache, std::string(V) == "on");
    auto Again = parseOptions(O->str(), Err);
    ASSERT_TRUE(Again) << Err;
    EXPECT_EQ(Again->Cache, O->Cache);
  }
  EXPECT_FALSE(parseOptions("cache=maybe", Err));
  EXPECT_NE(Err.find("'cache'"), std::string::npos) << Err;
  EXPECT_FALSE(parseOptions("aggregate=warp", Err));
  EXPECT_NE(Err.find("'aggregate'"), std::string::npos) << Err;
  EXPECT_NE(Err.find("auto, subgroup or off"), std::string::npos) << Err;
}

TEST(NanPolicy, ParsePrintRoundTrip) {
  for (NanPolicy P : {NanPolicy::Number, NanPolicy::Propagate, NanPolicy::Fast})
    EXPECT_EQ(parseNanPolicy(toString(P)), P);
  EXPECT_FALSE(parseNanPolicy("Number"));
  EXPECT_FALSE(parseNanPolicy(""));
}

TEST(Target, FeatureNamesRoundTrip) {
  for (unsigned I = 0; I < unsigned(Feature::Count); ++I)
    EXPECT_EQ(parseFeature(featureName(Feature(I))), Feature(I));
  EXPECT_FALSE(parseFeature("shaderbufferfloat32atomicminmax"));
}

TEST(Target, DefaultLowersEverything) {
  TargetModel T;
  for (MemoryClass C : {MemoryClass::Buffer, MemoryClass::Shared, MemoryClass::Image})
    for (unsigned W : {16u, 32u, 64u})
      EXPECT_FALSE(T.isNativeMinMax(C, W));
  EXPECT_TRUE(T.mayUseInt64Atomics(MemoryClass::Buffer));
  EXPECT_TRUE(T.mayUseInt64Atomics(MemoryClass::Shared));
}

TEST(Target, LavapipeProfile) {
  std::string Err;
  auto T = loadProfileFile(FATOMIC_TEST_DATA "/profiles/lavapipe.json", Err);
  ASSERT_TRUE(T) << Err;
  EXPECT_TRUE(T->isNativeMinMax(MemoryClass::Buffer, 32));
  EXPECT_TRUE(T->isNativeMinMax(MemoryClass::Shared, 32));
  EXPECT_TRUE(T->isNativeMinMax(MemoryClass::Image, 32));
  EXPECT_FALSE(T->isNativeMinMax(MemoryClass::Buffer, 64));
  EXPECT_FALSE(T->isNativeMinMax(MemoryClass::Shared, 64));
  EXPECT_FALSE(T->isNativeMinMax(MemoryClass::Buffer, 16));
  EXPECT_TRUE(T->has(Feature::ShaderBufferInt64Atomics));
  EXPECT_TRUE(T->has(Feature::ShaderSharedInt64Atomics));
  EXPECT_TRUE(T->mayUseInt64Atomics(MemoryClass::Shared));
}

TEST(Target, NvidiaProfileHasNoFloatMinMax) {
  std::string Err;
  auto T = loadProfileFile(FATOMIC_TEST_DATA "/profiles/nvidia-h200.json", Err);
  ASSERT_TRUE(T) << Err;
  for (MemoryClass C : {MemoryClass::Buffer, MemoryClass::Shared, MemoryClass::Image})
    for (unsigned W : {16u, 32u, 64u})
      EXPECT_FALSE(T->isNativeMinMax(C, W));
  EXPECT_TRUE(T->isKnown(Feature::ShaderBufferFloat32AtomicMinMax));
  EXPECT_TRUE(T->has(Feature::ShaderBufferInt64Atomics));
}

TEST(Target, MalformedProfiles) {
  std::string Err;
  EXPECT_FALSE(loadProfile("{\"capabilities\": {", Err));
  EXPECT_NE(Err.find("not valid JSON"), std::string::npos) << Err;
  EXPECT_FALSE(loadProfile("[1,2]", Err));
  EXPECT_NE(Err.find("JSON object"), std::string::npos) << Err;
  EXPECT_FALSE(loadProfile("{\"profiles\": {}}", Err));
  EXPECT_NE(Err.find("capabilities"), std::string::npos) << Err;
  EXPECT_FALSE(loadProfile(R"({"capabilities": {"device": {"features": {
      "VkPhysicalDeviceShaderAtomicFloat2FeaturesEXT": {
        "shaderBufferFloat32AtomicMinMax": "yes"}}}}})", Err));
  EXPECT_NE(Err.find("shaderBufferFloat32AtomicMinMax is not a boolean"), std::string::npos) << Err;
  // Text after a NUL within the size given is not ignored (the parser alone
  // would stop at the NUL and succeed); NULs alone at the end are.
  std::ifstream In(FATOMIC_TEST_DATA "/profiles/lavapipe.json", std::ios::binary);
  const std::string Lavapipe{std::istreambuf_iterator<char>(In), {}};
  ASSERT_TRUE(loadProfile(Lavapipe, Err)) << Err;
  EXPECT_FALSE(loadProfile(Lavapipe + std::string("\0garbage", 8), Err));
  EXPECT_NE(Err.find("not valid JSON: text after a NUL byte at offset " +
                     std::to_string(Lavapipe.size())),
            std::string::npos)
      << Err;
  EXPECT_TRUE(loadProfile(Lavapipe + std::string(2, '\0'), Err)) << Err;
  EXPECT_FALSE(loadProfileFile("/nonexistent/profile.json", Err));
  EXPECT_NE(Err.find("cannot open"), std::string::npos) << Err;
}

// A profile's names reach the message escaped (a terminal escape, a NUL
// that would cut a C string short), and an alternative nested deep is
// named by its type, not printed (printing it recursed until the stack ran
// out at some 80,000 levels).
TEST(Target, ProfileMessagesShowNamesSafely) {
  std::string Err;
  EXPECT_FALSE(loadProfile(std::string(R"({"capabilities": {"a": {"features": {}}},
      "profiles": {"p": {"capabilities": ["\u001b[31mRED\u0000x"]}}})"),
                           Err));
  EXPECT_NE(Err.find("names capability '\\x1b[31mRED\\x00x'"), std::string::npos) << Err;
  EXPECT_EQ(Err.find('\x1b'), std::string::npos) << Err;
  EXPECT_FALSE(loadProfile(R"({"capabilities": {"a": {"features": {}}},
      "profiles": {"p": {"capabilities": [["fast", "slow"]]}}})",
                           Err));
  EXPECT_NE(Err.find(R"(lists alternatives (["fast","slow"]))"), std::string::npos) << Err;
  const size_t Depth = 200000;
  const std::string Deep = R"({"capabilities": {"a": {"features": {}}},
      "profiles": {"p": {"capabilities": [)" +
                           std::string(Depth, '[') + std::string(Depth, ']') + "]}}}";
  EXPECT_FALSE(loadProfile(Deep, Err));
  EXPECT_NE(Err.find("lists alternatives (an array holding an array)"), std::string::npos)
      << Err.substr(0, 200);
  EXPECT_LT(Err.size(), 400u);
  // A long list of alternatives is cut short; an entry that is neither a
  // name nor a list is no alternative.
  std::string Many = "[";
  for (int I = 0; I < 1000; ++I)
    Many += (I ? ",\"c" : "\"c") + std::to_string(I) + "\"";
  Many += "]";
  EXPECT_FALSE(loadProfile(R"({"capabilities": {"a": {"features": {}}},
      "profiles": {"p": {"capabilities": [)" + Many + "]}}}",
                           Err));
  EXPECT_NE(Err.find(R"(lists alternatives (["c0","c1","c2","c3","c4","c5","c6","c7",...]))"),
            std::string::npos)
      << Err;
  EXPECT_FALSE(loadProfile(R"({"capabilities": {"a": {"features": {}}},
      "profiles": {"p": {"capabilities": [7]}}})",
                           Err));
  EXPECT_NE(Err.find("profiles.p.capabilities holds a number, not a capability name"),
            std::string::npos)
      << Err;
}

TEST(Target, FeatureNameOutOfRange) {
  EXPECT_STREQ(featureName(Feature::ShaderBufferInt64Atomics), "shaderBufferInt64Atomics");
  EXPECT_STREQ(featureName(Feature::Count), "?");
}

// The subgroup operations that aggregate=auto needs, from both profiles
// (the Vulkan 1.1 and the VkPhysicalDeviceSubgroupProperties spelling).
TEST(Target, SubgroupSupportFromProfiles) {
  std::string Err;
  for (const char *Name : {"lavapipe.json", "nvidia-h200.json"}) {
    auto T = loadProfileFile(std::string(FATOMIC_TEST_DATA "/profiles/") + Name, Err);
    ASSERT_TRUE(T) << Err;
    const SubgroupSupport &S = T->Subgroups;
    EXPECT_TRUE(S.Known && S.Compute && S.Basic && S.Vote && S.Arithmetic && S.Ballot) << Name;
    EXPECT_TRUE(S.ExtendedTypes) << Name;
    EXPECT_TRUE(S.allows(64, true, false)) << Name;
  }
  EXPECT_FALSE(TargetModel().Subgroups.Known);
}

TEST(Target, SubgroupSupportParts) {
  std::string Err;
  auto T = loadProfile(R"({"capabilities": {"device": {
      "features": {"VkPhysicalDeviceFeatures": {"shaderInt64": true}},
      "properties": {"VkPhysicalDeviceSubgroupProperties": {
        "supportedStages": ["VK_SHADER_STAGE_COMPUTE_BIT"],
        "supportedOperations": ["VK_SUBGROUP_FEATURE_BASIC_BIT",
          "VK_SUBGROUP_FEATURE_VOTE_BIT", "VK_SUBGROUP_FEATURE_ARITHMETIC_BIT"]}}}}})",
                       Err);
  ASSERT_TRUE(T) << Err;
  const SubgroupSupport &S = T->Subgroups;
  EXPECT_TRUE(S.Known);
  EXPECT_TRUE(S.allows(32, false, false));
  EXPECT_FALSE(S.allows(32, true, false)) << "used results need ballot";
  EXPECT_FALSE(S.allows(64, false, false)) << "64-bit keys need extended types";
  EXPECT_FALSE(S.allows(32, false, true)) << "a 64-bit index needs extended types";
  // No compute stage: nothing.
  T = loadProfile(R"({"capabilities": {"device": {"features": {},
      "properties": {"VkPhysicalDeviceVulkan11Properties": {
        "subgroupSupportedStages": ["VK_SHADER_STAGE_FRAGMENT_BIT"],
        "subgroupSupportedOperations": ["VK_SUBGROUP_FEATURE_BASIC_BIT",
          "VK_SUBGROUP_FEATURE_VOTE_BIT", "VK_SUBGROUP_FEATURE_ARITHMETIC_BIT"]}}}}})",
                  Err);
  ASSERT_TRUE(T) << Err;
  EXPECT_TRUE(T->Subgroups.Known);
  EXPECT_FALSE(T->Subgroups.allows(32, false, false));
  // No subgroup properties: unknown.
  T = loadProfile(R"({"capabilities": {"device": {"features": {}}}})", Err);
  ASSERT_TRUE(T) << Err;
  EXPECT_FALSE(T->Subgroups.Known);
}

// The driver that combines unused 32-bit atomics itself, from driverID in
// either struct that holds it; no other driver, and no driverID, leaves it
// false.
TEST(Target, DriverCombinesUnused32FromDriverId) {
  std::string Err;
  auto T = loadProfileFile(FATOMIC_TEST_DATA "/profiles/nvidia-h200.json", Err);
  ASSERT_TRUE(T) << Err;
  EXPECT_TRUE(T->Subgroups.DriverCombinesUnused32);
  T = loadProfileFile(FATOMIC_TEST_DATA "/profiles/lavapipe.json", Err);
  ASSERT_TRUE(T) << Err;
  EXPECT_FALSE(T->Subgroups.DriverCombinesUnused32);
  for (const char *Struct : {"VkPhysicalDeviceDriverProperties", "VkPhysicalDeviceDriverPropertiesKHR",
                             "VkPhysicalDeviceVulkan12Properties"}) {
    const std::string Doc = std::string(R"({"capabilities": {"device": {"features": {},
        "properties": {")") + Struct + R"(": {"driverID": "VK_DRIVER_ID_NVIDIA_PROPRIETARY"}}}}})";
    T = loadProfile(Doc, Err);
    ASSERT_TRUE(T) << Err;
    EXPECT_TRUE(T->Subgroups.DriverCombinesUnused32) << Struct;
    EXPECT_FALSE(T->Subgroups.Known) << "the driver says nothing of the subgroup operations";
  }
  T = loadProfile(R"({"capabilities": {"device": {"features": {},
      "properties": {"VkPhysicalDeviceDriverProperties": {"driverID": "VK_DRIVER_ID_MESA_NVK"}}}}})",
                  Err);
  ASSERT_TRUE(T) << Err;
  EXPECT_FALSE(T->Subgroups.DriverCombinesUnused32);
  EXPECT_FALSE(TargetModel().Subgroups.DriverCombinesUnused32);
}

TEST(Target, MalformedSubgroupProperties) {
  std::string Err;
  EXPECT_FALSE(loadProfile(R"({"capabilities": {"device": {"features": {},
      "properties": {"VkPhysicalDeviceVulkan12Properties": {"driverID": 4}}}}})", Err));
  EXPECT_NE(Err.find("VkPhysicalDeviceVulkan12Properties.driverID is not a VkDriverId name"),
            std::string::npos) << Err;
  EXPECT_FALSE(loadProfile(R"({"capabilities": {"device": {"features": {},
      "properties": 3}}})", Err));
  EXPECT_NE(Err.find("capabilities.device.properties is not an object"), std::string::npos) << Err;
  EXPECT_FALSE(loadProfile(R"({"capabilities": {"device": {"features": {},
      "properties": {"VkPhysicalDeviceSubgroupProperties": {
        "supportedStages": "VK_SHADER_STAGE_COMPUTE_BIT", "supportedOperations": []}}}}})", Err));
  EXPECT_NE(Err.find("VkPhysicalDeviceSubgroupProperties.supportedStages is not an array"),
            std::string::npos) << Err;
  EXPECT_FALSE(loadProfile(R"({"capabilities": {"device": {"features": {},
      "properties": {"VkPhysicalDeviceVulkan11Properties": {
        "subgroupSupportedStages": [], "subgroupSupportedOperations": [1]}}}}})", Err));
  EXPECT_NE(Err.find("subgroupSupportedOperations holds a value that is not a flag name"),
            std::string::npos) << Err;
  EXPECT_FALSE(loadProfile(R"({"capabilities": {"device": {"features": {
      "VkPhysicalDeviceVulkan12Features": {"shaderSubgroupExtendedTypes": 1}}}}})", Err));
  EXPECT_NE(Err.find("shaderSubgroupExtendedTypes is not a boolean"), std::string::npos) << Err;
}

// Found by fuzz-profile (test/fuzz/regressions/profile): a number too large
// for any JSON type made the parser throw out_of_range, which escaped.
TEST(Target, NumberOutOfRangeIsAnError) {
  std::string Err;
  EXPECT_FALSE(loadProfile("4e5555550", Err));
  EXPECT_NE(Err.find("not valid JSON"), std::string::npos) << Err;
  EXPECT_NE(Err.find("number overflow"), std::string::npos) << Err;
  Err.clear();
  EXPECT_FALSE(loadProfile(R"({"capabilities": {"device": {"features": {
      "VkPhysicalDeviceShaderAtomicFloat2FeaturesEXT": {"x": 1e999}}}}})", Err));
  EXPECT_NE(Err.find("number overflow"), std::string::npos) << Err;
}

TEST(Target, Int64KnownMissing) {
  std::string Err;
  auto T = loadProfile(R"({"capabilities": {"device": {"features": {
      "VkPhysicalDeviceVulkan12Features": {"shaderBufferInt64Atomics": false,
                                           "shaderSharedInt64Atomics": false}}}}})", Err);
  ASSERT_TRUE(T) << Err;
  EXPECT_FALSE(T->mayUseInt64Atomics(MemoryClass::Buffer));
  EXPECT_FALSE(T->mayUseInt64Atomics(MemoryClass::Shared));
}
