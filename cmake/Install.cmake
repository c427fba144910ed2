# Installation and find_package(hwsched) support.

include(CMakePackageConfigHelpers)

# Every static library under lib/ is part of the package: the op library
# links the analysis and cost-model layers publicly, so all must be exported.
function(hwsched_collect_libraries dir out)
  get_property(targets DIRECTORY ${dir} PROPERTY BUILDSYSTEM_TARGETS)
  get_property(subdirs DIRECTORY ${dir} PROPERTY SUBDIRECTORIES)
  set(libs)
  foreach(t IN LISTS targets)
    get_target_property(type ${t} TYPE)
    if(type STREQUAL "STATIC_LIBRARY" AND NOT t MATCHES "^obj\\.")
      list(APPEND libs ${t})
    endif()
  endforeach()
  foreach(sub IN LISTS subdirs)
    hwsched_collect_libraries(${sub} sublibs)
    list(APPEND libs ${sublibs})
  endforeach()
  set(${out} ${libs} PARENT_SCOPE)
endfunction()
hwsched_collect_libraries(${PROJECT_SOURCE_DIR}/lib HWSCHED_LIBRARIES)

foreach(lib IN LISTS HWSCHED_LIBRARIES)
  target_include_directories(${lib} INTERFACE
    $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
    $<BUILD_INTERFACE:${PROJECT_BINARY_DIR}/include>
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
endforeach()
install(TARGETS ${HWSCHED_LIBRARIES} EXPORT hwschedTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(EXPORT hwschedTargets NAMESPACE hwsched::
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/hwsched)

install(DIRECTORY include/hwsched ${PROJECT_BINARY_DIR}/include/hwsched
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        FILES_MATCHING PATTERN "*.h" PATTERN "*.inc" PATTERN "*.td")
install(DIRECTORY hw-specs/ DESTINATION ${HWSCHED_SPEC_INSTALL_RELDIR}
        FILES_MATCHING PATTERN "*.json" PATTERN "*.md")
install(DIRECTORY transform-scripts/ DESTINATION ${HWSCHED_SCRIPT_INSTALL_RELDIR})

configure_package_config_file(cmake/hwschedConfig.cmake.in
  ${PROJECT_BINARY_DIR}/hwschedConfig.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/hwsched
  PATH_VARS CMAKE_INSTALL_INCLUDEDIR HWSCHED_SPEC_INSTALL_RELDIR
            HWSCHED_SCRIPT_INSTALL_RELDIR)
install(FILES ${PROJECT_BINARY_DIR}/hwschedConfig.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/hwsched)
# The license travels with the binaries and headers.
install(FILES LICENSE DESTINATION ${CMAKE_INSTALL_DOCDIR})
