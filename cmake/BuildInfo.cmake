# Generates build_info.cc (include/ncclscope/base/build_info.h): the project version, the git
# commit of the source tree and the online docs address, all known at configure time.
#
#   NCCLSCOPE_GIT_DESCRIBE      `git describe --tags --always --abbrev=12`, empty without git
#   NCCLSCOPE_DOCS_URL          cache: base address of docs/ online (rule help links in SARIF);
#                               empty = derived from a GitHub/GitLab `origin` remote, if any
#
# CMake re-runs this when HEAD moves (HEAD and the branch's ref are configure dependencies), so
# --version names the commit that was built, not the one first configured.

set(NCCLSCOPE_DOCS_URL "" CACHE STRING
    "Base address of the docs/ folder online, e.g. https://github.com/OWNER/ncclscope/blob/main/docs")

set(NCCLSCOPE_GIT_DESCRIBE "")
set(_ncclscope_git_sha "")
set(_ncclscope_origin "")
find_package(Git QUIET)
if(GIT_FOUND AND EXISTS "${PROJECT_SOURCE_DIR}/.git")
  macro(_ncclscope_git out)
    execute_process(COMMAND "${GIT_EXECUTABLE}" ${ARGN}
                    WORKING_DIRECTORY "${PROJECT_SOURCE_DIR}"
                    OUTPUT_VARIABLE ${out} ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE
                    RESULT_VARIABLE _ncclscope_rc)
    if(NOT _ncclscope_rc EQUAL 0)
      set(${out} "")
    endif()
  endmacro()
  _ncclscope_git(NCCLSCOPE_GIT_DESCRIBE describe --tags --always --abbrev=12)
  _ncclscope_git(_ncclscope_git_sha rev-parse HEAD)
  _ncclscope_git(_ncclscope_origin config --get remote.origin.url)
  # Re-configure when HEAD moves: HEAD itself (branch switch) and the branch's ref (commit).
  _ncclscope_git(_ncclscope_head_file rev-parse --path-format=absolute --git-path HEAD)
  _ncclscope_git(_ncclscope_ref symbolic-ref -q HEAD)
  set(_ncclscope_deps "")
  if(_ncclscope_head_file AND EXISTS "${_ncclscope_head_file}")
    list(APPEND _ncclscope_deps "${_ncclscope_head_file}")
  endif()
  if(_ncclscope_ref)
    _ncclscope_git(_ncclscope_ref_file rev-parse --path-format=absolute --git-path "${_ncclscope_ref}")
    if(_ncclscope_ref_file AND EXISTS "${_ncclscope_ref_file}")
      list(APPEND _ncclscope_deps "${_ncclscope_ref_file}")
    else()
      _ncclscope_git(_ncclscope_packed rev-parse --path-format=absolute --git-path packed-refs)
      if(_ncclscope_packed AND EXISTS "${_ncclscope_packed}")
        list(APPEND _ncclscope_deps "${_ncclscope_packed}")
      endif()
    endif()
  endif()
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${_ncclscope_deps})
endif()

set(NCCLSCOPE_DOCS_URL_BUILT_IN "${NCCLSCOPE_DOCS_URL}")
if(NOT NCCLSCOPE_DOCS_URL_BUILT_IN AND _ncclscope_origin AND _ncclscope_git_sha)
  # https://HOST/OWNER/REPO(.git) or git@HOST:OWNER/REPO(.git) → https://HOST/OWNER/REPO
  string(REGEX REPLACE "^git@([^:]+):" "https://\\1/" _ncclscope_web "${_ncclscope_origin}")
  string(REGEX REPLACE "^ssh://git@([^/]+)/" "https://\\1/" _ncclscope_web "${_ncclscope_web}")
  string(REGEX REPLACE "\\.git$" "" _ncclscope_web "${_ncclscope_web}")
  if(_ncclscope_web MATCHES "^https://github\\.com/[^/]+/[^/]+$")
    set(NCCLSCOPE_DOCS_URL_BUILT_IN "${_ncclscope_web}/blob/${_ncclscope_git_sha}/docs")
  elseif(_ncclscope_web MATCHES "^https://gitlab\\.[^/]+/.+/[^/]+$")
    set(NCCLSCOPE_DOCS_URL_BUILT_IN "${_ncclscope_web}/-/blob/${_ncclscope_git_sha}/docs")
  endif()
endif()

configure_file("${PROJECT_SOURCE_DIR}/src/base/build_info.cc.in"
               "${PROJECT_BINARY_DIR}/generated/build_info.cc" @ONLY)
message(STATUS "ncclscope ${PROJECT_VERSION}, git: ${NCCLSCOPE_GIT_DESCRIBE}, docs: ${NCCLSCOPE_DOCS_URL_BUILT_IN}")
