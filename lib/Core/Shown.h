//===- Shown.h - Untrusted text as a message shows it ---------------------===//
//
// Internal to lib/Core: option strings and profile names come from the user
// and may hold control characters, NULs or bytes outside ASCII.
//
//===----------------------------------------------------------------------===//
#ifndef FATOMIC_CORE_SHOWN_H
#define FATOMIC_CORE_SHOWN_H

#include <string>
#include <string_view>

namespace fatomic::detail {

/// \p Text with control characters and bytes outside ASCII as \xNN, so
/// that none of them hides in a terminal or cuts the message short.
std::string shown(std::string_view Text);

} // namespace fatomic::detail

#endif // FATOMIC_CORE_SHOWN_H
