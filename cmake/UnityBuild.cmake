# Unity build of the library: the sources of each src/ folder (one layer: parse, model, rules,
# report, ...) are compiled as one translation unit. The same inline and template code (strings,
# containers, fmt) is then optimised once per folder instead of once per file: a cold Release
# build of the library takes about a third of the CPU time (docs/build-time.md).
#
#   NCCLSCOPE_UNITY   default ON, and OFF when a compiler launcher (ccache) is set: incremental
#                     developer builds recompile one file, not its folder.
#
# In a unity group, names in anonymous namespaces of different files meet. Files listed in
# NCCLSCOPE_UNITY_SKIP are compiled on their own; the test Build.UnityGroupsCompile (registered
# when the build itself is not a unity build) compiles every group with -fsyntax-only so that a
# new clash is caught by developers' builds too. Fix a clash by renaming the helper, or list the
# file here.
set(_ncclscope_unity_default ON)
if(CMAKE_CXX_COMPILER_LAUNCHER)
  set(_ncclscope_unity_default OFF)
endif()
option(NCCLSCOPE_UNITY "Compile each src/ folder of the library as one translation unit"
       ${_ncclscope_unity_default})

set(NCCLSCOPE_UNITY_SKIP
    src/model/watchdog_table.cc    # ProcessOfRank
    src/parse/ofi_parser.cc        # Has
    src/parse/warn_parser.cc       # Has
    src/report/markdown_report.cc  # kMaxInputs, kMaxComms, WriteFindings
    src/report/xml_escape.cc)      # Escape

# The groups: every library source by folder, minus the skipped files (also read by the test).
set(NCCLSCOPE_UNITY_GROUPS "")
foreach(_src IN LISTS NCCLSCOPE_SOURCES)
  file(RELATIVE_PATH _rel "${PROJECT_SOURCE_DIR}" "${_src}")
  get_filename_component(_dir "${_rel}" DIRECTORY)
  string(REPLACE "/" "_" _group "${_dir}")
  if(_rel IN_LIST NCCLSCOPE_UNITY_SKIP)
    set_source_files_properties("${_src}" PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
  else()
    set_source_files_properties("${_src}" PROPERTIES UNITY_GROUP "${_group}")
    list(APPEND NCCLSCOPE_UNITY_GROUPS "${_group}:${_src}")
  endif()
endforeach()
set_source_files_properties("${PROJECT_BINARY_DIR}/generated/build_info.cc"
                            PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
# One "group:path" line per source, for tests/build/unity_groups_test.sh.
list(JOIN NCCLSCOPE_UNITY_GROUPS "\n" _ncclscope_unity_lines)
file(WRITE "${PROJECT_BINARY_DIR}/unity_groups.txt" "${_ncclscope_unity_lines}\n")

if(NCCLSCOPE_UNITY)
  set_target_properties(ncclscope_lib PROPERTIES UNITY_BUILD ON UNITY_BUILD_MODE GROUP)
endif()
