// What the build knows about itself: the project version, the git commit it was configured from
// and where its documentation lives online. Generated at configure time (cmake/BuildInfo.cmake,
// src/base/build_info.cc.in), so only one file is rebuilt when the commit changes.
#ifndef NCCLSCOPE_BASE_BUILD_INFO_H_
#define NCCLSCOPE_BASE_BUILD_INFO_H_

#include <string>
#include <string_view>

namespace ncclscope {

/// The project version from CMake's project(), e.g. "0.1.0".
std::string_view ProjectVersion();
/// `git describe --tags --always` of the source tree when CMake configured it (e.g.
/// "543b273ab12c" or "v0.1.0-3-g543b273ab12c"); empty when the sources are not a git checkout.
std::string_view GitDescribe();
/// Base address of the docs/ folder online (NCCLSCOPE_DOCS_URL, or derived from a GitHub or
/// GitLab `origin` remote at the configured commit); empty when unknown.
std::string_view BuiltInDocsUrl();
/// "ncclscope 0.1.0" or "ncclscope 0.1.0 (git 543b273ab12c)": the --version line.
std::string VersionLine();

}  // namespace ncclscope

#endif  // NCCLSCOPE_BASE_BUILD_INFO_H_
