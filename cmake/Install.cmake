# `cmake --install`: the binary, the man page, shell completions and the documentation where
# distributions expect them; CPack makes a Debian package of the same tree (cpack -G DEB).
#
#   bin/ncclscope
#   bin/kubectl-ncclscope (the kubectl plugin, docs/kubernetes.md: `kubectl ncclscope` finds it)
#   share/man/man1/ncclscope.1.gz
#   share/bash-completion/completions/ncclscope
#   share/zsh/site-functions/_ncclscope
#   share/fish/vendor_completions.d/ncclscope.fish
#   share/doc/ncclscope/{README.md,LICENSE,docs/*.md,docs/policy-example.json}
include(GNUInstallDirs)

# The completions come from the built binary (`ncclscope completion SHELL`), so they always
# match its options; the man page is compressed as Debian policy wants.
set(_gen "${PROJECT_BINARY_DIR}/share")
add_custom_command(
  OUTPUT "${_gen}/ncclscope.bash" "${_gen}/_ncclscope" "${_gen}/ncclscope.fish"
  COMMAND "${CMAKE_COMMAND}" -E make_directory "${_gen}"
  COMMAND ncclscope completion bash > "${_gen}/ncclscope.bash"
  COMMAND ncclscope completion zsh > "${_gen}/_ncclscope"
  COMMAND ncclscope completion fish > "${_gen}/ncclscope.fish"
  DEPENDS ncclscope
  COMMENT "Generating bash, zsh and fish completions")
add_custom_command(
  OUTPUT "${_gen}/ncclscope.1.gz"
  COMMAND "${CMAKE_COMMAND}" -E make_directory "${_gen}"
  COMMAND gzip -9 -n -c "${PROJECT_SOURCE_DIR}/docs/man/ncclscope.1" > "${_gen}/ncclscope.1.gz"
  DEPENDS "${PROJECT_SOURCE_DIR}/docs/man/ncclscope.1"
  COMMENT "Compressing the man page")
add_custom_target(ncclscope_share ALL
  DEPENDS "${_gen}/ncclscope.bash" "${_gen}/_ncclscope" "${_gen}/ncclscope.fish"
          "${_gen}/ncclscope.1.gz")

install(TARGETS ncclscope RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}")
install(PROGRAMS "${PROJECT_SOURCE_DIR}/scripts/kubectl-ncclscope" DESTINATION "${CMAKE_INSTALL_BINDIR}")
install(FILES "${_gen}/ncclscope.1.gz" DESTINATION "${CMAKE_INSTALL_MANDIR}/man1")
install(FILES "${_gen}/ncclscope.bash" DESTINATION "${CMAKE_INSTALL_DATADIR}/bash-completion/completions"
        RENAME ncclscope)
install(FILES "${_gen}/_ncclscope" DESTINATION "${CMAKE_INSTALL_DATADIR}/zsh/site-functions")
install(FILES "${_gen}/ncclscope.fish" DESTINATION "${CMAKE_INSTALL_DATADIR}/fish/vendor_completions.d")
install(FILES README.md LICENSE DESTINATION "${CMAKE_INSTALL_DOCDIR}")
file(GLOB _ncclscope_docs "${PROJECT_SOURCE_DIR}/docs/*.md" "${PROJECT_SOURCE_DIR}/docs/*.json")
install(FILES ${_ncclscope_docs} DESTINATION "${CMAKE_INSTALL_DOCDIR}/docs")

# Debian package: cpack -G DEB (from the build directory). Shared-library dependencies come from
# dpkg-shlibdeps (package dpkg-dev) when it is installed, else from the Debian 12 names below.
set(CPACK_PACKAGE_NAME ncclscope)
set(CPACK_PACKAGE_VENDOR "ncclscope")
set(CPACK_PACKAGE_CONTACT "ncclscope maintainers <ncclscope@users.noreply.github.com>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "NCCL log analyzer: finds misconfigured transports in distributed training logs")
set(CPACK_PACKAGE_DESCRIPTION
    "ncclscope reads the NCCL debug log of a distributed training job (PyTorch + NCCL, "
    "DeepSpeed, Megatron), classifies every peer link (NVL, P2P, SHM, NET/Socket, NET/IB, "
    "NET/Libfabric) and reports misconfigurations: SHM instead of NVLink, socket fallbacks, "
    "failed network plugins, missing GPUDirect RDMA, hangs and the rank that failed first.")
set(CPACK_RESOURCE_FILE_LICENSE "${PROJECT_SOURCE_DIR}/LICENSE")
set(CPACK_GENERATOR DEB)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION utils)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "bash-completion")
find_program(NCCLSCOPE_DPKG_SHLIBDEPS dpkg-shlibdeps)
if(NCCLSCOPE_DPKG_SHLIBDEPS)
  set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
else()
  set(CPACK_DEBIAN_PACKAGE_DEPENDS "libc6, libstdc++6, libgcc-s1, libre2-9, libfmt9, zlib1g")
endif()
include(CPack)
