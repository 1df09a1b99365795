# What `cmake --install` puts where, and the CMake and pkg-config packages
# that let other projects use it:
#
#   bin/fatomic-opt
#   include/fatomic/...                       public headers (C++ and C)
#   lib/libfatomic_spirv.a, libfatomic_core.a static libraries
#   lib/libfatomic.so                         with FATOMIC_BUILD_SHARED
#   lib/libfatomic_llvm.a, libFatomicLLVMPlugin.so   with the LLVM pass
#   lib/cmake/fatomic/fatomicConfig.cmake     find_package(fatomic)
#   lib/pkgconfig/fatomic.pc                  pkg-config fatomic
#   share/man/man1/fatomic-opt.1

include(CMakePackageConfigHelpers)

set(FATOMIC_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/fatomic)

set(_fatomic_targets fatomic_core)
foreach(t IN ITEMS fatomic_spirv fatomic_shared fatomic-opt)
  if(TARGET ${t})
    list(APPEND _fatomic_targets ${t})
  endif()
endforeach()
if(TARGET fatomic-opt)
  set_target_properties(fatomic-opt PROPERTIES EXPORT_NAME fatomic-opt)
endif()

install(TARGETS ${_fatomic_targets}
  EXPORT fatomicTargets
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(EXPORT fatomicTargets
  NAMESPACE fatomic::
  DESTINATION ${FATOMIC_CMAKE_DIR})

install(DIRECTORY include/fatomic
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  FILES_MATCHING PATTERN "*.h"
  PATTERN LLVM EXCLUDE)

if(TARGET FatomicLLVMPlugin)
  install(TARGETS FatomicLLVMPlugin
    EXPORT fatomicPluginTargets
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
  install(EXPORT fatomicPluginTargets
    NAMESPACE fatomic::
    DESTINATION ${FATOMIC_CMAKE_DIR})
  install(TARGETS fatomic_llvm
    EXPORT fatomicLLVMTargets
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
  install(EXPORT fatomicLLVMTargets
    NAMESPACE fatomic::
    DESTINATION ${FATOMIC_CMAKE_DIR})
  install(DIRECTORY include/fatomic/LLVM
    DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/fatomic
    FILES_MATCHING PATTERN "*.h")
endif()

configure_package_config_file(cmake/fatomicConfig.cmake.in
  ${PROJECT_BINARY_DIR}/fatomicConfig.cmake
  INSTALL_DESTINATION ${FATOMIC_CMAKE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/fatomicConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES
  ${PROJECT_BINARY_DIR}/fatomicConfig.cmake
  ${PROJECT_BINARY_DIR}/fatomicConfigVersion.cmake
  DESTINATION ${FATOMIC_CMAKE_DIR})

# pkg-config: the prefix is found from the .pc file's own place, so the
# package can be installed under any --prefix.
file(RELATIVE_PATH FATOMIC_PC_PREFIX
  /${CMAKE_INSTALL_LIBDIR}/pkgconfig /)
string(REGEX REPLACE "/$" "" FATOMIC_PC_PREFIX "${FATOMIC_PC_PREFIX}")
if(FATOMIC_BUILD_SHARED)
  set(FATOMIC_PC_LIBS "-lfatomic")
  set(FATOMIC_PC_REQUIRES "Requires.private: SPIRV-Tools")
else()
  # The C++ runtime, as fatomic::spirv adds it for a C consumer.
  # Names as -l, full paths (a toolchain that links libstdc++.a by path) as
  # they are.
  set(_fatomic_rt "")
  foreach(_lib IN LISTS FATOMIC_CXX_RUNTIME_LIBS)
    if(IS_ABSOLUTE "${_lib}")
      list(APPEND _fatomic_rt "${_lib}")
    else()
      list(APPEND _fatomic_rt "-l${_lib}")
    endif()
  endforeach()
  list(JOIN _fatomic_rt " " _fatomic_rt)
  set(FATOMIC_PC_LIBS "-lfatomic_spirv -lfatomic_core ${_fatomic_rt}")
  set(FATOMIC_PC_REQUIRES "Requires: SPIRV-Tools")
endif()
configure_file(cmake/fatomic.pc.in ${PROJECT_BINARY_DIR}/fatomic.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/fatomic.pc
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

install(FILES docs/fatomic-opt.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
