# Settings shared by every target of ours (and only ours: third-party headers keep their warnings).
function(lcg_target_defaults target)
  target_compile_features(${target} PUBLIC cxx_std_20)
  set_target_properties(${target} PROPERTIES CXX_EXTENSIONS OFF)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Wconversion
                                           -Wno-sign-conversion)
  # GCC 12 reports impossible overlaps in std::string concatenation at -O2 (GCC bug 105329).
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    target_compile_options(${target} PRIVATE -Wno-restrict)
  endif()
  if(LCG_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
  if(LCG_SANITIZE)
    # Any report fails the run: UBSan does not recover, ASan (with LeakSanitizer) exits non-zero.
    target_compile_options(${target} PUBLIC -fsanitize=address,undefined -fno-sanitize-recover=all
                                            -fno-omit-frame-pointer)
    target_link_options(${target} PUBLIC -fsanitize=address,undefined)
  endif()
endfunction()

# Turns text files into a C++ source defining `std::span<const embedded_file> NAMESPACE::FUNCTION()`,
# so the binary carries its migrations and content and needs no data directory at run time.
function(lcg_embed_files output namespace function)
  set(files ${ARGN})
  add_custom_command(
    OUTPUT ${output}
    COMMAND ${CMAKE_COMMAND} -DOUTPUT=${output} -DNAMESPACE=${namespace} -DFUNCTION=${function}
            "-DFILES=${files}" -P ${PROJECT_SOURCE_DIR}/cmake/embed.cmake
    DEPENDS ${files} ${PROJECT_SOURCE_DIR}/cmake/embed.cmake
    COMMENT "Embedding ${function}"
    VERBATIM)
endfunction()

# The ctest tests of a doctest binary. With LCG_TEST_CASES_APART (the default), each case is a test
# of its own, run in a process of its own: ctest names what failed and runs one case alone. Without
# it, the binary is one test that runs every case in one process. The sanitizer pass (deploy/test)
# takes that: a process of the HTTP or MCP tests builds their fixture snapshot first, about a
# second under AddressSanitizer, which a process per case paid 241 times over. The integration
# tests stay apart in both (tests/integration/CMakeLists.txt): each case has its own database and
# server, and two at a time is what keeps their pass short.
function(lcg_doctests target)
  cmake_parse_arguments(arg "" "" "LABELS" ${ARGN})
  if(LCG_TEST_CASES_APART)
    if(arg_LABELS)
      doctest_discover_tests(${target} PROPERTIES LABELS "${arg_LABELS}")
    else()
      doctest_discover_tests(${target})
    endif()
  else()
    add_test(NAME ${target} COMMAND ${target})
    if(arg_LABELS)
      set_tests_properties(${target} PROPERTIES LABELS "${arg_LABELS}")
    endif()
  endif()
endfunction()
