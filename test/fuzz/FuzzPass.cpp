//===- FuzzPass.cpp - Fuzz target: the SPIR-V pass on arbitrary words -----===//
//
// Arbitrary bytes into LowerFloatAtomicMinMaxPass::Process, with no
// validation first: the library entry point must report, never crash, on
// any words.  Header word 2 selects the options (FuzzSupport.h);
// fatomic::fuzz::checkPass states what is checked.
//
//===----------------------------------------------------------------------===//

#include "FuzzSupport.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  fatomic::fuzz::checkPass(fatomic::fuzz::toWords(Data, Size),
                           /*InputValid=*/false);
  return 0;
}
